"""The one solve loop: entries in, outcomes out, in input order, streamed.

:func:`run` takes the entries a reader yields (a generator over a file of
any length), sends the readable ones through a work function
(:mod:`cp_sudoku.run.work`) on an executor (:mod:`cp_sudoku.run.pool`), and
yields one :class:`Outcome` per entry, in input order, as soon as it and
every entry before it are done.  Entries that could not be read are never
sent: they come back in place with no value.  ``check``, ``count``,
``compare``, ``solve``, ``bench`` and the notebook's records all run here.

Interrupts: a ``KeyboardInterrupt`` (or closing the generator early) stops
the executor at once, ending its worker processes; outcomes already yielded
stay yielded, and nothing after them is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any, Generic, TypeVar

from cp_sudoku.io.entry import Entry
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.pool import CHUNK, Executor, InProcess, ProcessPool, Workers, cores, workers
from cp_sudoku.run.work import Work

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome(Generic[T]):
    """One entry and what the work made of it: ``value`` is None when the entry
    could not be read (``entry.error`` says why)."""

    entry: Entry
    value: T | None = None


def run(
    entries: Iterable[Entry], work: Work[T], plan: Plan, executor: Executor | None = None
) -> Generator[Outcome[T], None, None]:
    """``work`` applied to every readable entry; outcomes in input order, streamed.

    Args:
        executor: where the work runs (default :class:`~cp_sudoku.run.pool.InProcess`);
            see :func:`choose` for a process pool sized to the input.

    Raises:
        UsageError: the plan names an unknown back end or a bad option.
        PuzzleError, OSError: from the reader (an empty or unreadable source).
    """
    executor = executor or InProcess()
    executor.start(work, plan)
    pending: deque[tuple[list[Entry], Future[list[Any]] | None]] = deque()
    it = iter(entries)
    try:
        while True:
            batch = list(islice(it, executor.chunk))
            if batch:
                readable = [entry for entry in batch if entry.puzzle is not None]
                pending.append((batch, executor.submit(readable) if readable else None))
            while pending and (not batch or len(pending) >= executor.window):
                yield from _done(*pending.popleft())
            if not batch:
                break
    except BaseException:  # an interrupt, an error, or the caller closing the generator
        executor.stop(interrupted=True)
        raise
    executor.stop(interrupted=False)


def _done(batch: list[Entry], future: Future[list[Any]] | None) -> Iterator[Outcome[Any]]:
    values = iter(future.result() if future is not None else ())
    for entry in batch:
        yield Outcome(entry, next(values)) if entry.puzzle is not None else Outcome(entry)


def choose(entries: Iterable[Entry], jobs: int) -> tuple[Iterator[Entry], Executor, Workers]:
    """An executor for ``jobs`` workers, capped at the cores and at the puzzles.

    Reads ahead just far enough to know whether the input holds fewer
    puzzles than workers.  Returns the entries (the ones read ahead first),
    the executor (:class:`~cp_sudoku.run.pool.InProcess` for one worker), and
    the :class:`~cp_sudoku.run.pool.Workers` count with its note.
    """
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
    chosen = workers(jobs, readable if ended else None)
    rest = chain(head, it)
    if chosen.count <= 1:
        return rest, InProcess(), chosen
    return rest, ProcessPool(chosen.count, chunk=1 if ended else CHUNK), chosen
