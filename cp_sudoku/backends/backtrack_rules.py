"""Table constraints as the backtracker holds them: digit sets, allowed tuples, automaton layers.

Inside the search a cell's candidates are a mask, bit ``v - 1`` for value
``v`` (values ``1..n``).  Every rule other than an all-different keeps its
``members`` (cell indices) and answers two questions:

- :meth:`Rule.prune`: given the members' masks, the candidates that some
  assignment allowed by the rule supports (generalised arc consistency), or
  None when no assignment is left;
- :meth:`Rule.fits`: whether full values (one per member) meet the rule, the
  ``plain`` strategy's check once a rule's cells are all placed.

The forms:

- :class:`DigitSets`: a sum cage with distinct values, by its digit sets.
- :class:`Tuples`: the constraint's allowed tuples, enumerated once from its
  own ``holds`` and ``prefix_ok`` (:meth:`~cp_sudoku.constraints.Constraint.allowed`,
  bounded by the table cap).  Pruned with the bit sets of Compact-Table
  (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin and Schaus,
  "Compact-Table: efficiently filtering table constraints with reversible
  sparse bit-sets", CP 2016), without the reversible part: per position and
  value, the set of tuples holding that value there is one int; the tuples
  still valid are, over the positions, the intersection of the union of the
  sets of each candidate; a value is supported when its set meets the valid
  ones.
- :class:`Sums`: a cage as weighted sums of its values, never enumerated: a product cage
  over values of at least 1 as one sum of prime exponents per prime
  (:mod:`cp_sudoku.encodings.products`), a sum cage of more than a few cells as its sum;
  pruned by bounds: a value stays while its weight fits between what the other cells can
  add at least and at most to each sum (exact once every cell is placed).  A hidden
  operator over three cells or more is :class:`Either` of its sum and its product.
- :class:`Layers`: an automaton rule (sandwich, X-sum and Skyscraper clues,
  :class:`~cp_sudoku.constraints.automaton.Automaton`), never enumerated: the
  moves of its layered graph over every value
  (:meth:`~cp_sudoku.constraints.automaton.Automaton.layers`), pruned by a
  forward pass (the states reachable through the candidates) and a backward
  pass (the moves that still lead to acceptance): Pesant, "A regular language
  membership constraint for finite sequences of variables", CP 2004.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import reduce
from operator import or_

from cp_sudoku.constraints.automaton import Automaton
from cp_sudoku.constraints.base import TABLE_CAP, TableTooLarge
from cp_sudoku.model import Cage

#: Moves of an automaton's layers with distinct values past which :class:`Layers` takes
#: the rule alone: a 9-cell sandwich or Skyscraper clue has under 3,000; a 12-cell one
#: passes it (the sets of values read grow as 2 to the power of the cells).
DISTINCT_MOVES = 20_000


def mask(values: Sequence[int] | frozenset[int]) -> int:
    """Values ``1..n`` as one int, bit ``v - 1`` for value ``v`` (a set of digits)."""
    found = 0
    for v in values:
        found |= 1 << (v - 1)
    return found


class Rule:
    """A table constraint over the cells ``members`` (see the module docstring)."""

    members: list[int]
    #: Whether one :meth:`prune` reaches the rule's own fixpoint (pruning the result
    #: again removes nothing).
    idempotent = True

    def prune(self, masks: list[int]) -> list[int] | None:
        """The members' candidates some allowed assignment within ``masks`` supports
        (each a subset of its mask), or None when none is left."""
        raise NotImplementedError

    def fits(self, values: list[int]) -> bool:
        """Whether ``values`` (``1..n``, one per member) meet the rule."""
        raise NotImplementedError


class DigitSets(Rule):
    """A sum cage with distinct values: its cells take the digits of one of ``sets``
    (each a mask of values)."""

    idempotent = False  # a digit dropped from one cell can rule out a set for another

    def __init__(self, members: list[int], sets: list[int]) -> None:
        self.members = members
        self.sets = sets

    def prune(self, masks: list[int]) -> list[int] | None:
        """Keep the digits of the sets that fit: every digit placeable, every cell meeting it."""
        union = 0
        for m in masks:
            union |= m
        support = 0
        for s in self.sets:
            if not s & ~union and all(m & s for m in masks):
                support |= s
        news = [m & support for m in masks]
        return news if all(news) else None

    def fits(self, values: list[int]) -> bool:
        """The values are the digits of one set."""
        return mask(values) in self.sets


class Tuples(Rule):
    """Allowed tuples (values ``1..n``, one per member), pruned by Compact-Table bit sets.

    ``supports[pos][v - 1]`` has bit ``k`` set when tuple ``k`` holds value ``v`` at
    position ``pos``.  Memory: ``len(members) * n`` ints of ``len(tuples)`` bits.
    """

    def __init__(self, members: list[int], tuples: Sequence[Sequence[int]], n: int) -> None:
        self.members = members
        self.valid = (1 << len(tuples)) - 1
        size = (len(tuples) + 7) // 8
        self.supports: list[list[int]] = []
        for pos in range(len(members)):
            rows = [bytearray(size) for _ in range(n)]
            for k, t in enumerate(tuples):
                rows[t[pos] - 1][k >> 3] |= 1 << (k & 7)
            self.supports.append([int.from_bytes(row, "little") for row in rows])

    def prune(self, masks: list[int]) -> list[int] | None:
        """The tuples within ``masks``, then the values they hold at each position."""
        valid = self.valid
        for sets, m in zip(self.supports, masks, strict=True):
            union = 0
            while m:
                v = m.bit_length() - 1
                m ^= 1 << v
                union |= sets[v]
            valid &= union
            if not valid:
                return None
        news = []
        for sets, m in zip(self.supports, masks, strict=True):
            new = 0
            while m:
                v = m.bit_length() - 1
                m ^= 1 << v
                if sets[v] & valid:
                    new |= 1 << v
            news.append(new)
        return news

    def fits(self, values: list[int]) -> bool:
        """Some tuple holds every value at its position."""
        valid = self.valid
        for sets, v in zip(self.supports, values, strict=True):
            valid &= sets[v - 1]
        return valid != 0


class Layers(Rule):
    """An automaton rule: per position, its moves ``(state, value bit, next state)``.

    States are numbered per layer (the start is state 0 of the first); only moves
    on some accepted run over all values are kept, so every state after the last
    position accepts.  With ``distinct`` (the members share a unit) the runs
    repeat no value (:meth:`~cp_sudoku.constraints.automaton.Automaton.layers`),
    so the pruning is that of the rule and the all-different together; past
    :data:`DISTINCT_MOVES` moves, the rule alone (at most
    :data:`~cp_sudoku.constraints.base.TABLE_CAP` moves).

    Raises:
        TableTooLarge: the rule alone passes that cap too (the puzzle is declined).
    ``shift`` turns a puzzle value into ``1..n`` (see
    :mod:`~cp_sudoku.backends.backtrack_search`).
    """

    def __init__(
        self,
        members: list[int],
        rule: Automaton,
        values: Sequence[int],
        shift: int,
        distinct: bool,
    ) -> None:
        self.members = members
        self.rule = rule
        self.shift = shift
        self.moves: list[list[tuple[int, int, int]]] = []
        domains = [list(values)] * len(members)
        try:
            layers = rule.layers(domains, distinct, DISTINCT_MOVES if distinct else TABLE_CAP)
        except TableTooLarge:  # too many sets of values read: the rule alone
            if not distinct:
                raise
            layers = rule.layers(domains, False, TABLE_CAP)
        number = {state: 0 for state, _, _ in layers[0]}
        for layer in layers:
            following: dict[object, int] = {}
            self.moves.append(
                [
                    (number[a], 1 << (v + shift - 1), following.setdefault(b, len(following)))
                    for a, v, b in layer
                ]
            )
            number = following

    def prune(self, masks: list[int]) -> list[int] | None:
        """Forward: the states each layer reaches through the candidates; backward: the
        moves from a reached state into one that still leads to acceptance."""
        reached = [1]  # the start, state 0 of the first layer
        for moves, m in zip(self.moves, masks, strict=True):
            here, after = reached[-1], 0
            for a, bit, b in moves:
                if bit & m and here >> a & 1:
                    after |= 1 << b
            if not after:
                return None
            reached.append(after)
        news = [0] * len(masks)
        alive = reached[-1]
        for k in range(len(masks) - 1, -1, -1):
            here, m, new, before = reached[k], masks[k], 0, 0
            for a, bit, b in self.moves[k]:
                if bit & m and here >> a & 1 and alive >> b & 1:
                    new |= bit
                    before |= 1 << a
            news[k] = new
            alive = before
        return news

    def fits(self, values: list[int]) -> bool:
        """The rule holds on the values."""
        return self.rule.holds([v - self.shift for v in values])


class Sums(Rule):
    """A cage as weighted sums of its values, pruned by bounds on each: ``sums`` holds
    ``(weights, total)`` pairs, ``weights[v]`` the weight of value ``v`` (a value absent
    weighs 0), and the weights of the members' values add up to ``total`` in each.  A
    product cage is its sums of prime exponents
    (:func:`~cp_sudoku.encodings.products.exponent_sums`); a sum cage is one sum, each
    value its own weight.

    ``shift`` turns a puzzle value into ``1..n`` (see
    :mod:`~cp_sudoku.backends.backtrack_search`); ``cage`` is the constraint, whose
    ``holds`` is :meth:`fits`.
    """

    idempotent = False  # a value dropped from one cell can tighten another's bounds

    def __init__(
        self,
        members: list[int],
        cage: Cage,
        sums: Sequence[tuple[Mapping[int, int], int]],
        n: int,
        shift: int,
    ) -> None:
        self.members = members
        self.cage = cage
        self.shift = shift
        # per sum, the weight of each value bit
        self.sums = [
            ([weights.get(bit + 1 - shift, 0) for bit in range(n)], total)
            for weights, total in sums
        ]

    def prune(self, masks: list[int]) -> list[int] | None:
        """Per sum: the least and greatest weight of each cell; a value stays while the
        others can bring the sum to its total (exact once every cell is placed; bounds that
        an earlier cell's pruning made stale only loosen it)."""
        news = list(masks)
        for weights, total in self.sums:
            lows, highs = [], []
            for m in news:
                held = [weights[bit] for bit in _bits(m)]
                if not held:
                    return None
                lows.append(min(held))
                highs.append(max(held))
            low, high = sum(lows), sum(highs)
            for k, m in enumerate(news):
                least, most = total - (high - highs[k]), total - (low - lows[k])
                if least <= lows[k] and highs[k] <= most:
                    continue
                kept = 0
                for bit in _bits(m):
                    if least <= weights[bit] <= most:
                        kept |= 1 << bit
                if not kept:
                    return None
                news[k] = kept
        return news

    def fits(self, values: list[int]) -> bool:
        """The cage holds on the values."""
        return self.cage.holds([v - self.shift for v in values])


class Either(Rule):
    """A hidden-operator cage over three cells or more: its sum or its product (``parts``,
    two :class:`Sums` over the same members); a value stays when either supports it."""

    idempotent = False

    def __init__(self, members: list[int], cage: Cage, parts: Sequence[Sums]) -> None:
        self.members = members
        self.cage = cage
        self.parts = parts

    def prune(self, masks: list[int]) -> list[int] | None:
        """The union of what each part keeps (None when neither keeps any)."""
        kept = [found for part in self.parts if (found := part.prune(masks)) is not None]
        if not kept:
            return None
        return [reduce(or_, column) for column in zip(*kept, strict=True)]

    def fits(self, values: list[int]) -> bool:
        """The cage holds on the values (by its sum or its product)."""
        return self.parts[0].fits(values)


def _bits(m: int) -> list[int]:
    """The set bits of ``m``, highest first."""
    found = []
    while m:
        bit = m.bit_length() - 1
        m ^= 1 << bit
        found.append(bit)
    return found
