"""OR-Tools CP-SAT back end.

Compilation (:func:`build_model`): one integer variable per cell, its domain
the values ``1..n`` (with ``reduce_domains``: minus the givens of its peers,
and a given cell fixed to its value); ``add_all_different`` per unit; per
cage, a linear sum (``+``), ``add_multiplication_equality`` (``*``), or a
table of allowed tuples (``-``, ``/``; never the integer division constraint,
which truncates so that 7/2 would count as 3).

Counting: a single worker enumerates solutions through a callback and stops
at the limit (several workers can report one solution twice).  A search
stopped by the limit with two solutions is ``multiple``; one stopped by the
time limit without a proof is ``unknown``, never ``none``.

Statistics: ``branches`` and ``conflicts`` (CP-SAT's own counters),
``variables`` and ``constraints`` (model size).
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import cage_tuples, candidates, differ_pairs
from cp_sudoku.model import Grid, Puzzle


def build_model(
    puzzle: Puzzle, *, reduce_domains: bool = True
) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model of ``puzzle`` and its cell variables (``puzzle.cells`` order)."""
    model = cp_model.CpModel()
    n = puzzle.max_value
    index = puzzle.index()
    if reduce_domains:
        domains = candidates(puzzle)
        cell_vars = [
            model.new_int_var_from_domain(
                cp_model.Domain.from_values(values or range(1, n + 1)), f"r{r + 1}c{c + 1}"
            )
            for (r, c), values in zip(puzzle.cells, domains, strict=True)
        ]
        if not all(domains):  # a cell with no candidate: an empty domain is an invalid model
            model.add_bool_or([])
    else:
        domains = [list(range(1, n + 1))] * puzzle.size
        cell_vars = [model.new_int_var(1, n, f"r{r + 1}c{c + 1}") for r, c in puzzle.cells]
        for cell, value in puzzle.givens.items():
            model.add(cell_vars[index[cell]] == value)
    for unit in puzzle.units:
        model.add_all_different([cell_vars[index[c]] for c in unit.cells])
    for cage in puzzle.cages:
        xs = [cell_vars[index[c]] for c in cage.cells]
        if cage.op == "+":
            model.add(sum(xs) == cage.target)
        elif cage.op == "*":
            model.add_multiplication_equality(cage.target, xs)
        elif cage.op == "=":
            model.add(xs[0] == cage.target)
        else:
            cage_domains = [domains[index[c]] for c in cage.cells]
            tuples = cage_tuples(cage, cage_domains, differ_pairs(puzzle, cage.cells))
            model.add_allowed_assignments(xs, tuples)
        if cage.distinct and len(xs) > 1:
            model.add_all_different(xs)
    return model, cell_vars


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, cell_vars: list[cp_model.IntVar], limit: int) -> None:
        super().__init__()
        self.cell_vars = cell_vars
        self.limit = limit
        self.solutions: list[Grid] = []

    def on_solution_callback(self) -> None:
        self.solutions.append(tuple(self.value(x) for x in self.cell_vars))
        if len(self.solutions) >= self.limit:
            self.stop_search()


class CpSatBackend:
    """OR-Tools CP-SAT; see the module docstring for the model.

    Args:
        reduce_domains: remove the givens' values from their peers' domains
            before building (default); ``False`` is the OR-Tools samples'
            plain model, kept as the ``cpsat-naive`` baseline.
    """

    def __init__(self, *, reduce_domains: bool = True, name: str = "cpsat") -> None:
        self.name = name
        self.reduce_domains = reduce_domains

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        model, cell_vars = build_model(puzzle, reduce_domains=self.reduce_domains)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = time_limit
        collector = _Collector(cell_vars, limit)
        code = solver.solve(model, collector)
        found = tuple(dict.fromkeys(collector.solutions))
        complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and len(found) < limit
        return Result(
            backend=self.name,
            status=status_of(len(found), complete),
            solutions=found,
            complete=complete,
            seconds=time.perf_counter() - start,
            stats={
                "branches": solver.num_branches,
                "conflicts": solver.num_conflicts,
                "variables": len(model.proto.variables),
                "constraints": len(model.proto.constraints),
            },
        )
