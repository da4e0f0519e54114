"""Indexer cells: an indexer's digit says where, along its row, column or box, a number goes.

``cells`` are the n cells an indexer points along (its column for a row
indexer, its row for a column indexer, its region in reading order for a box
indexer) and ``at`` is the indexer cell's place among them, 0-based.  If the
indexer cell holds v, the v-th of those cells holds ``at + 1``:

- row indexer (f-puzzles ``rowindexer``) in row r, column c: digit v puts r in
  row v of column c;
- column indexer (``columnindexer``): digit v puts c in column v of row r;
- box indexer (``boxindexer``): the p-th cell of a region holding v puts p in
  the v-th cell of that region.

Decomposed into one :class:`~cp_sudoku.constraints.primitives.Pair` per digit
(``x == v`` implies ``cells[v-1] == at + 1``).  Source: rangsk's SudokuSolver,
``Constraints/IndexerConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    cell_token,
    cells_text,
    parse_cell,
    parse_cells,
    register,
)
from cp_sudoku.constraints.primitives import Pair, Table
from cp_sudoku.errors import Cell, PuzzleError, cell_name

X = TypeVar("X", bound="Indexer")


@dataclass(frozen=True)
class Indexer(Constraint):
    """The indexer ``cells[at]``: holding v, it puts ``at + 1`` in ``cells[v - 1]``.

    Raises:
        PuzzleError: ``at`` outside the cells.
    """

    at: int = 0

    def __init__(self, cells: Iterable[Cell], at: int) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "at", at)
        if not 0 <= at < len(self.cells):
            raise PuzzleError(f"{self.type_name}: place {at + 1} is not among its cells")

    @property
    def cell(self) -> Cell:
        """The indexer cell."""
        return self.cells[self.at]

    def holds(self, values: Sequence[int]) -> bool:
        """``values[v - 1] == at + 1`` for v the indexer's digit."""
        v = values[self.at]
        return 1 <= v <= len(values) and values[v - 1] == self.at + 1

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Checked once both the indexer and its target are in the prefix."""
        if len(prefix) <= self.at:
            return True
        v = prefix[self.at]
        return 1 <= v <= len(self.cells) and (v > len(prefix) or prefix[v - 1] == self.at + 1)

    def describe(self) -> str:
        """``rowindexer r3c1``."""
        return f"{self.type_name} {cell_name(self.cell)}"

    def decompose(self, puzzle: Rules) -> tuple[Pair | Table, ...]:
        """Per digit v (not its own place): ``x == v`` implies ``cells[v-1] == at + 1``.

        When the cells are one unit of the puzzle (a row, column or region, as in
        f-puzzles) the pairs say "if and only if": ``at + 1`` is then in exactly one of
        the cells, and any other digit of the indexer would put it in a second.
        """
        values, mark = list(puzzle.values), self.at + 1
        size = len(self.cells)
        unit = len(puzzle.differ_pairs(self.cells)) == size * (size - 1) // 2
        found: list[Pair | Table] = []
        for v in values:
            if v - 1 == self.at or not 1 <= v <= len(self.cells):
                continue
            allowed = {
                (a, b)
                for a in values
                for b in values
                if (a == v) == (b == mark) or (not unit and a != v)
            }
            found.append(Pair(self.cell, self.cells[v - 1], allowed))
        reach = [(v,) for v in values if 1 <= v <= len(self.cells)]
        if len(reach) < len(values):  # a digit past the cells points nowhere
            found.append(Table((self.cell,), reach))
        return tuple(found)

    def marks(self) -> tuple[Mark, ...]:
        """The indexer cell shaded."""
        return (Mark("shade", (self.cell,), style=self.type_name),)

    def to_text(self) -> str:
        """``<type> <indexer cell> : <cells> ...``."""
        return self.text_line(cell_token(self.cell), ":")

    @classmethod
    def from_text(cls: type[X], tokens: list[str], where: str) -> X:
        """``<indexer cell> : <cell> ...`` (the indexer among the cells)."""
        if len(tokens) < 3 or tokens[1] != ":":
            raise PuzzleError(f"{where}: expected {cls.type_name} <cell> : <cell> ...")
        cell, cells = parse_cell(tokens[0], where), parse_cells(tokens[2:], where)
        if cell not in cells:
            raise PuzzleError(f"{where}: {tokens[0]} is not among {cells_text(cells)}")
        return cls(cells, cells.index(cell))

    @classmethod
    def examples(cls: type[X], rows: int, cols: int) -> tuple[X, ...]:
        """Two indexers (r2c1 and r3c2), each along the cells its kind points at."""
        lines = [cls.along(cell, rows, cols) for cell in ((1, 0), (2, 1))]
        return tuple(
            cls(cells, cells.index(cell))
            for cell, cells in zip(((1, 0), (2, 1)), lines, strict=True)
        )

    @staticmethod
    def along(cell: Cell, rows: int, cols: int) -> list[Cell]:
        """The cells an indexer at ``cell`` points along (for the examples)."""
        raise NotImplementedError


@register
class RowIndexer(Indexer):
    """The digit v in row r, column c puts r in row v of column c."""

    type_name: ClassVar[str] = "rowindexer"
    summary: ClassVar[str] = "a digit v in row r puts r in row v of the same column"
    fpuzzles_key: ClassVar[str | None] = "rowindexer"

    @staticmethod
    def along(cell: Cell, rows: int, cols: int) -> list[Cell]:
        """Its column."""
        return [(r, cell[1]) for r in range(rows)]


@register
class ColumnIndexer(Indexer):
    """The digit v in row r, column c puts c in column v of row r."""

    type_name: ClassVar[str] = "columnindexer"
    summary: ClassVar[str] = "a digit v in column c puts c in column v of the same row"
    fpuzzles_key: ClassVar[str | None] = "columnindexer"

    @staticmethod
    def along(cell: Cell, rows: int, cols: int) -> list[Cell]:
        """Its row."""
        return [(cell[0], c) for c in range(cols)]


@register
class BoxIndexer(Indexer):
    """The p-th cell of a region holding v puts p in the v-th cell of that region."""

    type_name: ClassVar[str] = "boxindexer"
    summary: ClassVar[str] = "a digit v in a region's p-th cell puts p in its v-th cell"
    fpuzzles_key: ClassVar[str | None] = "boxindexer"

    @staticmethod
    def along(cell: Cell, rows: int, cols: int) -> list[Cell]:
        """Its box of f-puzzles' default shape (2x2 on 4x4, 2x3 on 6x6), reading order."""
        high = max(h for h in range(1, rows + 1) if rows % h == 0 and h * h <= rows)
        wide = rows // high
        top, left = cell[0] // high * high, cell[1] // wide * wide
        return [(top + r, left + c) for r in range(high) for c in range(wide)]
