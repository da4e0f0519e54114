"""Clues outside the grid: :class:`LittleKiller`, :class:`Sandwich`, :class:`XSum`.

(Skyscraper clues are :class:`~cp_sudoku.constraints.visibility.Visibility`.)

- Little killer (f-puzzles ``littlekillersum``): the digits along a diagonal,
  from the clue into the grid to its edge, sum to ``total``; a
  :class:`~cp_sudoku.constraints.primitives.Linear`.
- Sandwich (``sandwichsum``): in a row or column the digits strictly between
  the 1 and the ``top`` digit (n) sum to ``total``.
- X-sum (``xsum``): reading from the clue, the first digit x says how many
  digits to take; the first x digits sum to ``total``.

``cells`` run from the clue inwards.  Sandwich and X-sum have no small
decomposition (their default is a bounded table); they are automata
(:mod:`cp_sudoku.constraints.automaton`), which the ``cpsat`` and ``sat`` back
ends encode natively.  Source: rangsk's SudokuSolver,
``Constraints/LittleKillerConstraint.cs``, ``SandwichConstraint.cs``,
``XSumConstraint.cs``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar, TypeVar, cast

from cp_sudoku.constraints.automaton import Automaton, State
from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    register,
)
from cp_sudoku.constraints.linebase import path_text
from cp_sudoku.constraints.primitives import Linear
from cp_sudoku.errors import Cell, PuzzleError

OC = TypeVar("OC", bound="OutsideClue")

#: Where a clue stands, from the step its cells take: a row or column clue's side.
SIDES = {(1, 0): "top", (-1, 0): "bottom", (0, 1): "left", (0, -1): "right"}
#: A little killer's direction (f-puzzles' letters) from its diagonal step.
DIRECTIONS = {(-1, 1): "UR", (-1, -1): "UL", (1, 1): "DR", (1, -1): "DL"}


def step_of(cells: Sequence[Cell]) -> tuple[int, int]:
    """The step from the first cell to the second (``(1, 0)`` for one cell)."""
    if len(cells) < 2:
        return (1, 0)
    return (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])


@dataclass(frozen=True)
class OutsideClue(Constraint):
    """A number outside the grid about ``cells``, a straight run from the clue inwards.

    Raises:
        PuzzleError: no cell, a total that is not an integer, or cells that are
            not one straight run in an allowed direction.
    """

    total: int = 0

    steps: ClassVar[dict[tuple[int, int], str]] = SIDES

    def __init__(self, cells: Iterable[Cell], total: int) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "total", total)
        if isinstance(total, bool) or not isinstance(total, int):
            raise PuzzleError(f"{self.type_name}: the clue must be an integer, got {total!r}")
        step = self.inward
        straight = all((b[0] - a[0], b[1] - a[1]) == step for a, b in pairwise(self.cells))
        if not self.cells or step not in self.steps or not straight:
            raise PuzzleError(
                f"{self.type_name} {path_text(self.cells)}: the cells must run straight from "
                "the clue into the grid",
                cells=self.cells,
            )

    @property
    def inward(self) -> tuple[int, int]:
        """The step from the clue inwards, cell to cell (:func:`step_of`)."""
        return step_of(self.cells)

    @property
    def side(self) -> str:
        """Where the clue stands (``top`` ...) or the direction it points (``DL`` ...)."""
        return self.steps[self.inward]

    def describe(self) -> str:
        """``sandwichsum 15 (top) r1c3-...-r9c3``."""
        return f"{self.type_name} {self.total} ({self.side}) {path_text(self.cells)}"

    def marks(self) -> tuple[Mark, ...]:
        """The clue beside the first cell, on its side (or diagonal)."""
        return (Mark("outside", self.cells[:1], str(self.total), self.side),)

    def to_text(self) -> str:
        """``<type> <total> <cell> ...`` (cells from the clue inwards)."""
        return self.text_line(self.total)

    @classmethod
    def from_text(cls: type[OC], tokens: list[str], where: str) -> OC:
        """``<total> <cell> ...``."""
        return cls.number_then_cells(tokens, where, "total")


@register
class LittleKiller(OutsideClue):
    """The digits along the diagonal sum to ``total`` (digits may repeat)."""

    type_name: ClassVar[str] = "littlekillersum"
    summary: ClassVar[str] = "digits along the arrow's diagonal sum to the clue"
    fpuzzles_key: ClassVar[str | None] = "littlekillersum"
    steps: ClassVar[dict[tuple[int, int], str]] = DIRECTIONS

    @property
    def inward(self) -> tuple[int, int]:
        """The diagonal step; a one-cell diagonal is a corner cell, which the diagonal at
        right angles to the grid's own diagonal through it crosses alone: down-left for
        r1c1 and the opposite corner (row = column), down-right for the other two."""
        if len(self.cells) == 1:
            row, column = self.cells[0]
            return (1, -1) if row == column else (1, 1)
        return step_of(self.cells)

    def holds(self, values: Sequence[int]) -> bool:
        """The sum."""
        return sum(values) == self.total

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Not past the total (each digit left adds at least 1)."""
        return sum(prefix) + len(self.cells) - len(prefix) <= self.total

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """One sum."""
        return (Linear(self.cells, [1] * len(self.cells), "==", self.total),)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[LittleKiller, ...]:
        """Down-left from above the third column; up-right from the corner below the first."""
        size = min(rows, cols)
        return (
            cls(((0, 2), (1, 1), (2, 0)), 6),
            cls([(rows - 1 - i, i) for i in range(size)], 2 * size + 2),
        )


@register
class Sandwich(OutsideClue, Automaton):
    """One 1 and one largest digit (``len(cells)``); the digits between them sum to ``total``.

    Automaton state: (1 seen, largest seen, sum between so far).
    """

    type_name: ClassVar[str] = "sandwichsum"
    summary: ClassVar[str] = "digits between the 1 and the largest digit sum to the clue"
    fpuzzles_key: ClassVar[str | None] = "sandwichsum"

    def start(self) -> State:
        """Nothing seen."""
        return (False, False, 0)

    def step(self, state: State, value: int) -> State | None:
        """A crust (1 or the largest digit) at most once each; filling counted between."""
        one, top, total = cast("tuple[bool, bool, int]", state)
        if value == 1 or value == len(self.cells):
            if one if value == 1 else top:
                return None
            return (one or value == 1, top or value != 1, total)
        if one != top:
            total += value
            if total > self.total:
                return None
        return (one, top, total)

    def accept(self, state: State) -> bool:
        """Both crusts, and the sum."""
        return state == (True, True, self.total)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Sandwich, ...]:
        """A row clue from the left and a column clue from the bottom."""
        return (
            cls([(0, c) for c in range(cols)], 2),
            cls([(r, 1) for r in reversed(range(rows))], 0),
        )


@register
class XSum(OutsideClue, Automaton):
    """The first x digits from the clue sum to ``total``, x being the first digit.

    Automaton state: (x, digits taken, their sum); x = 0 before the first digit.
    """

    type_name: ClassVar[str] = "xsum"
    summary: ClassVar[str] = "the first X digits from the clue sum to it, X the first digit"
    fpuzzles_key: ClassVar[str | None] = "xsum"

    def start(self) -> State:
        """Nothing read."""
        return (0, 0, 0)

    def step(self, state: State, value: int) -> State | None:
        """The first digit sets x; digits are added until x are taken."""
        x, taken, total = cast("tuple[int, int, int]", state)
        if x == 0:
            if not 1 <= value <= len(self.cells):
                return None
            x = value
        if taken < x:
            taken, total = taken + 1, total + value
            if total > self.total or (taken == x and total != self.total):
                return None
        return (x, taken, total)

    def accept(self, state: State) -> bool:
        """x digits taken, summing to the total."""
        x, taken, total = cast("tuple[int, int, int]", state)
        return x > 0 and taken == x and total == self.total

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[XSum, ...]:
        """A row clue from the right and a column clue from the top."""
        return (
            cls([(1, c) for c in reversed(range(cols))], 6),
            cls([(r, 2) for r in range(rows)], 4),
        )
