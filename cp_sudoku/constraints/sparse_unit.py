"""SparseUnit: heights ``1..top`` once each, the other cells empty (Skyscrapers with K < n)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints.base import Constraint, head_and_cells, parse_int, register
from cp_sudoku.constraints.unit import name_of, name_token
from cp_sudoku.errors import Cell, PuzzleError


@register
@dataclass(frozen=True)
class SparseUnit(Constraint):
    """Each height ``1..top`` exactly once; the other cells empty (value 0).

    A Skyscraper row, column or diagonal when the heights stop at ``top`` < n.

    Raises:
        PuzzleError: ``top`` outside ``1..len(cells)``.
    """

    name: str = ""
    top: int = 0
    role: str = ""

    type_name: ClassVar[str] = "sparse-unit"
    summary: ClassVar[str] = "heights 1..K once each, the other cells empty (0)"

    def __init__(self, name: str, cells: Sequence[Cell], top: int, role: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "role", role)
        if not 1 <= top <= len(self.cells):
            raise PuzzleError(
                f"{name}: heights 1..{top} do not fit {len(self.cells)} cells", cells=self.cells
            )

    def holds(self, values: Sequence[int]) -> bool:
        """Heights ``1..top`` once each, zeros elsewhere."""
        heights = sorted(v for v in values if v)
        return heights == list(range(1, self.top + 1))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No height twice or past ``top``, and no more empty cells than there is room for."""
        heights = [v for v in prefix if v]
        empty = len(prefix) - len(heights)
        return (
            len(set(heights)) == len(heights)
            and all(v <= self.top for v in heights)
            and empty <= len(self.cells) - self.top
        )

    def describe(self) -> str:
        """The unit's name."""
        return self.name

    def to_text(self) -> str:
        """``sparse-unit <top> <role> <name> <cell> ...``."""
        return self.text_line(self.top, name_token(self.role), name_token(self.name))

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> SparseUnit:
        """``<top> <role> <name> <cell> ...``."""
        form = "sparse-unit <top> <role> <name> <cell> ..."
        (top, role, name), cells = head_and_cells(tokens, where, 3, form)
        return cls(name_of(name), cells, parse_int(top, where, "the top height"), name_of(role))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[SparseUnit, ...]:
        """Heights up to ``cols - 1`` along the first row."""
        return (cls("row 1", [(0, c) for c in range(cols)], cols - 1, "row"),)
