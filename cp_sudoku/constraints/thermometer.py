"""Thermometers: digits increase from the bulb (the first cell) along the line.

:class:`Thermometer` (f-puzzles ``thermometer``) strictly; :class:`SlowThermometer`
(``slowthermometer``) never decreasing.  Each step is a
:class:`~cp_sudoku.constraints.primitives.Pair`.  Source of the rule: rangsk's
SudokuSolver, ``Constraints/ThermometerConstraint.cs`` and ``SlowThermometerConstraint.cs``.
"""

from __future__ import annotations

from typing import ClassVar

from cp_sudoku.constraints.base import Mark, register
from cp_sudoku.constraints.linebase import StepLine


@register
class Thermometer(StepLine):
    """Digits strictly increase from the bulb ``cells[0]`` along the line."""

    type_name: ClassVar[str] = "thermometer"
    summary: ClassVar[str] = "digits strictly increase from the bulb along the line"
    fpuzzles_key: ClassVar[str | None] = "thermometer"

    @staticmethod
    def step(a: int, b: int) -> bool:
        """Whether ``b`` may follow ``a`` on the line: greater."""
        return a < b

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
