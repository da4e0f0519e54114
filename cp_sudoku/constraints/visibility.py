"""Visibility: a Skyscraper clue, the number of buildings seen along a line.

It is also an automaton (:mod:`cp_sudoku.constraints.automaton`; state: the
tallest building so far and the buildings seen), so that the reference
backtracker prunes it by its layers rather than a table of permutations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from cp_sudoku.constraints.automaton import Automaton, State
from cp_sudoku.constraints.base import Mark, head_and_cells, parse_int, register
from cp_sudoku.constraints.unit import name_of, name_token
from cp_sudoku.errors import Cell, PuzzleError, cell_name


@register
@dataclass(frozen=True)
class Visibility(Automaton):
    """A Skyscraper clue: looking along ``cells`` (nearest first), ``count`` buildings are seen.

    A building is seen when it is taller than every building before it;
    empty cells (value 0) are not counted and hide nothing.  ``side`` says
    where the clue stands (``top``, ``bottom``, ``left``, ``right``), for
    display and messages.

    Raises:
        PuzzleError: a count that is not an integer in ``1..len(cells)``.
    """

    count: int = 0
    side: str = ""

    type_name: ClassVar[str] = "visibility"
    summary: ClassVar[str] = "a Skyscraper clue: buildings seen along the cells, nearest first"
    fpuzzles_key: ClassVar[str | None] = "skyscraper"

    def __init__(self, cells: Sequence[Cell], count: int, side: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "side", side)
        if isinstance(count, bool) or not isinstance(count, int):
            raise PuzzleError(f"{self.describe()}: the clue must be an integer", cells=self.cells)
        if not 1 <= count <= len(self.cells):
            raise PuzzleError(
                f"{self.describe()}: a clue counts 1 to {len(self.cells)} buildings "
                f"along {len(self.cells)} cells",
                cells=self.cells,
            )

    @staticmethod
    def seen(values: Sequence[int]) -> int:
        """How many buildings of ``values`` (nearest first) are seen."""
        tallest = seen = 0
        for value in values:
            if value > tallest:
                tallest, seen = value, seen + 1
        return seen

    def holds(self, values: Sequence[int]) -> bool:
        """Exactly ``count`` buildings seen."""
        return self.seen(values) == self.count

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No more than ``count`` seen so far."""
        return self.seen(prefix) <= self.count

    def start(self) -> State:
        """Nothing seen: (tallest so far, buildings seen)."""
        return (0, 0)

    def step(self, state: State, value: int) -> State | None:
        """A building taller than every one before is seen; dead past ``count`` seen."""
        tallest, seen = cast("tuple[int, int]", state)
        if value <= tallest:
            return state
        if seen == self.count:
            return None
        return (value, seen + 1)

    def accept(self, state: State) -> bool:
        """Exactly ``count`` seen."""
        return cast("tuple[int, int]", state)[1] == self.count

    def describe(self) -> str:
        """``clue 3 seen from the left of r2c1``."""
        where = f" from the {self.side}" if self.side else ""
        return f"clue {self.count} seen{where} of {cell_name(self.cells[0])}"

    def marks(self) -> tuple[Mark, ...]:
        """The clue outside the grid, beside the nearest cell, on its side."""
        return (Mark("outside", self.cells[:1], str(self.count), self.side),)

    def to_text(self) -> str:
        """``visibility <count> <side> <cell> ...`` (nearest cell first; ``-``: no side)."""
        return self.text_line(self.count, name_token(self.side))

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Visibility:
        """``<count> <side> <cell> ...``."""
        form = "visibility <count> <side> <cell> ..."
        (count, side), cells = head_and_cells(tokens, where, 2, form)
        try:
            return cls(cells, parse_int(count, where, "a count"), name_of(side))
        except PuzzleError as error:
            raise PuzzleError(f"{where}: {error.message}", cells=error.cells) from None

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Visibility, ...]:
        """Two clues on the first row, from the left and from the right."""
        row = [(0, c) for c in range(cols)]
        return (cls(row, 3, "left"), cls(row[::-1], 1, "right"))
