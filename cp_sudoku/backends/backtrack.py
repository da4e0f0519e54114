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

- ``mrv`` (the default) keeps candidates as bitmasks (bit ``v - 1`` for value
  ``v``), propagates naked singles (a cell with one candidate removes it from
  its peers) and hidden singles (a value with one place left in a unit that
  holds every value) to a fixpoint, prunes cages by their allowed tuples or
  digit sets (generalised arc consistency per cage), then branches on the
  cell with the fewest candidates (minimum remaining values).  Norvig,
  "Solving Every Sudoku Puzzle" (2006), describes the same scheme.  The
  search keeps its own stack, so no Python recursion limit applies at any
  size.  Statistics: ``tries`` (values guessed at a branch) and
  ``backtracks`` (guesses refuted).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import cage_tuples, differ_pairs, digit_sets, is_distinct_sum
from cp_sudoku.model import Grid, Puzzle

STRATEGIES = ("mrv", "plain")
_CHECK_EVERY = 1024  # tries between two looks at the clock


@dataclass
class _Compiled:
    """A puzzle as index lists: what both strategies search over."""

    n: int
    peers: list[list[int]]
    full_units: list[list[int]]
    cages: list[tuple[list[int], list[int], bool]]  # members, allowed masks, is digit-set
    cages_of: list[list[int]]
    locks: list[tuple[list[int], list[int], list[int]]]  # intersection, rest of unit, rest of other
    start: list[int]  # given value per cell, 0 when blank


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
    for unit in full_units:
        for other in full_units:
            inside = sorted(set(unit) & set(other))
            if unit is not other and len(inside) >= 2:
                rest = [i for i in unit if i not in inside]
                others = [i for i in other if i not in inside]
                locks.append((inside, rest, others))
    start = [puzzle.givens.get(c, 0) for c in puzzle.cells]
    return _Compiled(n, peers, full_units, cages, cages_of, locks, start)


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
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        search = _Plain if self.strategy == "plain" else _Mrv
        run = search(_compile(puzzle), limit, self.max_tries, deadline)
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
        self, compiled: _Compiled, limit: int, max_tries: int | None, deadline: float | None
    ) -> None:
        self.c = compiled
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
        grid = list(c.start)
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


class _Mrv(_Search):
    """Bitmask candidates, singles to a fixpoint, fewest candidates first.

    Restarts tame heavy tails: the first run is deterministic (row-major
    ties, ascending values); when it passes ``RESTART_TRIES`` tries, the
    search restarts with ties and value order shuffled by a seeded
    generator and twice the budget, and so on.  Solutions found in any run
    are kept (distinct grids only); a run that ends within its budget has
    explored the whole space, so its count is exact.  Norvig's "hard1"
    (several solutions) needs 244,462 tries in row-major order and a few
    hundred with one restart.
    """

    RESTART_TRIES = 2000
    SEED = 20061

    def search(self) -> None:
        c = self.c
        full = (1 << c.n) - 1
        cand = [1 << (v - 1) if v else full for v in c.start]
        queue = [i for i, v in enumerate(c.start) if v]
        if not self.propagate(cand, queue):
            return
        rng: random.Random | None = None
        budget = self.RESTART_TRIES
        while not self.run(cand, budget, rng):
            rng = rng or random.Random(self.SEED)
            budget *= 2

    def run(self, root: list[int], budget: int, rng: random.Random | None) -> bool:
        """One depth-first search from ``root``; False when it ran out of budget."""
        stop_at = self.tries + budget
        stack: list[tuple[list[int], int, int]] = []
        self.branch(root, stack, rng)
        while stack:
            if self.tries >= stop_at:
                return False
            parent, i, bit = stack.pop()
            self.count_try()
            child = parent.copy()
            child[i] = bit
            if self.propagate(child, [i]):
                self.branch(child, stack, rng)
            else:
                self.backtracks += 1
        return True

    def record(self, grid: Grid) -> None:
        if grid not in self.found:
            super().record(grid)

    def branch(
        self,
        cand: list[int],
        stack: list[tuple[list[int], int, int]],
        rng: random.Random | None,
    ) -> None:
        """Record a solution, or push one guess per candidate of the MRV cell."""
        best, best_count = -1, self.c.n + 1
        for i, m in enumerate(cand):
            if m & (m - 1):
                count = m.bit_count()
                if count < best_count:
                    best, best_count = i, count
                    if count == 2 and rng is None:
                        break
        if best < 0:
            self.record(tuple(m.bit_length() for m in cand))
            return
        if rng is not None:
            best = rng.choice([i for i, m in enumerate(cand) if m.bit_count() == best_count])
        mask = cand[best]
        bits = []
        while mask:
            bit = mask & -mask
            bits.append(bit)
            mask ^= bit
        if rng is not None:
            rng.shuffle(bits)
        for bit in reversed(bits):  # the first in order is tried first
            stack.append((cand, best, bit))

    def propagate(self, cand: list[int], queue: list[int]) -> bool:
        """Singles, locked candidates and cage pruning to a fixpoint.

        ``queue`` holds cells that became single and whose value has not
        yet been removed from their peers.  False on a contradiction.
        """
        c = self.c
        peers = c.peers
        full = (1 << c.n) - 1
        while True:
            while queue:
                i = queue.pop()
                bit = cand[i]
                for p in peers[i]:
                    m = cand[p]
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        cand[p] = m
                        if not m & (m - 1):
                            queue.append(p)
            for unit in c.full_units:
                once = twice = 0
                for i in unit:
                    m = cand[i]
                    twice |= once & m
                    once |= m
                if once != full:
                    return False
                singles = once & ~twice
                if singles:
                    for i in unit:
                        m = cand[i]
                        s = m & singles
                        if s and m != s:
                            if s & (s - 1):
                                return False
                            cand[i] = s
                            queue.append(i)
            if queue:
                continue
            changed = self.lock_candidates(cand, queue)
            if changed is None:
                return False
            if changed:
                continue
            if c.cages:
                changed = self.prune_cages(cand, queue)
                if changed is None:
                    return False
                if changed:
                    continue
            return True

    def lock_candidates(self, cand: list[int], queue: list[int]) -> bool | None:
        """Locked candidates: a value confined, within one full unit, to its
        intersection with another unit leaves the rest of that other unit
        (pointing and claiming).  True if a candidate was removed, None on a
        contradiction."""
        changed = False
        for inside, rest, other in self.c.locks:
            m_in = m_rest = 0
            for i in inside:
                m_in |= cand[i]
            for i in rest:
                m_rest |= cand[i]
            locked = m_in & ~m_rest
            if not locked:
                continue
            for p in other:
                m = cand[p]
                if m & locked:
                    m &= ~locked
                    if not m:
                        return None
                    cand[p] = m
                    changed = True
                    if not m & (m - 1):
                        queue.append(p)
        return changed

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
