"""What the solve loop does to one puzzle: check it, count its solutions, or time each back end.

A *work* function takes an :class:`~cp_sudoku.io.Entry` whose puzzle was
read, the back ends built from the :class:`~cp_sudoku.run.plan.Plan`, and the
plan, and returns a picklable value.  Work functions are module-level, so a
worker process can be sent one by reference.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from cp_sudoku.backends import Backend, Result
from cp_sudoku.constraints.base import compile_deadline
from cp_sudoku.crosscheck import Count, Verdict, count, judge, solve_all
from cp_sudoku.deduction import Grade, grade
from cp_sudoku.io.entry import Entry
from cp_sudoku.model import Grid, Puzzle, cell_name, violations
from cp_sudoku.run.plan import Plan

T = TypeVar("T")
#: ``work(entry, backends, plan) -> value``; ``entry.puzzle`` is never None.
Work = Callable[[Entry, Sequence[Backend], Plan], T]


class Outcome(NamedTuple, Generic[T]):
    """One entry and what the work made of it: ``value`` is None when the entry
    could not be read (``entry.error`` says why).  A named tuple, as :class:`Checked`:
    one of each is made a puzzle, and a tuple is made in half the time of a frozen
    dataclass (docs/performance.md)."""

    entry: Entry
    value: T | None = None


class Checked(NamedTuple):
    """A cross-checked puzzle: the verdict, how it contradicts the source's stated
    solution (``mismatch``; None when the source states none or it agrees), and its
    grade when the plan asks for one."""

    verdict: Verdict
    mismatch: str | None = None
    grade: Grade | None = None


def check(entry: Entry, backends: Sequence[Backend], plan: Plan) -> Checked:
    """Cross-check ``entry``'s puzzle (:func:`cp_sudoku.crosscheck.crosscheck`)."""
    (checked,) = check_each([entry], backends, plan)
    return checked


#: Grids a back end may hold for puzzles not yet judged (see :func:`check_each`).
HELD_GRIDS = 128


#: ``done(count)``: ``count`` puzzles of a chunk solved so far (:mod:`cp_sudoku.run.progress`).
Done = Callable[[int], None]


def check_each(
    entries: Sequence[Entry],
    backends: Sequence[Backend],
    plan: Plan,
    done: Done | None = None,
) -> list[Checked]:
    """:func:`check` of each entry (each with a puzzle), in order, in groups: the solves of
    a group's puzzles first, then their judging, so that the solver's data, and then the
    checker's, stay in the processor's caches (with ``check --backend sat``, 6% less CPU
    than solving and judging each puzzle in turn: docs/performance.md).  A group holds
    ``HELD_GRIDS // plan.limit`` puzzles (64 at the default limit of 2; one at a limit of
    128 or more, so memory does not grow with the limit).  Under a deadline in force (the
    service's ``/v1/workbench``) the back ends share it evenly, and one whose turn comes
    after it answers ``unknown``, stopped by the ``time limit``
    (:func:`~cp_sudoku.crosscheck.solve_all`).  ``done`` hears the count of puzzles solved
    so far after each solve (their judging follows at the end of their group)."""
    limits = {"limit": plan.limit, "time_limit": plan.time_limit}
    group = max(1, HELD_GRIDS // plan.limit)
    checked: list[Checked] = []
    for start in range(0, len(entries), group):
        batch = entries[start : start + group]
        puzzles = [_puzzle(entry) for entry in batch]
        found = []
        for puzzle in puzzles:
            found.append(solve_all(puzzle, plan.lineup(puzzle, backends), share=True, **limits))
            if done is not None:
                done(start + len(found))
        with compile_deadline(None):  # judging (every grid re-checked) is never cut short
            for entry, puzzle, results in zip(batch, puzzles, found, strict=True):
                verdict = judge(puzzle, results)
                stated = entry.solution
                mismatch = None if stated is None else stated_mismatch(puzzle, verdict, stated)
                graded = grade(puzzle, time_limit=plan.time_limit) if plan.grade else None
                checked.append(Checked(verdict, mismatch, graded))
    return checked


def each(
    work: Work[T],
) -> Callable[[Sequence[Entry], Sequence[Backend], Plan, Done | None], list[T]]:
    """``work`` over a chunk's entries (each with a puzzle), in order, ``done`` told the count
    finished after each: :func:`check_each` for :func:`check`, else ``work`` on one entry
    after the other."""
    if work is check:
        return check_each  # type: ignore[return-value]

    def one_by_one(
        entries: Sequence[Entry], backends: Sequence[Backend], plan: Plan, done: Done | None
    ) -> list[T]:
        values: list[T] = []
        for entry in entries:
            values.append(work(entry, backends, plan))
            if done is not None:
                done(len(values))
        return values

    return one_by_one


def count_solutions(entry: Entry, backends: Sequence[Backend], plan: Plan) -> Count:
    """Count ``entry``'s solutions up to ``plan.limit`` (:func:`cp_sudoku.crosscheck.count`),
    keeping two grids per back end, so memory does not grow with the limit."""
    puzzle = _puzzle(entry)
    chosen = plan.lineup(puzzle, backends)
    return count(puzzle, chosen, limit=plan.limit, time_limit=plan.time_limit)


@dataclass(frozen=True)
class Timed:
    """Each back end's own result on one puzzle, with the CPU seconds of its solve
    (process CPU time, so it is exact only when nothing else runs in the process)."""

    results: dict[str, Result]
    cpu_seconds: dict[str, float]


def solve_each(entry: Entry, backends: Sequence[Backend], plan: Plan) -> Timed:
    """Solve ``entry``'s puzzle with every back end in turn, no cross-check (for ``bench``)."""
    puzzle = _puzzle(entry)
    results: dict[str, Result] = {}
    cpu: dict[str, float] = {}
    for backend in backends:
        start = time.process_time()
        results[backend.name] = backend.solve(puzzle, plan.limit, plan.time_limit)
        cpu[backend.name] = time.process_time() - start
    return Timed(results, cpu)


def _puzzle(entry: Entry) -> Puzzle:
    if entry.puzzle is None:
        raise ValueError(f"{entry.label} has no puzzle to solve")  # the loop never sends one
    return entry.puzzle


_VALID_BUT_NONE = "the stated solution is valid, but the verdict is none"


def stated_mismatch(puzzle: Puzzle, verdict: Verdict, stated: Grid) -> str | None:
    """How ``verdict`` contradicts the solution a source states, or None.

    The stated grid must pass the checker; a ``unique`` verdict must have
    found exactly it; a ``none`` verdict contradicts any valid stated grid.
    A ``multiple`` or ``unknown`` verdict with a valid stated grid is no
    contradiction.
    """
    if stated in verdict.solutions:  # a grid the checker passed already: no second pass
        return None if verdict.status != "none" else _VALID_BUT_NONE
    broken = violations(puzzle, stated)
    if broken:
        return f"the stated solution is not a solution: {broken[0]}"
    if verdict.status == "none":
        return _VALID_BUT_NONE
    if verdict.status == "unique" and verdict.solution and verdict.solution != stated:
        cell, found, said = next(
            (cell, a, b)
            for cell, a, b in zip(puzzle.cells, verdict.solution, stated, strict=True)
            if a != b
        )
        return f"the stated solution differs at {cell_name(cell)}: stated {said}, found {found}"
    return None
