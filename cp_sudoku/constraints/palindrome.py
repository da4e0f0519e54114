"""Palindrome lines (f-puzzles ``palindrome``): the line reads the same from both ends.

Each mirrored pair of cells is a :class:`~cp_sudoku.constraints.primitives.Pair`
of equal values.  Source: rangsk's SudokuSolver, ``Constraints/PalindromeConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from cp_sudoku.constraints.base import Rules, register
from cp_sudoku.constraints.linebase import Line
from cp_sudoku.constraints.primitives import Pair


@register
class Palindrome(Line):
    """``values[i] == values[-1 - i]`` for every i."""

    type_name: ClassVar[str] = "palindrome"
    summary: ClassVar[str] = "the line reads the same from both ends"
    fpuzzles_key: ClassVar[str | None] = "palindrome"

    def holds(self, values: Sequence[int]) -> bool:
        """The values equal their reverse."""
        return list(values) == list(reversed(values))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Mirrored cells both in the prefix are equal."""
        last = len(self.cells) - 1
        return all(prefix[last - i] == prefix[i] for i in range(len(prefix)) if last - i < i)

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One equal pair per mirrored couple."""
        same = frozenset((v, v) for v in puzzle.values)
        half = len(self.cells) // 2
        return tuple(Pair(self.cells[i], self.cells[-1 - i], same) for i in range(half))
