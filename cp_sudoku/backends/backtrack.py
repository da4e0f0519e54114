"""The ``backtrack`` back end: the reference backtracker in pure Python (strategy mrv).

It keeps the candidates of each cell as a bitmask (bit ``v - 1`` for value
``v``) and propagates to a fixpoint: naked singles (a cell with one candidate
removes it from its peers), hidden singles (a value with one place left in a
unit that holds every value), locked candidates (a value confined, within one
full unit, to its intersection with another leaves the rest of the other; one
direction per pair of units, from the unit listed first: for Sudoku, rows and
columns against boxes, "claiming"), and table rules (per cage, relation or
clue: digit sets, allowed tuples or an automaton's layers, see
:mod:`~cp_sudoku.backends.backtrack_rules`), each pruned to generalised arc
consistency when a candidate of its cells changed.  It then
branches on the cell with the fewest candidates (minimum remaining values),
ties to the one with the most open peers (the degree heuristic), then to the
first in row-major order.  Norvig, "Solving Every Sudoku Puzzle" (2006),
describes the singles-and-MRV scheme.  Restarts with conflict-weighted
branching guard against heavy tails (see :class:`MrvSearch`).  The search
keeps its own stack, so no Python recursion limit applies at any size.
Statistics: ``tries`` (values guessed at a branch) and ``backtracks``
(guesses refuted).

Bookkeeping: besides the masks, each node holds per value a bit set of the
cells that can take it and a count vector (see
:class:`~cp_sudoku.backends.backtrack_search.Tables`).  Nodes are copied, not
undone.  Measurements are in ``docs/performance.md``.
"""

from __future__ import annotations

import math
import random
from typing import ClassVar

from cp_sudoku.backends.backtrack_search import BacktrackingBackend, Search


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


class _Recount(Exception):
    """The grids found across restarts passed :attr:`MrvSearch.RECOUNT_AFTER`."""


class MrvSearch(Search):
    """Bitmask candidates, singles to a fixpoint, fewest candidates first.

    Restarts tame heavy tails: the first run is deterministic (see
    :meth:`branch`); when it passes ``RESTART_TRIES`` tries, the search
    restarts with twice the budget, and so on.  Every contradiction adds
    one to the weight of the unit or table rule where it surfaced, and the
    restarted runs branch on the open cell with the fewest candidates per
    weight of its units and rules
    (dom/wdeg, Boussemart, Hemery, Lecoutre and Sais, "Boosting systematic
    search by weighting constraints", ECAI 2004), ties and value order
    drawn by a seeded generator.  Solutions found in any run are kept
    (distinct grids only); a run that ends within its budget has explored
    the whole space, so its count is exact.  Once the grids found after a
    restart pass ``RECOUNT_AFTER``, the count starts again in one plain run
    without restarts, which finds each grid once and keeps no hash of it
    (a count of millions kept about 100 bytes a grid: 187 MB at 1.35 million).
    """

    RESTART_TRIES = 2000
    RECOUNT_AFTER = 1 << 16
    #: Each try propagates to a fixpoint, which takes 0.1 s on a 100 x 100 grid: the clock
    #: is read at every try (about 0.1 microseconds against tens for a try of a 9 x 9).
    check_every = 1
    SEED = 20061
    weight: list[int]  # per full unit, then per table rule: 1 + contradictions there
    rng: random.Random | None = None  # set once the search has restarted

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
        self.weight = [1] * (len(c.full_units) + len(c.cages))
        if not self.propagate(cand, where, totals, queue, full, None):
            return
        rng: random.Random | None = None
        budget = self.RESTART_TRIES
        try:
            while not self.run(cand, where, totals, budget, rng):
                rng = self.rng = rng or random.Random(self.SEED)
                budget *= 2
        except _Recount:
            self.sink.recount()
            self.rng = None
            self.run(cand, where, totals, math.inf, None)

    def record(self, grid: tuple[int, ...]) -> None:
        """:meth:`Search.record`; past ``RECOUNT_AFTER`` grids found with restarts, start
        the plain recount (:class:`_Recount`)."""
        if self.rng is not None and self.sink.hashes >= self.RECOUNT_AFTER:
            raise _Recount
        super().record(grid)

    def run(
        self,
        root: list[int],
        where: list[int],
        totals: list[int],
        budget: float,
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
            if self.propagate(cand, where, totals, [i], parent[i], parent):
                self.branch(cand, where, totals, stack, rng)
            else:
                self.backtracks += 1
        return True

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
        """The open cell with fewest candidates per weight of its units and table rules
        (dom/wdeg); ties drawn by ``rng``."""
        weight = self.weight
        weighed = self.c.tables.weighed
        best: list[int] = []
        best_score = 0.0
        while open_cells:
            i = open_cells.bit_length() - 1
            open_cells ^= 1 << i
            score = cand[i].bit_count() / (1 + sum(weight[g] for g in weighed[i]))
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
        settled: list[int] | None,
    ) -> bool:
        """Singles, locked candidates and cage pruning to a fixpoint, in place.

        ``where[v]`` has bit ``i`` set when cell ``i`` can take value
        ``v + 1``; ``totals[v]`` is that value's count vector (see
        :class:`Tables`); ``queue`` holds cells that became single and
        whose value has not yet been removed from their peers; ``changed``
        (a candidate mask) the values whose count vectors changed since the
        last fixpoint; ``settled`` the candidates at that fixpoint, where
        every table rule was pruned (None: no rule pruned yet).  False on a
        contradiction.
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
                pruned = self.prune_cages(cand, queue, settled)
                if pruned is None:
                    return False
                if pruned:
                    settled = cand.copy()
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

    def prune_cages(
        self, cand: list[int], queue: list[int], settled: list[int] | None
    ) -> bool | None:
        """Prune the table rules over the cells whose candidates differ from ``settled``
        (every rule when None), and those over the cells they prune, until none prunes.

        True if a candidate was removed, None on a contradiction."""
        cages, cages_of = self.c.cages, self.c.cages_of
        if settled is None:
            pending = set(range(len(cages)))
        else:
            pending = {k for i, m in enumerate(cand) if m != settled[i] for k in cages_of[i]}
        changed = False
        while pending:
            k = pending.pop()
            rule = cages[k]
            masks = [cand[i] for i in rule.members]
            news = rule.prune(masks)
            if news is None:
                self.weight[len(self.c.full_units) + k] += 1
                return None
            for i, old, new in zip(rule.members, masks, news, strict=True):
                if new != old:
                    cand[i] = new
                    changed = True
                    pending.update(cages_of[i])
                    if not new & (new - 1):
                        queue.append(i)
            if rule.idempotent:  # pruned to its fixpoint in one call
                pending.discard(k)
        return changed


class BacktrackBackend(BacktrackingBackend):
    """The reference backtracker, strategy mrv (see the module docstring); option ``max_tries``."""

    name = "backtrack"
    summary = "pure-Python backtracker: bitmask candidates, singles, locked candidates, MRV"
    statistics: ClassVar[tuple[str, ...]] = ("tries", "backtracks")
    strategy = MrvSearch
    #: By default it stops (``unknown``, stopped by its effort limit) after 50,000 tries per
    #: solution asked for: 100,000 for ``check``, a few seconds.  A puzzle it cannot settle
    #: by then (a 5 x 5 Kakuro whose sums contradict only as a whole took minutes) is left
    #: to the back ends that learn; ``--max-tries 0`` lifts the cap.
    tries_per_solution: ClassVar[int | None] = 50_000
