"""The 0-1 integer programming formulation of a puzzle: pure, no solver involved.

One formulation serves the ``mip`` back end (which hands it to HiGHS as
arrays), the ``lp`` and ``mps`` exporters and the ``opb`` exporter (every
variable is binary and every coefficient an integer, so the rows are
pseudo-Boolean constraints as they stand).

Variables: one binary ``x[cell, value]`` per cell and candidate value
(``x_r1c2_5``: r1c2 holds 5), plus one binary per allowed tuple of a table
constraint (``t3_7``: table 3 takes its tuple 7).  The objective is 0: the
model is a feasibility problem.  Rows, one family per constraint type
(the textbook Sudoku model of, e.g., Bartlett et al., "An Integer
Programming Model for the Sudoku Problem", J. Online Math. 2008):

- each cell takes one value: ``sum_v x[c, v] = 1``;
- a given fixes its cell (with ``reduce_domains`` the cell has no other
  variable; without it a row ``x[c, v] = 1``);
- a :class:`~cp_sudoku.model.Unit`: each value at most once,
  ``sum_c x[c, v] <= 1`` (``= 1`` when the unit has as many cells as values);
- a :class:`~cp_sudoku.model.SparseUnit`: each height once, ``= 1``, and
  ``len - top`` empty cells, ``sum_c x[c, 0] = len - top``;
- a ``+`` cage: linear, ``sum_c sum_v v x[c, v] = target``, and for a
  distinct cage each value at most once in it;
- a ``*`` cage of three cells or more over values of at least 1: one row per prime
  (:mod:`cp_sudoku.encodings.products`), ``sum_c sum_v e_p(v) x[c, v] = e_p(target)``
  where ``e_p(v)`` is the exponent of the prime ``p`` in ``v``; a hidden operator ``?``
  there: a binary ``s``, the sum's row when ``s`` is 1 and the primes' rows when it is 0
  (each equality as two rows loosened by the least big-M otherwise);
- a :class:`~cp_sudoku.model.Relation`: ``<`` is linear,
  ``sum_v v x[a, v] + 1 <= sum_w w x[b, w]``; ``non-consecutive``,
  ``difference`` and ``ratio`` are support inequalities: ``x[a, v] <= sum of
  x[b, w]`` over the values ``w`` allowed with ``v`` (both ways);
- the core primitives: an :class:`~cp_sudoku.constraints.AllDifferent` as a
  unit; a :class:`~cp_sudoku.constraints.Linear` ``==``, ``<=``, ``>=`` as one
  weighted row (``!=`` as a table); a :class:`~cp_sudoku.constraints.Pair` by
  support inequalities;
- every other constraint (``- / = ?`` cages of two cells, cages over a value 0,
  Skyscraper clues, a :class:`~cp_sudoku.constraints.Table`, ``!=``): a choice
  among its allowed tuples, ``sum_k t_k = 1`` and, per cell and value,
  ``x[c, v] = sum of t_k`` over the tuples giving ``c`` the value ``v``.

Blocking a found grid uses the cell binaries only (:meth:`Mip.blocking_row`),
as the SAT path does, so only distinct grids are counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cp_sudoku.constraints import AllDifferent, Linear, Pair, Table, Visibility
from cp_sudoku.encodings.dispatch import Step, compile_rules
from cp_sudoku.encodings.products import by_exponents, weighted_sums
from cp_sudoku.encodings.size import MAX_MIP_CELL_VALUES, MAX_MIP_NONZEROS, cell_values, within
from cp_sudoku.model import (
    Cage,
    Constraint,
    Grid,
    Puzzle,
    Relation,
    SparseUnit,
    Unit,
    candidates,
    cell_name,
)

#: Row senses.
SENSES = ("=", "<=", ">=")


@dataclass(frozen=True)
class Row:
    """One linear row ``sum coefs[k] * var[indices[k]]  sense  rhs`` (integers)."""

    name: str
    indices: tuple[int, ...]
    coefs: tuple[int, ...]
    sense: str
    rhs: int


@dataclass
class Mip:
    """A 0-1 model: binary variables by name, rows, and the cell binaries.

    - ``names[j]``: variable ``j``'s name (every variable is binary);
    - ``rows``: the constraints (:class:`Row`);
    - ``cell_vars[i]``: value -> variable of cell ``i`` (``Puzzle.cells`` order);
    - ``given``: positions of the cells fixed by a given;
    - ``nonzeros``: the terms of ``rows``, summed.
    """

    names: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    cell_vars: list[dict[int, int]] = field(default_factory=list)
    given: frozenset[int] = frozenset()
    nonzeros: int = 0
    _names: dict[str, int] = field(default_factory=dict, repr=False)

    def add_var(self, name: str) -> int:
        """A new binary variable's index."""
        self.names.append(name)
        return len(self.names) - 1

    def add_row(self, name: str, terms: Sequence[tuple[int, int]], sense: str, rhs: int) -> None:
        """Add ``sum coef * var  sense  rhs`` for ``terms`` = (variable, coefficient) pairs.

        A row without terms gets the term ``0 * var 0``, so that every format
        can write it; a repeated name gets a suffix (``_2``).
        """
        terms = terms or [(0, 0)]
        seen = self._names.get(name, 0)
        self._names[name] = seen + 1
        if seen:
            name = f"{name}_{seen + 1}"
        indices = tuple(var for var, _ in terms)
        coefs = tuple(coef for _, coef in terms)
        self.rows.append(Row(name, indices, coefs, sense, rhs))
        self.nonzeros += len(indices)

    def decode(self, values: Sequence[float]) -> Grid:
        """The grid of a 0-1 solution (``values[j]`` of variable ``j``, 0.5 the threshold)."""
        return tuple(
            next((v for v, var in cell.items() if values[var] > 0.5), -1) for cell in self.cell_vars
        )

    def blocking_row(self, grid: Grid, name: str = "nogood") -> Row | None:
        """The no-good cut excluding ``grid``, over the cell binaries of cells without a given.

        ``sum x[c, grid[c]] <= k - 1`` over the ``k`` cells that are not given;
        None when every cell is given (nothing else to find).
        """
        free = [i for i in range(len(self.cell_vars)) if i not in self.given]
        if not free:
            return None
        indices = tuple(self.cell_vars[i][grid[i]] for i in free)
        return Row(name, indices, (1,) * len(indices), "<=", len(indices) - 1)


def to_mip(puzzle: Puzzle, *, reduce_domains: bool = True) -> Mip:
    """The 0-1 model of ``puzzle`` (see the module docstring).

    ``reduce_domains``: a cell's binaries are its candidates only (the values
    no given peer holds; a given cell has one); without it every cell has one
    binary per value and each given is a row.

    Raises:
        EncodingTooLarge: more than :data:`~cp_sudoku.encodings.size.MAX_MIP_CELL_VALUES`
            cell binaries, or more than :data:`~cp_sudoku.encodings.size.MAX_MIP_NONZEROS`
            nonzeros.
    """
    return _Builder(puzzle, reduce_domains).mip


class _Builder:
    """Builds one :class:`Mip`; one method per constraint type, tuples for the rest."""

    def __init__(self, puzzle: Puzzle, reduce_domains: bool) -> None:
        self.puzzle = puzzle
        mip = self.mip = Mip(given=frozenset(puzzle.index[c] for c in puzzle.givens))
        full = list(puzzle.values)
        domains = candidates(puzzle) if reduce_domains else [full] * len(puzzle.cells)
        # a cell left without candidates keeps every value: the rows then prove "none"
        self.domains = [values or full for values in domains]
        within(cell_values(puzzle, self.domains), MAX_MIP_CELL_VALUES, "cell values", "MIP")
        for cell, values in zip(puzzle.cells, self.domains, strict=True):
            name = cell_name(cell)
            mip.cell_vars.append({v: mip.add_var(f"x_{name}_{v}") for v in values})
        for i, cell in enumerate(puzzle.cells):
            mip.add_row(f"cell_{cell_name(cell)}", self.terms(i), "=", 1)
        if not reduce_domains:
            index = puzzle.index
            for cell, value in puzzle.givens.items():
                var = mip.cell_vars[index[cell]][value]
                mip.add_row(f"given_{cell_name(cell)}", [(var, 1)], "=", 1)
        self.tables = 0
        compile_rules(puzzle, self, NATIVE, "mip", bound=self.bound)

    def bound(self) -> None:
        """Stop once the rows pass :data:`~cp_sudoku.encodings.size.MAX_MIP_NONZEROS`."""
        within(self.mip.nonzeros, MAX_MIP_NONZEROS, "nonzeros", "MIP", so_far=True)

    def terms(self, i: int, weighted: bool = False) -> list[tuple[int, int]]:
        """Cell ``i``'s binaries as terms, with coefficient 1 or its value."""
        return [(var, v if weighted else 1) for v, var in self.mip.cell_vars[i].items()]

    def positions(self, constraint: Constraint) -> list[int]:
        index = self.puzzle.index
        return [index[c] for c in constraint.cells]

    def once(self, name: str, positions: list[int], value: int, sense: str) -> None:
        """``sum x[c, value]`` over ``positions`` (those that may hold it) ``sense 1``."""
        terms = [
            (self.mip.cell_vars[i][value], 1) for i in positions if value in self.mip.cell_vars[i]
        ]
        if terms or sense == "=":
            self.mip.add_row(f"{name}_{value}", terms, sense, 1)

    def unit(self, unit: Unit | AllDifferent) -> None:
        positions = self.positions(unit)
        sense = "=" if len(positions) == len(self.puzzle.values) else "<="
        label = _label(
            unit.name if isinstance(unit, Unit) else f"alldiff {cell_name(unit.cells[0])}"
        )
        for value in self.puzzle.values:
            self.once(label, positions, value, sense)

    def sparse_unit(self, unit: SparseUnit) -> None:
        positions = self.positions(unit)
        label = _label(unit.name)
        for height in range(1, unit.top + 1):
            self.once(label, positions, height, "=")
        empty = [(self.mip.cell_vars[i][0], 1) for i in positions if 0 in self.mip.cell_vars[i]]
        self.mip.add_row(f"{label}_empty", empty, "=", len(positions) - unit.top)

    def cage(self, cage: Cage) -> None:
        if by_exponents(cage, self.puzzle.values):
            self.product(cage)
            return
        if cage.op != "+":
            self.table(cage)
            return
        positions = self.positions(cage)
        label = f"cage_{cell_name(cage.cells[0])}_{cage.target}"
        terms = [term for i in positions for term in self.terms(i, weighted=True)]
        self.mip.add_row(f"{label}_sum", terms, "=", cage.target)
        self.distinct(cage, label, positions)

    def distinct(self, cage: Cage, label: str, positions: list[int]) -> None:
        """For a distinct cage, each value at most once in it."""
        if cage.distinct:
            for value in self.puzzle.values:
                self.once(f"{label}_once", positions, value, "<=")

    def product(self, cage: Cage) -> None:
        """One row per prime (:mod:`.products`): ``sum_c sum_v e_p(v) x[c, v] = e_p(target)``;
        for a hidden operator (``?``), a binary ``s``: the sum's row holds when ``s`` is 1,
        the primes' rows when it is 0; for a distinct cage each value at most once in it."""
        positions = self.positions(cage)
        label = f"cage_{cell_name(cage.cells[0])}_product"
        values = tuple(self.puzzle.values)
        primes = weighted_sums("*", cage.target, values)
        if cage.op == "*":
            self.sums(label, positions, primes, None)
        else:
            either = self.mip.add_var(f"{label}_is_sum")
            plain = weighted_sums("+", cage.target, values)
            self.sums(f"{label}_sum", positions, plain, (either, 1))
            self.sums(label, positions, primes, (either, 0))
        self.distinct(cage, label, positions)

    def sums(
        self,
        label: str,
        positions: list[int],
        sums: Sequence[tuple[dict[int, int], int]],
        switch: tuple[int, int] | None,
    ) -> None:
        """Per ``(weights, total)``: ``sum_c sum_v weights[v] x[c, v] = total``.  With
        ``switch = (s, on)`` only when the binary ``s`` is ``on``: two rows, each loosened
        otherwise by how far the sum can stray from the total (big-M, the least M)."""
        cells = [self.mip.cell_vars[i] for i in positions]
        for k, (weights, total) in enumerate(sums):
            terms = [(var, weights[v]) for held in cells for v, var in held.items() if weights[v]]
            if switch is None:
                if terms or total:  # an empty row that must be 1: no solution
                    self.mip.add_row(f"{label}_{k}", terms, "=", total)
                continue
            s, on = switch
            high = sum(max(weights[v] for v in held) for held in cells)
            low = sum(min(weights[v] for v in held) for held in cells)
            over, under = max(0, high - total), max(0, total - low)
            sign = 1 if on else -1  # on: loosened when s is 0; off: when s is 1
            self.mip.add_row(
                f"{label}_{k}_le", [*terms, (s, sign * over)], "<=", total + (over if on else 0)
            )
            self.mip.add_row(
                f"{label}_{k}_ge", [*terms, (s, -sign * under)], ">=", total - (under if on else 0)
            )

    def relation(self, relation: Relation) -> None:
        a, b = self.positions(relation)
        label = f"rel_{cell_name(relation.cells[0])}_{cell_name(relation.cells[1])}"
        if relation.op == "<":
            terms = self.terms(a, weighted=True)
            terms += [(var, -coef) for var, coef in self.terms(b, weighted=True)]
            self.mip.add_row(label, terms, "<=", -1)
            return
        self.support(relation, label)

    def pair(self, pair: Pair) -> None:
        self.support(pair, f"pair_{cell_name(pair.cells[0])}_{cell_name(pair.cells[1])}")

    def support(self, constraint: Relation | Pair, label: str) -> None:
        """Two cells: each value of one at most the sum of the other's values allowed with it."""
        a, b = self.positions(constraint)
        for first, second, order in ((a, b, 0), (b, a, 1)):
            for v, var in self.mip.cell_vars[first].items():
                support = []
                for w, other in self.mip.cell_vars[second].items():
                    pair = (v, w) if order == 0 else (w, v)
                    if constraint.holds(pair):
                        support.append((other, -1))
                self.mip.add_row(f"{label}_{order}_{v}", [(var, 1), *support], "<=", 0)

    def linear(self, linear: Linear) -> None:
        if linear.op == "!=":
            self.table(linear)
            return
        terms = [
            (var, k * coef)
            for k, i in zip(linear.coeffs, self.positions(linear), strict=True)
            for var, coef in self.terms(i, weighted=True)
        ]
        sense = "=" if linear.op == "==" else linear.op
        self.mip.add_row(f"linear_{cell_name(linear.cells[0])}", terms, sense, linear.rhs)

    def table(self, constraint: Constraint) -> None:
        positions = self.positions(constraint)
        domains = [self.domains[i] for i in positions]
        tuples = constraint.allowed_in(self.puzzle, domains)
        self.tables += 1
        label = f"t{self.tables}"
        chosen = [self.mip.add_var(f"{label}_{k}") for k in range(len(tuples))]
        self.mip.add_row(f"{label}_one", [(t, 1) for t in chosen], "=", 1)
        for slot, i in enumerate(positions):
            for value, var in self.mip.cell_vars[i].items():
                using = [
                    (t, -1) for t, row in zip(chosen, tuples, strict=True) if row[slot] == value
                ]
                self.mip.add_row(
                    f"{label}_{cell_name(self.puzzle.cells[i])}_{value}", [(var, 1), *using], "=", 0
                )


#: The step of each constraint class; other types go through their decomposition.
NATIVE: dict[type[Constraint], Step] = {
    Unit: _Builder.unit,
    AllDifferent: _Builder.unit,
    SparseUnit: _Builder.sparse_unit,
    Cage: _Builder.cage,
    Relation: _Builder.relation,
    Visibility: _Builder.table,
    Linear: _Builder.linear,
    Pair: _Builder.pair,
    Table: _Builder.table,
}


def _label(name: str) -> str:
    """A unit's name as a row-name stem: ``row 1`` -> ``row_1``."""
    return "".join(ch if ch.isalnum() else "_" for ch in name) or "unit"
