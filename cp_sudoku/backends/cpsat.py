"""The ``cpsat`` back end: OR-Tools CP-SAT.

Compilation, one step per constraint class (:data:`NATIVE`; any other type goes through
its decomposition into the core primitives): one integer variable per cell, its domain
the cell's candidates (with ``reduce_domains``: the values its given peers leave, a
given cell fixed to its value); ``add_all_different`` per unit; a linear sum for a ``+``
cage, ``add_multiplication_equality`` for ``*`` (past 62 bits its sums of prime
exponents); a Skyscraper clue by prefix maxima (a building is seen when it is taller
than the maximum before it; the count is a sum of those booleans); a sparse unit by one
Boolean per cell and height and ``add_exactly_one`` per height; and for every other
constraint (``-``, ``/``, ``?`` cages, relations) a table of allowed tuples
(``add_allowed_assignments``; never the integer division constraint, which truncates so
that 7/2 would count as 3). The primitives: ``AllDifferent`` by ``add_all_different``,
``Linear`` as a linear (in)equality, ``Pair`` and ``Table`` by
``add_allowed_assignments`` over the cells' domains. Sandwich and X-sum clues
(:class:`~cp_sudoku.constraints.automaton.Automaton` types, whose tables run to tens of
thousands of tuples) by ``add_automaton`` over their reachable states.

Counting: a single worker enumerates solutions through a callback and stops
at the limit (several workers can report one solution twice).  A search
stopped by the limit with two solutions is ``multiple``; one stopped by the
time limit without a proof is ``unknown``, never ``none`` (a FEASIBLE status
is not taken for OPTIMAL: only OPTIMAL or INFEASIBLE prove the count).
CP-SAT's own SIGINT handler is off, so Ctrl-C reaches the caller.
Measurements behind :data:`PARAMETERS` are in ``docs/performance.md``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from ortools.sat.python import cp_model

from cp_sudoku.backends.base import Backend, Clock, Interrupted, Option, Sink
from cp_sudoku.constraints import AllDifferent, Linear, Pair, Relation, Table
from cp_sudoku.constraints.automaton import Automaton, State
from cp_sudoku.constraints.outside import Sandwich, XSum
from cp_sudoku.encodings.dispatch import Step, compile_rules
from cp_sudoku.encodings.products import by_exponents, exponent_sums
from cp_sudoku.encodings.shapes import Shape, shape_of
from cp_sudoku.encodings.size import MAX_CELL_VALUES, cell_values, within
from cp_sudoku.model import (
    Cage,
    Constraint,
    Puzzle,
    SparseUnit,
    Unit,
    UsageError,
    Visibility,
    candidates,
)

#: Solver parameters of the ``cpsat`` back end (measured in docs/performance.md).
#: CP-SAT's parameters that end a search before its time limit (effort limits); with none
#: of them set, a search ended incomplete and not by the solution limit ended at its time.
EFFORT_PARAMETERS = frozenset(
    {
        "max_number_of_conflicts",
        "max_deterministic_time",
        "max_memory_in_mb",
        "stop_after_first_solution",
        "stop_after_presolve",
        "stop_after_root_propagation",
    }
)
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
    """The CP-SAT model of ``puzzle`` and its cell variables (``puzzle.cells`` order).

    Raises:
        EncodingTooLarge: more than :data:`~cp_sudoku.encodings.size.MAX_CELL_VALUES`
            cell values (CP-SAT's presolve takes about 2 KiB each).
    """
    return _Builder(puzzle, reduce_domains).result


class _Builder:
    """Builds one model; one method per constraint type, a table for the rest."""

    def __init__(self, puzzle: Puzzle, reduce_domains: bool) -> None:
        self.puzzle = puzzle
        model = self.model = cp_model.CpModel()
        if reduce_domains:
            self.domains = candidates(puzzle)
            size = cell_values(puzzle, self.domains)
            within(size, MAX_CELL_VALUES, "cell values", "CP-SAT model")
            self.vars = [
                model.new_int_var_from_domain(
                    cp_model.Domain.from_values(values or list(puzzle.values)), f"r{r + 1}c{c + 1}"
                )
                for (r, c), values in zip(puzzle.cells, self.domains, strict=True)
            ]
            if not all(self.domains):  # a cell with no candidate: an empty domain is invalid
                model.add_bool_or([])
        else:
            self.domains = [list(puzzle.values)] * len(puzzle.cells)
            size = len(puzzle.cells) * len(puzzle.values)
            within(size, MAX_CELL_VALUES, "cell values", "CP-SAT model")
            low, high = puzzle.min_value, puzzle.max_value
            self.vars = [model.new_int_var(low, high, f"r{r + 1}c{c + 1}") for r, c in puzzle.cells]
            index = puzzle.index
            for cell, value in puzzle.givens.items():
                model.add(self.vars[index[cell]] == value)
        compile_rules(puzzle, self, NATIVE, "cpsat")
        self.result = (model, self.vars)

    def of(self, constraint: Constraint) -> list[cp_model.IntVar]:
        index = self.puzzle.index
        return [self.vars[index[c]] for c in constraint.cells]

    def unit(self, unit: Unit | AllDifferent) -> None:
        self.model.add_all_different(self.of(unit))

    def linear(self, linear: Linear) -> None:
        """``sum(k * x) op rhs``."""
        total = sum(k * x for k, x in zip(linear.coeffs, self.of(linear), strict=True))
        if linear.op == "==":
            self.model.add(total == linear.rhs)
        elif linear.op == "<=":
            self.model.add(total <= linear.rhs)
        elif linear.op == ">=":
            self.model.add(total >= linear.rhs)
        else:
            self.model.add(total != linear.rhs)

    def cage(self, cage: Cage) -> None:
        xs = self.of(cage)
        if cage.op == "+":
            self.model.add(sum(xs) == cage.target)
        elif cage.op == "*":
            self.product(cage, xs)
        else:
            self.table(cage)
            return
        if cage.distinct and len(xs) > 1:
            self.model.add_all_different(xs)

    def product(self, cage: Cage, xs: list[cp_model.IntVar]) -> None:
        """``prod(xs) == target``.  One ``add_multiplication_equality`` while the largest
        product fits CP-SAT's integers; past 2**62 (a 20 x 20 KenKen's 15-cell cage: 20**15)
        CP-SAT refuses that as a possible overflow, so the cage is its sums of prime
        exponents (:mod:`cp_sudoku.encodings.products`), each cell's exponent an
        ``add_element`` of its value.  (A chain of partial products, each between 1 and the
        target, overflowed too: CP-SAT refuses a model whose domains' widths add up past
        64 bits, which two cages with 18-digit targets passed.)"""
        low, high = self.puzzle.min_value, self.puzzle.max_value
        values = self.puzzle.values
        if max(abs(low), abs(high)) ** len(xs) < 2**62 or not by_exponents(cage, values):
            self.model.add_multiplication_equality(cage.target, xs)
            return
        for part in exponent_sums(cage.target, tuple(values)):
            weights = [part.exponents.get(v, 0) for v in range(high + 1)]  # by value
            terms = []
            for x in xs:
                exponent = self.model.new_int_var(0, max(weights), "")
                self.model.add_element(x, weights, exponent)
                terms.append(exponent)
            self.model.add(sum(terms) == part.total)

    def sparse_unit(self, unit: SparseUnit) -> None:
        """Each height 1..top in exactly one cell (a Boolean per cell and height), none
        above ``top``: the other cells are left 0, the only value remaining."""
        holds: dict[int, list[cp_model.IntVar]] = {h: [] for h in range(1, unit.top + 1)}
        for x in self.of(unit):
            self.model.add(x <= unit.top)
            for height, found in holds.items():
                b = self.model.new_bool_var("")
                self.model.add(x == height).only_enforce_if(b)
                self.model.add(x != height).only_enforce_if(~b)
                found.append(b)
        for found in holds.values():
            self.model.add_exactly_one(found)

    def visibility(self, clue: Visibility) -> None:
        """``seen_i <=> x_i > max(x_0..x_{i-1})`` (prefix maxima), ``sum(seen) == count``.

        Native rather than a table: a table enumerates up to n^n tuples where
        the line has empty cells (no peers to prune); see docs/performance.md.
        """
        seen = []
        tallest: cp_model.LinearExprT = 0
        for position, x in enumerate(self.of(clue)):
            b = self.model.new_bool_var("")
            self.model.add(x > tallest).only_enforce_if(b)
            self.model.add(x <= tallest).only_enforce_if(~b)
            seen.append(b)
            if position + 1 < len(clue.cells):
                top = self.model.new_int_var(0, self.puzzle.max_value, "")
                self.model.add_max_equality(top, [tallest, x])
                tallest = top
        self.model.add(sum(seen) == clue.count)

    def table(self, constraint: Constraint) -> None:
        index = self.puzzle.index
        domains = [self.domains[index[c]] for c in constraint.cells]
        tuples = constraint.allowed_in(self.puzzle, domains)
        self.model.add_allowed_assignments(self.of(constraint), tuples)

    def automaton(self, rule: Automaton) -> None:
        """A rule read by an automaton (sandwich, x-sum): ``add_automaton`` over the
        transitions of its runs that can still be accepted, over the cells' domains."""
        index = self.puzzle.index
        layers = rule.layers([self.domains[index[c]] for c in rule.cells])
        ids: dict[State, int] = {rule.start(): 0}
        triples = set()
        for moves in layers:
            for state, value, after in moves:
                source = ids.setdefault(state, len(ids))
                triples.add((source, value, ids.setdefault(after, len(ids))))
        if not all(layers):  # no run is accepted
            self.model.add_bool_or([])
            return
        finals = [number for state, number in ids.items() if rule.accept(state)]
        self.model.add_automaton(self.of(rule), 0, finals, sorted(triples))


#: The native step of each constraint class; other types go through their decomposition.
NATIVE: dict[type[Constraint], Step] = {
    Sandwich: _Builder.automaton,
    XSum: _Builder.automaton,
    Unit: _Builder.unit,
    AllDifferent: _Builder.unit,
    Cage: _Builder.cage,
    SparseUnit: _Builder.sparse_unit,
    Visibility: _Builder.visibility,
    Relation: _Builder.table,
    Linear: _Builder.linear,
    Pair: _Builder.table,
    Table: _Builder.table,
}


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, cell_vars: list[cp_model.IntVar], sink: Sink) -> None:
        super().__init__()
        self.cell_vars = cell_vars
        self.sink = sink

    def on_solution_callback(self) -> None:
        if self.sink.add(tuple(self.value(x) for x in self.cell_vars)):
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


class ShapeModel:
    """A CP-SAT model of one shape (its units, no givens) and its cell variables'
    domains, rewritten in place for each puzzle of the shape (:meth:`set_domains`)."""

    def __init__(self, puzzle: Puzzle, shape: Shape) -> None:
        self.shape = shape
        self.model, self.cell_vars = build_model(replace(puzzle, givens={}), reduce_domains=False)
        self.domains = [self.model.proto.variables[x.index].domain for x in self.cell_vars]

    def set_domains(self, domains: list[list[int]]) -> None:
        """Rewrite each cell variable's domain (values, ``cell_vars`` order) in place."""
        for domain, values in zip(self.domains, domains, strict=True):
            domain.clear()
            domain.extend(_intervals(values))


def _expands_tables(model: cp_model.CpModel) -> bool:
    """Whether ``model`` holds a table constraint, which CP-SAT must solve with presolve
    on: with ``cp_model_presolve`` off, OR-Tools 9.15 expands a table whose tuples an
    earlier table has emptied with a failing CHECK, which aborts the whole process
    (SIGABRT) instead of answering INFEASIBLE.  Smallest case found: a, b, c in 1..4,
    table (a, b) in {(2, 2), (3, 3)} and table (c, b, a) with c < b < a."""
    return any(c.has_table() for c in model.proto.constraints)


def _check_parameters(parameters: dict[str, Any]) -> None:
    probe = cp_model.CpSolver().parameters
    for key, value in parameters.items():
        if not hasattr(probe, key):
            raise UsageError(f"cpsat has no parameter {key!r}")
        try:
            setattr(probe, key, value)
        except (TypeError, ValueError) as error:
            raise UsageError(f"cpsat parameter {key}={value!r}: {error}") from None


class CpSatBackend(Backend):
    """OR-Tools CP-SAT; see the module docstring for the model.

    Options: ``reduce_domains`` (remove the givens' values from their peers'
    domains before building; default True), ``reuse`` (one model per shape,
    domains rewritten per puzzle; default True), ``parameters`` (CP-SAT
    parameters by name, checked when built; default :data:`PARAMETERS`;
    ``num_workers`` is always 1 and ``enumerate_all_solutions`` always on).

    Statistics: ``branches`` and ``conflicts`` (CP-SAT's own counters),
    ``variables`` and ``constraints`` (model size).
    """

    name = "cpsat"
    summary = "OR-Tools CP-SAT: all-different per unit, linear and table constraints"
    statistics: ClassVar[tuple[str, ...]] = ("branches", "conflicts", "variables", "constraints")
    size_statistics: ClassVar[tuple[str, ...]] = ("variables", "constraints")
    cube_grids: ClassVar[int | None] = 1000  # CP-SAT blocks each solution it enumerates
    options: ClassVar[dict[str, Option]] = {
        "reduce_domains": Option(bool, True, "domains reduced by the givens"),
        "reuse": Option(bool, True, "one model per shape, domains rewritten per puzzle"),
        "parameters": Option(dict, None, "CP-SAT parameters by name"),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.reduce_domains: bool = self.settings["reduce_domains"]
        self.reuse = self.settings["reuse"] and self.reduce_domains
        parameters = self.settings["parameters"]
        self.parameters = dict(PARAMETERS if parameters is None else parameters)
        _check_parameters(self.parameters)
        self._shape: ShapeModel | None = None

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """One single-worker CP-SAT search enumerating solutions into ``sink``."""
        model, cell_vars = self._model(puzzle)
        solver = cp_model.CpSolver()
        for key, value in self.parameters.items():
            setattr(solver.parameters, key, value)
        if _expands_tables(model):
            solver.parameters.cp_model_presolve = True
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.catch_sigint_signal = False
        remaining = clock.remaining()
        if remaining is not None:
            solver.parameters.max_time_in_seconds = remaining
        collector = _Collector(cell_vars, sink)
        try:
            code = solver.solve(model, collector)
        except KeyboardInterrupt:
            raise Interrupted from None
        if code == cp_model.MODEL_INVALID:
            raise UsageError(f"cpsat refused the model or its parameters: {solver.solution_info()}")
        stats.update(
            branches=solver.num_branches,
            conflicts=solver.num_conflicts,
            variables=len(model.proto.variables),
            constraints=len(model.proto.constraints),
        )
        complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if not complete and not sink.full and not EFFORT_PARAMETERS & self.parameters.keys():
            clock.end()  # it stopped at its time limit, by its own clock
        return complete

    def _model(self, puzzle: Puzzle) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
        """The shape's model with this puzzle's domains, or a model built for it alone."""
        shape = shape_of(puzzle) if self.reuse else None
        if shape is None:
            return build_model(puzzle, reduce_domains=self.reduce_domains)
        domains = candidates(puzzle)
        if not all(domains):  # a cell without candidates: build_model says so
            return build_model(puzzle)
        if self._shape is None or self._shape.shape != shape:
            self._shape = ShapeModel(puzzle, shape)
        self._shape.set_domains(domains)
        return self._shape.model, self._shape.cell_vars


class NaiveCpSatBackend(CpSatBackend):
    """Baseline: the OR-Tools samples' plain model (full domains, default parameters)."""

    name = "cpsat-naive"
    summary = "baseline: the OR-Tools samples' plain model, default parameters"

    def __init__(self, **options: object) -> None:
        super().__init__(**{"reduce_domains": False, "parameters": {}, **options})
