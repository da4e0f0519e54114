"""The job store: SQLite (the standard library's ``sqlite3``), one file chosen by the operator.

Tables:

- ``jobs``: one row per job: its random id, ``state`` (``queued``,
  ``running``, ``done``, ``failed``, ``cancelled``), the check options (JSON),
  the input text, ``total`` puzzles, ``done`` puzzles, counts by status
  (JSON), the seconds spent running, timestamps (Unix seconds), the error
  of a failed job, and its ``owner`` (:mod:`cp_sudoku.service.access`: the
  hash of the token that made it, ``''`` without tokens).
- ``files``: files to download by a random id (a certificate's CNF and proof),
  with their owner.

A job or a file is found only by a request of its owner: to anyone else it
does not exist.
- ``results``: one row per finished puzzle: (job, index) -> status and the
  JSON line of ``check --json``.  Index 0 is the first puzzle of the input.

Results are written as they are produced, a chunk per transaction that also
advances ``jobs.done``, and only ever as the next indexes after ``done``: so
the stored results are always the first ``done`` puzzles, whatever moment a
kill strikes, and the primary key refuses a duplicate.  The database runs
in WAL mode with ``synchronous=NORMAL``: a committed chunk survives the
process being killed (not a power cut, which may lose the last chunks; they
are then solved again, never duplicated).

Each thread uses its own connection (``sqlite3`` connections stay in their
thread); the web app's event loop and the threads that stream results both
read while the job runner writes, which WAL allows.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATES = ("queued", "running", "done", "failed", "cancelled")
#: Results read per query while streaming a job's results.
PAGE = 1000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    name TEXT NOT NULL,
    options TEXT NOT NULL,
    input TEXT NOT NULL,
    total INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    counts TEXT NOT NULL DEFAULT '{}',
    run_seconds REAL NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    finished REAL,
    error TEXT,
    owner TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, created);
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    media TEXT NOT NULL,
    content TEXT NOT NULL,
    created REAL NOT NULL,
    owner TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS results (
    job TEXT NOT NULL,
    idx INTEGER NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (job, idx)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Job:
    """A job as stored, without its input text.

    ``rate`` is puzzles per second of running time; ``eta_seconds`` the time
    left at that rate (None while unknown or when finished).
    """

    id: str
    state: str
    name: str
    options: dict[str, Any]
    total: int
    done: int
    counts: dict[str, int]
    run_seconds: float
    created: float
    finished: float | None
    error: str | None

    @property
    def rate(self) -> float | None:
        """Puzzles per second of running time, or None before the first result."""
        return self.done / self.run_seconds if self.run_seconds > 0 and self.done else None

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at :attr:`rate` for a queued or running job, else None."""
        if self.state not in ("queued", "running") or not self.rate:
            return None
        return (self.total - self.done) / self.rate

    def public(self) -> dict[str, Any]:
        """The JSON object ``GET /v1/jobs/{id}`` answers."""
        return {
            "id": self.id,
            "state": self.state,
            "name": self.name,
            "done": self.done,
            "total": self.total,
            "rate": None if self.rate is None else round(self.rate, 3),
            "eta_seconds": None if self.eta_seconds is None else round(self.eta_seconds, 3),
            "counts": self.counts,
            "options": self.options,
            "created": self.created,
            "finished": self.finished,
            "error": self.error,
        }


class Conflict(Exception):
    """A write that does not follow the stored state (results out of order, a finished job)."""


class Store:
    """The SQLite job store at ``path`` (created when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        with self._connection() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            for table in ("jobs", "files"):  # a store made before owners were kept
                columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                if "owner" not in columns:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN owner TEXT NOT NULL DEFAULT ''")

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.execute("PRAGMA synchronous=NORMAL")
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    def close(self) -> None:
        """Close this thread's connection."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # --- Jobs --------------------------------------------------------------------------------

    def create(
        self, name: str, options: dict[str, Any], text: str, total: int, owner: str = ""
    ) -> str:
        """Store a new queued job of ``owner`` and return its id (random, 16 bytes, URL-safe)."""
        job_id = secrets.token_urlsafe(16)
        self._connection().execute(
            "INSERT INTO jobs (id, state, name, options, input, total, created, owner)"
            " VALUES (?, 'queued', ?, ?, ?, ?, ?, ?)",
            (job_id, name, json.dumps(options), text, total, time.time(), owner),
        )
        return job_id

    def get(self, job_id: str, owner: str | None = None) -> Job | None:
        """The job, or None when no job has this id (of ``owner``; None: of anyone)."""
        row = (
            self._connection()
            .execute(f"SELECT {_JOB_COLUMNS}, owner FROM jobs WHERE id = ?", (job_id,))
            .fetchone()
        )
        if row is None or (owner is not None and row["owner"] != owner):
            return None
        return _job(row)

    def jobs(self, owner: str = "", limit: int = 100) -> list[Job]:
        """The latest ``limit`` jobs of ``owner``, newest first."""
        rows = self._connection().execute(
            f"SELECT {_JOB_COLUMNS} FROM jobs WHERE owner = ? ORDER BY created DESC LIMIT ?",
            (owner, limit),
        )
        return [_job(row) for row in rows]

    def waiting(self) -> int:
        """How many jobs are queued or running."""
        row = (
            self._connection()
            .execute("SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')")
            .fetchone()
        )
        return int(row[0])

    def next_queued(self) -> str | None:
        """The id of the oldest queued job, or None."""
        row = (
            self._connection()
            .execute("SELECT id FROM jobs WHERE state = 'queued' ORDER BY created LIMIT 1")
            .fetchone()
        )
        return None if row is None else str(row[0])

    def input_text(self, job_id: str) -> str:
        """The job's input text."""
        row = (
            self._connection().execute("SELECT input FROM jobs WHERE id = ?", (job_id,)).fetchone()
        )
        return str(row[0])

    def requeue_running(self) -> int:
        """Put jobs left ``running`` (the server stopped mid-job) back in the queue; their
        stored results stay and the job resumes after them.  Returns how many."""
        return (
            self._connection()
            .execute("UPDATE jobs SET state = 'queued' WHERE state = 'running'")
            .rowcount
        )

    def set_state(self, job_id: str, state: str, error: str | None = None) -> bool:
        """Move an unfinished job to ``state``; False when it was already finished."""
        finished = time.time() if state in ("done", "failed", "cancelled") else None
        return (
            self._connection()
            .execute(
                "UPDATE jobs SET state = ?, error = ?, finished = ?"
                " WHERE id = ? AND state IN ('queued', 'running')",
                (state, error, finished, job_id),
            )
            .rowcount
            == 1
        )

    def finish(self, job_id: str, done: int) -> None:
        """Mark a running job ``done`` with ``done`` puzzles (its total, once all are read)."""
        self._connection().execute(
            "UPDATE jobs SET state = 'done', total = ?, finished = ?"
            " WHERE id = ? AND state = 'running'",
            (done, time.time(), job_id),
        )

    # --- Files --------------------------------------------------------------------------

    def add_file(self, name: str, media: str, content: str, owner: str = "") -> str:
        """Keep a file of ``owner`` to download; its random id."""
        file_id = secrets.token_urlsafe(16)
        self._connection().execute(
            "INSERT INTO files (id, name, media, content, created, owner)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (file_id, name, media, content, time.time(), owner),
        )
        return file_id

    def file(self, file_id: str, owner: str = "") -> tuple[str, str, str] | None:
        """(name, media type, content) of a kept file of ``owner``, or None."""
        row = (
            self._connection()
            .execute(
                "SELECT name, media, content FROM files WHERE id = ? AND owner = ?",
                (file_id, owner),
            )
            .fetchone()
        )
        return None if row is None else (row["name"], row["media"], row["content"])

    # --- Results -----------------------------------------------------------------------------

    def add_results(
        self,
        job_id: str,
        start: int,
        lines: Sequence[tuple[str, str]],
        seconds: float,
        counts: Mapping[str, int],
    ) -> None:
        """Store (status, JSON line) for puzzles ``start``, ``start + 1``, ... of a running job.

        One transaction: the results, ``done``, the job's ``counts`` by status so far (its
        run :class:`~cp_sudoku.run.summary.Summary` counts them) and the running time.

        Raises:
            Conflict: the job is not running, or ``start`` is not its ``done``
                (the results would leave a gap or repeat).
        """
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT state, done FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None or row["state"] != "running" or row["done"] != start:
                raise Conflict(f"job {job_id}: results from {start} do not follow the stored ones")
            db.executemany(
                "INSERT INTO results (job, idx, status, record) VALUES (?, ?, ?, ?)",
                [(job_id, start + i, status, line) for i, (status, line) in enumerate(lines)],
            )
            db.execute(
                "UPDATE jobs SET done = ?, counts = ?, run_seconds = run_seconds + ? WHERE id = ?",
                (start + len(lines), json.dumps(dict(counts)), seconds, job_id),
            )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def results(self, job_id: str, start: int = 0, count: int | None = None) -> Iterator[str]:
        """The job's JSON lines from index ``start`` (``count`` of them at most, None: all),
        in input order, read :data:`PAGE` at a time."""
        db = self._connection()
        left = count
        while left is None or left > 0:
            page = PAGE if left is None else min(PAGE, left)
            rows = db.execute(
                "SELECT idx, record FROM results WHERE job = ? AND idx >= ? ORDER BY idx LIMIT ?",
                (job_id, start, page),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield row["record"]
            start = rows[-1]["idx"] + 1
            if left is not None:
                left -= len(rows)


_JOB_COLUMNS = (
    "id, state, name, options, total, done, counts, run_seconds, created, finished, error"
)


def _job(row: sqlite3.Row) -> Job:
    return Job(
        id=row["id"],
        state=row["state"],
        name=row["name"],
        options=json.loads(row["options"]),
        total=row["total"],
        done=row["done"],
        counts=json.loads(row["counts"]),
        run_seconds=row["run_seconds"],
        created=row["created"],
        finished=row["finished"],
        error=row["error"],
    )
