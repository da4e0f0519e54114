"""Shared shapes of the catalogue types: lines through cells, and global rules on adjacent pairs.

- :class:`Line`: cells in the order a line passes them (its first cell is
  where it starts), no cell twice; written ``<type> r1c1 r1c2 ...``, drawn as
  a polyline whose ``style`` is the type name;
- :class:`StepLine`: a line whose rule holds between each cell and the next
  (:meth:`StepLine.step`), one :class:`~cp_sudoku.constraints.primitives.Pair` per step.
- :func:`grid_cells`, :func:`adjacent_pairs`: the cells of a ``rows`` x
  ``cols`` grid and its orthogonally adjacent pairs, for the global rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar, TypeVar

from cp_sudoku.constraints.base import Constraint, Mark, Rules, located_at, parse_cells
from cp_sudoku.constraints.primitives import Pair
from cp_sudoku.errors import Cell, PuzzleError, cell_name

L = TypeVar("L", bound="Line")


def path_text(cells: Sequence[Cell]) -> str:
    """``r1c1-r1c2-r2c2``: a line's cells in order."""
    return "-".join(cell_name(c) for c in cells)


def repeated(cells: Iterable[Cell]) -> Cell | None:
    """The first cell that ``cells`` lists a second time, or None."""
    seen: set[Cell] = set()
    for cell in cells:
        if cell in seen:
            return cell
        seen.add(cell)
    return None


def once_each(name: str, cells: Iterable[Cell]) -> None:
    """Refuse a line ``name`` (its words) that passes through a cell twice.

    Raises:
        PuzzleError: ``<name> passes through rXcY twice``.
    """
    cell = repeated(cells)
    if cell is not None:
        raise PuzzleError(f"{name} passes through {cell_name(cell)} twice", cells=[cell])


def value_pairs(values: Iterable[int], rule: object) -> frozenset[tuple[int, int]]:
    """The pairs ``(a, b)`` of ``values`` for which ``rule(a, b)`` is true."""
    pool = list(values)
    return frozenset((a, b) for a in pool for b in pool if rule(a, b))  # type: ignore[operator]


@dataclass(frozen=True)
class Line(Constraint):
    """Cells in the order a line passes through them; subclasses give the rule.

    Raises:
        PuzzleError: fewer than :attr:`min_cells` cells, or a cell twice
            (naming the cell).
    """

    min_cells: ClassVar[int] = 1

    def __init__(self, cells: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        self._check_line()

    def _check_line(self) -> None:
        if len(self.cells) < self.min_cells:
            raise PuzzleError(
                f"{self.type_name} {path_text(self.cells)}: a {self.type_name} needs at least "
                f"{self.min_cells} cells",
                cells=self.cells,
            )
        once_each(f"{self.type_name} {path_text(self.cells)}", self.cells)

    def describe(self) -> str:
        """``<type> r2c3-r2c4-r2c5``."""
        return f"{self.type_name} {path_text(self.cells)}"

    def marks(self) -> tuple[Mark, ...]:
        """The line, styled by its type."""
        return (Mark("line", self.cells, style=self.type_name),)

    def to_text(self) -> str:
        """``<type> r1c1 r1c2 ...``."""
        return self.text_line()

    @classmethod
    def from_text(cls: type[L], tokens: list[str], where: str) -> L:
        """Cells ``rXcY ...`` in line order."""
        with located_at(where):
            return cls(parse_cells(tokens, where))

    @classmethod
    def examples(cls: type[L], rows: int, cols: int) -> tuple[L, ...]:
        """A bent line of three cells and a straight one of four."""
        return (cls(((0, 0), (1, 0), (1, 1))), cls(((3, 0), (3, 1), (3, 2), (3, 3))))


class StepLine(Line):
    """A line whose rule holds between each cell and the next: :meth:`step`."""

    def step(self, a: int, b: int) -> bool:
        """Whether ``b`` may follow ``a`` on the line."""
        raise NotImplementedError

    def holds(self, values: Sequence[int]) -> bool:
        """Every step allowed."""
        return all(self.step(a, b) for a, b in pairwise(values))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Every step so far allowed."""
        return self.holds(prefix)

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One pair per step."""
        allowed = value_pairs(puzzle.values, self.step)
        return tuple(Pair(a, b, allowed) for a, b in pairwise(self.cells))


def grid_cells(rows: int, cols: int) -> tuple[Cell, ...]:
    """Every cell of a ``rows`` x ``cols`` grid, row-major."""
    return tuple((r, c) for r in range(rows) for c in range(cols))


def adjacent_pairs(rows: int, cols: int) -> Iterator[tuple[Cell, Cell]]:
    """Orthogonally adjacent cells ``(a, b)``, ``a`` before ``b`` row-major."""
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                yield (r, c), (r, c + 1)
            if r + 1 < rows:
                yield (r, c), (r + 1, c)


def neighbours(cell: Cell, rows: int, cols: int) -> tuple[Cell, ...]:
    """The orthogonal neighbours of ``cell`` inside the grid (up, left, right, down)."""
    r, c = cell
    steps = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
    return tuple((a, b) for a, b in steps if 0 <= a < rows and 0 <= b < cols)
