"""Lines whose digits sum: :class:`Arrow`, :class:`ZipperLine`, :class:`RegionSumLine`.

Each decomposes into :class:`~cp_sudoku.constraints.primitives.Linear` equalities.

- Arrow (f-puzzles ``arrow``): the digits on the line sum to the circle's
  digit, or to a multi-cell pill read as a decimal number (its digits in
  order: ``sum(10**(k-1-i) * pill[i])``).
- Zipper line (``zipperline``): cells at equal distance from the line's
  centre sum to the same total; on an odd-length line the total is the
  centre digit.
- Region sum line (``regionsumline``): the line cut into runs of consecutive
  cells in one region; every run has the same sum.

Source: rangsk's SudokuSolver, ``Constraints/ArrowSumConstraint.cs``,
``ZipperLineConstraint.cs``, ``RegionSumLinesConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    cell_token,
    located_at,
    parse_cells,
    register,
)
from cp_sudoku.constraints.linebase import Line, once_each, path_text
from cp_sudoku.constraints.primitives import Linear
from cp_sudoku.errors import Cell, PuzzleError, cell_name


def _split(tokens: list[str], where: str, form: str) -> list[list[str]]:
    """Tokens cut at each ``|``."""
    parts: list[list[str]] = [[]]
    for token in tokens:
        if token == "|":
            parts.append([])
        else:
            parts[-1].append(token)
    if any(not part for part in parts):
        raise PuzzleError(f"{where}: expected {form}")
    return parts


@register
@dataclass(frozen=True)
class Arrow(Constraint):
    """``cells`` = the circle (``circle`` cells: one, or a pill) then the line's cells.

    Raises:
        PuzzleError: no circle, no cell on the line, or a cell twice.
    """

    circle: int = 1

    type_name: ClassVar[str] = "arrow"
    summary: ClassVar[str] = "digits on the arrow sum to its circle (a pill reads as a number)"
    fpuzzles_key: ClassVar[str | None] = "arrow"

    def __init__(self, circle: Iterable[Cell], line: Iterable[Cell]) -> None:
        head, shaft = self._two_parts("circle", circle, line)
        if not head:
            raise PuzzleError(f"arrow {path_text(shaft)} has no circle", cells=shaft)
        if not shaft:
            raise PuzzleError(f"arrow at {cell_name(head[0])} has no cell on its line", cells=head)
        once_each(f"arrow {self._words()}", self.cells)

    @property
    def pill(self) -> tuple[Cell, ...]:
        """The circle's cells (one for a circle, more for a pill)."""
        return self.cells[: self.circle]

    @property
    def line(self) -> tuple[Cell, ...]:
        """The summed cells, from the circle outwards."""
        return self.cells[self.circle :]

    def weights(self) -> list[int]:
        """Coefficients of ``pill - line == 0``."""
        k = self.circle
        return [10 ** (k - 1 - i) for i in range(k)] + [-1] * (len(self.cells) - k)

    def holds(self, values: Sequence[int]) -> bool:
        """The pill's number equals the line's sum."""
        return sum(w * v for w, v in zip(self.weights(), values, strict=True)) == 0

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Once the pill is known, the line so far is not past its number."""
        k = self.circle
        if len(prefix) < k:
            return True
        number: int = sum(10 ** (k - 1 - i) * v for i, v in enumerate(prefix[:k]))
        return sum(prefix[k:]) + (len(self.cells) - len(prefix)) <= number

    def _words(self) -> str:
        return f"{path_text(self.pill)} <- {path_text(self.line)}"

    def describe(self) -> str:
        """``arrow r1c1 <- r1c2-r1c3`` (a pill: ``r1c1-r1c2 <- ...``)."""
        return f"arrow {self._words()}"

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """``sum(10**(k-1-i) * pill[i]) - sum(line) == 0``."""
        return (Linear(self.cells, self.weights(), "==", 0),)

    def start(self) -> Cell:
        """The circle cell the line leaves from: one touching the line's first cell."""
        r, c = self.line[0]
        touching = [p for p in self.pill if max(abs(p[0] - r), abs(p[1] - c)) == 1]
        return (touching or list(self.pill))[0]

    def marks(self) -> tuple[Mark, ...]:
        """The circle or pill, and the arrow from it along the line."""
        head = Mark("circle" if self.circle == 1 else "pill", self.pill, style="arrow")
        return (head, Mark("arrow", (self.start(), *self.line), style="arrow"))

    def to_text(self) -> str:
        """``arrow <circle cells> | <line cells>``."""
        return " ".join(
            [self.type_name, *map(cell_token, self.pill), "|", *map(cell_token, self.line)]
        )

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Arrow:
        """``<circle cell> ... | <line cell> ...``."""
        form = "arrow <circle cells> | <line cells>"
        parts = _split(tokens, where, form)
        if len(parts) != 2:
            raise PuzzleError(f"{where}: expected {form}")
        with located_at(where):
            return cls(parse_cells(parts[0], where), parse_cells(parts[1], where))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Arrow, ...]:
        """A circle with a two-cell line, and a two-cell pill with a line of three."""
        return (
            cls(((0, 0),), ((1, 1), (2, 2))),
            cls(((3, 0), (3, 1)), ((2, 1), (2, 0), (1, 0))),
        )


@register
class ZipperLine(Line):
    """Cells equally far from the centre sum alike (the centre digit, on an odd line)."""

    type_name: ClassVar[str] = "zipperline"
    summary: ClassVar[str] = "cells equally far from the line's centre have the same sum"
    fpuzzles_key: ClassVar[str | None] = "zipperline"

    def _terms(self) -> list[tuple[list[int], list[int]]]:
        """Per equation: (positions with +1, positions with -1), equal to 0."""
        size = len(self.cells)
        half = size // 2
        pairs = [[i, size - 1 - i] for i in range(half)]
        if size % 2:
            return [(pair, [half]) for pair in pairs]
        return [(pairs[0], pair) for pair in pairs[1:]]

    def holds(self, values: Sequence[int]) -> bool:
        """Every equation holds."""
        return all(
            sum(values[i] for i in plus) == sum(values[i] for i in minus)
            for plus, minus in self._terms()
        )

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """One linear equality per pair of cells (beyond the first, on an even line)."""
        found = []
        for plus, minus in self._terms():
            cells = [self.cells[i] for i in plus + minus]
            found.append(Linear(cells, [1] * len(plus) + [-1] * len(minus), "==", 0))
        return tuple(found)


@register
@dataclass(frozen=True)
class RegionSumLine(Constraint):
    """``cells`` = the runs of the line, in order; ``runs`` = their lengths; equal sums.

    A run is a stretch of consecutive cells of the line in one region; the
    reader cuts the line (:meth:`cut`).

    Raises:
        PuzzleError: an empty run, or a cell twice.
    """

    runs: tuple[int, ...] = ()

    type_name: ClassVar[str] = "regionsumline"
    summary: ClassVar[str] = "every region's stretch of the line has the same sum"
    fpuzzles_key: ClassVar[str | None] = "regionsumline"

    def __init__(self, runs: Iterable[Iterable[Cell]]) -> None:
        parts = [tuple(run) for run in runs]
        object.__setattr__(self, "cells", tuple(c for run in parts for c in run))
        object.__setattr__(self, "runs", tuple(len(run) for run in parts))
        if not parts or any(not run for run in parts):
            raise PuzzleError("regionsumline: a run with no cell", cells=self.cells)
        once_each(f"regionsumline {path_text(self.cells)}", self.cells)

    @classmethod
    def cut(cls, line: Sequence[Cell], region: Mapping[Cell, object]) -> RegionSumLine:
        """The line cut where ``region[cell]`` changes."""
        runs: list[list[Cell]] = []
        for i, cell in enumerate(line):
            if i == 0 or region.get(cell) != region.get(line[i - 1]):
                runs.append([])
            runs[-1].append(cell)
        return cls(runs)

    def parts(self) -> list[tuple[Cell, ...]]:
        """The runs' cells."""
        found, at = [], 0
        for size in self.runs:
            found.append(self.cells[at : at + size])
            at += size
        return found

    def holds(self, values: Sequence[int]) -> bool:
        """All run sums equal."""
        sums, at = set(), 0
        for size in self.runs:
            sums.add(sum(values[at : at + size]))
            at += size
        return len(sums) == 1

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Once the first run is complete, every later run so far is not past its sum
        (digits are at least 1) and every complete one meets it."""
        target, at = None, 0
        for size in self.runs:
            part = prefix[at : at + size]
            if target is not None and sum(part) + size - len(part) > target:
                return False
            if len(part) < size:
                return True
            if target is None:
                target = sum(part)
            elif sum(part) != target:
                return False
            at += size
        return True

    def describe(self) -> str:
        """``regionsumline r1c1-r1c2 | r2c2-r3c2``."""
        return "regionsumline " + " | ".join(path_text(run) for run in self.parts())

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """The first run's sum minus each other run's sum is 0."""
        first, *others = self.parts()
        return tuple(
            Linear(first + run, [1] * len(first) + [-1] * len(run), "==", 0) for run in others
        )

    def marks(self) -> tuple[Mark, ...]:
        """The line."""
        return (Mark("line", self.cells, style=self.type_name),)

    def to_text(self) -> str:
        """``regionsumline <run cells> | <run cells> ...``."""
        runs = [" ".join(map(cell_token, run)) for run in self.parts()]
        return f"{self.type_name} " + " | ".join(runs)

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> RegionSumLine:
        """Runs of cells separated by ``|``."""
        parts = _split(tokens, where, "regionsumline <cells> | <cells> ...")
        with located_at(where):
            return cls(parse_cells(part, where) for part in parts)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[RegionSumLine, ...]:
        """A line from r2c2 down into the box below (runs of 1 and 2 cells on 4x4 and 6x6)."""
        return (cls((((1, 1),), ((2, 1), (2, 0)))),)
