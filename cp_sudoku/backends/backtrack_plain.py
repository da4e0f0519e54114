"""The ``backtrack-plain`` back end: the classic tutorial backtracker, kept as a baseline.

Exactly the algorithm of the many "Sudoku solver with backtracking"
tutorials: take the first empty cell in row-major order, try the values
1..n in ascending order, keep a value when no peer holds it, recurse, and
erase it when the recursion fails.  A *try* is one value placed, a
*backtrack* is one placed value erased.  A cage (or any other table
constraint) is checked when its last cell is placed.  Statistics: ``tries``
and ``backtracks`` over the whole count, and ``first_tries`` /
``first_backtracks`` up to the first solution (the tutorial's figures: 4,208
tries for its 9x9 example).
"""

from __future__ import annotations

from typing import ClassVar

from cp_sudoku.backends.backtrack_search import BacktrackingBackend, Search


class PlainSearch(Search):
    """The tutorial algorithm, with an explicit stack instead of recursion."""

    first: tuple[int, int] | None = None

    def stats(self) -> dict[str, int]:
        """Tries and backtracks in all, and up to the first solution (counts)."""
        first_tries, first_backtracks = self.first or (self.tries, self.backtracks)
        return {
            **super().stats(),
            "first_tries": first_tries,
            "first_backtracks": first_backtracks,
        }

    def record(self, grid: tuple[int, ...]) -> None:
        """Note the effort at the first solution, then hand ``grid`` on."""
        if self.first is None:
            self.first = (self.tries, self.backtracks)
        super().record(grid)

    def fits(self, grid: list[int], i: int, value: int) -> bool:
        """Whether ``value`` may go in cell ``i`` of ``grid`` (cell order, 0 blank): no
        peer holds it and every complete table constraint of ``i`` still holds."""
        c = self.c
        if any(grid[p] == value for p in c.peers[i]):
            return False
        grid[i] = value
        ok = all(self.cage_fits(grid, k) for k in c.cages_of[i])
        grid[i] = 0
        return ok

    def cage_fits(self, grid: list[int], k: int) -> bool:
        """Whether table constraint ``k`` holds on ``grid``; True while a cell is blank."""
        rule = self.c.cages[k]
        values = [grid[i] for i in rule.members]
        if 0 in values:
            return True  # checked when its last cell is placed
        return rule.fits(values)

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


class PlainBacktrackBackend(BacktrackingBackend):
    """The tutorial backtracker (see the module docstring); option ``max_tries``."""

    name = "backtrack-plain"
    summary = "baseline: the tutorial backtracker (first empty cell, values in order)"
    statistics: ClassVar[tuple[str, ...]] = (
        "tries",
        "backtracks",
        "first_tries",
        "first_backtracks",
    )
    strategy = PlainSearch
