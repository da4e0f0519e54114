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
time limit without a proof is ``unknown``, never ``none`` (and a FEASIBLE
status is not taken for OPTIMAL: only OPTIMAL or INFEASIBLE prove the count).

Speed (what was measured: CPU milliseconds per puzzle with uniqueness,
building included, medians over 300 royle-17clue and 100-200
forum-hardest-1106 puzzles; for 36x36, the slowest solve of 20 generated
puzzles; one worker, 2-core AMD EPYC, CPython 3.11, OR-Tools 9.15):

===============================================  =======  ========  =========
change                                           17-clue  hardest   36x36 max
===============================================  =======  ========  =========
domains reduced by the givens, default params    1.73     17.9      0.84 s
presolve off (``cp_model_presolve``)             2.81     11.1
+ ``linearization_level`` 0                      --       8.5
+ ``use_sat_inprocessing`` off                   --       5.6
+ ``cp_model_probing_level`` 0                   2.44     4.1
+ ``symmetry_level`` 0 (:data:`PARAMETERS`)      2.15     3.9       0.87 s
+ one model per shape, domains set per puzzle    1.76     --
===============================================  =======  ========  =========

The same switches with presolve kept on give 1.7 ms and 8.4 ms, but one
generated 36x36 puzzle in twenty then took 4.3 s (4.6 s with a single
presolve iteration; default parameters with a single presolve iteration:
3.2 s), so presolve stays off.  Solving twice with a blocking
constraint (``add_forbidden_assignments`` of the first grid) instead of
enumerating costs 15.6 ms on the hardest set instead of 8.5; a fixed search
(``CHOOSE_MIN_DOMAIN_SIZE``) and the other search-branching strategies gained
nothing; expanding all-different constraints changed nothing.  Building the
model costs about 0.5 ms of Python on a 9x9 grid: reusing one model per shape
(cells, units, values; puzzles with cages are always built fresh) and
rewriting the cell domains saves most of it.  Search hints were not tried:
a back end has no solution to hint with (it must not borrow another back
end's).  On easy 16x16 and 25x25 puzzles CP-SAT's defaults (presolve on)
are about 1.5 ms faster; every large grid stays far below 0.5 s either way.

Statistics: ``branches`` and ``conflicts`` (CP-SAT's own counters),
``variables`` and ``constraints`` (model size).
"""

from __future__ import annotations

import time
from dataclasses import replace

from ortools.sat.python import cp_model

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import (
    ShapeKey,
    cage_tuples,
    candidates,
    differ_pairs,
    shape_key,
)
from cp_sudoku.model import Grid, Puzzle

#: Solver parameters of the ``cpsat`` back end (measured in the module docstring).
PARAMETERS: dict[str, bool | int] = {
    "cp_model_presolve": False,
    "linearization_level": 0,
    "use_sat_inprocessing": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
}


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


def _intervals(values: list[int]) -> list[int]:
    """Sorted values as CP-SAT domain bounds ``[a1, b1, a2, b2, ...]``: 1,2,3,5 -> 1,3,5,5."""
    bounds: list[int] = []
    for value in values:
        if bounds and bounds[-1] == value - 1:
            bounds[-1] = value
        else:
            bounds += [value, value]
    return bounds


class _ShapeModel:
    """A model of one shape (no cages, no givens), its cell domains rewritten per puzzle."""

    def __init__(self, puzzle: Puzzle, key: ShapeKey) -> None:
        self.key = key
        shape = replace(puzzle, givens={}, name="")
        self.model, self.cell_vars = build_model(shape, reduce_domains=False)
        self.domains = [self.model.proto.variables[x.index].domain for x in self.cell_vars]

    def set_domains(self, domains: list[list[int]]) -> None:
        """Rewrite each cell variable's domain (values, ``cell_vars`` order) in place."""
        for domain, values in zip(self.domains, domains, strict=True):
            domain.clear()
            domain.extend(_intervals(values))


class CpSatBackend:
    """OR-Tools CP-SAT; see the module docstring for the model.

    Args:
        reduce_domains: remove the givens' values from their peers' domains
            before building (default); ``False`` is the OR-Tools samples'
            plain model, kept as the ``cpsat-naive`` baseline.
        reuse: keep one model per shape and rewrite its domains for each
            puzzle (default; only with ``reduce_domains``, and never for
            puzzles with cages).
        parameters: CP-SAT parameters by name; default :data:`PARAMETERS`
            (``{}``: CP-SAT's defaults).  ``num_workers`` is always 1 and
            ``enumerate_all_solutions`` always on.
    """

    def __init__(
        self,
        *,
        reduce_domains: bool = True,
        reuse: bool = True,
        parameters: dict[str, bool | int] | None = None,
        name: str = "cpsat",
    ) -> None:
        self.name = name
        self.reduce_domains = reduce_domains
        self.reuse = reuse and reduce_domains
        self.parameters = dict(PARAMETERS if parameters is None else parameters)
        self._shape: _ShapeModel | None = None

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        """Up to ``limit`` (>= 1) distinct grids of ``puzzle``, each a tuple of
        values in ``puzzle.cells`` order (row-major); ``time_limit`` in seconds.
        See :class:`~cp_sudoku.backends.base.Backend` for the statuses."""
        start = time.perf_counter()
        model, cell_vars = self._model(puzzle)
        solver = cp_model.CpSolver()
        for key, value in self.parameters.items():
            setattr(solver.parameters, key, value)
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

    def _model(self, puzzle: Puzzle) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
        """The shape's model with this puzzle's domains, or a model built for it alone."""
        key = shape_key(puzzle) if self.reuse else None
        if key is None:
            return build_model(puzzle, reduce_domains=self.reduce_domains)
        domains = candidates(puzzle)
        if not all(domains):  # a cell without candidates: build_model says so
            return build_model(puzzle)
        if self._shape is None or self._shape.key != key:
            self._shape = _ShapeModel(puzzle, key)
        self._shape.set_domains(domains)
        return self._shape.model, self._shape.cell_vars
