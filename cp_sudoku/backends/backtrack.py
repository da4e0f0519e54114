"""The reference back end: a hand-written backtracker in pure Python.

Two strategies:

- ``plain`` is exactly the classic tutorial algorithm (as in the many
  "Sudoku solver with backtracking" tutorials): take the first empty cell in
  row-major order, try the values 1..n in ascending order, keep a value when
  no peer holds it, recurse, and erase it when the recursion fails.  A *try*
  is one value placed, a *backtrack* is one placed value erased.  A cage is
  checked when its last cell is placed.  Optional ``max_tries``: past it the
  result is ``unknown``.  Statistics: ``tries`` and ``backtracks`` over the
  whole count, and ``first_tries`` / ``first_backtracks`` up to the first
  solution (the tutorial's figures: 4,208 tries for its 9x9 example).

- ``mrv`` (the default) keeps the candidates of each cell as a bitmask (bit
  ``v - 1`` for value ``v``) and propagates to a fixpoint: naked singles (a
  cell with one candidate removes it from its peers), hidden singles (a
  value with one place left in a unit that holds every value), locked
  candidates (a value confined, within one full unit, to its intersection
  with another leaves the rest of the other; one direction per pair of
  units, from the unit listed first: for Sudoku, rows and columns against
  boxes, "claiming"), and cage pruning by allowed tuples or digit sets
  (generalised arc consistency per cage).  It then branches on the cell
  with the fewest candidates (minimum remaining values), ties to the one
  with the most open peers (the degree heuristic), then to the first in
  row-major order.  Norvig, "Solving Every Sudoku Puzzle" (2006), describes
  the singles-and-MRV scheme.  Restarts with conflict-weighted branching
  guard against heavy tails (see :class:`_Mrv`).  The search keeps its own
  stack, so no Python recursion limit applies at any size.  Statistics:
  ``tries`` (values guessed at a branch) and ``backtracks`` (guesses
  refuted).

  Bookkeeping: besides the masks, each node holds per value a bit set of
  the cells that can take it (the peers that lose a placed value are one
  AND away) and a count vector: one Python int with a small counter per
  (unit, value) and per (lock, value), see :class:`_Tables`.  Removing a
  candidate is one subtraction; empty units, hidden singles and locks are
  read from the vectors of the values that changed with a few big-int
  operations, instead of rescanning every unit at each fixpoint.  Nodes are
  copied (three lists of ``size``, ``n`` and ``n`` ints), not undone: the
  copies take under 1% of the run time.

Performance of ``mrv`` (CPython 3.11.7 on a 2-core machine shared with
other jobs; solution limit 2, so every figure includes the proof of
uniqueness; wall-clock time of ``solve`` on parsed puzzles, one process;
whole files):

=========================  ======  =========  =======  =======  ============
set                        count   puzzles/s  median   maximum  Norvig (x)
=========================  ======  =========  =======  =======  ============
royle-17clue               49,151  5,424      0.16 ms  9.3 ms   587/s (9.0)
magictour-top1465           1,465  2,389      0.37 ms  5.4 ms   223/s (9.8)
forum-hardest-1106            375  286        3.13 ms  10.9 ms  44/s (6.7)
norvig-top95                   95  2,321      0.37 ms  1.2 ms   170/s (12.6)
serg-benchmark-multi       10,000  5,446      0.17 ms  4.3 ms   --
sudoku-large 16x16, 25x25      20  --         1.8 ms   24 ms    --
=========================  ======  =========  =======  =======  ============

Every puzzle came out ``unique``, except serg-benchmark-multi (all
``multiple``).  Norvig's column: his solver (first solution only, no
uniqueness proof), timed by CPU time in the same process, interleaved
puzzle by puzzle with ``mrv`` (royle: every 9th puzzle, 5,000), and the
ratio ``mrv`` / Norvig.  The first puzzle of a size includes compiling its
structure (the maximum of sudoku-large).  Easter Monster takes 153 tries
(2 ms), Norvig's "hard1" (several solutions) 2,026 tries (11-25 ms).

How the figures were reached, on every other puzzle of forum-hardest-1106
(CPU time, interleaved; puzzles/s and tries per puzzle): the first version
(every unit rescanned for hidden singles, both lock directions rescanned
at each fixpoint) 29/s, 513 tries; one count vector for all values and
per-value bit sets of cells 81/s (same tries); most-open-peers tie-break
(tries 340 without locks); one count vector per value +45%; one lock
direction per pair (claiming: 243/s, 262 tries; both directions 224/s,
253 tries; none 225/s, 340 tries; on top95 the same three give 1,619,
1,663 and 798/s); walking bit sets from the top bit +7%; looking only at
values whose counts changed +13%; building the root from the givens alone
(royle +48%); one helper clearing a value from a set of cells, for peers
and locks alike, instead of two inlined loops (3-4% slower, kept for
readability).  Tried and dropped: branching on the last conflict cell
(Lecoutre et al. 2009: 3-12% fewer tries, no faster); branching on a value
with two places in a unit instead of a two-candidate cell (44% more
tries); least-constraining value order (no gain on grids with several
solutions; with one solution the order leaves the tree unchanged);
Regin's alldifferent filtering at each node (far slower, and a 25x25 grid
with 55% blanks still ran out of time).

Limits: generated 36x36 grids with 45% blanks (``generated_sudoku((6, 6),
0.45, seed)``, several solutions) sit near the hardness peak of quasigroup
completion (Achlioptas, Gomes, Kautz and Selman, AAAI 2000), where a
depth-first search without learning has heavy tails.  Seeds 1-10: nine
finish in 0.02-17 s (seed 1: 17 s; before dom/wdeg restarts seeds 1, 2
and 5 ran past 30 s); seed 5 is still ``unknown`` after 120 s.  The
empty 49x49 grid is ``unknown`` after 60 s (a single run without restarts
finds two solutions after 282,000 tries, 16 s); 25x25 and 36x36 take
0.04 s and 0.2 s.  For scale, ``sat`` and ``cpsat`` take 0.08 s and 0.7 s
on seed 1, 6.7 s and 0.8 s on seed 5, 8.5 s and 11.6 s on the empty 49x49.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import cage_tuples, differ_pairs, digit_sets, is_distinct_sum
from cp_sudoku.model import Grid, Puzzle

STRATEGIES = ("mrv", "plain")
_CHECK_EVERY = 64  # tries between two looks at the clock


@dataclass
class _Compiled:
    """A puzzle's structure as index lists: what both strategies search over."""

    n: int
    peers: list[list[int]]
    full_units: list[list[int]]
    cages: list[tuple[list[int], list[int], bool]]  # members, allowed masks, is digit-set
    cages_of: list[list[int]]
    locks: list[tuple[list[int], list[int], list[int]]]  # intersection, rest of unit, rest of other

    @cached_property
    def tables(self) -> _Tables:
        """The bit sets and count vectors of ``mrv``, built on first use."""
        return _Tables(self)


def _compile(puzzle: Puzzle) -> _Compiled:
    index = puzzle.index()
    n = puzzle.max_value
    size = puzzle.size
    groups = [[index[c] for c in unit.cells] for unit in puzzle.units]
    groups += [[index[c] for c in cage.cells] for cage in puzzle.cages if cage.distinct]
    peer_sets: list[set[int]] = [set() for _ in range(size)]
    for group in groups:
        for i in group:
            peer_sets[i].update(group)
    peers = [sorted(s - {i}) for i, s in enumerate(peer_sets)]
    full_units = [[index[c] for c in u.cells] for u in puzzle.units if len(u.cells) == n]
    cages: list[tuple[list[int], list[int], bool]] = []
    cages_of: list[list[int]] = [[] for _ in range(size)]
    for cage in puzzle.cages:
        members = [index[c] for c in cage.cells]
        if is_distinct_sum(cage):
            allowed = [_mask(s) for s in digit_sets(len(members), cage.target, n)]
        else:
            domains = [list(range(1, n + 1))] * len(members)
            tuples = cage_tuples(cage, domains, differ_pairs(puzzle, cage.cells))
            # A tuple is stored as one int: the bit of each value, 'n' bits per position.
            allowed = [_pack(t, n) for t in tuples]
        for i in members:
            cages_of[i].append(len(cages))
        cages.append((members, allowed, is_distinct_sum(cage)))
    locks = []
    for k, unit in enumerate(full_units):
        for other in full_units[k + 1 :]:
            inside = sorted(set(unit) & set(other))
            if len(inside) >= 2:
                rest = [i for i in unit if i not in inside]
                others = [i for i in other if i not in inside]
                locks.append((inside, rest, others))
    return _Compiled(n, peers, full_units, cages, cages_of, locks)


_CACHE: dict[tuple[object, ...], _Compiled] = {}
_CACHE_SIZE = 16


def _compiled(puzzle: Puzzle) -> _Compiled:
    """:func:`_compile`, cached by structure: puzzles differing only in givens share it."""
    key = (puzzle.max_value, puzzle.cells, puzzle.units, puzzle.cages)  # all _compile reads
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        found = _CACHE[key] = _compile(puzzle)
    return found


class _Tables:
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

    def __init__(self, c: _Compiled) -> None:
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
        self.peer_mask = [_bits(p) for p in c.peers]
        self.all_cells = (1 << len(c.peers)) - 1
        self.all_total = sum(self.mult)
        # Indexed by group: full units, then locks (others_mask of a unit is unused).
        self.unit_mask = [_bits(u) for u in c.full_units]
        self.others_mask = [0] * len(c.full_units) + [_bits(lock[2]) for lock in c.locks]
        # For conflict weights: the full units of each cell, as a list and as a bit set,
        # and per lock group the units holding its intersection.
        self.units_of: list[list[int]] = [[] for _ in c.peers]
        for g, unit in enumerate(c.full_units):
            for i in unit:
                self.units_of[i].append(g)
        self.unit_bits = [_bits(units) for units in self.units_of]
        self.lock_bits = [0] * len(c.full_units) + [
            self.unit_bits[inside[0]] & self.unit_bits[inside[1]] for inside, _, _ in c.locks
        ]


def _bits(cells: list[int]) -> int:
    """A set of cell indices as one int: bit ``i`` for cell ``i``."""
    return sum(1 << i for i in cells)


def _mask(values: Sequence[int] | frozenset[int]) -> int:
    mask = 0
    for v in values:
        mask |= 1 << (v - 1)
    return mask


def _pack(values: Sequence[int], n: int) -> int:
    packed = 0
    for pos, v in enumerate(values):
        packed |= 1 << (pos * n + v - 1)
    return packed


class _Stop(Exception):
    """The search hit its limit: tries or time."""


class BacktrackBackend:
    """The pure-Python reference backtracker; see the module docstring.

    Args:
        strategy: ``mrv`` (default) or ``plain``.
        max_tries: ``plain`` and ``mrv``: stop with ``unknown`` after this
            many tries (None: no cap).

    Raises:
        ValueError: an unknown strategy.
    """

    def __init__(
        self, *, strategy: str = "mrv", max_tries: int | None = None, name: str | None = None
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; choose one of {STRATEGIES}")
        self.strategy = strategy
        self.max_tries = max_tries
        self.name = name or ("backtrack" if strategy == "mrv" else f"backtrack-{strategy}")

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        """Up to ``limit`` (>= 1) distinct grids of ``puzzle``, each a tuple of
        values in ``puzzle.cells`` order (row-major); ``time_limit`` in seconds.
        See :class:`~cp_sudoku.backends.base.Backend` for the statuses."""
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        search = _Plain if self.strategy == "plain" else _Mrv
        start_values = [puzzle.givens.get(c, 0) for c in puzzle.cells]
        run = search(_compiled(puzzle), start_values, limit, self.max_tries, deadline)
        try:
            run.search()
            complete = True
        except _Stop:
            complete = False
        complete = complete and len(run.found) < limit
        return Result(
            backend=self.name,
            status=status_of(len(run.found), complete),
            solutions=tuple(run.found),
            complete=complete,
            seconds=time.perf_counter() - start,
            stats=run.stats(),
        )


class _Search:
    def __init__(
        self,
        compiled: _Compiled,
        start: list[int],
        limit: int,
        max_tries: int | None,
        deadline: float | None,
    ) -> None:
        self.c = compiled
        self.start = start  # given value per cell, 0 when blank
        self.limit = limit
        self.max_tries = max_tries
        self.deadline = deadline
        self.found: list[Grid] = []
        self.tries = 0
        self.backtracks = 0

    def count_try(self) -> None:
        self.tries += 1
        if self.max_tries is not None and self.tries > self.max_tries:
            raise _Stop
        if (
            self.deadline is not None
            and self.tries % _CHECK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise _Stop

    def record(self, grid: Grid) -> None:
        self.found.append(grid)
        if len(self.found) >= self.limit:
            raise _Stop

    def stats(self) -> dict[str, int]:
        return {"tries": self.tries, "backtracks": self.backtracks}

    def search(self) -> None:
        raise NotImplementedError


class _Plain(_Search):
    """The tutorial algorithm, with an explicit stack instead of recursion."""

    first: tuple[int, int] | None = None

    def stats(self) -> dict[str, int]:
        first_tries, first_backtracks = self.first or (self.tries, self.backtracks)
        return {
            **super().stats(),
            "first_tries": first_tries,
            "first_backtracks": first_backtracks,
        }

    def record(self, grid: Grid) -> None:
        if self.first is None:
            self.first = (self.tries, self.backtracks)
        super().record(grid)

    def fits(self, grid: list[int], i: int, value: int) -> bool:
        c = self.c
        if any(grid[p] == value for p in c.peers[i]):
            return False
        grid[i] = value
        ok = all(self.cage_fits(grid, k) for k in c.cages_of[i])
        grid[i] = 0
        return ok

    def cage_fits(self, grid: list[int], k: int) -> bool:
        members, allowed, digit_set = self.c.cages[k]
        values = [grid[i] for i in members]
        if 0 in values:
            return True  # checked when its last cell is placed
        if digit_set:
            return _mask(values) in allowed
        return _pack(values, self.c.n) in allowed

    def search(self) -> None:
        c = self.c
        grid = list(self.start)
        if not all(self.cage_fits(grid, k) for k in range(len(c.cages))):
            return
        empties = [i for i, v in enumerate(grid) if v == 0]
        if not empties:
            self.record(tuple(grid))
            return
        placed = [0] * len(empties)
        depth = 0
        while depth >= 0:
            i = empties[depth]
            value = placed[depth]
            if value:
                grid[i] = 0
                self.backtracks += 1
            value += 1
            while value <= c.n and not self.fits(grid, i, value):
                value += 1
            if value > c.n:
                placed[depth] = 0
                depth -= 1
                continue
            self.count_try()
            grid[i] = value
            placed[depth] = value
            if depth == len(empties) - 1:
                self.record(tuple(grid))
            else:
                depth += 1


def _clear(
    value: int,
    cells: int,
    cand: list[int],
    where: list[int],
    totals: list[int],
    mult: list[int],
    queue: list[int],
) -> int:
    """Remove value ``value + 1`` from ``cells`` (a bit set; each of them has it).

    Updates the candidates, the value's bit set and count vector, and queues
    the cells left with one candidate.  Returns a cell left with none (the
    state is then a contradiction, half updated), or -1.
    """
    bit = 1 << value
    where[value] ^= cells
    total = totals[value]
    while cells:
        i = cells.bit_length() - 1
        cells ^= 1 << i
        m = cand[i] ^ bit
        cand[i] = m
        total -= mult[i]
        if not m & (m - 1):
            if not m:
                return i
            queue.append(i)
    totals[value] = total
    return -1


#: A guess waiting on the ``mrv`` stack: the candidates, value bit sets and count
#: vectors of the node it branches from, the cell and the value bit to place there.
_Guess = tuple[list[int], list[int], list[int], int, int]


class _Mrv(_Search):
    """Bitmask candidates, singles to a fixpoint, fewest candidates first.

    Restarts tame heavy tails: the first run is deterministic (see
    :meth:`branch`); when it passes ``RESTART_TRIES`` tries, the search
    restarts with twice the budget, and so on.  Every contradiction adds
    one to the weight of the unit where it surfaced, and the restarted runs
    branch on the open cell with the fewest candidates per unit weight
    (dom/wdeg, Boussemart, Hemery, Lecoutre and Sais, "Boosting systematic
    search by weighting constraints", ECAI 2004), ties and value order
    drawn by a seeded generator.  Solutions found in any run are kept
    (distinct grids only); a run that ends within its budget has explored
    the whole space, so its count is exact.
    """

    RESTART_TRIES = 2000
    SEED = 20061
    weight: list[int]  # per full unit: 1 + contradictions that surfaced in it

    def search(self) -> None:
        c = self.c
        t = c.tables
        full = (1 << c.n) - 1
        cand = [1 << (v - 1) if v else full for v in self.start]
        # Every cell can take every value, except that a given takes only its own.
        given_cells = given_total = 0
        with_value = [0] * c.n
        total_of = [0] * c.n
        for i, v in enumerate(self.start):
            if v:
                given_cells |= 1 << i
                given_total += t.mult[i]
                with_value[v - 1] |= 1 << i
                total_of[v - 1] += t.mult[i]
        where = [(t.all_cells ^ given_cells) | cells for cells in with_value]
        totals = [t.all_total - given_total + total for total in total_of]
        queue = [i for i, m in enumerate(cand) if not m & (m - 1)]
        self.weight = [1] * len(c.full_units)
        if not self.propagate(cand, where, totals, queue, full):
            return
        rng: random.Random | None = None
        budget = self.RESTART_TRIES
        while not self.run(cand, where, totals, budget, rng):
            rng = rng or random.Random(self.SEED)
            budget *= 2

    def run(
        self,
        root: list[int],
        where: list[int],
        totals: list[int],
        budget: int,
        rng: random.Random | None,
    ) -> bool:
        """One depth-first search from ``root``; False when it ran out of budget."""
        stop_at = self.tries + budget
        mult = self.c.tables.mult
        stack: list[_Guess] = []
        self.branch(root, where, totals, stack, rng)
        while stack:
            if self.tries >= stop_at:
                return False
            parent, where, totals, i, bit = stack.pop()
            self.count_try()
            cand = parent.copy()
            where = where.copy()
            totals = totals.copy()
            cand[i] = bit
            removed = parent[i] ^ bit
            while removed:
                value = removed.bit_length() - 1
                removed ^= 1 << value
                where[value] ^= 1 << i
                totals[value] -= mult[i]
            if self.propagate(cand, where, totals, [i], parent[i]):
                self.branch(cand, where, totals, stack, rng)
            else:
                self.backtracks += 1
        return True

    def record(self, grid: Grid) -> None:
        if grid not in self.found:
            super().record(grid)

    def blame(self, units: int) -> None:
        """Add one to the weight of each full unit in ``units`` (bit ``g`` for unit ``g``)."""
        while units:
            g = units.bit_length() - 1
            units ^= 1 << g
            self.weight[g] += 1

    def branch(
        self,
        cand: list[int],
        where: list[int],
        totals: list[int],
        stack: list[_Guess],
        rng: random.Random | None,
    ) -> None:
        """Record a solution, or push one guess per candidate of the chosen cell:
        :meth:`fewest_choice` in the first run, :meth:`weighted_choice` after
        a restart."""
        once = twice = thrice = 0
        for places in where:
            thrice |= twice & places
            twice |= once & places
            once |= places
        if not twice:
            self.record(tuple(m.bit_length() for m in cand))
            return
        if rng is not None:
            best = self.weighted_choice(cand, twice, rng)
        else:
            best = self.fewest_choice(cand, twice, thrice)
        bits = []  # highest value first: the last pushed is tried first
        mask = cand[best]
        while mask:
            bit = 1 << (mask.bit_length() - 1)
            bits.append(bit)
            mask ^= bit
        if rng is not None:
            rng.shuffle(bits)
        for bit in bits:
            stack.append((cand, where, totals, best, bit))

    def fewest_choice(self, cand: list[int], twice: int, thrice: int) -> int:
        """The open cell with fewest candidates; ties to the one with most open
        peers, then to the first in row-major order.

        ``twice`` and ``thrice``: the cells with at least two and three
        candidates, as bit sets.
        """
        pool = twice & ~thrice  # cells with two candidates
        if not pool:
            fewest = min(m.bit_count() for m in cand if m & (m - 1))
            pool = sum(1 << i for i, m in enumerate(cand) if m.bit_count() == fewest)
        peer_mask = self.c.tables.peer_mask
        best, most = -1, -1
        while pool:  # from the last cell down, so that ties go to the first
            i = pool.bit_length() - 1
            pool ^= 1 << i
            degree = (peer_mask[i] & twice).bit_count()
            if degree >= most:
                best, most = i, degree
        return best

    def weighted_choice(self, cand: list[int], open_cells: int, rng: random.Random) -> int:
        """The open cell with fewest candidates per weight of its units (dom/wdeg);
        ties drawn by ``rng``."""
        weight = self.weight
        units_of = self.c.tables.units_of
        best: list[int] = []
        best_score = 0.0
        while open_cells:
            i = open_cells.bit_length() - 1
            open_cells ^= 1 << i
            score = cand[i].bit_count() / (1 + sum(weight[g] for g in units_of[i]))
            if not best or score < best_score:
                best, best_score = [i], score
            elif score == best_score:
                best.append(i)
        return rng.choice(best)

    def propagate(
        self,
        cand: list[int],
        where: list[int],
        totals: list[int],
        queue: list[int],
        changed: int,
    ) -> bool:
        """Singles, locked candidates and cage pruning to a fixpoint, in place.

        ``where[v]`` has bit ``i`` set when cell ``i`` can take value
        ``v + 1``; ``totals[v]`` is that value's count vector (see
        :class:`_Tables`); ``queue`` holds cells that became single and
        whose value has not yet been removed from their peers; ``changed``
        (a candidate mask) the values whose count vectors changed since the
        last fixpoint.  False on a contradiction.
        """
        c = self.c
        t = c.tables
        width = t.width
        peer_mask, unit_mask, others_mask, mult, bump = (
            t.peer_mask,
            t.unit_mask,
            t.others_mask,
            t.mult,
            t.bump,
        )
        add_one, add_two, unit_top, lock_top = t.add_one, t.add_two, t.unit_top, t.lock_top
        unit_bits, lock_bits = t.unit_bits, t.lock_bits
        unlocked = changed  # values to look at for locked candidates
        while True:
            while queue:
                i = queue.pop()
                bit = cand[i]
                changed |= bit
                value = bit.bit_length() - 1
                totals[value] += bump[i]
                hits = where[value] & peer_mask[i]
                if hits:
                    p = _clear(value, hits, cand, where, totals, mult, queue)
                    if p >= 0:
                        self.blame(unit_bits[i] & unit_bits[p])
                        return False
            scan, changed = changed, 0
            unlocked |= scan
            while scan:
                value = scan.bit_length() - 1
                scan ^= 1 << value
                total = totals[value]
                nonzero = total + add_one
                empty = unit_top & ~nonzero  # a value with no place left in a unit
                if empty:
                    self.blame(1 << (empty.bit_length() - 1) // width)
                    return False
                singles = nonzero & ~(total + add_two) & unit_top
                while singles:
                    top = singles.bit_length() - 1
                    singles ^= 1 << top
                    group = top // width
                    place = where[value] & unit_mask[group]
                    if not place:
                        self.blame(1 << group)
                        return False
                    i = place.bit_length() - 1
                    m = cand[i]
                    bit = 1 << value
                    if m != bit:
                        cand[i] = bit
                        removed = m ^ bit
                        changed |= removed
                        while removed:
                            other = removed.bit_length() - 1
                            removed ^= 1 << other
                            where[other] ^= place
                            totals[other] -= mult[i]
                        queue.append(i)
            if queue:
                continue
            while unlocked:
                value = unlocked.bit_length() - 1
                unlocked ^= 1 << value
                locked = lock_top & ~(totals[value] + add_one)
                while locked:
                    top = locked.bit_length() - 1
                    locked ^= 1 << top
                    totals[value] += 1 << (top - width + 1)  # mark this lock as done
                    group = top // width
                    hits = where[value] & others_mask[group]
                    if hits:
                        changed |= 1 << value
                        p = _clear(value, hits, cand, where, totals, mult, queue)
                        if p >= 0:
                            self.blame(unit_bits[p] & lock_bits[group])
                            return False
            if changed:
                continue
            if c.cages:
                before = cand.copy()
                pruned = self.prune_cages(cand, queue)
                if pruned is None:
                    return False
                if pruned:
                    for i, old in enumerate(before):
                        removed = old ^ cand[i]
                        changed |= removed
                        while removed:
                            value = removed.bit_length() - 1
                            removed ^= 1 << value
                            where[value] ^= 1 << i
                            totals[value] -= mult[i]
                    continue
            return True

    def prune_cages(self, cand: list[int], queue: list[int]) -> bool | None:
        """Keep only the candidates some allowed tuple or digit set supports.

        True if a candidate was removed, None on a contradiction."""
        n = self.c.n
        full = (1 << n) - 1
        changed = False
        for members, allowed, digit_set in self.c.cages:
            masks = [cand[i] for i in members]
            if digit_set:
                union = 0
                for m in masks:
                    union |= m
                support = 0
                for s in allowed:  # a set fits: its values all placeable, each cell meets it
                    if not s & ~union and all(m & s for m in masks):
                        support |= s
                news = [m & support for m in masks]
            else:
                packed = 0
                for pos, m in enumerate(masks):
                    packed |= m << (pos * n)
                news = [0] * len(masks)
                for t in allowed:
                    if t & packed == t:
                        for pos in range(len(masks)):
                            news[pos] |= (t >> (pos * n)) & full
            for i, old, new in zip(members, masks, news, strict=True):
                if new != old:
                    if not new:
                        return None
                    cand[i] = new
                    changed = True
                    if not new & (new - 1):
                        queue.append(i)
        return changed
