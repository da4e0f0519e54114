"""Worker processes fed straight from the event loop, one task each at a time.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: its manager and
feeder threads contend with the event loop for the GIL on every task.  Under
a load of small requests that cost the server about 0.2 ms of CPU per request
(measured: docs/service.md).  Here each worker is a ``spawn``-started process
with two pipes, tasks in and answers out; the event loop writes and reads
them as asyncio pipe transports, so nothing blocks the loop and no thread
sits in between.  A message is a pickle behind its length (8 bytes, big-endian).

Tasks wait in two FIFO queues, ``urgent`` (single requests) before the
others (job chunks), so a job never delays a request by more than the
chunks already being solved.  A worker that dies fails its task with
:class:`WorkerDied` and is replaced.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import signal
import struct
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

Task = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]
_LENGTH = struct.Struct("!Q")
#: Seconds a worker has to exit after SIGTERM when the pool closes, before SIGKILL.
STOP_GRACE = 1.5


class WorkerDied(Exception):
    """The worker solving a task exited (killed, out of memory, stopped)."""


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    tasks: asyncio.WriteTransport | None = None
    answers: asyncio.ReadTransport | None = None
    task: asyncio.Future[Any] | None = field(default=None)


class _Answers(asyncio.Protocol):
    """Reads a worker's answers: length-prefixed pickles, handed to the pool whole."""

    def __init__(self, pool: Pool, worker: _Worker) -> None:
        self.pool, self.worker = pool, worker
        self.buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= _LENGTH.size:
            (size,) = _LENGTH.unpack_from(self.buffer)
            end = _LENGTH.size + size
            if len(self.buffer) < end:
                return
            message = bytes(self.buffer[_LENGTH.size : end])
            del self.buffer[:end]
            self.pool._answered(self.worker, pickle.loads(message))

    def connection_lost(self, exc: Exception | None) -> None:
        self.pool._lost(self.worker)


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
        self._respawning: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start the workers (in the running event loop, which reads their answers)."""
        for _ in range(self.size):
            await self._spawn()

    async def _spawn(self) -> None:
        task_reader, task_writer = self._context.Pipe(duplex=False)
        answer_reader, answer_writer = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=_serve,
            args=(task_reader, answer_writer, self._initializer, self._initargs),
            daemon=True,
            name="cp-sudoku-worker",
        )
        process.start()
        task_reader.close()
        answer_writer.close()
        worker = _Worker(process)
        self._workers.append(worker)
        loop = asyncio.get_running_loop()
        worker.tasks, _ = await loop.connect_write_pipe(asyncio.Protocol, _file(task_writer, "wb"))
        worker.answers, _ = await loop.connect_read_pipe(
            lambda: _Answers(self, worker), _file(answer_reader, "rb")
        )
        self._feed()

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
            if worker.task is not None or worker.tasks is None or worker.answers is None:
                continue
            task = self._next()
            if task is None:
                return
            function, args, future = task
            try:
                message = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # an argument that does not pickle: the caller's fault
                future.set_exception(error)
                continue
            worker.tasks.write(_LENGTH.pack(len(message)) + message)
            worker.task = future

    def _answered(self, worker: _Worker, answer: tuple[bool, Any]) -> None:
        future, worker.task = worker.task, None
        ok, value = answer
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._feed()

    def _lost(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        if worker.tasks is not None:
            worker.tasks.close()
        worker.process.join(1)
        if worker.task is not None and not worker.task.done():
            worker.task.set_exception(WorkerDied(f"worker exit code {worker.process.exitcode}"))
        if not self._closed:
            respawn = asyncio.get_running_loop().create_task(self._spawn())
            self._respawning.add(respawn)
            respawn.add_done_callback(self._respawning.discard)

    async def close(self, grace: float = STOP_GRACE) -> None:
        """Stop every worker now; tasks not finished fail with :class:`WorkerDied`.

        Each worker gets SIGTERM; one still alive ``grace`` seconds later (held
        in native code that does not return to Python) gets SIGKILL.
        """
        self._closed = True
        loop = asyncio.get_running_loop()
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.process.terminate()
        deadline = loop.time() + grace
        for worker in workers:
            left = max(deadline - loop.time(), 0.0)
            await loop.run_in_executor(None, worker.process.join, left)
            if worker.process.is_alive():
                worker.process.kill()
                await loop.run_in_executor(None, worker.process.join, grace)
            for transport in (worker.tasks, worker.answers):
                if transport is not None:
                    transport.close()
            if worker.task is not None and not worker.task.done():
                worker.task.set_exception(WorkerDied("the pool was closed"))
        for _, _, future in (*self._urgent, *self._others):
            if not future.done():
                future.set_exception(WorkerDied("the pool was closed"))


def _file(connection: Connection, mode: str) -> Any:
    """The pipe end of ``connection`` as an unbuffered file object (the connection let go)."""
    handle = os.dup(connection.fileno())
    connection.close()
    return os.fdopen(handle, mode, buffering=0)


def _serve(
    tasks: Connection,
    answers: Connection,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    """A worker's loop: run each task received, send back (True, answer) or (False, error)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    initializer(*initargs)
    read, write = tasks.fileno(), answers.fileno()
    while True:
        head = _read_exactly(read, _LENGTH.size)
        if head is None:
            return
        message = _read_exactly(read, _LENGTH.unpack(head)[0])
        if message is None:
            return
        function, args = pickle.loads(message)
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as error:
            answer = (False, error)
        try:
            reply = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer or an error that does not pickle
            reply = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
        _write_all(write, _LENGTH.pack(len(reply)) + reply)


def _read_exactly(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``, or None at the end of the pipe."""
    parts = []
    while size:
        part = os.read(fd, min(size, 1 << 20))
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
