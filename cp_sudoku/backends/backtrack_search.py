"""What both backtracking strategies search over: a puzzle compiled to index lists and bit sets.

Values inside the search are ``1..n`` (``n`` = the number of values); a
puzzle whose values start at 0 (Skyscraper empty cells) is shifted up by one
on the way in and back on the way out.  Every constraint other than a unit
(or an all-different) becomes a table rule (:mod:`~cp_sudoku.backends.backtrack_rules`):
a sum cage with distinct values its digit sets, a product cage its sums of prime
exponents (a long sum cage its sum; a hidden operator either), an automaton clue its
layered moves, any other its allowed tuples, enumerated from the type's own ``holds`` and
``prefix_ok``, so every type works; past the table cap the puzzle is declined.  ``mrv``
prunes each rule to generalised arc consistency (a rule of sums by bounds), ``plain``
checks it when its cells are complete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from cp_sudoku.backends.backtrack_rules import (
    DigitSets,
    Either,
    Layers,
    Rule,
    Sums,
    Tuples,
    mask,
)
from cp_sudoku.backends.base import Backend, Clock, Option, Sink
from cp_sudoku.constraints import AllDifferent, Constraint, Linear, Pair, Table
from cp_sudoku.constraints.automaton import Automaton
from cp_sudoku.constraints.base import check_deadline, checked
from cp_sudoku.deduction.groups import group_peers
from cp_sudoku.encodings.products import by_exponents, weighted_sums
from cp_sudoku.encodings.sums import digit_sets, is_distinct_sum
from cp_sudoku.model import Cage, Puzzle, Unit

#: Tries between two looks at the clock.
CHECK_EVERY = 64


@dataclass
class PuzzleIndex:
    """A puzzle's structure as index lists (peers, full units, table constraints, locked
    candidate triples), what both search strategies run over; givens are not in it.

    ``cages`` holds every table constraint (cages, relations, clues) as a
    :class:`~cp_sudoku.backends.backtrack_rules.Rule`; ``cages_of[i]`` the
    indices of those over cell ``i``.
    """

    n: int
    peers: list[list[int]]
    full_units: list[list[int]]
    cages: list[Rule]
    cages_of: list[list[int]]
    locks: list[tuple[list[int], list[int], list[int]]]  # intersection, rest of unit, rest of other

    @cached_property
    def tables(self) -> Tables:
        """The bit sets and count vectors of ``mrv``, built on first use."""
        return Tables(self)


def compile_puzzle(puzzle: Puzzle) -> PuzzleIndex:
    """The structure of ``puzzle`` (values, units, tables); its givens are not read."""
    index = puzzle.index
    shift = 1 - puzzle.min_value
    n = puzzle.max_value + shift
    size = len(puzzle.cells)
    rules = [part for constraint in puzzle.constraints for part in _parts(puzzle, constraint)]
    differ = [c for c in rules if isinstance(c, Unit | AllDifferent)]
    peer_sets = [checked(set(p)) for p in group_peers(puzzle)]
    for part in differ:  # the all-different parts of decompositions (anti-knight pairs ...)
        check_deadline()  # a 100 x 100 grid's loops here take seconds: the time limit holds
        members = [index[c] for c in part.cells]
        for i in members:
            peer_sets[i].update(j for j in members if j != i)
    peers = [checked(sorted(p)) for p in peer_sets]
    full_units = [[index[c] for c in u.cells] for u in differ if len(u.cells) == n]
    cages: list[Rule] = []
    cages_of: list[list[int]] = [[] for _ in range(size)]
    for constraint in rules:
        if isinstance(constraint, Unit | AllDifferent):
            continue
        check_deadline()
        members = [index[c] for c in constraint.cells]
        rule: Rule
        if isinstance(constraint, Cage) and is_distinct_sum(constraint):
            sets = digit_sets(len(members), constraint.target, n)
            rule = DigitSets(members, [mask(s) for s in sets])
        elif isinstance(constraint, Cage) and (by_sums := _by_sums(puzzle, constraint)):
            rule = by_sums(members, n, shift)
        elif isinstance(constraint, Automaton):
            pairs = len(members) * (len(members) - 1) // 2
            distinct = len(puzzle.differ_pairs(constraint.cells)) == pairs
            rule = Layers(members, constraint, puzzle.values, shift, distinct)
        else:
            domains = [list(puzzle.values)] * len(members)
            tuples = constraint.allowed_in(puzzle, domains)
            rule = Tuples(members, [[v + shift for v in t] for t in tuples], n)
        for i in members:
            cages_of[i].append(len(cages))
        cages.append(rule)
    locks = []
    for k, unit in enumerate(full_units):
        check_deadline()
        for other in full_units[k + 1 :]:
            inside = sorted(set(unit) & set(other))
            if len(inside) >= 2:
                rest = [i for i in unit if i not in inside]
                others = [i for i in other if i not in inside]
                locks.append((inside, rest, others))
    return PuzzleIndex(n, peers, full_units, cages, cages_of, locks)


def _by_sums(puzzle: Puzzle, cage: Cage) -> Callable[[list[int], int, int], Rule] | None:
    """How to build the cage's :class:`~cp_sudoku.backends.backtrack_rules.Sums` rule
    (members, n, shift), or None for a table: a product (or a hidden operator, sum or
    product) over three cells or more by exponent sums, a sum of more than
    :data:`SMALL_LINEAR` cells whose values may repeat by its sum; never a table that
    grows as the values to the power of the cells."""
    values = tuple(puzzle.values)
    plain = weighted_sums("+", cage.target, values)
    if cage.op == "+" and not cage.distinct and len(cage.cells) > SMALL_LINEAR:
        return lambda members, n, shift: Sums(members, cage, plain, n, shift)
    if not by_exponents(cage, values):
        return None
    primes = weighted_sums("*", cage.target, values)
    if cage.op == "*":
        return lambda members, n, shift: Sums(members, cage, primes, n, shift)
    return lambda members, n, shift: Either(
        members, cage, (Sums(members, cage, plain, n, shift), Sums(members, cage, primes, n, shift))
    )


#: Parts of a decomposition the backtracker takes as tables; a larger Linear part makes
#: it take the whole constraint instead (its own prefix_ok prunes better).
SMALL_LINEAR = 4


def _parts(puzzle: Puzzle, constraint: Constraint) -> list[Constraint]:
    """The constraint as the backtracker takes it: units, cages and primitives as they are;
    a type with its own decomposition into all-different, pairs, small tables and linear
    sums of at most :data:`SMALL_LINEAR` cells by those parts (a global rule is pairs, not
    one table over the grid); any other whole, one table from its holds and prefix_ok."""
    if isinstance(constraint, Unit | AllDifferent | Cage | Pair | Table | Linear):
        return [constraint]
    if type(constraint).decompose is Constraint.decompose:
        return [constraint]
    parts = constraint.decompose(puzzle)
    if any(isinstance(p, Linear) and len(p.cells) > SMALL_LINEAR for p in parts):
        return [constraint]
    return list(parts)


class Tables:
    """What ``mrv`` precomputes for a structure: bit sets and count-vector masks.

    A *bit set* is an int with bit ``i`` for cell ``i``: ``peer_mask[i]``,
    ``unit_mask[g]`` (full unit ``g``), ``others_mask[g]`` (lock group
    ``g``: the cells a lock clears), ``all_cells``.

    A *count vector* is one int per value with a field of ``width`` bits
    per group: first the full units (the cells of the unit that can take
    the value: 0 is a contradiction, 1 a hidden single), then one group per
    lock (the cells of its unit outside the intersection that can take the
    value: 0 means the value is locked in the intersection, so it leaves
    the rest of the other unit).  ``mult[i]`` has a 1 in the field of each
    group that counts cell ``i``, so removing a value from cell ``i`` is
    one subtraction from that value's vector.  Every field is tested at
    once with two additions: ``field + add_one`` sets the field's top bit
    (``unit_top``, ``lock_top``) when the field is at least 1, ``field +
    add_two`` when it is at least 2.  A field done with is bumped so that
    it is never seen again: placing a value at ``i`` adds ``bump[i]`` (two
    in each unit of ``i``, one in each lock whose intersection holds
    ``i``); applying a lock adds one to its field.  A field never exceeds
    ``n + 2``, which stays below its top bit.
    """

    def __init__(self, c: PuzzleIndex) -> None:
        n = c.n
        self.width = width = (n + 2).bit_length() + 1  # a field holds 0..n + 2 below its top bit
        groups = len(c.full_units) + len(c.locks)
        self.mult = [0] * len(c.peers)
        self.bump = [0] * len(c.peers)
        for g, unit in enumerate(c.full_units):
            for i in unit:
                self.mult[i] |= 1 << (g * width)
                self.bump[i] |= 2 << (g * width)
        for k, (inside, rest, _) in enumerate(c.locks):
            g = len(c.full_units) + k
            for i in rest:
                self.mult[i] |= 1 << (g * width)
            for i in inside:
                self.bump[i] |= 1 << (g * width)
        low = sum(1 << (g * width) for g in range(groups))
        self.add_one = low * ((1 << (width - 1)) - 1)
        self.add_two = low * ((1 << (width - 1)) - 2)
        top = low << (width - 1)
        self.unit_top = top & ((1 << (len(c.full_units) * width)) - 1)
        self.lock_top = top ^ self.unit_top
        self.peer_mask = [checked(bits(p)) for p in c.peers]
        self.all_cells = (1 << len(c.peers)) - 1
        self.all_total = sum(self.mult)
        # Indexed by group: full units, then locks (others_mask of a unit is unused).
        self.unit_mask = [bits(u) for u in c.full_units]
        self.others_mask = [0] * len(c.full_units) + [bits(lock[2]) for lock in c.locks]
        # For conflict weights: the full units of each cell, as a list and as a bit set,
        # and per lock group the units holding its intersection.
        self.units_of: list[list[int]] = [[] for _ in c.peers]
        for g, unit in enumerate(c.full_units):
            for i in unit:
                self.units_of[i].append(g)
        self.unit_bits = [bits(units) for units in self.units_of]
        # The weights that count for a cell: its full units', then its table rules'
        # (weight ``len(full_units) + k`` for rule ``k``).
        self.weighed = [
            units + [len(c.full_units) + k for k in c.cages_of[i]]
            for i, units in enumerate(self.units_of)
        ]
        self.lock_bits = [0] * len(c.full_units) + [
            self.unit_bits[inside[0]] & self.unit_bits[inside[1]] for inside, _, _ in c.locks
        ]


def bits(cells: list[int]) -> int:
    """A set of cell indices as one int: bit ``i`` for cell ``i``."""
    return sum(1 << i for i in cells)


class Stop(Exception):
    """The search hit a limit: solutions, tries or time."""


class Search:
    """One search over a compiled structure; grids go to ``sink``, limits raise :class:`Stop`.

    ``start`` holds each cell's given value (shifted to ``1..n``), 0 when blank.
    """

    #: Tries between two looks at the clock.
    check_every: ClassVar[int] = CHECK_EVERY

    def __init__(
        self,
        compiled: PuzzleIndex,
        start: list[int],
        sink: Sink,
        max_tries: int | None,
        clock: Clock,
        shift: int,
    ) -> None:
        self.c = compiled
        self.start = start
        self.sink = sink
        self.max_tries = max_tries
        self.clock = clock
        self.shift = shift
        self.tries = 0
        self.backtracks = 0

    def count_try(self) -> None:
        """Count one try; raise :class:`Stop` past ``max_tries`` or, every
        :attr:`check_every` tries, past the clock's deadline."""
        self.tries += 1
        if self.max_tries is not None and self.tries > self.max_tries:
            raise Stop
        if self.tries % self.check_every == 0 and self.clock.expired():
            raise Stop

    def record(self, grid: tuple[int, ...]) -> None:
        """Hand a full grid (values shifted back to the puzzle's range) to the sink;
        raise :class:`Stop` when the sink has enough."""
        if self.shift:
            grid = tuple(v - self.shift for v in grid)
        if self.sink.add(grid):
            raise Stop

    def stats(self) -> dict[str, int]:
        """``tries`` and ``backtracks`` so far (counts)."""
        return {"tries": self.tries, "backtracks": self.backtracks}

    def search(self) -> None:
        raise NotImplementedError


#: Structures a back end keeps compiled (puzzles differing only in givens share one).
CACHED_STRUCTURES = 16


class BacktrackingBackend(Backend):
    """What the two backtracking back ends share: options, the structure cache, the run.

    A subclass sets :attr:`strategy`, the :class:`Search` class it runs, and
    may set :attr:`tries_per_solution`, its default cap.  Option
    ``max_tries``: stop with ``unknown`` after this many tries; unset, the
    default cap (``tries_per_solution`` times the solutions asked for, or no
    cap); 0: no cap.
    """

    strategy: ClassVar[type[Search]]
    #: The default cap on tries, per solution asked for (None: no default cap).
    tries_per_solution: ClassVar[int | None] = None
    options: ClassVar[dict[str, Option]] = {
        "max_tries": Option(
            int,
            None,
            "stop with unknown after this many tries (unset: the back end's default cap; 0: none)",
        ),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.max_tries: int | None = self.settings["max_tries"]
        self._compiled: dict[tuple[object, ...], PuzzleIndex] = {}
        self._last: tuple[object, object, range, PuzzleIndex] | None = None

    def compiled(self, puzzle: Puzzle) -> PuzzleIndex:
        """:func:`compile_puzzle`, kept for the last few structures (by value).

        The last one is first looked up by identity: puzzles of one shape usually hold
        the very same ``cells`` and ``constraints`` tuples, and hashing them by value
        (every cell of every unit) is a large share of the bookkeeping of an easy solve.
        """
        last = self._last
        if (
            last is not None
            and last[0] is puzzle.cells
            and last[1] is puzzle.constraints
            and last[2] == puzzle.values
        ):
            return last[3]
        key = (puzzle.values, puzzle.cells, puzzle.constraints)
        found = self._compiled.get(key)
        if found is None:
            if len(self._compiled) >= CACHED_STRUCTURES:
                self._compiled.pop(next(iter(self._compiled)))
            found = self._compiled[key] = compile_puzzle(puzzle)
        self._last = (puzzle.cells, puzzle.constraints, puzzle.values, found)
        return found

    def cap(self, limit: int) -> int | None:
        """The tries a search for ``limit`` solutions may make (None: no cap)."""
        if self.max_tries is not None:
            return self.max_tries or None
        return None if self.tries_per_solution is None else self.tries_per_solution * limit

    def effort_words(self, limit: int) -> str | None:
        """``effort limit (max_tries 100,000)``: the cap :meth:`cap` set."""
        cap = self.cap(limit)
        return None if cap is None else f"effort limit (max_tries {cap:,})"

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """Run :attr:`strategy` from the givens; complete unless a limit stopped it."""
        shift = 1 - puzzle.min_value
        start = [puzzle.givens[c] + shift if c in puzzle.givens else 0 for c in puzzle.cells]
        run = self.strategy(self.compiled(puzzle), start, sink, self.cap(sink.limit), clock, shift)
        try:
            run.search()
            complete = True
        except Stop:
            complete = False
        stats.update(run.stats())
        return complete
