"""Helpers of the service tests: a real server in a subprocess, the CLI's records to compare."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

from cp_sudoku.backends import backend_class
from cp_sudoku.cli import main as cli

PROJECT = Path(__file__).resolve().parent.parent
#: The Wikipedia "Sudoku" article's puzzle and its solution.
TUTORIAL = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TUTORIAL_SOLUTION = (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
#: Anti-hang bound for waiting on a server or a job, in seconds (not a timing test).
PATIENCE = 120


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(
    db: Path, workers: int = 1, *extra: str, token: str | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``cp-sudoku serve`` in a subprocess (its own session) on a free port; (base URL, process).

    ``token`` is passed in ``CP_SUDOKU_TOKEN``.  The whole session is killed on
    the way out, so no worker outlives the test.
    """
    port = free_port()
    command = [sys.executable, "-m", "cp_sudoku.service.command", "--port", str(port)]
    command += ["--workers", str(workers), "--db", str(db), *extra]
    env = os.environ | {"PYTHONPATH": str(PROJECT)}
    env.pop("CP_SUDOKU_TOKEN", None)
    if token is not None:
        env["CP_SUDOKU_TOKEN"] = token
    process = subprocess.Popen(
        command, cwd=db.parent, env=env, start_new_session=True, stderr=subprocess.PIPE
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, token)
        yield url, process
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the server's session (the server and its workers) and reap the server."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(PATIENCE)


def wait_healthy(url: str, process: subprocess.Popen[bytes], token: str | None = None) -> None:
    """Wait until ``/healthz`` answers; fail with the server's stderr if it exits."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {process.stderr.read().decode()}")  # type: ignore[union-attr]
        try:
            if httpx.get(f"{url}/healthz", headers=headers, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("the server did not start")


def wait_job(client: httpx.Client, job_id: str, until: Any = None) -> dict[str, Any]:
    """Poll a job until ``until(state)`` holds (default: it is over); its last state."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        state = client.get(f"/v1/jobs/{job_id}").json()
        if until(state) if until else state["state"] in ("done", "failed", "cancelled"):
            return state  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not get there: {state}")


def cli_records(text: str, *options: str) -> list[dict[str, Any]]:
    """The records ``cp-sudoku check - --json`` prints for ``text`` on stdin."""
    result = CliRunner().invoke(cli, ["check", "-", "--json", "--jobs", "1", *options], input=text)
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs between two runs: the source name, the times, and
    the counts that depend on what a solver served before (``history_statistics``)."""
    out = {key: value for key, value in record.items() if key != "source"}
    out["backends"] = {
        name: {
            key: value
            for key, value in result.items()
            if key != "seconds"
            and key not in getattr(backend_class(name), "history_statistics", ())
        }
        for name, result in record["backends"].items()
    }
    return out
