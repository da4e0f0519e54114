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

from cp_sudoku.backends.base import check_limits
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
    - ``calls``: SAT calls made; ``seconds``: wall-clock time.
    """

    values: Mapping[Cell, tuple[int, ...]]
    counts: Mapping[tuple[Cell, int], int]
    cap: int
    witnesses: Mapping[tuple[Cell, int], int]
    grids: tuple[Grid, ...]
    refuted: int
    calls: int
    seconds: float

    @property
    def status(self) -> str:
        """``none`` (no solution), ``unique`` (one candidate per cell) or ``multiple``."""
        if not self.grids:
            return "none"
        return "unique" if all(len(v) == 1 for v in self.values.values()) else "multiple"

    def record(self) -> dict[str, Any]:
        """JSON-ready: status, ``candidates`` (rXcY -> values), ``counts`` (rXcY -> value ->
        count, with ``cap``), ``solutions_seen``, ``refuted``, ``sat_calls``, ``seconds``."""
        out: dict[str, Any] = {
            "status": self.status,
            "candidates": {cell_name(c): list(v) for c, v in self.values.items()},
            "solutions_seen": len(self.grids),
            "refuted": self.refuted,
            "sat_calls": self.calls,
            "seconds": round(self.seconds, 6),
        }
        if self.cap:
            counts: dict[str, dict[str, int]] = {}
            for (cell, value), n in sorted(self.counts.items()):
                counts.setdefault(cell_name(cell), {})[str(value)] = n
            out["counts"] = counts
            out["cap"] = self.cap
        return out


def true_candidates(puzzle: Puzzle, *, per_candidate: int = 0) -> TrueCandidates:
    """The true candidates of every cell of ``puzzle`` (module docstring).

    Args:
        per_candidate: count the solutions using each candidate up to this
            many (0: do not count).

    Raises:
        UsageError: ``per_candidate`` is negative or not an integer.
        RuntimeError: the solver returned a grid the checker rejects (a bug).
    """
    if per_candidate:
        check_limits(per_candidate, None)
    elif per_candidate != 0:
        raise UsageError(f"per_candidate must be an integer >= 0, got {per_candidate!r}")
    start = time.perf_counter()
    cnf = to_cnf(puzzle, "optimised")
    grids: dict[Grid, int] = {}
    witnesses: dict[tuple[int, int], int] = {}
    refuted = calls = 0
    counts: dict[tuple[Cell, int], int] = {}
    with Solver(name=SOLVER, bootstrap_with=cnf.clauses) as sat:

        def found() -> Grid:
            grid = cnf.decode(sat.get_model())
            broken = violations(puzzle, grid)
            if broken:
                raise RuntimeError(f"{SOLVER} returned a grid that is not a solution: {broken[0]}")
            return grid

        def witness(grid: Grid) -> None:
            number = grids.setdefault(grid, len(grids))
            for i, value in enumerate(grid):
                witnesses.setdefault((i, value), number)

        calls += 1
        if sat.solve():
            witness(found())
            for i, lits in enumerate(cnf.literal):
                for value, x in lits.items():
                    if (i, value) in witnesses:
                        continue
                    calls += 1
                    if sat.solve(assumptions=[x]):
                        witness(found())
                    else:
                        refuted += 1
                        sat.add_clause([-x])  # a refuted candidate is false in every solution
            if per_candidate:
                counts, extra = _counts(puzzle, sat, cnf, witnesses, per_candidate)
                calls += extra
    values: dict[Cell, list[int]] = {cell: [] for cell in puzzle.cells}
    for i, value in sorted(witnesses):
        values[puzzle.cells[i]].append(value)
    return TrueCandidates(
        values={cell: tuple(v) for cell, v in values.items()},
        counts=counts,
        cap=per_candidate,
        witnesses={(puzzle.cells[i], v): n for (i, v), n in witnesses.items()},
        grids=tuple(grids),
        refuted=refuted,
        calls=calls,
        seconds=time.perf_counter() - start,
    )


def _counts(
    puzzle: Puzzle, sat: Solver, cnf: Any, witnesses: dict[tuple[int, int], int], cap: int
) -> tuple[dict[tuple[Cell, int], int], int]:
    """Solutions using each kept candidate, up to ``cap``; and the SAT calls made."""
    counts: dict[tuple[Cell, int], int] = {}
    calls = 0
    top = max(cnf.num_vars, sat.nof_vars())
    for i, value in sorted(witnesses):
        if i in cnf.fixed:
            continue  # a given cell's value is in every solution: counted once below
        top += 1
        activation, x = top, cnf.literal[i][value]
        n = 0
        while n < cap:
            calls += 1
            if not sat.solve(assumptions=[activation, x]):
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
    return counts, calls
