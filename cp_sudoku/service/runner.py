"""Running the solves: every one in a worker process, never on the event loop.

One :class:`~cp_sudoku.service.pool.Pool` of ``workers`` processes (each
builds the default back ends once) serves both:

- **single requests** (check, count, export, and counting a job's puzzles):
  at most ``workers + queue`` are admitted at a time; they wait their turn
  and go to the workers ahead of job chunks, several to a task under load.
  Past that :meth:`Runner.call` raises :class:`Busy` at once (the app
  answers 503 with ``Retry-After``), so nothing waits unbounded.
- **jobs**, one at a time, oldest first: the input is read in a thread (the
  readers are streaming generators), chunks of ``chunk`` puzzles go to the
  pool with at most ``2 * workers`` chunks in flight, so a single request
  waits behind a few chunks at most, and the results are stored in input
  order as each chunk comes back (:mod:`cp_sudoku.service.store`).  A job
  found ``running`` at start-up was stopped mid-way: it is queued again and
  resumes after its stored results.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from typing import Any

from cp_sudoku.run.pool import exit_with_parent
from cp_sudoku.run.summary import Summary
from cp_sudoku.service import solving
from cp_sudoku.service.pool import Pool, WorkerDied
from cp_sudoku.service.store import Store

log = logging.getLogger("cp_sudoku.service")
#: Single requests sent to a worker in one task, at most.
BATCH = 16
#: What a request still waiting when the server stops is told (503).
STOPPING = "the server is stopping; retry once it is back (a job resumes where it stopped)"
#: A waiting single request: the function, its arguments, and where its answer goes.
_Request = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[tuple[bool, Any]]"]


class Busy(Exception):
    """Every worker is busy and the waiting queue is full, or the server is stopping: try
    again later (503).  The message, when given, says which."""


class InputFailure(Exception):
    """A worker refused the client's input; ``fields`` is the located message
    (:func:`cp_sudoku.service.solving.error_fields`)."""

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields["error"])
        self.fields = fields


def _start_worker(parent: int) -> None:
    """In a new worker: exit when the server is gone (killed, so it could not stop us),
    then build the back ends."""
    exit_with_parent(parent)
    solving.warm_up()


def _guarded(function: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
    """In a worker: (True, the answer) or (False, the fields of a refused input)."""
    try:
        return True, function(*args)
    except solving.ClientError as error:
        return False, solving.error_fields(error)


def _guarded_each(calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
    """In a worker: :func:`_guarded` for each call of a batch, in order."""
    return [_guarded(function, *args) for function, args in calls]


def as_json(function: Callable[..., Any], *args: Any) -> bytes:
    """In a worker: ``function(*args)`` as JSON, so that the server only passes bytes on."""
    return json.dumps(function(*args)).encode()


class Runner:
    """The pool, the admission count of single requests, and the job loop."""

    def __init__(self, store: Store, workers: int, queue: int, chunk: int = 16) -> None:
        self.store = store
        self.workers = workers
        self.capacity = workers + queue
        self.chunk = chunk
        self.admitted = 0
        self._pool = Pool(workers, _start_worker, (os.getpid(),))
        self._wake = asyncio.Event()
        self._running: str | None = None  # the job being run, and whether to stop it
        self._stop = False
        self._task: asyncio.Task[None] | None = None
        self._waiting: deque[_Request] = deque()
        self._batches = 0

    async def start(self) -> None:
        """Requeue jobs a stop interrupted and start the job loop (in the running event loop)."""
        requeued = self.store.requeue_running()
        if requeued:
            log.info("resuming %d job(s) stopped mid-way", requeued)
        await self._pool.start()
        self._task = asyncio.get_running_loop().create_task(self._jobs())

    async def close(self) -> None:
        """Stop the job loop and the workers now, without waiting for the puzzles they hold.

        A running job stays ``running`` in the store and resumes after its
        stored results at the next start; requests in flight get 503.
        """
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._pool.close()

    # --- Single requests -------------------------------------------------------------------

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker, once admitted.

        Raises:
            Busy: ``workers + queue`` requests are already admitted, or the server stops
                before the answer comes.
            InputFailure: the worker refused the input (the located message).
        """
        if self.admitted >= self.capacity:
            raise Busy
        self.admitted += 1
        try:
            reply: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
            self._waiting.append((function, args, reply))
            self._dispatch()
            try:
                ok, answer = await reply
            except asyncio.CancelledError:
                # On SIGTERM uvicorn cancels the requests still in flight after its grace;
                # the cancellation would reach it as a traceback and a bare 500.
                raise Busy(STOPPING) from None
        finally:
            self.admitted -= 1
        if not ok:
            raise InputFailure(answer)
        return answer

    def _dispatch(self) -> None:
        """Send the waiting requests to the pool in batches, at most one batch per worker
        in flight: one request alone goes at once, and under load each task carries
        several, which spares the pool's per-task costs (pickling, pipes, threads)."""
        while self._waiting and self._batches < self.workers:
            batch: list[_Request] = []
            while self._waiting and len(batch) < BATCH:
                item = self._waiting.popleft()
                if not item[2].done():  # its client may have gone
                    batch.append(item)
            if not batch:
                return
            self._batches += 1
            calls = [(function, args) for function, args, _ in batch]
            work = asyncio.ensure_future(self._submit(_guarded_each, calls, urgent=True))
            work.add_done_callback(functools.partial(self._settle, batch))

    def _settle(self, batch: list[_Request], work: asyncio.Future[list[Any]]) -> None:
        self._batches -= 1
        failure = Busy() if work.cancelled() else work.exception()
        answers = [None] * len(batch) if failure else work.result()
        for (_, _, reply), answer in zip(batch, answers, strict=True):
            if reply.done():
                continue
            if failure:
                reply.set_exception(failure)
            else:
                reply.set_result(answer)
        self._dispatch()

    async def _submit(self, function: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        try:
            return await self._pool.submit(function, args, urgent=urgent)
        except WorkerDied:
            raise Busy from None

    # --- Jobs ------------------------------------------------------------------------------

    def wake(self) -> None:
        """A job was queued: let the job loop look."""
        self._wake.set()

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued or running job, keeping its stored results; False if it was over."""
        if not self.store.set_state(job_id, "cancelled"):
            return False
        if job_id == self._running:
            self._stop = True
        return True

    async def _jobs(self) -> None:
        while True:
            job_id = self.store.next_queued()
            if job_id is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                await self._run(job_id)
            except asyncio.CancelledError:
                raise
            except Busy:  # the pool broke under the job: run it again from its results
                self.store.set_state(job_id, "queued")
            except solving.ClientError as error:  # e.g. a back end that cannot compile a kind
                self.store.set_state(job_id, "failed", str(error))
            except Exception as error:  # a fault of ours, not the client's: the job fails
                log.exception("job %s failed", job_id)
                self.store.set_state(job_id, "failed", f"internal error: {error}")

    async def _run(self, job_id: str) -> None:
        job = self.store.get(job_id)
        if job is None or not self.store.set_state(job_id, "running"):
            return
        options = solving.Options(**_options(job.options))
        chunks = _Chunks(self.store.input_text(job_id), options, job.done, self.chunk)
        in_flight: deque[asyncio.Future[Any]] = deque()
        self._running, self._stop = job_id, False
        summary = Summary(statuses=Counter(job.counts))  # resumed: the counts stored so far
        with ThreadPoolExecutor(1, thread_name_prefix="cp-sudoku-read") as reader:
            try:
                done = await self._solve(
                    job_id, options, chunks, reader, in_flight, job.done, summary
                )
            finally:
                self._running = None
                for pending in in_flight:  # cancelled, or solved and dropped unstored
                    pending.cancel()
                    pending.add_done_callback(_ignore)
        if self._stop:
            return  # cancelled: the store says so already
        if chunks.failure is not None:
            self.store.set_state(job_id, "failed", chunks.failure)
        else:
            self.store.finish(job_id, done)

    async def _solve(
        self,
        job_id: str,
        options: solving.Options,
        chunks: _Chunks,
        reader: ThreadPoolExecutor,
        in_flight: deque[asyncio.Future[Any]],
        done: int,
        summary: Summary,
    ) -> int:
        """Keep ``2 * workers`` chunks in the pool and store each in input order as it
        returns, with the counts of the job's run summary, until the input ends or the
        job is cancelled; the puzzles done."""
        loop = asyncio.get_running_loop()
        clock = time.perf_counter()
        more = True
        while not self._stop:
            while more and len(in_flight) < 2 * self.workers:
                batch = await loop.run_in_executor(reader, next, chunks, None)
                if batch is None:
                    more = False
                    break
                work = self._submit(solving.check_chunk, batch, options)
                in_flight.append(asyncio.ensure_future(work))
            if not in_flight:
                break
            lines = await in_flight[0]
            in_flight.popleft()
            if self._stop:
                break
            records = [json.loads(line) for line in lines]
            for record in records:
                summary.add_record(record)
            now = time.perf_counter()
            stored = [(record["status"], line) for record, line in zip(records, lines, strict=True)]
            self.store.add_results(job_id, done, stored, now - clock, summary.statuses)
            done, clock = done + len(lines), now
        return done


def _ignore(future: asyncio.Future[Any]) -> None:
    """Retrieve a dropped future's outcome, so that asyncio does not log it as lost."""
    if not future.cancelled():
        future.exception()


class _Chunks:
    """A job's puzzles in chunks of ``size``, after the first ``skip`` (already stored).

    Iterated in the reader thread.  A reader error (no puzzle at all, a layout
    no format reads) ends the stream; ``failure`` then holds its message.
    """

    def __init__(self, text: str, options: solving.Options, skip: int, size: int) -> None:
        self.entries = solving.read_entries(text, options)
        self.skip = skip
        self.size = size
        self.failure: str | None = None

    def __iter__(self) -> _Chunks:
        return self

    def __next__(self) -> list[Any]:
        try:
            if self.skip:
                for _ in islice(self.entries, self.skip):
                    pass
                self.skip = 0
            batch = list(islice(self.entries, self.size))
        except solving.ClientError as error:
            self.failure = str(error)
            batch = []
        if not batch:
            raise StopIteration
        return batch


def _options(stored: dict[str, Any]) -> dict[str, Any]:
    """Options as stored in JSON -> the keyword arguments of :class:`solving.Options`."""
    return stored | {
        "backends": None if stored["backends"] is None else tuple(stored["backends"]),
        "box": None if stored["box"] is None else tuple(stored["box"]),
    }
