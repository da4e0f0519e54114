"""Lines with a circle at each end: :class:`BetweenLine` and :class:`DoubleArrow`.

- Between line (f-puzzles ``betweenline``): every digit strictly between the
  two end digits; one three-cell :class:`~cp_sudoku.constraints.primitives.Table`
  per inner cell (at most n^3 tuples).
- Double arrow (``doublearrow``): the two end digits sum to the total of the
  cells between them; one :class:`~cp_sudoku.constraints.primitives.Linear`.

Source: rangsk's SudokuSolver, ``Constraints/BetweenLineConstraint.cs`` and
``DoubleArrowConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from cp_sudoku.constraints.base import Mark, Rules, register
from cp_sudoku.constraints.linebase import Line
from cp_sudoku.constraints.primitives import Linear, Primitive, Table


@register
class BetweenLine(Line):
    """Every inner digit lies strictly between the digits of the two ends."""

    type_name: ClassVar[str] = "betweenline"
    summary: ClassVar[str] = "digits on the line lie strictly between its two end circles"
    fpuzzles_key: ClassVar[str | None] = "betweenline"
    min_cells: ClassVar[int] = 2

    def holds(self, values: Sequence[int]) -> bool:
        """``min(ends) < v < max(ends)`` for every inner value."""
        low, high = sorted((values[0], values[-1]))
        return all(low < v < high for v in values[1:-1])

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """The inner values so far differ from the first end."""
        return all(v != prefix[0] for v in prefix[1 : len(self.cells) - 1])

    def decompose(self, puzzle: Rules) -> tuple[Primitive, ...]:
        """Per inner cell, a table (first end, inner cell, last end)."""
        first, last = self.cells[0], self.cells[-1]
        values = list(puzzle.values)
        inside = [
            (a, v, b) for a in values for v in values for b in values if min(a, b) < v < max(a, b)
        ]
        return tuple(Table((first, cell, last), inside) for cell in self.cells[1:-1])

    def marks(self) -> tuple[Mark, ...]:
        """A circle at each end and the line."""
        ends = (self.cells[0], self.cells[-1])
        return tuple(Mark("circle", (c,), style=self.type_name) for c in ends) + super().marks()


@register
class DoubleArrow(BetweenLine):
    """The two end digits sum to the total of the digits between them."""

    type_name: ClassVar[str] = "doublearrow"
    summary: ClassVar[str] = "the two end circles sum to the total of the cells between them"
    fpuzzles_key: ClassVar[str | None] = "doublearrow"
    min_cells: ClassVar[int] = 3

    def holds(self, values: Sequence[int]) -> bool:
        """``first + last == sum(inner)``."""
        return values[0] + values[-1] == sum(values[1:-1])

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """True (the last end comes last)."""
        return True

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """``first + last - sum(inner) == 0``."""
        coeffs = [1] + [-1] * (len(self.cells) - 2) + [1]
        return (Linear(self.cells, coeffs, "==", 0),)
