"""CNF encodings of a puzzle: pure, no solver involved.

The direct encoding: one Boolean variable ``x(cell, value)`` per cell and
candidate value, true when the cell holds the value.  From Lynce and
Ouaknine, "Sudoku as a SAT Problem" (AIMATH 2006), the clause families are

- *cell definedness*: every cell takes at least one value (one clause per cell);
- *cell uniqueness*: no cell takes two values (pairwise, ``C(n, 2)`` per cell);
- *unit uniqueness*: no value twice in a unit (pairwise, ``C(|unit|, 2)`` per
  unit and value);
- *unit definedness*: every value appears in a unit (one clause per unit and
  value; only for units that hold every value, that is ``|unit| = n``).

and the three encodings are

==============  ==========================================  =====================
encoding        families                                    empty 9x9 (clauses)
==============  ==========================================  =====================
``minimal``     cell definedness + unit uniqueness          81 + 8,748 = 8,829
``efficient``   minimal + cell uniqueness                   11,745
``extended``    efficient + unit definedness                11,988
==============  ==========================================  =====================

with one unit clause per given.  ``optimised`` is Kwon and Jain's optimised
encoding ("Optimized CNF Encoding for Sudoku Puzzles", LPAR 2006): the
extended encoding with the givens applied before writing it, so a given cell
has no variable, a value taken by a given peer has no variable, and a value
already given in a unit needs no definedness clause.

Other constraint types, compiled through :func:`~cp_sudoku.encodings.dispatch.compile_rules`
(:data:`NATIVE`, by class; a type without an entry through its decomposition):

- a sum cage with distinct values: one selector variable per valid digit set;
  ``OR(selectors)``; a selector forbids every value outside its set in every
  cage cell and requires each of its values somewhere in the cage; a cell
  value implies a selector whose set holds it; plus unit uniqueness over the
  cage cells;
- a two-cell constraint (a :class:`~cp_sudoku.model.Relation`, or a cage of
  two cells): one binary clause per forbidden pair of values (the support
  encoding needs no auxiliary variable there);
- a :class:`~cp_sudoku.model.SparseUnit`: at most one cell per height
  (pairwise) and at least one (a clause per height), no height above its top;
- a :class:`~cp_sudoku.model.Visibility` (Skyscraper clue): prefix maxima,
  ``above(j, h)`` = some cell up to position j holds h or more; cell j is seen
  when it holds a value v with ``above(j - 1, v)`` false; exactly ``count``
  cells are seen (a sequential counter, Sinz, "Towards an Optimal CNF
  Encoding of Boolean Cardinality Constraints", CP 2005), with both
  directions of every definition so that the count is exact;
- a :class:`~cp_sudoku.constraints.Linear` (and a ``+`` cage without distinct
  values): layered partial sums, the MDD encoding of a linear constraint (Abio,
  Nieuwenhuis, Oliveras and Rodriguez-Carbonell, "A New Look at BDDs for
  Pseudo-Boolean Constraints", JAIR 2012): a variable ``P(j, s)`` per reachable
  partial sum ``s`` of the first ``j`` cells, ``P(j, s) and x(j, v) ->
  P(j + 1, s + k v)``, and a clause forbidding each step to a partial sum that
  can no longer meet the right-hand side;
- a ``*`` cage of three cells or more over values of at least 1: one sum of prime
  exponents per prime (:mod:`cp_sudoku.encodings.products`), each as layered partial
  sums like a linear constraint (and, with distinct values, a unit), never a table; a
  hidden operator ``?`` there: a selector literal ``e``, the sum's clauses each with
  ``-e`` added and the product's each with ``e``;
- a :class:`~cp_sudoku.constraints.Pair`: its forbidden pairs, as for two-cell
  constraints; an :class:`~cp_sudoku.constraints.AllDifferent`: as a unit;
- a sandwich or X-sum clue (an :class:`~cp_sudoku.constraints.automaton.Automaton`):
  the same layered scheme over the automaton's states, Bacchus's encoding of the
  ``regular`` constraint ("GAC via unit propagation", CP 2007): ``P(j, q) and
  x(j, v) -> P(j + 1, step(q, v))``, and ``not (P(j, q) and x(j, v))`` for a
  digit that leaves no accepted run;
- every other constraint (a :class:`~cp_sudoku.constraints.Table`, other cages of three
  or more cells): the allowed-tuple table,
  one selector per allowed tuple; ``OR(selectors)``; a selector implies each
  of its cell values; a cell value implies one of the selectors that use it.

Blocking a found solution uses one clause over the *cell* variables (never
auxiliary ones), so only distinct grids are counted.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any

from cp_sudoku.constraints import AllDifferent, Linear, Pair, Table
from cp_sudoku.constraints.automaton import Automaton
from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.constraints.outside import Sandwich, XSum
from cp_sudoku.encodings.dispatch import Step, compile_rules
from cp_sudoku.encodings.products import by_exponents, exponent_sums
from cp_sudoku.encodings.size import MAX_CLAUSES, check_clauses, within
from cp_sudoku.encodings.sums import digit_sets, is_distinct_sum
from cp_sudoku.model import (
    Cage,
    Cell,
    Constraint,
    Grid,
    Puzzle,
    Relation,
    SparseUnit,
    Unit,
    UsageError,
    Visibility,
    candidates,
)

ENCODINGS = ("minimal", "efficient", "extended", "optimised")


@dataclass
class Cnf:
    """A CNF formula over integer literals (DIMACS style: ``-v`` negates ``v``).

    ``literal[i]`` maps each candidate value of cell ``i`` (``Puzzle.cells``
    order) to its variable; a cell with an empty map is fixed by a given
    (``fixed[i]``).  Variables above the cell variables are auxiliary
    (selectors).  ``encoding`` names the encoding that wrote it.
    """

    num_vars: int
    clauses: list[list[int]]
    literal: list[dict[int, int]]
    fixed: dict[int, int] = field(default_factory=dict)
    cells: tuple[Cell, ...] = ()
    encoding: str = "optimised"

    @cached_property
    def _cell_of(self) -> list[tuple[int, int] | None]:
        """Per variable (index = variable): its (cell index, value), None if auxiliary."""
        found: list[tuple[int, int] | None] = [None] * (self.num_vars + 1)
        for i, lits in enumerate(self.literal):
            for value, var in lits.items():
                found[var] = (i, value)
        return found

    def decode(self, model: Iterable[int]) -> Grid:
        """The grid a satisfying assignment describes (a cell's lowest true value).

        ``model`` lists literals (``v`` true, ``-v`` false), as python-sat's
        ``get_model`` does; variables above ``num_vars`` are ignored.
        """
        cell_of = self._cell_of
        grid = [-1] * len(self.literal)  # -1: not decided yet (0 is a value in some kinds)
        for i, value in self.fixed.items():
            grid[i] = value
        top = self.num_vars
        if isinstance(model, list) and len(model) >= top > 0 and abs(model[top - 1]) == top:
            model = model[:top]  # in variable order, as get_model gives it: skip the rest
        for var in sorted([x for x in model if x > 0]):
            place = cell_of[var] if var <= top else None
            if place is not None and grid[place[0]] < 0:
                grid[place[0]] = place[1]
        return tuple(grid)

    def blocking_clause(self, grid: Grid) -> list[int]:
        """A clause over cell variables that excludes exactly ``grid``."""
        return [-lits[grid[i]] for i, lits in enumerate(self.literal) if i not in self.fixed]

    def given_clauses(self, givens: Iterable[tuple[int, int]]) -> list[list[int]]:
        """Unit clauses fixing cell ``i`` to ``value`` for each ``(i, value)``."""
        return [[self.literal[i][value]] for i, value in givens]

    def dimacs_lines(self, extra: Sequence[Sequence[int]] = ()) -> Iterator[str]:
        """DIMACS CNF text, with a comment header mapping variables to cells.

        ``extra`` clauses (givens, a blocking clause) are appended after the
        formula's own and counted in the header.
        """
        yield (
            f"c cp_sudoku direct encoding ({self.encoding}); "
            "variable -> (row, column, value), 1-based"
        )
        for i, lits in enumerate(self.literal):
            r, c = self.cells[i]
            for value, var in lits.items():
                yield f"c {var} r{r + 1}c{c + 1} = {value}"
        for i, value in self.fixed.items():
            r, c = self.cells[i]
            yield f"c given r{r + 1}c{c + 1} = {value} (no variable)"
        yield f"p cnf {self.num_vars} {len(self.clauses) + len(extra)}"
        for clause in (*self.clauses, *extra):
            yield " ".join(map(str, clause)) + " 0"


def to_cnf(puzzle: Puzzle, encoding: str = "optimised") -> Cnf:
    """The CNF of ``puzzle`` under ``encoding`` (one of :data:`ENCODINGS`).

    An empty 9x9 under ``extended`` has 729 variables and 11,988 clauses.

    Raises:
        UsageError: an unknown encoding name.
        EncodingTooLarge: more than :data:`~cp_sudoku.encodings.size.MAX_CLAUSES` clauses
            (estimated before writing the units, counted after each other constraint).
    """
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    return _Writer(puzzle, encoding).cnf


class _Writer:
    """Writes one puzzle's clauses; one method per constraint type."""

    def __init__(self, puzzle: Puzzle, encoding: str) -> None:
        self.puzzle = puzzle
        self.encoding = encoding
        index = puzzle.index
        simplify = encoding == "optimised"
        domains = candidates(puzzle) if simplify else [list(puzzle.values)] * len(puzzle.cells)
        check_clauses(puzzle, domains, "CNF")
        self.fixed = {index[c]: v for c, v in puzzle.givens.items()} if simplify else {}
        self.literal: list[dict[int, int]] = []
        self.top = 0
        self.clauses: list[list[int]] = []
        for i, values in enumerate(domains):
            lits = {}
            if i not in self.fixed:
                for value in values:
                    self.top += 1
                    lits[value] = self.top
            elif not values:  # a given that clashes with a given peer
                self.clauses.append([])
            self.literal.append(lits)
        for i, lits in enumerate(self.literal):
            if i in self.fixed:
                continue
            self.clauses.append(list(lits.values()))  # definedness (empty: no candidate)
            if encoding != "minimal":
                self.clauses.extend([-a, -b] for a, b in combinations(lits.values(), 2))
        if not simplify:
            self.clauses.extend([self.literal[index[c]][v]] for c, v in puzzle.givens.items())
        compile_rules(puzzle, self, NATIVE, "sat", bound=self.bound)
        self.cnf = Cnf(self.top, self.clauses, self.literal, self.fixed, puzzle.cells, encoding)

    def bound(self) -> None:
        """Stop once the clauses written pass :data:`~cp_sudoku.encodings.size.MAX_CLAUSES`."""
        within(len(self.clauses), MAX_CLAUSES, "clauses", "CNF", so_far=True)

    def members(self, constraint: Constraint) -> list[int]:
        index = self.puzzle.index
        return [index[c] for c in constraint.cells]

    def unit(self, unit: Unit | AllDifferent, definedness: bool | None = None) -> None:
        """Unit uniqueness, and unit definedness for a unit holding every value."""
        members = self.members(unit)
        if definedness is None:
            definedness = self.encoding in ("extended", "optimised")
        full = definedness and len(members) == len(self.puzzle.values)
        given = [self.fixed[i] for i in members if i in self.fixed]
        given_here = set(given)
        if len(given_here) < len(given):  # two givens alike (not peers: no unit saw them)
            self.clauses.append([])
        for value in self.puzzle.values:
            lits = [self.literal[i][value] for i in members if value in self.literal[i]]
            if value in given_here:  # a given's value is out for the others (an all-different
                self.clauses.extend([-x] for x in lits)  # outside the units: no peer saw it)
                continue
            self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))
            if full:
                self.clauses.append(lits)

    def sparse_unit(self, unit: SparseUnit) -> None:
        """Each height 1..top at most once (pairwise) and at least once."""
        members = self.members(unit)
        given_here = {self.fixed[i] for i in members if i in self.fixed}
        for i in members:  # no height above top: the cells left over can only be 0
            self.clauses.extend([-x] for value, x in self.literal[i].items() if value > unit.top)
            if self.fixed.get(i, 0) > unit.top:
                self.clauses.append([])
        for value in range(1, unit.top + 1):
            lits = [self.literal[i][value] for i in members if value in self.literal[i]]
            self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))
            if value not in given_here:
                self.clauses.append(lits)
            elif lits:  # given once already: no other cell may take it
                self.clauses.extend([-a] for a in lits)

    def domain(self, i: int) -> list[int]:
        return [self.fixed[i]] if i in self.fixed else list(self.literal[i])

    def lit(self, i: int, value: int) -> int | None:
        """The literal of ``cell i = value``; None when it is decided true by a given."""
        if i in self.fixed:
            return None
        return self.literal[i].get(value, 0)  # 0: impossible value

    def cage(self, cage: Cage) -> None:
        if is_distinct_sum(cage):
            self.unit(Unit("cage", cage.cells), definedness=False)
            self.digit_sets(cage)
        elif len(cage.cells) == 2:
            self.pairs(cage)
        elif cage.op == "+":
            self.sum(cage)
        elif by_exponents(cage, self.puzzle.values):
            if cage.distinct:
                self.unit(Unit("cage", cage.cells), definedness=False)
            if cage.op == "*":
                self.product(cage)
            else:  # a hidden operator: the sum under a selector, else the product
                either = self.new()
                self.guarded(either, lambda: self.sum(cage))
                self.guarded(-either, lambda: self.product(cage))
        else:
            self.table(cage)

    def sum(self, cage: Cage) -> None:
        """The cage's values add up to its target (a linear constraint)."""
        self.linear(Linear(cage.cells, [1] * len(cage.cells), "==", cage.target))

    def guarded(self, literal: int, write: Callable[[], None]) -> None:
        """The clauses ``write`` adds, each made to hold only when ``literal`` is true."""
        start = len(self.clauses)
        write()
        for clause in self.clauses[start:]:
            clause.append(-literal)

    def product(self, cage: Cage) -> None:
        """The product of the cage's values is its target: one sum of exponents per prime
        (:mod:`.products`), each as layered partial sums."""
        members = self.members(cage)
        for part in exponent_sums(cage.target, tuple(self.puzzle.values)):
            weights = [part.exponents] * len(members)

            def reaches(low: int, high: int, t: int = part.total) -> bool:
                return low <= t <= high

            self.weighted(members, weights, reaches)

    def digit_sets(self, cage: Cage) -> None:
        members = self.members(cage)
        support: dict[tuple[int, int], list[int]] = {}
        selectors: list[int] = []
        for digits in digit_sets(len(members), cage.target, self.puzzle.max_value):
            if any(i in self.fixed and self.fixed[i] not in digits for i in members):
                continue
            self.top += 1
            selectors.append(self.top)
            for i in members:
                for value, x in self.literal[i].items():
                    if value in digits:
                        support.setdefault((i, value), []).append(self.top)
                    else:
                        self.clauses.append([-self.top, -x])
            for value in digits:
                if any(self.fixed.get(i) == value for i in members):
                    continue
                self.clauses.append(
                    [-self.top]
                    + [self.literal[i][value] for i in members if value in self.literal[i]]
                )
        self.selectors(members, selectors, support)

    def pairs(self, constraint: Constraint) -> None:
        """A two-cell constraint: one binary clause per forbidden pair of values."""
        a, b = self.members(constraint)
        da, db = self.domain(a), self.domain(b)
        allowed = set(constraint.allowed_in(self.puzzle, [da, db]))
        for va in da:
            for vb in db:
                if (va, vb) in allowed:
                    continue
                self.clauses.append(
                    [-x for x in (self.lit(a, va), self.lit(b, vb)) if x is not None]
                )

    def linear(self, linear: Linear) -> None:
        """Layered partial sums (module docstring): ``P(j, s)`` per reachable partial sum."""
        members = self.members(linear)
        weights = [
            {v: k * v for v in self.domain(i)} for k, i in zip(linear.coeffs, members, strict=True)
        ]
        self.weighted(members, weights, lambda low, high: _can_meet(linear, low, high))

    def weighted(
        self,
        members: Sequence[int],
        weights: Sequence[dict[int, int]],
        can_meet: Callable[[int, int], bool],
    ) -> None:
        """Layered partial sums of ``weights[j][value]`` over the cells ``members``: a step
        is kept while the sum, known to lie in ``low..high`` with the cells after it,
        ``can_meet(low, high)``."""
        terms = [
            [w[v] for v in self.domain(i)] or [0] for w, i in zip(weights, members, strict=True)
        ]
        low = [0] * (len(members) + 1)  # least and greatest sum of the cells from j on
        high = [0] * (len(members) + 1)
        for j in range(len(members) - 1, -1, -1):
            low[j], high[j] = low[j + 1] + min(terms[j]), high[j + 1] + max(terms[j])

        def move(j: int, total: int, value: int) -> int | None:
            reached = total + weights[j][value]
            return reached if can_meet(reached + low[j + 1], reached + high[j + 1]) else None

        self.layered(members, 0, move)

    def layered(
        self, members: Sequence[int], start: Hashable, move: Callable[[int, Any, int], Any]
    ) -> None:
        """Layered states over the cells ``members`` in order (Bacchus, CP 2007): a
        literal per reachable state of each layer, from ``start``; the state and the
        digit of cell ``members[j]`` imply the next state ``move(j, state, digit)``, and
        a digit with no move (None) is excluded from that state."""
        true = self.new()
        self.clauses.append([true])
        current: dict[Any, int] = {start: true}
        for j, i in enumerate(members):
            following: dict[Any, int] = {}
            for state, p in current.items():
                # the states can grow as the values to the power of the cells (a linear
                # sum with coefficients 1, 9, 81, ...): the clock and the size bound hold
                check_deadline()
                self.bound()
                for value in self.domain(i):
                    x = self.lit(i, value)
                    if x == 0:
                        continue
                    given = [-x] if x is not None else []
                    after = move(j, state, value)
                    if after is None:
                        self.clauses.append([-p, *given])
                        continue
                    if after not in following:
                        following[after] = self.new()
                    self.clauses.append([-p, *given, following[after]])
            current = following

    def new(self) -> int:
        """A fresh auxiliary variable."""
        self.top += 1
        return self.top

    def define_or(self, terms: Sequence[int]) -> int:
        """A variable equivalent to ``OR(terms)`` (terms are literals)."""
        y = self.new()
        self.clauses.append([-y, *terms])
        self.clauses.extend([-t, y] for t in terms)
        return y

    def define_and(self, a: int, b: int) -> int:
        """A variable equivalent to ``a AND b``."""
        y = self.new()
        self.clauses.extend([[-y, a], [-y, b], [-a, -b, y]])
        return y

    def visibility(self, clue: Visibility) -> None:
        """Prefix maxima and an exact sequential counter (module docstring)."""
        true = self.new()
        self.clauses.append([true])
        heights = [v for v in self.puzzle.values if v > 0]
        above = {h: -true for h in heights}  # nothing before the first cell
        seen = []
        for i in self.members(clue):
            holds = {v: self.holds(i, v, true) for v in heights}
            seen.append(
                self.define_or(
                    [self.define_and(x, -above[v]) for v, x in holds.items() if x is not None]
                )
            )
            above = {
                h: self.define_or([above[h], *(x for v, x in holds.items() if v >= h and x)])
                for h in heights
            }
        at_least = [true] + [-true] * (clue.count + 1)  # at_least[k]: k of the cells so far
        for s in seen:
            at_least = [true] + [
                self.define_or([at_least[k], self.define_and(at_least[k - 1], s)])
                for k in range(1, clue.count + 2)
            ]
        self.clauses.append([at_least[clue.count]])
        self.clauses.append([-at_least[clue.count + 1]])

    def holds(self, i: int, value: int, true: int) -> int | None:
        """The literal of ``cell i = value`` (``true`` for a given that holds it), None if
        the cell cannot hold it."""
        if i in self.fixed:
            return true if self.fixed[i] == value else None
        return self.literal[i].get(value)

    def table(self, constraint: Constraint) -> None:
        """The allowed-tuple table: one selector per tuple."""
        members = self.members(constraint)
        domains = [self.domain(i) for i in members]
        support: dict[tuple[int, int], list[int]] = {}
        selectors: list[int] = []
        for values in constraint.allowed_in(self.puzzle, domains):
            self.top += 1
            selectors.append(self.top)
            for i, value in zip(members, values, strict=True):
                x = self.lit(i, value)
                if x:
                    self.clauses.append([-self.top, x])
                    support.setdefault((i, value), []).append(self.top)
        self.selectors(members, selectors, support)

    def selectors(
        self, members: list[int], selectors: list[int], support: dict[tuple[int, int], list[int]]
    ) -> None:
        """At least one selector; each cell value implies a selector that supports it."""
        self.clauses.append(selectors)  # empty when nothing is allowed: unsatisfiable
        for i in members:
            for value, x in self.literal[i].items():
                self.clauses.append([-x, *support.get((i, value), [])])

    def automaton(self, rule: Automaton) -> None:
        """The automaton's live moves as layered states (:meth:`layered`)."""
        members = self.members(rule)
        layers = rule.layers([self.domain(i) for i in members])
        steps = [{(state, value): after for state, value, after in moves} for moves in layers]
        self.layered(members, rule.start(), lambda j, state, value: steps[j].get((state, value)))


def _can_meet(linear: Linear, low: int, high: int) -> bool:
    """Whether a sum known to lie in ``low..high`` can still meet ``linear``'s comparison."""
    if linear.op == "==":
        return low <= linear.rhs <= high
    if linear.op == "<=":
        return low <= linear.rhs
    if linear.op == ">=":
        return high >= linear.rhs
    return not low == high == linear.rhs


#: The native step of each constraint class; other types go through their decomposition.
NATIVE: dict[type[Constraint], Step] = {
    Sandwich: _Writer.automaton,
    XSum: _Writer.automaton,
    Unit: _Writer.unit,
    AllDifferent: _Writer.unit,
    SparseUnit: _Writer.sparse_unit,
    Cage: _Writer.cage,
    Relation: _Writer.pairs,
    Visibility: _Writer.visibility,
    Linear: _Writer.linear,
    Pair: _Writer.pairs,
    Table: _Writer.table,
}


def compiled_clauses(puzzle: Puzzle, encoding: str = "extended") -> int:
    """The number of clauses of ``puzzle``'s shape without givens (units only), unbuilt.

    Equals ``len(to_cnf(puzzle_without_givens, encoding).clauses)``; an empty
    9x9 has 11,988 under ``extended``.
    """
    n = len(puzzle.values)
    pairs = n * (n - 1) // 2
    count = len(puzzle.cells)  # cell definedness
    if encoding != "minimal":
        count += len(puzzle.cells) * pairs  # cell uniqueness
    for unit in puzzle.units:
        size = len(unit.cells)
        count += n * (size * (size - 1) // 2)  # unit uniqueness
        if encoding in ("extended", "optimised") and size == n:
            count += n  # unit definedness
    return count
