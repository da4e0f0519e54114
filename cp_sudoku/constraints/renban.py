"""Digit-set lines: :class:`Renban` (consecutive set) and :class:`Nabner` (no neighbours).

- Renban (f-puzzles ``renban``): distinct digits forming a run of consecutive
  numbers in any order.  Decomposed as all-different plus ``|a - b| <= len - 1``
  for every two cells: k distinct integers within a span of k - 1 are
  consecutive.
- Nabner (``nabner``): no two cells on the line hold equal or consecutive digits.

Source: rangsk's SudokuSolver, ``Constraints/RenbanConstraint.cs``, ``NabnerConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import ClassVar

from cp_sudoku.constraints.base import Rules, register
from cp_sudoku.constraints.linebase import Line, value_pairs
from cp_sudoku.constraints.primitives import AllDifferent, Pair, Primitive


@register
class Renban(Line):
    """Distinct digits that form a set of consecutive numbers."""

    type_name: ClassVar[str] = "renban"
    summary: ClassVar[str] = "the line's digits are distinct and consecutive, in any order"
    fpuzzles_key: ClassVar[str | None] = "renban"
    distinct_values: ClassVar[bool] = True
    min_cells: ClassVar[int] = 1

    def holds(self, values: Sequence[int]) -> bool:
        """Distinct, and max - min = count - 1."""
        return len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Distinct so far, within a span the line can still cover."""
        return len(set(prefix)) == len(prefix) and (
            not prefix or max(prefix) - min(prefix) < len(self.cells)
        )

    def decompose(self, puzzle: Rules) -> tuple[Primitive, ...]:
        """All-different, and every two cells within ``len - 1`` of each other."""
        span = len(self.cells) - 1
        near = value_pairs(puzzle.values, lambda a, b: abs(a - b) <= span)
        pairs = tuple(Pair(a, b, near) for a, b in combinations(self.cells, 2))
        return (AllDifferent(self.cells), *pairs)


@register
class Nabner(Line):
    """No two cells on the line hold equal or consecutive digits."""

    type_name: ClassVar[str] = "nabner"
    summary: ClassVar[str] = "no two digits on the line are equal or consecutive"
    fpuzzles_key: ClassVar[str | None] = "nabner"
    min_cells: ClassVar[int] = 1

    def holds(self, values: Sequence[int]) -> bool:
        """Every two values differ by at least 2."""
        return all(abs(a - b) > 1 for a, b in combinations(values, 2))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """So far."""
        return self.holds(prefix)

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One pair per two cells."""
        apart = value_pairs(puzzle.values, lambda a, b: abs(a - b) > 1)
        return tuple(Pair(a, b, apart) for a, b in combinations(self.cells, 2))
