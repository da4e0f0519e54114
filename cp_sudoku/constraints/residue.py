"""Lines on classes of digits: every three consecutive cells hold three different classes.

- Entropic line (f-puzzles ``entropicline``): classes low / middle / high; on
  9x9 1-3, 4-6, 7-9.  For other n the classes are rangsk's: sizes n div 3 and
  (n + 2) div 3, the larger two outside when n mod 3 is 2 and inside when it is 1.
- Modular line (``modularline``): classes are the remainders mod 3.

Decomposed into :class:`~cp_sudoku.constraints.primitives.Pair` of different
classes for cells one or two apart on the line.  Source: rangsk's SudokuSolver,
``Constraints/EntropicLineConstraint.cs``, ``ModularLineConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints.base import Rules, register
from cp_sudoku.constraints.linebase import Line, path_text, value_pairs
from cp_sudoku.constraints.primitives import Pair
from cp_sudoku.errors import Cell, PuzzleError


@register
class ModularLine(Line):
    """Every three consecutive cells hold three different remainders mod 3."""

    type_name: ClassVar[str] = "modularline"
    summary: ClassVar[str] = "every three consecutive digits on the line differ mod 3"
    fpuzzles_key: ClassVar[str | None] = "modularline"
    min_cells: ClassVar[int] = 1

    def group(self, value: int) -> int:
        """The class of ``value``."""
        return value % 3

    def holds(self, values: Sequence[int]) -> bool:
        """Cells one or two apart are in different classes."""
        groups = [self.group(v) for v in values]
        return all(
            groups[i] != groups[j]
            for i in range(len(groups))
            for j in (i + 1, i + 2)
            if j < len(groups)
        )

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """So far."""
        return self.holds(prefix)

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """A pair of different classes for each two cells one or two apart."""
        differ = value_pairs(puzzle.values, lambda a, b: self.group(a) != self.group(b))
        cells = self.cells
        return tuple(
            Pair(cells[i], cells[j], differ)
            for i in range(len(cells))
            for j in (i + 1, i + 2)
            if j < len(cells)
        )


@register
@dataclass(frozen=True)
class EntropicLine(ModularLine):
    """Every three consecutive cells hold a low, a middle and a high digit of ``1..top``.

    Raises:
        PuzzleError: ``top`` below 3, or the line errors of :class:`Line`.
    """

    top: int = 9

    type_name: ClassVar[str] = "entropicline"
    summary: ClassVar[str] = "every three consecutive digits on the line are low, middle, high"
    fpuzzles_key: ClassVar[str | None] = "entropicline"

    def __init__(self, cells: Iterable[Cell], top: int) -> None:
        super().__init__(cells)
        object.__setattr__(self, "top", top)
        if isinstance(top, bool) or not isinstance(top, int) or top < 3:
            raise PuzzleError(f"{self.describe()}: digits 1..{top} make no three classes")

    def group(self, value: int) -> int:
        """0 low, 1 middle, 2 high, with rangsk's class sizes."""
        small, large = self.top // 3, (self.top + 2) // 3
        sizes = (small, large, small) if self.top % 3 == 1 else (large, small, large)
        if value <= sizes[0]:
            return 0
        return 1 if value <= sizes[0] + sizes[1] else 2

    def describe(self) -> str:
        """``entropicline (digits 1-9) r1c1-r1c2``."""
        return f"{self.type_name} (digits 1-{self.top}) {path_text(self.cells)}"

    def to_text(self) -> str:
        """``entropicline <top> r1c1 ...``."""
        return self.text_line(self.top)

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> EntropicLine:
        """``<top> <cell> ...``."""
        return cls.number_then_cells(tokens, where, "top digit")

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[EntropicLine, ...]:
        """A line of four cells on the grid's digits."""
        return (cls(((0, 0), (1, 0), (1, 1), (2, 1)), cols),)
