"""Thermometers: digits increase from the bulb (the first cell) along the line.

:class:`Thermometer` (f-puzzles ``thermometer``) strictly; :class:`SlowThermometer`
(``slowthermometer``) never decreasing.  Each step is a
:class:`~cp_sudoku.constraints.primitives.Pair`.  Source of the rule: rangsk's
SudokuSolver, ``Constraints/ThermometerConstraint.cs`` and ``SlowThermometerConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from cp_sudoku.constraints.base import Mark, register
from cp_sudoku.constraints.linebase import Line, value_pairs
from cp_sudoku.constraints.primitives import Pair

if TYPE_CHECKING:
    from cp_sudoku.model.puzzle import Puzzle


@register
class Thermometer(Line):
    """Digits strictly increase from the bulb ``cells[0]`` along the line."""

    type_name: ClassVar[str] = "thermometer"
    summary: ClassVar[str] = "digits strictly increase from the bulb along the line"
    fpuzzles_key: ClassVar[str | None] = "thermometer"

    @staticmethod
    def step(a: int, b: int) -> bool:
        """Whether ``b`` may follow ``a`` on the line."""
        return a < b

    def holds(self, values: Sequence[int]) -> bool:
        """Every step allowed."""
        return all(self.step(a, b) for a, b in pairwise(values))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Every step so far allowed."""
        return self.holds(prefix)

    def decompose(self, puzzle: Puzzle) -> tuple[Pair, ...]:
        """One pair per step."""
        allowed = value_pairs(puzzle.values, self.step)
        return tuple(Pair(a, b, allowed) for a, b in pairwise(self.cells))

    def marks(self) -> tuple[Mark, ...]:
        """A bulb on the first cell and the line."""
        return (Mark("bulb", self.cells[:1], style=self.type_name), *super().marks())


@register
class SlowThermometer(Thermometer):
    """Digits never decrease from the bulb along the line."""

    type_name: ClassVar[str] = "slowthermometer"
    summary: ClassVar[str] = "digits never decrease from the bulb along the line"
    fpuzzles_key: ClassVar[str | None] = "slowthermometer"

    @staticmethod
    def step(a: int, b: int) -> bool:
        """Whether ``b`` may follow ``a``: not smaller."""
        return a <= b
