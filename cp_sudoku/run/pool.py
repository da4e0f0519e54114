"""Where chunks of work run: a thread of this process, or a pool of processes.

Every executor has one protocol, :class:`Executor`: ``submit(fn, arg)``
gives a ``concurrent.futures.Future`` of ``fn(arg)``, ``reports`` the
progress its workers reported since the last call
(:mod:`cp_sudoku.run.progress`), and ``stop`` releases the workers.  The run
core (:mod:`cp_sudoku.run.loop`) submits chunks
(:func:`cp_sudoku.run.chunks.run_chunk`) to it.  :class:`InProcess` runs them on
one daemon thread, so the calling thread stays free to take a Ctrl-C at once
(a C solver holds the thread that runs it until its call returns).
:class:`ProcessPool` runs them in ``jobs`` processes started with ``spawn``.
Workers ignore SIGINT (a Ctrl-C on a terminal reaches the whole process
group): the loop ends them instead.  A Dask cluster is the third
(:class:`cp_sudoku.run.cluster.Dask`).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import multiprocessing.queues
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from cp_sudoku.run.progress import Report, listen

A = TypeVar("A")
R = TypeVar("R")
#: The name of :class:`InProcess`'s thread.
SOLVE_THREAD = "cp-sudoku-solve"
#: Seconds an interrupted :class:`ProcessPool` waits for its manager thread to end.
MANAGER_GRACE = 1.0


class Executor(Protocol):
    """Runs ``fn(arg)`` somewhere, ``workers`` at a time."""

    workers: int

    def submit(self, fn: Callable[[A], R], arg: A) -> Future[R]:
        """A future of ``fn(arg)`` (``fn`` module-level and ``arg`` picklable, for processes)."""
        ...

    def reports(self) -> list[Report]:
        """The progress reports of chunks in flight that arrived since the last call
        (never waits)."""
        ...

    def stop(self, *, interrupted: bool) -> None:
        """Release the workers; ``interrupted``: end them now, dropping what is in flight."""
        ...


def drained(
    source: queue.SimpleQueue[Report] | multiprocessing.queues.Queue[Report],
) -> list[Report]:
    """What ``source`` holds now, taken out without waiting."""
    found: list[Report] = []
    with contextlib.suppress(queue.Empty):
        while True:
            found.append(source.get_nowait())
    return found


class InProcess:
    """Runs each task on one daemon thread of this process, in the order submitted.

    On an interrupt the task in progress is abandoned: its thread is a
    daemon and ends with the process (no back end can be stopped mid-call
    from outside).
    """

    workers = 1

    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[tuple[Future[Any], Callable[[Any], Any], Any] | None] = (
            queue.SimpleQueue()
        )
        self._reports: queue.SimpleQueue[Report] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=SOLVE_THREAD, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        listen(self._reports.put)
        while (task := self._tasks.get()) is not None:
            future, fn, arg = task
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(arg))
            except BaseException as error:  # handed to the caller through the future
                future.set_exception(error)

    def submit(self, fn: Callable[[A], R], arg: A) -> Future[R]:
        """Queue ``fn(arg)`` for the thread."""
        future: Future[R] = Future()
        self._tasks.put((future, fn, arg))
        return future

    def reports(self) -> list[Report]:
        """The thread's progress reports since the last call."""
        return drained(self._reports)

    def stop(self, *, interrupted: bool) -> None:
        """Let the thread finish its queue and end (not waited for)."""
        self._tasks.put(None)


class ProcessPool:
    """Runs tasks in ``jobs`` worker processes (``spawn``), which end with this process."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        context = multiprocessing.get_context("spawn")
        self._reports: multiprocessing.queues.Queue[Report] = context.Queue()
        self._pool: ProcessPoolExecutor | None = ProcessPoolExecutor(
            jobs,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), self._reports),
        )

    def submit(self, fn: Callable[[A], R], arg: A) -> Future[R]:
        """Send ``fn(arg)`` to a worker (a worker process may start here)."""
        assert self._pool is not None, "stopped"
        with sigint_blocked():  # a process started now inherits SIGINT blocked
            return self._pool.submit(fn, arg)

    def reports(self) -> list[Report]:
        """The workers' progress reports since the last call (a worker puts them on a
        multiprocessing queue handed to it when it started)."""
        return drained(self._reports)

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
            # A worker killed while it wrote a result leaves part of a message in the result
            # pipe, and the pool's manager thread waits in ``recv`` for the rest; the parent's
            # own write end keeps that pipe open, so shutdown would wait forever.  Closing it
            # gives the reader end-of-file, the pool counts itself broken and ends.
            writer = getattr(getattr(self._pool, "_result_queue", None), "_writer", None)
            if writer is not None:
                writer.close()
        manager = getattr(self._pool, "_executor_manager_thread", None)
        self._pool.shutdown(wait=not interrupted, cancel_futures=True)
        if interrupted and manager is not None:
            # A Ctrl-C raised in this thread while it held a future's lock (inside ``wait``)
            # leaves that lock taken; the pool's manager thread then blocks on it when it fails
            # the future, so it is given a moment, not waited for (the CLI ends with os._exit).
            manager.join(MANAGER_GRACE)
        self._pool = None
        if interrupted:  # free the pool's semaphores now: the process may end with os._exit
            gc.collect()


@contextmanager
def sigint_blocked() -> Iterator[None]:
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


def exit_with_parent(parent: int, every: float = 0.2) -> None:
    """In a worker process: end it once the process ``parent`` is gone (a parent killed
    with SIGKILL cannot end its workers).  A daemon thread looks every ``every`` seconds."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="cp-sudoku-orphan-watch").start()


def _start_worker(parent: int, reports: multiprocessing.queues.Queue[Report]) -> None:
    exit_with_parent(parent)
    reports.cancel_join_thread()  # a worker's exit never waits for reports nobody will read
    listen(reports.put)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a pending one is dropped
