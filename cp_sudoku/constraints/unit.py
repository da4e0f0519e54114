"""Unit: cells whose values all differ (row, column, box, region, diagonal, window, run)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import quote, unquote

from cp_sudoku.constraints.base import Constraint, Mark, Rules, head_and_cells, register
from cp_sudoku.constraints.primitives import AllDifferent
from cp_sudoku.errors import Cell


def name_token(name: str) -> str:
    """A name as one token of the text format (percent-encoded; ``-`` for empty)."""
    return quote(name, safe="") or "-"


def name_of(token: str) -> str:
    """The inverse of :func:`name_token`."""
    return "" if token == "-" else unquote(token)


@register
@dataclass(frozen=True)
class Unit(Constraint):
    """Cells whose values all differ.

    ``name`` is how messages call it (``row 1``, ``box 5``, ``region A``);
    ``role`` says what it is (``row``, ``column``, ``box``, ``region``,
    ``diagonal``, ``window``), for display, and never parsed from the name.
    """

    name: str = ""
    role: str = ""

    type_name: ClassVar[str] = "unit"
    summary: ClassVar[str] = "a named group of cells whose values all differ"
    fpuzzles_key: ClassVar[str | None] = "extraregion"
    distinct_values: ClassVar[bool] = True

    def __init__(self, name: str, cells: Sequence[Cell], role: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "role", role)

    def holds(self, values: Sequence[int]) -> bool:
        """No value twice."""
        return len(set(values)) == len(values)

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No value twice so far."""
        return len(set(prefix)) == len(prefix)

    def describe(self) -> str:
        """The unit's name."""
        return self.name

    def decompose(self, puzzle: Rules) -> tuple[AllDifferent, ...]:
        """One :class:`AllDifferent`."""
        return (AllDifferent(self.cells),)

    def marks(self) -> tuple[Mark, ...]:
        """Boxes and regions: a region border (``style``: the role); diagonals, windows and
        extra regions: shaded cells (``style``: the role); a cage without a sum (f-puzzles):
        a cage outline with no label."""
        if self.role in ("box", "region"):
            return (Mark("region", self.cells, self.name, self.role),)
        if self.role in ("diagonal", "anti-diagonal", "window", "extra region"):
            return (Mark("shade", self.cells, self.name, self.role),)
        if self.role == "cage":
            return (Mark("cage", self.cells),)
        return ()

    def to_text(self) -> str:
        """``unit <role> <name> <cell> ...`` (name percent-encoded, ``-`` when empty)."""
        return self.text_line(name_token(self.role), name_token(self.name))

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Unit:
        """``<role> <name> <cell> ...``."""
        (role, name), cells = head_and_cells(tokens, where, 2, "unit <role> <name> <cell> ...")
        return cls(name_of(name), cells, name_of(role))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Unit, ...]:
        """The anti-diagonal, as a diagonal unit."""
        size = min(rows, cols)
        return (cls("diagonal /", [(i, size - 1 - i) for i in range(size)], "diagonal"),)
