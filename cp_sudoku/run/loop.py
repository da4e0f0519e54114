"""The one run loop: chunks out to an executor, results back in input order, streamed.

:func:`ordered` sends items to an executor at most ``window`` at a time and
yields each item's result in input order, as soon as it and every item
before it are done; a ``kept`` callback sees every result as soon as it is
done, in any order (so an interrupted run keeps every finished slice of a
table).  :func:`run` is the loop over puzzles: entries in, one
:class:`Outcome` per entry out.  ``check``, ``count``, ``compare``,
``solve``, ``bench``, ``prove``, the notebook's records and ``check
--output`` all run here.

Interrupts: a ``KeyboardInterrupt`` (or closing the generator early) stops
the executor at once, ending its worker processes; results already yielded
stay yielded, and nothing after them is.  Memory: at most ``window`` chunks
are in flight.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import closing
from itertools import chain
from typing import TypeVar

from cp_sudoku.backends import Backend
from cp_sudoku.io.entry import Entry
from cp_sudoku.run.chunks import Chunk, chunked, run_chunk
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.pool import Executor, InProcess, Workers, cores, workers
from cp_sudoku.run.progress import TICK, Report
from cp_sudoku.run.work import Outcome, Work

A = TypeVar("A")
R = TypeVar("R")
T = TypeVar("T")

#: Entries per chunk in worker processes: the first chunks small, so every worker gets
#: some of a few puzzles, then doubling up to :data:`CHUNK_MOST` (a process hand-off per
#: 4 puzzles cost about 2 of 7 CPU seconds of ``check --jobs 2`` on 5,000 puzzles).
CHUNK_PER_WORKER = 4
CHUNK_MOST = 64
#: In this process: the first chunk's entries, then chunks paced to take about
#: :data:`CHUNK_PACE` seconds each, up to :data:`CHUNK_IN_PROCESS` entries (the hand-off
#: between two threads is paid per chunk: at 64 entries a chunk it was 8 us of the 49 us
#: that ``check --backend sat`` spends a puzzle besides its solves, docs/performance.md).
CHUNK_FIRST = 8
CHUNK_PACE = 0.1
CHUNK_IN_PROCESS = 1024


def chunks_for(
    entries: Iterable[Entry],
    in_process: bool,
    work: Work[T],
    plan: Plan,
    backends: Sequence[Backend] | None = None,
) -> Iterator[Chunk[T]]:
    """``entries`` in the chunks that suit where they run: paced in this process (one
    chunk in flight at a time), doubling for worker processes and clusters."""
    if in_process:
        return chunked(
            entries, CHUNK_FIRST, work, plan, backends, most=CHUNK_IN_PROCESS, pace=CHUNK_PACE
        )
    return chunked(entries, CHUNK_PER_WORKER, work, plan, backends, most=CHUNK_MOST)


def ordered(
    items: Iterable[A],
    executor: Executor,
    fn: Callable[[A], R],
    *,
    window: int,
    kept: Callable[[A, R], None] | None = None,
    heard: Callable[[list[Report]], None] | None = None,
    stopped: Callable[[], bool] | None = None,
) -> Generator[tuple[A, R], None, None]:
    """``(item, fn(item))`` for every item, in input order, ``fn`` run on ``executor``.

    At most ``window`` items are in flight.  ``kept(item, result)`` is called
    once per item, as soon as its result is there (before it is yielded), and
    on an interrupt for every result already there.  ``heard(reports)`` gets the
    executor's progress reports (:mod:`cp_sudoku.run.progress`) at least every
    :data:`~cp_sudoku.run.progress.TICK` seconds while the loop waits.  ``stopped()`` is
    asked as often: once true, the loop raises ``KeyboardInterrupt`` (an interrupt whose
    exception a library swallowed: an optional import's ``except ImportError`` around a C
    extension the signal hit, which left the run going until its first line printed, 12 s
    in one ``--cluster local:2 --output`` run of 30).  On any exit but the
    end, the executor is stopped at once (its workers ended); at the end it
    is stopped gently.  An error raised by ``items`` (a reader stopped by its
    input) is raised once the items before it are done and yielded.
    """
    pending: deque[tuple[A, Future[R]]] = deque()
    seen: set[int] = set()  # ids of the futures already kept
    it = iter(items)
    broken: list[Exception] = []

    def following() -> object:
        try:
            return next(it, _END)
        except Exception as error:  # the input broke: what came before it still runs
            broken.append(error)
            return _END

    def keep(done: Iterable[Future[R]]) -> None:
        if kept is None:
            return
        for item, future in pending:
            if future in done and id(future) not in seen and _succeeded(future):
                seen.add(id(future))
                kept(item, future.result())

    try:
        while True:
            while len(pending) < window and not broken and (item := following()) is not _END:
                pending.append((item, executor.submit(fn, item)))  # type: ignore[arg-type]
            if not pending:
                break
            head = pending[0][1]
            while (kept or heard or stopped) is not None and not head.done():
                watched = [future for _, future in pending] if kept is not None else [head]
                tick = TICK if (heard or stopped) is not None else None
                done, _ = wait(watched, timeout=tick, return_when=FIRST_COMPLETED)
                if stopped is not None and stopped():
                    raise KeyboardInterrupt
                if heard is not None:
                    heard(executor.reports())
                keep(done)
            result = head.result()
            news = executor.reports()  # taken even when nobody listens: no queue grows
            if heard is not None:
                heard(news)
            keep({head})
            item, _ = pending.popleft()
            seen.discard(id(head))
            yield item, result
    except BaseException:  # an interrupt, an error, or the caller closing the generator
        keep({future for _, future in pending if future.done()})
        executor.stop(interrupted=True)
        raise
    executor.stop(interrupted=False)
    if broken:
        raise broken[0]


_END = object()


def _succeeded(future: Future[R]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


def run(
    entries: Iterable[Entry],
    work: Work[T],
    plan: Plan,
    executor: Executor | None = None,
    *,
    backends: Sequence[Backend] | None = None,
) -> Generator[Outcome[T], None, None]:
    """``work`` applied to every readable entry; outcomes in input order, streamed.

    Args:
        executor: where the work runs (default :class:`~cp_sudoku.run.pool.InProcess`).
        backends: back ends already built, used in place of the plan's (in
            this process only).

    Raises:
        UsageError: the plan names an unknown back end or a bad option.
        PuzzleError, OSError: from the reader (an empty or unreadable source).
    """
    executor = executor or InProcess()
    chunks = chunks_for(entries, isinstance(executor, InProcess), work, plan, backends)
    with closing(ordered(chunks, executor, run_chunk, window=window(executor))) as results:
        for _, outcomes in results:
            yield from outcomes


def window(executor: Executor) -> int:
    """Chunks in flight for ``executor``: enough to keep every worker busy.  In this process,
    one: the solve thread and this one take turns instead of contending for the GIL (half
    the futex calls, about a tenth less CPU time for ``check --jobs 1 --backend sat``,
    docs/performance.md)."""
    return 1 if isinstance(executor, InProcess) else 4 * executor.workers


def capped(entries: Iterable[Entry], jobs: int) -> tuple[Iterator[Entry], Workers]:
    """Workers for ``jobs``, capped at the cores and at the puzzles (reading ahead just
    far enough to know whether the input holds fewer puzzles than workers)."""
    it = iter(entries)
    wanted = min(jobs, cores())
    head: list[Entry] = []
    readable = 0
    if wanted > 1:
        for entry in it:
            head.append(entry)
            readable += entry.puzzle is not None
            if readable >= wanted:
                break
    ended = wanted > 1 and readable < wanted
    return chain(head, it), workers(jobs, readable if ended else None)


__all__ = ["Chunk", "Outcome", "capped", "ordered", "run", "window"]
