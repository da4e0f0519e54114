"""Two-cell marks on an edge: Kropki dots (:class:`Difference`, :class:`Ratio`) and :class:`XV`.

- Difference, a white dot (f-puzzles ``difference``): the digits differ by
  ``value`` (default 1);
- Ratio, a black dot (``ratio``): one digit is ``value`` times the other (default 2);
- XV (``xv``): the digits sum to ``value``, 10 drawn ``X``, 5 drawn ``V``.

Each is one :class:`~cp_sudoku.constraints.primitives.Pair`.  The negative rules
(no dot means no such pair) are :mod:`cp_sudoku.constraints.negative`.  Source:
rangsk's SudokuSolver, ``Constraints/DifferenceConstraint.cs``, ``RatioConstraint.cs``,
``SumConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    expect_count,
    located_at,
    parse_cells,
    parse_int,
    register,
)
from cp_sudoku.constraints.linebase import value_pairs
from cp_sudoku.constraints.primitives import Pair
from cp_sudoku.errors import Cell, PuzzleError, cell_name

D = TypeVar("D", bound="EdgeMark")


@dataclass(frozen=True)
class EdgeMark(Constraint):
    """A rule between two distinct cells ``(first, second)`` with a number ``value``.

    Raises:
        PuzzleError: the same cell twice, or a value below 1.
    """

    value: int = 1

    shape: ClassVar[str] = "dot-white"

    def __init__(self, first: Cell, second: Cell, value: int) -> None:
        object.__setattr__(self, "cells", (first, second))
        object.__setattr__(self, "value", value)
        if first == second:
            raise PuzzleError(f"a {self.type_name} needs two cells, got {cell_name(first)} twice")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PuzzleError(f"{self.describe()}: the value must be an integer >= 1")

    @staticmethod
    def rule(value: int, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` meet the mark of ``value``."""
        raise NotImplementedError

    def holds(self, values: Sequence[int]) -> bool:
        """The two values meet the rule."""
        return self.rule(self.value, values[0], values[1])

    def describe(self) -> str:
        """``difference 1 r1c1 r1c2``."""
        a, b = map(cell_name, self.cells)
        return f"{self.type_name} {self.label()} {a} {b}"

    def label(self) -> str:
        """The value as drawn."""
        return str(self.value)

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One pair."""
        allowed = value_pairs(puzzle.values, lambda a, b: self.rule(self.value, a, b))
        return (Pair(self.cells[0], self.cells[1], allowed),)

    def marks(self) -> tuple[Mark, ...]:
        """The mark on the edge, its value shown when it is not the default."""
        return (Mark(self.shape, self.cells, label=self.shown()),)

    def shown(self) -> str:
        """The label drawn on the mark: none for a dot of the :attr:`default` value."""
        return "" if self.value == self.default else self.label()

    def to_text(self) -> str:
        """``<type> <value> r1c1 r1c2``."""
        return self.text_line(self.value)

    @classmethod
    def from_text(cls: type[D], tokens: list[str], where: str) -> D:
        """``<value> <cell> <cell>``."""
        expect_count(tokens, 3, where, f"{cls.type_name} <value> <cell> <cell>")
        first, second = parse_cells(tokens[1:], where)
        with located_at(where):
            return cls(first, second, parse_int(tokens[0], where, "a value"))

    @classmethod
    def examples(cls: type[D], rows: int, cols: int) -> tuple[D, ...]:
        """A mark in a row and one in a column."""
        first, second = cls.sample_values
        return (cls((0, 0), (0, 1), first), cls((1, 2), (2, 2), second))

    sample_values: ClassVar[tuple[int, int]] = (1, 2)
    #: The value a plain mark means (drawn without a label), or None.
    default: ClassVar[int | None] = None


@register
class Difference(EdgeMark):
    """White dot: ``|a - b| == value``."""

    type_name: ClassVar[str] = "difference"
    summary: ClassVar[str] = "white dot: the two digits differ by its value (default 1)"
    fpuzzles_key: ClassVar[str | None] = "difference"
    default: ClassVar[int | None] = 1

    @staticmethod
    def rule(value: int, a: int, b: int) -> bool:
        """Differ by ``value``."""
        return abs(a - b) == value


@register
class Ratio(EdgeMark):
    """Black dot: ``a == value * b`` or ``b == value * a``."""

    type_name: ClassVar[str] = "ratio"
    summary: ClassVar[str] = "black dot: one digit is its value (default 2) times the other"
    fpuzzles_key: ClassVar[str | None] = "ratio"
    shape: ClassVar[str] = "dot-black"
    sample_values: ClassVar[tuple[int, int]] = (2, 3)
    default: ClassVar[int | None] = 2

    @staticmethod
    def rule(value: int, a: int, b: int) -> bool:
        """In ratio ``value``."""
        return a == value * b or b == value * a


@register
class XV(EdgeMark):
    """``a + b == value``: X is 10, V is 5."""

    type_name: ClassVar[str] = "xv"
    summary: ClassVar[str] = "X: the two digits sum to 10; V: to 5"
    fpuzzles_key: ClassVar[str | None] = "xv"
    shape: ClassVar[str] = "edge-text"
    sample_values: ClassVar[tuple[int, int]] = (5, 7)

    @staticmethod
    def rule(value: int, a: int, b: int) -> bool:
        """Sum to ``value``."""
        return a + b == value

    def label(self) -> str:
        """``X``, ``V``, or the sum."""
        return {10: "X", 5: "V"}.get(self.value, str(self.value))
