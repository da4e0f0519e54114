"""Whispers lines (f-puzzles ``whispers``): adjacent cells on the line differ by at least ``gap``.

German whispers are ``gap`` 5 on 9x9; f-puzzles' default is (n + 1) div 2.
Each step is a :class:`~cp_sudoku.constraints.primitives.Pair`.  Source: rangsk's
SudokuSolver, ``Constraints/WhispersConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints.base import register
from cp_sudoku.constraints.linebase import StepLine, path_text
from cp_sudoku.errors import Cell, PuzzleError


@register
@dataclass(frozen=True)
class Whispers(StepLine):
    """``|a - b| >= gap`` for adjacent cells ``a``, ``b`` on the line; ``gap`` >= 1.

    Raises:
        PuzzleError: a gap below 1, or the line errors of :class:`Line`.
    """

    gap: int = 5

    type_name: ClassVar[str] = "whispers"
    summary: ClassVar[str] = "adjacent digits on the line differ by at least the gap"
    fpuzzles_key: ClassVar[str | None] = "whispers"

    def __init__(self, cells: Iterable[Cell], gap: int) -> None:
        super().__init__(cells)
        object.__setattr__(self, "gap", gap)
        if isinstance(gap, bool) or not isinstance(gap, int) or gap < 1:
            raise PuzzleError(
                f"{self.describe()}: the gap must be an integer >= 1", cells=self.cells
            )

    def step(self, a: int, b: int) -> bool:
        """Whether ``b`` may follow ``a`` on the line: at least the gap apart."""
        return abs(a - b) >= self.gap

    def describe(self) -> str:
        """``whispers (gap 5) r1c1-r1c2``."""
        return f"{self.type_name} (gap {self.gap}) {path_text(self.cells)}"

    def to_text(self) -> str:
        """``whispers <gap> r1c1 r1c2 ...``."""
        return self.text_line(self.gap)

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Whispers:
        """``<gap> <cell> ...``."""
        return cls.number_then_cells(tokens, where, "gap")

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Whispers, ...]:
        """A gap of half the grid along a bent line, and a gap of 1 on a row."""
        return (
            cls(((0, 0), (1, 0), (1, 1)), (cols + 1) // 2),
            cls(((3, 0), (3, 1), (3, 2)), 2),
        )
