"""Global rules on pairs of cells of the whole grid.

=========================  ===============================================  ==============
type                       rule                                             f-puzzles key
=========================  ===============================================  ==============
:class:`AntiKnight`        a knight's move apart: different digits          ``antiknight``
:class:`AntiKing`          a king's move apart: different digits            ``antiking``
:class:`Nonconsecutive`    adjacent, not ``exempt``: not consecutive        ``nonconsecutive``
:class:`NegativeRatio`     adjacent, not ``exempt``: in none of ``ratios``  ``negative: ratio``
:class:`NegativeXV`        adjacent, not ``exempt``: sum neither 5 nor 10   ``negative: xv``
=========================  ===============================================  ==============

``cells`` is every cell of a ``rows`` x ``cols`` grid, row-major.  ``exempt``
holds the adjacent pairs a mark stands on (the f-puzzles reader fills it: a
Kropki dot of either colour exempts a pair from ``nonconsecutive`` and the
negative ratio; an X or V from the negative XV), as rangsk's SudokuSolver
does (``Constraints/OrthogonalValueConstraint.cs``, ``KnightConstraint.cs``,
``KingConstraint.cs``).  Each decomposes into one
:class:`~cp_sudoku.constraints.primitives.Pair` (or a two-cell
:class:`~cp_sudoku.constraints.primitives.AllDifferent`) per pair, skipping
pairs already in one unit for the anti-chess rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, TypeVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    cell_token,
    parse_cell,
    parse_int,
    register,
)
from cp_sudoku.constraints.linebase import adjacent_pairs, grid_cells, value_pairs
from cp_sudoku.constraints.primitives import AllDifferent, Pair, Primitive
from cp_sudoku.errors import Cell, PuzzleError, cell_name
from cp_sudoku.numbers import MAX_SIZE

G = TypeVar("G", bound="GridRule")
CellPair = tuple[Cell, Cell]


def pair_token(pair: CellPair) -> str:
    """``r1c1-r1c2``."""
    return f"{cell_token(pair[0])}-{cell_token(pair[1])}"


def parse_pair(token: str, where: str) -> CellPair:
    """``r1c1-r1c2`` -> the two cells, in row-major order."""
    first, dash, second = token.partition("-")
    if not dash:
        raise PuzzleError(f"{where}: expected two cells joined by '-', got {token!r}")
    a, b = parse_cell(first, where), parse_cell(second, where)
    return (min(a, b), max(a, b))


@dataclass(frozen=True)
class GridRule(Constraint):
    """A rule on pairs of cells of a ``rows`` x ``cols`` grid; subclasses give the pairs.

    Raises:
        PuzzleError: a size below 1 or past :data:`~cp_sudoku.numbers.MAX_SIZE` (checked
            before its cells are listed: a 12-digit size from the text took all memory).
    """

    rows: int = 9
    cols: int = 9

    def __init__(self, rows: int, cols: int) -> None:
        if not (1 <= rows <= MAX_SIZE and 1 <= cols <= MAX_SIZE):
            raise PuzzleError(
                f"{self.type_name}: a grid of {rows}x{cols} cells: expected 1 to {MAX_SIZE} "
                "rows and columns"
            )
        object.__setattr__(self, "cells", grid_cells(rows, cols))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)

    def pairs(self) -> Iterable[CellPair]:
        """The pairs the rule applies to."""
        raise NotImplementedError

    def marks(self) -> tuple[Mark, ...]:
        """A ``rule`` mark: the rule in words under the grid (it has no place of its own)."""
        return (Mark("rule", (), self.describe()),)

    def allows(self, a: int, b: int) -> bool:
        """Whether a pair of the rule may hold ``a`` and ``b``."""
        return a != b

    @cached_property
    def _positions(self) -> tuple[tuple[int, int], ...]:
        cols = self.cols
        found = [(a[0] * cols + a[1], b[0] * cols + b[1]) for a, b in self.pairs()]
        return tuple(sorted((min(i, j), max(i, j)) for i, j in found))

    def holds(self, values: Sequence[int]) -> bool:
        """Every pair allowed."""
        allows = self.allows
        return all(allows(values[i], values[j]) for i, j in self._positions)

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Every pair inside the prefix allowed."""
        size, allows = len(prefix), self.allows
        return all(allows(prefix[i], prefix[j]) for i, j in self._positions if j < size)

    def describe(self) -> str:
        """The type's name (it covers the whole grid)."""
        return self.type_name

    def decompose(self, puzzle: Rules) -> tuple[Primitive, ...]:
        """One pair per two cells of the rule."""
        allowed = value_pairs(puzzle.values, self.allows)
        return tuple(Pair(a, b, allowed) for a, b in self.pairs())

    def to_text(self) -> str:
        """``<type> <rows> <cols>``."""
        return f"{self.type_name} {self.rows} {self.cols}"

    @classmethod
    def from_text(cls: type[G], tokens: list[str], where: str) -> G:
        """``<rows> <cols>``."""
        if len(tokens) != 2:
            raise PuzzleError(f"{where}: expected {cls.type_name} <rows> <cols>")
        return cls(parse_int(tokens[0], where, "rows"), parse_int(tokens[1], where, "columns"))

    @classmethod
    def examples(cls: type[G], rows: int, cols: int) -> tuple[G, ...]:
        """The rule on the whole grid."""
        return (cls(rows, cols),)


class ChessRule(GridRule):
    """Cells a chess piece's move apart hold different digits."""

    moves: ClassVar[tuple[tuple[int, int], ...]] = ()

    def pairs(self) -> Iterable[CellPair]:
        """Each two cells one move apart, once."""
        for r, c in self.cells:
            for dr, dc in self.moves:
                other = (r + dr, c + dc)
                if (r, c) < other and 0 <= other[0] < self.rows and 0 <= other[1] < self.cols:
                    yield (r, c), other

    def decompose(self, puzzle: Rules) -> tuple[AllDifferent, ...]:
        """Two-cell all-different for each pair not already in one unit."""
        peers = puzzle.peers
        return tuple(AllDifferent(p) for p in self.pairs() if p[1] not in peers[p[0]])


def _symmetric(steps: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    found = set()
    for dr, dc in steps:
        for sr in (1, -1):
            for sc in (1, -1):
                found |= {(sr * dr, sc * dc), (sr * dc, sc * dr)}
    return tuple(sorted(found))


@register
class AntiKnight(ChessRule):
    """A knight's move apart: different digits."""

    type_name: ClassVar[str] = "antiknight"
    summary: ClassVar[str] = "cells a knight's move apart hold different digits"
    fpuzzles_key: ClassVar[str | None] = "antiknight"
    moves: ClassVar[tuple[tuple[int, int], ...]] = _symmetric([(1, 2)])


@register
class AntiKing(ChessRule):
    """A king's move apart: different digits."""

    type_name: ClassVar[str] = "antiking"
    summary: ClassVar[str] = "cells a king's move apart hold different digits"
    fpuzzles_key: ClassVar[str | None] = "antiking"
    moves: ClassVar[tuple[tuple[int, int], ...]] = _symmetric([(0, 1), (1, 1)])


@dataclass(frozen=True)
class NegativeRule(GridRule):
    """Adjacent cells not joined by a mark in ``exempt`` must not meet the mark's rule."""

    exempt: frozenset[CellPair] = frozenset()

    def __init__(self, rows: int, cols: int, exempt: Iterable[CellPair] = ()) -> None:
        super().__init__(rows, cols)
        object.__setattr__(self, "exempt", frozenset((min(a, b), max(a, b)) for a, b in exempt))

    def pairs(self) -> Iterable[CellPair]:
        """Adjacent pairs not exempt."""
        return (p for p in adjacent_pairs(self.rows, self.cols) if p not in self.exempt)

    def describe(self) -> str:
        """``nonconsecutive (except r1c1-r1c2, ...)``."""
        if not self.exempt:
            return self.type_name
        shown = ", ".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in sorted(self.exempt))
        return f"{self.type_name} (except {shown})"

    def _head(self) -> list[str]:
        return [self.type_name, str(self.rows), str(self.cols)]

    def to_text(self) -> str:
        """``<type> <rows> <cols> [r1c1-r1c2 ...]`` (the exempt pairs)."""
        return " ".join(self._head() + [pair_token(p) for p in sorted(self.exempt)])

    @classmethod
    def from_text(cls: type[G], tokens: list[str], where: str) -> G:
        """``<rows> <cols> <cell>-<cell> ...``."""
        if len(tokens) < 2:
            raise PuzzleError(f"{where}: expected {cls.type_name} <rows> <cols> <cell>-<cell> ...")
        rows, cols = parse_int(tokens[0], where, "rows"), parse_int(tokens[1], where, "columns")
        return cls(rows, cols, [parse_pair(t, where) for t in tokens[2:]])  # type: ignore[call-arg]

    @classmethod
    def examples(cls: type[G], rows: int, cols: int) -> tuple[G, ...]:
        """The rule with no exemption, and with one."""
        return (cls(rows, cols), cls(rows, cols, [((0, 0), (0, 1))]))  # type: ignore[call-arg]


@register
class Nonconsecutive(NegativeRule):
    """Adjacent cells (not exempt) never hold consecutive digits."""

    type_name: ClassVar[str] = "nonconsecutive"
    summary: ClassVar[str] = "adjacent cells without a dot never hold consecutive digits"
    fpuzzles_key: ClassVar[str | None] = "nonconsecutive"

    def allows(self, a: int, b: int) -> bool:
        """Not consecutive."""
        return abs(a - b) != 1


@register
class NegativeXV(NegativeRule):
    """Adjacent cells (not exempt) never sum to 5 or 10."""

    type_name: ClassVar[str] = "negativexv"
    summary: ClassVar[str] = "adjacent cells without an X or V never sum to 5 or 10"
    fpuzzles_key: ClassVar[str | None] = "negative"

    def allows(self, a: int, b: int) -> bool:
        """Sum neither 5 nor 10."""
        return a + b not in (5, 10)


@register
@dataclass(frozen=True)
class NegativeRatio(NegativeRule):
    """Adjacent cells (not exempt) are in none of the ``ratios`` (one is k times the other).

    Raises:
        PuzzleError: no ratio, or a ratio below 1.
    """

    ratios: tuple[int, ...] = (2,)

    type_name: ClassVar[str] = "negativeratio"
    summary: ClassVar[str] = "adjacent cells without a dot are in none of the puzzle's ratios"
    fpuzzles_key: ClassVar[str | None] = "negative"

    def __init__(
        self, rows: int, cols: int, exempt: Iterable[CellPair] = (), ratios: Iterable[int] = (2,)
    ) -> None:
        super().__init__(rows, cols, exempt)
        object.__setattr__(self, "ratios", tuple(sorted(set(ratios))))
        if not self.ratios or any(k < 1 for k in self.ratios):
            raise PuzzleError(f"{self.type_name}: ratios must be integers >= 1, got {self.ratios}")

    def allows(self, a: int, b: int) -> bool:
        """In none of the ratios."""
        return all(a != k * b and b != k * a for k in self.ratios)

    def _head(self) -> list[str]:
        return [*super()._head(), ",".join(map(str, self.ratios))]

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> NegativeRatio:
        """``<rows> <cols> <k,k...> <cell>-<cell> ...``."""
        if len(tokens) < 3:
            raise PuzzleError(
                f"{where}: expected negativeratio <rows> <cols> <k,...> <cell>-<cell> ..."
            )
        rows, cols = parse_int(tokens[0], where, "rows"), parse_int(tokens[1], where, "columns")
        ratios = [parse_int(t, where, "a ratio") for t in tokens[2].split(",")]
        return cls(rows, cols, [parse_pair(t, where) for t in tokens[3:]], ratios)
