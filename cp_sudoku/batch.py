"""Cross-check many puzzles, in several processes, streaming results in input order.

:func:`check_entries` takes the entries a reader yields (a generator over a
file of any length) and yields one :class:`Outcome` per entry, in input
order, as soon as it and every entry before it are done.  Memory stays flat
whatever the length of the input: at most ``4 * jobs`` chunks of ``chunk``
entries are in flight, and nothing is kept after it is yielded.

With ``jobs > 1`` the work goes to a :class:`concurrent.futures.ProcessPoolExecutor`
of ``jobs`` processes started with ``spawn`` (no fork of a process that may
run threads); each process builds its back ends once.  Entries that could
not be read are never sent: they come back in place with no verdict.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any

from cp_sudoku.backends import DEFAULT_BACKENDS, Backend, get_backend
from cp_sudoku.crosscheck import Verdict, crosscheck
from cp_sudoku.formats import Entry
from cp_sudoku.model import Grid, Puzzle, cell_name, violations


@dataclass(frozen=True)
class Plan:
    """How every puzzle is checked: back-end names, their options, the limits.

    ``options`` maps a back-end name to the keyword options it is built with
    (``{"sat": {"solver": "cadical195"}}``); ``limit`` is the solution limit
    (>= 1; 2 proves uniqueness); ``time_limit`` is in seconds per back end
    and puzzle, or None.
    """

    backends: tuple[str, ...] = DEFAULT_BACKENDS
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    limit: int = 2
    time_limit: float | None = None

    def build(self) -> list[Backend]:
        """The back ends, built.

        Raises:
            ValueError: an unknown back-end name or an option it rejects.
        """
        return [get_backend(name, **self.options.get(name, {})) for name in self.backends]


@dataclass(frozen=True)
class Outcome:
    """One entry and what became of it.

    ``verdict`` is None when the entry could not be read (``entry.error``
    says why).  ``mismatch`` says how the verdict contradicts the solution
    the source states (``entry.solution``), or is None when it does not.
    """

    entry: Entry
    verdict: Verdict | None = None
    mismatch: str | None = None


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_entries(
    entries: Iterable[Entry], plan: Plan, jobs: int = 1, *, chunk: int = 4
) -> Iterator[Outcome]:
    """Cross-check every readable entry; outcomes in input order, streamed.

    Args:
        jobs: processes (1 runs in this process; a source with fewer than
            two entries also runs here).
        chunk: entries sent to a process at a time.

    Raises:
        ValueError: the plan names an unknown back end or a bad option.
        PuzzleError, OSError: from the reader (an empty or unreadable source).
    """
    it = iter(entries)
    if jobs > 1:
        head = list(islice(it, 2))
        if len(head) == 2:
            yield from _parallel(chain(head, it), plan, jobs, chunk)
            return
        it = iter(head)
    backends = plan.build()
    for entry in it:
        if entry.puzzle is None:
            yield Outcome(entry)
            continue
        verdict = crosscheck(entry.puzzle, backends, limit=plan.limit, time_limit=plan.time_limit)
        yield _outcome(entry, verdict)


def _parallel(entries: Iterator[Entry], plan: Plan, jobs: int, chunk: int) -> Iterator[Outcome]:
    plan.build()  # a bad name or option fails here, once, not in every process
    pool = ProcessPoolExecutor(
        jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(plan,),
    )
    pending: deque[tuple[list[Entry], Future[list[Verdict]] | None]] = deque()
    try:
        while True:
            batch = list(islice(entries, chunk))
            if batch:
                puzzles = [e.puzzle for e in batch if e.puzzle is not None]
                work = pool.submit(_check_chunk, puzzles) if puzzles else None
                pending.append((batch, work))
            if pending and (not batch or len(pending) >= 4 * jobs):
                done, work = pending.popleft()
                verdicts = iter(work.result() if work else ())
                for entry in done:
                    yield _outcome(entry, next(verdicts)) if entry.puzzle else Outcome(entry)
            if not batch and not pending:
                return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _outcome(entry: Entry, verdict: Verdict) -> Outcome:
    if entry.solution is None or entry.puzzle is None:
        return Outcome(entry, verdict)
    return Outcome(entry, verdict, stated_mismatch(entry.puzzle, verdict, entry.solution))


def stated_mismatch(puzzle: Puzzle, verdict: Verdict, stated: Grid) -> str | None:
    """How ``verdict`` contradicts the solution a source states, or None.

    The stated grid must pass the checker; a ``unique`` verdict must have
    found exactly it; a ``none`` verdict contradicts any valid stated grid.
    A ``multiple`` or ``unknown`` verdict with a valid stated grid is no
    contradiction.
    """
    broken = violations(puzzle, stated)
    if broken:
        return f"the stated solution is not a solution: {broken[0]}"
    if verdict.status == "none":
        return "the stated solution is valid, but the verdict is none"
    if verdict.status == "unique" and verdict.solution and verdict.solution != stated:
        cell, found, said = next(
            (cell, a, b)
            for cell, a, b in zip(puzzle.cells, verdict.solution, stated, strict=True)
            if a != b
        )
        return f"the stated solution differs at {cell_name(cell)}: stated {said}, found {found}"
    return None


# --- In a worker process ---------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _start_worker(plan: Plan) -> None:
    _WORKER["plan"] = plan
    _WORKER["backends"] = plan.build()


def _check_chunk(puzzles: Sequence[Puzzle]) -> list[Verdict]:
    plan: Plan = _WORKER["plan"]
    return [
        crosscheck(puzzle, _WORKER["backends"], limit=plan.limit, time_limit=plan.time_limit)
        for puzzle in puzzles
    ]
