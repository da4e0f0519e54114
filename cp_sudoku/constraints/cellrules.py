"""Rules on single cells and small groups marked on the grid.

=====================  ====================================================  ================
type                   rule                                                  f-puzzles key
=====================  ====================================================  ================
:class:`Odd`           the cell's digit is odd (drawn as a circle)           ``odd``
:class:`Even`          the cell's digit is even (drawn as a square)          ``even``
:class:`Candidates`    the cell holds one of ``values``                      ``givenPencilMarks``
:class:`Minimum`       the cell is smaller than each cell in ``cells[1:]``   ``minimum``
:class:`Maximum`       the cell is greater than each cell in ``cells[1:]``   ``maximum``
:class:`Quadruple`     each listed digit appears among the four cells (a     ``quadruple``
                       digit listed twice at least twice)
:class:`Clone`         ``cells[i]`` and its clone hold the same digit        ``clone``
=====================  ====================================================  ================

Source of the rules: rangsk's SudokuSolver, ``Constraints/OddConstraint.cs``,
``EvenConstraint.cs``, ``MinimumConstraint.cs``, ``MaximumConstraint.cs``,
``QuadrupleConstraint.cs``, ``CloneConstraint.cs``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    cell_token,
    cells_text,
    expect_count,
    located_at,
    parse_cell,
    parse_cells,
    parse_int,
    register,
)
from cp_sudoku.constraints.linebase import value_pairs
from cp_sudoku.constraints.primitives import Pair, Table
from cp_sudoku.errors import Cell, PuzzleError, cell_name

V = TypeVar("V", bound="CellValues")


@dataclass(frozen=True)
class CellValues(Constraint):
    """One cell whose digit passes :meth:`accepts`; a one-cell table."""

    def __init__(self, cell: Cell) -> None:
        object.__setattr__(self, "cells", (cell,))

    def accepts(self, value: int) -> bool:
        """Whether the cell may hold ``value``."""
        raise NotImplementedError

    def holds(self, values: Sequence[int]) -> bool:
        """The digit is accepted."""
        return self.accepts(values[0])

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """The digit, once there, is accepted."""
        return not prefix or self.accepts(prefix[0])

    def describe(self) -> str:
        """``odd r1c1``."""
        return f"{self.type_name} {cell_name(self.cells[0])}"

    def decompose(self, puzzle: Rules) -> tuple[Table, ...]:
        """The accepted digits, as a one-cell table."""
        return (Table(self.cells, [(v,) for v in puzzle.values if self.accepts(v)]),)

    def marks(self) -> tuple[Mark, ...]:
        """A circle (odd) or a square (even)."""
        return (Mark(self.type_name, self.cells),)

    def to_text(self) -> str:
        """``<type> r1c1``."""
        return f"{self.type_name} {cell_token(self.cells[0])}"

    @classmethod
    def from_text(cls: type[V], tokens: list[str], where: str) -> V:
        """``<cell>``."""
        expect_count(tokens, 1, where, f"{cls.type_name} <cell>")
        return cls(parse_cell(tokens[0], where))

    @classmethod
    def examples(cls: type[V], rows: int, cols: int) -> tuple[V, ...]:
        """Two cells."""
        return (cls((0, 0)), cls((2, 3)))


@register
class Odd(CellValues):
    """The digit is odd."""

    type_name: ClassVar[str] = "odd"
    summary: ClassVar[str] = "the cell's digit is odd"
    fpuzzles_key: ClassVar[str | None] = "odd"

    def accepts(self, value: int) -> bool:
        """Odd."""
        return value % 2 == 1


@register
class Even(CellValues):
    """The digit is even."""

    type_name: ClassVar[str] = "even"
    summary: ClassVar[str] = "the cell's digit is even"
    fpuzzles_key: ClassVar[str | None] = "even"

    def accepts(self, value: int) -> bool:
        """Even."""
        return value % 2 == 0


@register
@dataclass(frozen=True)
class Candidates(CellValues):
    """The cell holds one of ``values`` (a setter's pencil marks).

    Raises:
        PuzzleError: no value.
    """

    values: frozenset[int] = frozenset()

    type_name: ClassVar[str] = "candidates"
    summary: ClassVar[str] = "the cell holds one of the listed digits"
    fpuzzles_key: ClassVar[str | None] = "givenPencilMarks"

    def __init__(self, cell: Cell, values: Iterable[int]) -> None:
        super().__init__(cell)
        object.__setattr__(self, "values", frozenset(values))
        if not self.values:
            raise PuzzleError(f"candidates at {cell_name(cell)}: no digit listed", cells=[cell])

    def accepts(self, value: int) -> bool:
        """One of the values."""
        return value in self.values

    def describe(self) -> str:
        """``candidates r1c1 {1,2}``."""
        shown = ",".join(map(str, sorted(self.values)))
        return f"candidates {cell_name(self.cells[0])} {{{shown}}}"

    def marks(self) -> tuple[Mark, ...]:
        """Nothing drawn (the givens' pencil marks)."""
        return ()

    def to_text(self) -> str:
        """``candidates r1c1 1,2``."""
        shown = ",".join(map(str, sorted(self.values)))
        return f"{self.type_name} {cell_token(self.cells[0])} {shown}"

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Candidates:
        """``<cell> <v,v,...>``."""
        expect_count(tokens, 2, where, "candidates <cell> <v,v,...>")
        values = [parse_int(t, where, "a digit") for t in tokens[1].split(",")]
        with located_at(where):
            return cls(parse_cell(tokens[0], where), values)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Candidates, ...]:
        """Two digits on one cell."""
        return (cls((1, 1), (1, 3)),)


@dataclass(frozen=True)
class Extremum(Constraint):
    """``cells[0]`` compared with each neighbour in ``cells[1:]`` (see :meth:`wins`)."""

    relation: ClassVar[str] = "<"

    def __init__(self, cell: Cell, neighbours: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", (cell, *neighbours))

    @staticmethod
    def wins(own: int, other: int) -> bool:
        """Whether the cell's digit beats a neighbour's."""
        raise NotImplementedError

    def holds(self, values: Sequence[int]) -> bool:
        """Beats every neighbour."""
        return all(self.wins(values[0], v) for v in values[1:])

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """So far."""
        return self.holds(prefix)

    def describe(self) -> str:
        """``minimum r2c2 (than r1c2,r2c1)``."""
        return f"{self.type_name} {cell_name(self.cells[0])} (than {cells_text(self.cells[1:])})"

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One pair per neighbour."""
        allowed = value_pairs(puzzle.values, self.wins)
        return tuple(Pair(self.cells[0], other, allowed) for other in self.cells[1:])

    def marks(self) -> tuple[Mark, ...]:
        """A sign toward each neighbour."""
        return tuple(Mark("relation", (self.cells[0], n), self.relation) for n in self.cells[1:])

    def to_text(self) -> str:
        """``<type> <cell> <neighbour> ...``."""
        return self.text_line()

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Extremum:
        """``<cell> <neighbour> ...``."""
        if not tokens:
            raise PuzzleError(f"{where}: expected {cls.type_name} <cell> <neighbour> ...")
        cells = parse_cells(tokens, where)
        return cls(cells[0], cells[1:])

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Extremum, ...]:
        """A corner cell and an inner cell."""
        return (cls((0, 0), ((0, 1), (1, 0))), cls((2, 2), ((1, 2), (2, 1), (2, 3), (3, 2))))


@register
class Minimum(Extremum):
    """Smaller than each listed neighbour."""

    type_name: ClassVar[str] = "minimum"
    summary: ClassVar[str] = "the cell is smaller than its neighbours (other minima aside)"
    fpuzzles_key: ClassVar[str | None] = "minimum"

    @staticmethod
    def wins(own: int, other: int) -> bool:
        """Smaller."""
        return own < other


@register
class Maximum(Extremum):
    """Greater than each listed neighbour."""

    type_name: ClassVar[str] = "maximum"
    summary: ClassVar[str] = "the cell is greater than its neighbours (other maxima aside)"
    fpuzzles_key: ClassVar[str | None] = "maximum"
    relation: ClassVar[str] = ">"

    @staticmethod
    def wins(own: int, other: int) -> bool:
        """Greater."""
        return own > other


@register
@dataclass(frozen=True)
class Quadruple(Constraint):
    """Each digit of ``values`` appears among the cells, as often as it is listed.

    Raises:
        PuzzleError: not 1..4 cells, or more digits than cells.
    """

    values: tuple[int, ...] = ()

    type_name: ClassVar[str] = "quadruple"
    summary: ClassVar[str] = "the listed digits all appear in the four cells around the circle"
    fpuzzles_key: ClassVar[str | None] = "quadruple"

    def __init__(self, cells: Iterable[Cell], values: Iterable[int]) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "values", tuple(sorted(values)))
        if not 1 <= len(self.cells) <= 4 or len(self.values) > len(self.cells):
            raise PuzzleError(
                f"{self.describe()}: expected up to four cells and no more digits than cells",
                cells=self.cells,
            )

    def _missing(self, values: Sequence[int]) -> int:
        """How many listed digits ``values`` lacks."""
        need = Counter(self.values)
        need.subtract(Counter(values))
        return sum(k for k in need.values() if k > 0)

    def holds(self, values: Sequence[int]) -> bool:
        """Every listed digit there."""
        return self._missing(values) == 0

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """The cells left can still hold the digits missing."""
        return self._missing(prefix) <= len(self.cells) - len(prefix)

    def describe(self) -> str:
        """``quadruple {r1c1,r1c2,r2c1,r2c2} 3,4``."""
        return f"quadruple {cells_text(self.cells)} {','.join(map(str, self.values))}"

    def marks(self) -> tuple[Mark, ...]:
        """A circle at the corner with the digits."""
        return (Mark("quad", self.cells, " ".join(map(str, self.values))),)

    def to_text(self) -> str:
        """``quadruple r1c1 r1c2 r2c1 r2c2 : 3,4``."""
        return " ".join(
            [self.type_name, *map(cell_token, self.cells), ":", ",".join(map(str, self.values))]
        )

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Quadruple:
        """``<cell> ... : v,v``."""
        if len(tokens) < 3 or tokens[-2] != ":":
            raise PuzzleError(f"{where}: expected quadruple <cell> ... : v,v,...")
        values = [parse_int(t, where, "a digit") for t in tokens[-1].split(",")]
        with located_at(where):
            return cls(parse_cells(tokens[:-2], where), values)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Quadruple, ...]:
        """Two digits around one corner, one repeated digit around another."""
        return (
            cls(((0, 0), (0, 1), (1, 0), (1, 1)), (1, 3)),
            cls(((1, 1), (1, 2), (2, 1), (2, 2)), (2, 2)),
        )


@register
@dataclass(frozen=True)
class Clone(Constraint):
    """``cells`` = the first shape then its clone, cell for cell; each pair holds one digit.

    Raises:
        PuzzleError: shapes of different sizes, or a cell twice.
    """

    size: int = 0

    type_name: ClassVar[str] = "clone"
    summary: ClassVar[str] = "a shape and its clone hold the same digits, cell for cell"
    fpuzzles_key: ClassVar[str | None] = "clone"

    def __init__(self, cells: Iterable[Cell], clones: Iterable[Cell]) -> None:
        first, second = self._two_parts("size", cells, clones)
        if len(first) != len(second) or not first:
            raise PuzzleError(
                f"clone {cells_text(first)}: {len(first)} cells, {len(second)} clone cells",
                cells=first + second,
            )

    def holds(self, values: Sequence[int]) -> bool:
        """Each cell equals its clone."""
        return list(values[: self.size]) == list(values[self.size :])

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """The clones so far equal their cells."""
        return all(prefix[i] == prefix[i - self.size] for i in range(self.size, len(prefix)))

    def describe(self) -> str:
        """``clone {r1c1,r1c2} = {r5c5,r5c6}``."""
        return (
            f"clone {cells_text(self.cells[: self.size])} = {cells_text(self.cells[self.size :])}"
        )

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """One equal pair per cell."""
        same = frozenset((v, v) for v in puzzle.values)
        return tuple(
            Pair(a, b, same)
            for a, b in zip(self.cells[: self.size], self.cells[self.size :], strict=True)
        )

    def marks(self) -> tuple[Mark, ...]:
        """Both shapes shaded."""
        return (Mark("shade", self.cells, style="clone"),)

    def to_text(self) -> str:
        """``clone <cells> | <clone cells>``."""
        first, second = self.cells[: self.size], self.cells[self.size :]
        return " ".join([self.type_name, *map(cell_token, first), "|", *map(cell_token, second)])

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Clone:
        """``<cells> | <clone cells>``."""
        if tokens.count("|") != 1:
            raise PuzzleError(f"{where}: expected clone <cells> | <clone cells>")
        split = tokens.index("|")
        with located_at(where):
            return cls(parse_cells(tokens[:split], where), parse_cells(tokens[split + 1 :], where))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Clone, ...]:
        """Two cells cloned across the grid."""
        return (cls(((0, 0), (0, 1)), ((3, 2), (3, 3))),)
