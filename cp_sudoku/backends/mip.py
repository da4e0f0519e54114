"""The ``mip`` back end: the 0-1 model of :mod:`cp_sudoku.encodings.mip` solved by SCIP.

The formulation (cell binaries, one row family per constraint type, tuples
for the rest) lives in :mod:`cp_sudoku.encodings.mip`, shared with the
``lp``, ``mps`` and ``opb`` exporters.  This module only hands it to SCIP
through OR-Tools' ``pywraplp`` (one boolean variable per binary, one row
constraint per row) and counts:

- solve; an infeasible model proves the count so far exact;
- a solution is decoded from the cell binaries, handed to the sink, and
  excluded by a no-good cut over the cell binaries only
  (:meth:`~cp_sudoku.encodings.mip.Mip.blocking_row`); solve again.

Only ``OPTIMAL`` (a solution; the objective is 0, so any feasible point is
optimal) and ``INFEASIBLE`` (a proof) are taken as answers: a time limit
or any other status leaves the search incomplete (``unknown``).

Which solver: SCIP through ``pywraplp`` (OR-Tools, already a dependency)
was measured against HiGHS through ``highspy`` and CBC through ``pywraplp``
on the same rows; SCIP needed 1-2 branch-and-bound nodes where HiGHS needed
about 55 and CBC 16 on forum-hardest-1106, and was 7 times faster than
HiGHS there, slower by about a third on royle-17clue (figures and commands
in ``docs/backends.md``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from cp_sudoku.backends.base import Backend, Clock, Interrupted, Option, Sink
from cp_sudoku.encodings.mip import Mip, Row, to_mip
from cp_sudoku.model import Puzzle


def _add_row(solver: Any, xs: list[Any], row: Row) -> None:
    """Add ``row`` to a ``pywraplp`` solver over the variables ``xs``."""
    inf = solver.infinity()
    if row.sense == "=":
        low, high = row.rhs, row.rhs
    elif row.sense == "<=":
        low, high = -inf, row.rhs
    else:
        low, high = row.rhs, inf
    constraint = solver.RowConstraint(low, high, "")
    for index, coef in zip(row.indices, row.coefs, strict=True):
        constraint.SetCoefficient(xs[index], coef)


def build_solver(mip: Mip) -> tuple[Any, list[Any]]:
    """A ``pywraplp`` SCIP solver holding ``mip``, and its variables (``mip.names`` order)."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("SCIP")
    # SCIP's own SIGINT handler would take a Ctrl-C as "stop this solve" (an effort
    # limit) and leave the run going; without it the command stops as on every back end
    solver.SetSolverSpecificParametersAsString("misc/catchctrlc = FALSE\n")
    xs = [solver.BoolVar(name) for name in mip.names]
    for row in mip.rows:
        _add_row(solver, xs, row)
    return solver, xs


class MipBackend(Backend):
    """0-1 integer programming with SCIP; see the module docstring.

    Options: ``reduce_domains`` (binaries for the candidates left by the
    givens only; default True).

    Statistics: ``nodes`` (branch-and-bound nodes, summed over the solves),
    ``lp_iterations`` (simplex iterations, summed), ``gap_ppm`` (the largest
    relative MIP gap of a solve that found a solution, in parts per million;
    the objective is 0, so a solution proven optimal has gap 0), ``solves``
    (SCIP calls: solutions found plus the last, infeasible one),
    ``variables`` and ``rows`` (model size, before cuts).
    """

    name = "mip"
    summary = "0-1 integer programming (cell binaries, linear sums, tuple choices) with SCIP"
    statistics: ClassVar[tuple[str, ...]] = (
        "nodes",
        "lp_iterations",
        "gap_ppm",
        "solves",
        "variables",
        "rows",
    )
    size_statistics: ClassVar[tuple[str, ...]] = ("variables", "rows")
    peak_statistics: ClassVar[tuple[str, ...]] = ("gap_ppm",)
    cube_grids: ClassVar[int | None] = 4  # SCIP: a no-good row per grid; measured in docs/cli.md
    options: ClassVar[dict[str, Option]] = {
        "reduce_domains": Option(bool, True, "binaries only for the givens' candidates"),
    }

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """Solve, cut off the grid found with a no-good over the cell binaries, repeat."""
        from ortools.linear_solver import pywraplp

        mip = to_mip(puzzle, reduce_domains=self.settings["reduce_domains"])
        solver, xs = build_solver(mip)
        stats.update(
            nodes=0,
            lp_iterations=0,
            gap_ppm=0,
            solves=0,
            variables=len(mip.names),
            rows=len(mip.rows),
        )
        try:
            while True:
                remaining = clock.remaining()
                if remaining is not None:
                    if remaining <= 0:
                        return False
                    solver.SetTimeLimit(max(1, int(remaining * 1000)))
                code = solver.Solve()
                stats["solves"] += 1
                stats["nodes"] += solver.nodes()
                stats["lp_iterations"] += solver.iterations()
                if code == pywraplp.Solver.INFEASIBLE:
                    return True
                if code != pywraplp.Solver.OPTIMAL:
                    return False
                stats["gap_ppm"] = max(stats["gap_ppm"], _gap_ppm(solver))
                grid = mip.decode([x.solution_value() for x in xs])
                stop = sink.add(grid)
                cut = mip.blocking_row(grid)
                if cut is None:
                    return True
                if stop:
                    return False
                _add_row(solver, xs, cut)
        except KeyboardInterrupt:
            raise Interrupted from None


def _gap_ppm(solver: Any) -> int:
    """The relative gap between the objective and its bound, in parts per million."""
    value: float = solver.Objective().Value()
    bound: float = solver.Objective().BestBound()
    if value == bound:
        return 0
    return round(abs(value - bound) / max(abs(value), 1e-9) * 1e6)
