"""Worker processes fed straight from the event loop, one task each at a time.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: its manager and
feeder threads contend with the event loop for the GIL on every task.  Under
a load of small requests that cost the server about 0.3 ms of CPU per request
(measured: docs/service.md), more than the HTTP handling.  Here each worker
is a ``spawn``-started process with one duplex pipe; the loop writes a task
to an idle worker and reads the answer when the pipe is readable
(:meth:`asyncio.AbstractEventLoop.add_reader`), with no thread in between.

Tasks wait in two FIFO queues, ``urgent`` (single requests) before the
others (job chunks), so a job never delays a request by more than the
chunks already being solved.  A worker that dies fails its task with
:class:`WorkerDied` and is replaced.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

Task = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class WorkerDied(Exception):
    """The worker solving a task exited (killed, out of memory, stopped)."""


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: asyncio.Future[Any] | None = field(default=None)


class Pool:
    """``size`` worker processes, each started with ``initializer(*initargs)``."""

    def __init__(
        self, size: int, initializer: Callable[..., None], initargs: tuple[Any, ...] = ()
    ) -> None:
        self.size = size
        self._initializer = initializer
        self._initargs = initargs
        self._context = multiprocessing.get_context("spawn")
        self._urgent: deque[Task] = deque()
        self._others: deque[Task] = deque()
        self._workers: list[_Worker] = []
        self._closed = False

    def start(self) -> None:
        """Start the workers (in the running event loop, which reads their answers)."""
        self._workers = [self._spawn() for _ in range(self.size)]

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve,
            args=(theirs, self._initializer, self._initargs),
            daemon=True,
            name="cp-sudoku-worker",
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable, worker)
        return worker

    def submit(
        self, function: Callable[..., Any], args: tuple[Any, ...], *, urgent: bool = False
    ) -> asyncio.Future[Any]:
        """``function(*args)`` in a worker; the future holds its answer or its exception.

        Cancelling the future drops the task if it has not started (a started
        task runs to its end and its answer is dropped).
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self._closed:
            future.set_exception(WorkerDied("the pool is closed"))
            return future
        (self._urgent if urgent else self._others).append((function, args, future))
        self._feed()
        return future

    def _next(self) -> Task | None:
        for queue in (self._urgent, self._others):
            while queue:
                task = queue.popleft()
                if not task[2].done():
                    return task
        return None

    def _feed(self) -> None:
        for worker in self._workers:
            if worker.task is not None:
                continue
            task = self._next()
            if task is None:
                return
            function, args, future = task
            try:
                worker.conn.send((function, args))
            except Exception as error:  # an argument that does not pickle: the caller's fault
                future.set_exception(error)
                continue
            worker.task = future

    def _readable(self, worker: _Worker) -> None:
        try:
            ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker)
            return
        future, worker.task = worker.task, None
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._feed()

    def _lost(self, worker: _Worker) -> None:
        asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.process.join(1)
        if worker.task is not None and not worker.task.done():
            worker.task.set_exception(WorkerDied(f"worker exit code {worker.process.exitcode}"))
        self._workers.remove(worker)
        if not self._closed:
            self._workers.append(self._spawn())
            self._feed()

    async def close(self) -> None:
        """Stop every worker now; tasks not finished fail with :class:`WorkerDied`."""
        self._closed = True
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            loop.remove_reader(worker.conn.fileno())
            worker.process.terminate()
        for worker in self._workers:
            await loop.run_in_executor(None, worker.process.join, 5)
            worker.conn.close()
            if worker.task is not None and not worker.task.done():
                worker.task.set_exception(WorkerDied("the pool was closed"))
        for _, _, future in (*self._urgent, *self._others):
            if not future.done():
                future.set_exception(WorkerDied("the pool was closed"))
        self._workers = []


def _serve(conn: Connection, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's loop: run each task received, send back (True, answer) or (False, error)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    initializer(*initargs)
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as error:
            answer = (False, error)
        try:
            conn.send(answer)
        except Exception as error:  # an answer or an error that does not pickle
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))
