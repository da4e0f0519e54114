"""Relation: a rule between two cells (Futoshiki ``<``, non-consecutive, Kropki dots)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    cell_token,
    expect_count,
    parse_cells,
    parse_int,
    register,
)
from cp_sudoku.errors import Cell, PuzzleError, cell_name

#: Relations between two cells, with the meaning of ``value``.
RELATIONS = ("<", "non-consecutive", "difference", "ratio")


@register
@dataclass(frozen=True)
class Relation(Constraint):
    """A rule between two cells ``cells = (first, second)``.

    - ``<``: first < second (Futoshiki; ``a > b`` is written ``b < a``);
    - ``non-consecutive``: the values differ by more than 1;
    - ``difference``: the values differ by exactly ``value`` (Kropki white dot);
    - ``ratio``: one value is ``value`` times the other (Kropki black dot).

    Raises:
        PuzzleError: not two distinct cells, or an unknown relation.
    """

    op: str = "<"
    value: int = 0

    type_name: ClassVar[str] = "relation"
    summary: ClassVar[str] = "two cells: <, non-consecutive, difference k, ratio k"

    def __init__(self, first: Cell, second: Cell, op: str, value: int = 0) -> None:
        object.__setattr__(self, "cells", (first, second))
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "value", value)
        if op not in RELATIONS:
            raise PuzzleError(
                f"unknown relation {op!r}: expected one of {', '.join(RELATIONS)}",
                cells=self.cells,
            )
        if first == second:
            raise PuzzleError(f"a relation needs two cells, got {cell_name(first)} twice")

    def holds(self, values: Sequence[int]) -> bool:
        """The relation between the two values."""
        a, b = values
        if self.op == "<":
            return a < b
        if self.op == "non-consecutive":
            return abs(a - b) > 1
        if self.op == "difference":
            return abs(a - b) == self.value
        return a == b * self.value or b == a * self.value

    def describe(self) -> str:
        """``r1c1 < r1c2``, ``r1c1 and r1c2 differ by more than 1``, ..."""
        a, b = (cell_name(c) for c in self.cells)
        if self.op == "<":
            return f"{a} < {b}"
        if self.op == "non-consecutive":
            return f"{a} and {b} differ by more than 1"
        if self.op == "difference":
            return f"{a} and {b} differ by {self.value}"
        return f"{a} and {b} are in ratio {self.value}:1"

    def marks(self) -> tuple[Mark, ...]:
        """``<``: the sign between the cells (pointing at the smaller); a difference: a white
        dot, a ratio: a black dot (labelled unless 1 or 2); non-consecutive: nothing."""
        if self.op == "<":
            return (Mark("relation", self.cells, "<"),)
        if self.op == "difference":
            return (Mark("dot-white", self.cells, "" if self.value == 1 else str(self.value)),)
        if self.op == "ratio":
            return (Mark("dot-black", self.cells, "" if self.value == 2 else str(self.value)),)
        return ()

    def to_text(self) -> str:
        """``relation <op> <value> <cell> <cell>``."""
        first, second = map(cell_token, self.cells)
        return f"{self.type_name} {self.op} {self.value} {first} {second}"

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Relation:
        """``<op> <value> <cell> <cell>``."""
        expect_count(tokens, 4, where, "relation <op> <value> <cell> <cell>")
        first, second = parse_cells(tokens[2:], where)
        try:
            return cls(first, second, tokens[0], parse_int(tokens[1], where))
        except PuzzleError as error:
            raise PuzzleError(f"{where}: {error.message}", cells=error.cells) from None

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Relation, ...]:
        """One of each relation."""
        return (
            cls((0, 0), (0, 1), "<"),
            cls((1, 0), (1, 1), "non-consecutive"),
            cls((2, 0), (2, 1), "difference", 1),
            cls((3, 0), (3, 1), "ratio", 2),
        )
