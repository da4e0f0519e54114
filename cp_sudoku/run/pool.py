"""Where the solve loop's work runs: a thread of this process, or a pool of processes.

An executor takes chunks of entries and gives back, for each chunk, a
future of the work's values in the same order.  :class:`InProcess` runs them
on one daemon thread, so the calling thread stays free to take a Ctrl-C at
once (a C solver holds the thread that runs it until its call returns).
:class:`ProcessPool` runs them in ``jobs`` processes started with ``spawn``;
each builds its back ends once.  Workers ignore SIGINT (a Ctrl-C on a
terminal reaches the whole process group): the loop ends them instead.

Other executors (a cluster, for instance) implement :class:`Executor`.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from cp_sudoku.backends import Backend
from cp_sudoku.io.entry import Entry
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.work import Work

#: Entries sent to a worker process at a time.
CHUNK = 4
#: The name of :class:`InProcess`'s thread.
SOLVE_THREAD = "cp-sudoku-solve"


class Executor(Protocol):
    """Runs chunks of entries through a work function, somewhere.

    ``chunk`` entries go in one submission and at most ``window`` submissions
    are in flight, so memory stays flat however long the input is.
    """

    chunk: int
    window: int

    def start(self, work: Work[Any], plan: Plan) -> None:
        """Get ready to run ``work`` with back ends built from ``plan``.

        Raises:
            UsageError: the plan names an unknown back end or a bad option.
        """

    def submit(self, entries: Sequence[Entry]) -> Future[list[Any]]:
        """The work's values for ``entries`` (each with a puzzle), in order, as a future."""

    def stop(self, *, interrupted: bool) -> None:
        """Release the workers; ``interrupted``: end them now, dropping what is in flight."""


class InProcess:
    """Runs the work on one daemon thread of this process, :attr:`chunk` entries at a time.

    Entries go to the thread in chunks of 64, two chunks in flight, so that the
    hand-off between the threads (a queue, a future, two wake-ups) is paid per
    chunk rather than per puzzle: one entry at a time it cost about a fifth of
    ``check --backend sat``'s CPU time (docs/performance.md).

    ``backends``: back ends already built to run with (kept open at the end);
    by default they are built from the plan, and closed at the end.

    On an interrupt the solve in progress is abandoned: its thread is a
    daemon and ends with the process (no back end can be stopped mid-call
    from outside).
    """

    chunk = 64
    window = 2

    def __init__(self, backends: Sequence[Backend] | None = None) -> None:
        self._given = backends
        self._tasks: queue.SimpleQueue[tuple[Future[list[Any]], Sequence[Entry]] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None

    def start(self, work: Work[Any], plan: Plan) -> None:
        """Build the back ends here (a bad plan fails at once) and start the thread."""
        backends = plan.build() if self._given is None else self._given
        self._thread = threading.Thread(
            target=self._serve,
            args=(work, backends, plan, self._given is None),
            name=SOLVE_THREAD,
            daemon=True,
        )
        self._thread.start()

    def _serve(self, work: Work[Any], backends: Sequence[Backend], plan: Plan, owned: bool) -> None:
        while (task := self._tasks.get()) is not None:
            future, entries = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result([work(entry, backends, plan) for entry in entries])
            except BaseException as error:  # handed to the caller through the future
                future.set_exception(error)
        for backend in backends if owned else ():
            backend.close()

    def submit(self, entries: Sequence[Entry]) -> Future[list[Any]]:
        """Queue ``entries`` for the thread."""
        future: Future[list[Any]] = Future()
        self._tasks.put((future, entries))
        return future

    def stop(self, *, interrupted: bool) -> None:
        """Let the thread finish its queue and close its back ends (not waited for)."""
        self._tasks.put(None)


class ProcessPool:
    """Runs the work in ``jobs`` worker processes (``spawn``), :data:`CHUNK` entries at a time."""

    def __init__(self, jobs: int, chunk: int = CHUNK) -> None:
        self.jobs = jobs
        self.chunk = chunk
        self.window = 4 * jobs
        self._pool: ProcessPoolExecutor | None = None

    def start(self, work: Work[Any], plan: Plan) -> None:
        """Check the plan here, once, then start the pool (its processes start on demand)."""
        for backend in plan.build():
            backend.close()
        self._pool = ProcessPoolExecutor(
            self.jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(work, plan, os.getpid()),
        )

    def submit(self, entries: Sequence[Entry]) -> Future[list[Any]]:
        """Send ``entries`` to a worker (a worker process may start here)."""
        assert self._pool is not None, "start() first"
        with _sigint_blocked():  # a process started now inherits SIGINT blocked
            return self._pool.submit(_run_chunk, list(entries))

    def stop(self, *, interrupted: bool) -> None:
        """Shut the pool down; when ``interrupted``, kill every worker first (they hold
        nothing worth saving) and drop the work in flight."""
        if self._pool is None:
            return
        if interrupted:
            # ProcessPoolExecutor has no public way to end its workers before Python 3.14.
            processes = list(getattr(self._pool, "_processes", {}).values())
            for process in processes:
                process.kill()
            for process in processes:
                process.join()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None
        if interrupted:  # free the pool's semaphores now: the process may end with os._exit
            gc.collect()


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this thread (delivered when the block ends)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass(frozen=True)
class Workers:
    """How many workers a run gets, and why fewer than asked (``note``, or None)."""

    count: int
    note: str | None = None


def cores() -> int:
    """The cores this process may run on (``os.sched_getaffinity``; ``os.cpu_count`` elsewhere)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers(requested: int, puzzles: int | None) -> Workers:
    """``requested`` capped at the cores available and at ``puzzles`` (None: not known)."""
    available = cores()
    if puzzles is not None and puzzles < min(requested, available):
        noun = "puzzle" if puzzles == 1 else "puzzles"
        return Workers(max(puzzles, 1), f"--jobs {requested} capped at {puzzles} {noun}")
    if requested > available:
        return Workers(available, f"--jobs {requested} capped at the {available} cores available")
    return Workers(requested)


# --- In a worker process ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def exit_with_parent(parent: int, every: float = 1.0) -> None:
    """In a worker process: end it once the process ``parent`` is gone (a parent killed
    with SIGKILL cannot end its workers).  A daemon thread looks every ``every`` seconds."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="cp-sudoku-orphan-watch").start()


def _start_worker(work: Work[Any], plan: Plan, parent: int) -> None:
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending one is dropped
    _WORKER.update(work=work, plan=plan, backends=plan.build())


def _run_chunk(entries: Sequence[Entry]) -> list[Any]:
    work: Work[Any] = _WORKER["work"]
    return [work(entry, _WORKER["backends"], _WORKER["plan"]) for entry in entries]
