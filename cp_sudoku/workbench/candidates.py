"""True candidates: for every cell, the values that appear in at least one solution.

As Rangsk's SudokuSolver shows them, computed exactly: the puzzle's CNF
(:mod:`cp_sudoku.encodings.cnf`, ``optimised``: the givens applied, so a value
a given peer holds has no variable and is refuted by the encoding itself)
goes into one incremental SAT solver.  Each candidate not yet seen in a
solution is tried by one call under the *assumption* ``x(cell, value)``: a
model is a solution that uses it, and marks every candidate it uses at once
(so most candidates never need their own call); no model is a *refutation*
of that candidate.  Every solution kept as a witness is re-checked by the
rule checker (:func:`cp_sudoku.model.violations`).

With ``per_candidate`` K, the solutions using each kept candidate are
counted up to K (blocking clauses under an activation literal, switched off
after each candidate), as Rangsk's "count per candidate" option does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver

from cp_sudoku.backends.base import Clock, check_limits
from cp_sudoku.backends.sat import Stopper
from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.model import Cell, Grid, Puzzle, UsageError, cell_name, violations

#: The incremental solver of the assumption calls (python-sat name).
SOLVER = "minisat22"


@dataclass(frozen=True)
class TrueCandidates:
    """Every cell's true candidates, with the evidence.

    - ``values``: cell -> its true candidates, ascending (a given cell: its value);
    - ``counts``: (cell, value) -> solutions using it, capped at ``cap``
      (empty unless counted);
    - ``witnesses``: (cell, value) -> index in ``grids`` of a solution using it;
    - ``grids``: the distinct solutions found, each re-checked by the checker;
    - ``refuted``: candidates refuted by a SAT call (beyond those the givens
      remove directly);
    - ``calls``: SAT calls made; ``seconds``: wall-clock time;
    - ``stopped``: ``time limit`` when the time limit stopped the search (the
      status is then ``unknown``), else None.
    """

    values: Mapping[Cell, tuple[int, ...]]
    counts: Mapping[tuple[Cell, int], int]
    cap: int
    witnesses: Mapping[tuple[Cell, int], int]
    grids: tuple[Grid, ...]
    refuted: int
    calls: int
    seconds: float
    stopped: str | None = None

    @property
    def status(self) -> str:
        """``none`` (no solution), ``unique`` (one candidate per cell), ``multiple``, or
        ``unknown`` (stopped by the time limit before every candidate was decided)."""
        if self.stopped is not None:
            return "unknown"
        if not self.grids:
            return "none"
        return "unique" if all(len(v) == 1 for v in self.values.values()) else "multiple"

    def record(self) -> dict[str, Any]:
        """JSON-ready: status, ``candidates`` (rXcY -> values), ``counts`` (rXcY -> value ->
        count, with ``cap``), ``solutions_seen``, ``refuted``, ``sat_calls``, ``seconds``,
        ``stopped``."""
        out: dict[str, Any] = {
            "status": self.status,
            "candidates": {cell_name(c): list(v) for c, v in self.values.items()},
            "solutions_seen": len(self.grids),
            "refuted": self.refuted,
            "sat_calls": self.calls,
            "seconds": round(self.seconds, 6),
            "stopped": self.stopped,
        }
        if self.cap:
            counts: dict[str, dict[str, int]] = {}
            for (cell, value), n in sorted(self.counts.items()):
                counts.setdefault(cell_name(cell), {})[str(value)] = n
            out["counts"] = counts
            out["cap"] = self.cap
        return out


def true_candidates(
    puzzle: Puzzle, *, per_candidate: int = 0, time_limit: float | None = None
) -> TrueCandidates:
    """The true candidates of every cell of ``puzzle`` (module docstring).

    Args:
        per_candidate: count the solutions using each candidate up to this
            many (0: do not count).
        time_limit: wall-clock seconds (None: no limit), read while compiling and
            by an interrupt of the solver (the sat back end's
            :class:`~cp_sudoku.backends.sat.Stopper`).  Past it the result is
            ``unknown`` (``stopped``): the candidates shown are true, the others
            not all refuted.

    Raises:
        UsageError: ``per_candidate`` is negative or not an integer; a time limit
            that is not a positive number.
        RuntimeError: the solver returned a grid the checker rejects (a bug).
    """
    if per_candidate:
        check_limits(per_candidate, None)
    elif per_candidate != 0:
        raise UsageError(f"per_candidate must be an integer >= 0, got {per_candidate!r}")
    clock = Clock(check_limits(1, time_limit))
    grids: dict[Grid, int] = {}
    witnesses: dict[tuple[int, int], int] = {}
    counts: dict[tuple[Cell, int], int] = {}
    tally = [0, 0]  # SAT calls, refuted
    stopped = None
    try:
        with compile_deadline(clock.deadline):
            cnf = to_cnf(puzzle, "optimised")
        with Solver(name=SOLVER, bootstrap_with=cnf.clauses) as sat:
            stopper = Stopper(sat, clock)
            try:
                _search(puzzle, cnf, _Calls(stopper, tally), grids, witnesses)
                if per_candidate and grids:
                    counts = _counts(puzzle, _Calls(stopper, tally), cnf, witnesses, per_candidate)
            finally:
                stopper.close()
    except OutOfTime:
        stopped = "time limit"
    values: dict[Cell, list[int]] = {cell: [] for cell in puzzle.cells}
    for i, value in sorted(witnesses):
        values[puzzle.cells[i]].append(value)
    return TrueCandidates(
        values={cell: tuple(v) for cell, v in values.items()},
        counts=counts,
        cap=per_candidate,
        witnesses={(puzzle.cells[i], v): n for (i, v), n in witnesses.items()},
        grids=tuple(grids),
        refuted=tally[1],
        calls=tally[0],
        seconds=time.perf_counter() - clock.start,
        stopped=stopped,
    )


class _Calls:
    """The solver's calls, counted in ``tally[0]``, stopped by ``stopper``'s clock."""

    def __init__(self, stopper: Stopper, tally: list[int]) -> None:
        self.stopper = stopper
        self.sat = stopper.sat
        self.tally = tally

    def solve(self, assumptions: list[int]) -> bool:
        """The answer under ``assumptions``.

        Raises:
            OutOfTime: the time limit passed first.
        """
        self.tally[0] += 1
        answer = self.stopper.solve(assumptions)
        if answer is None:
            raise OutOfTime("the time limit passed")
        return answer


def _search(
    puzzle: Puzzle,
    cnf: Any,
    calls: _Calls,
    grids: dict[Grid, int],
    witnesses: dict[tuple[int, int], int],
) -> None:
    """Fill ``grids`` and ``witnesses``: one call per candidate no solution has used yet."""
    sat = calls.sat

    def witness() -> None:
        grid = cnf.decode(sat.get_model())
        broken = violations(puzzle, grid)
        if broken:
            raise RuntimeError(f"{SOLVER} returned a grid that is not a solution: {broken[0]}")
        number = grids.setdefault(grid, len(grids))
        for i, value in enumerate(grid):
            witnesses.setdefault((i, value), number)

    if not calls.solve([]):
        return
    witness()
    for i, lits in enumerate(cnf.literal):
        for value, x in lits.items():
            if (i, value) in witnesses:
                continue
            if calls.solve([x]):
                witness()
            else:
                calls.tally[1] += 1
                sat.add_clause([-x])  # a refuted candidate is false in every solution


def _counts(
    puzzle: Puzzle, calls: _Calls, cnf: Any, witnesses: dict[tuple[int, int], int], cap: int
) -> dict[tuple[Cell, int], int]:
    """Solutions using each kept candidate, up to ``cap`` (the calls counted in ``calls``)."""
    sat = calls.sat
    counts: dict[tuple[Cell, int], int] = {}
    top = max(cnf.num_vars, sat.nof_vars())
    for i, value in sorted(witnesses):
        if i in cnf.fixed:
            continue  # a given cell's value is in every solution: counted once below
        top += 1
        activation, x = top, cnf.literal[i][value]
        n = 0
        while n < cap:
            if not calls.solve([activation, x]):
                break
            n += 1
            blocking = cnf.blocking_clause(cnf.decode(sat.get_model()))
            sat.add_clause([-activation, *blocking])
        sat.add_clause([-activation])
        counts[(puzzle.cells[i], value)] = n
    if cnf.fixed:
        # a given's count is the puzzle's, capped: each open cell's capped counts add up
        # to at least min(solutions, cap), and exactly that when none reached the cap
        per_cell: dict[Cell, int] = {}
        for (cell, _), n in counts.items():
            per_cell[cell] = per_cell.get(cell, 0) + n
        total = min(min(per_cell.values(), default=1), cap)
        for i, value in cnf.fixed.items():
            counts[(puzzle.cells[i], value)] = total
    return counts
