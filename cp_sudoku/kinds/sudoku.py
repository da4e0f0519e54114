"""Sudoku: n x n, values 1..n, rows, columns and r x c boxes; extras compose.

Text keys: ``box: RxC`` (default the usual box), ``alphabet:``, ``grid:``
(required), ``extras:`` (``diagonals``, ``windows``, ``non-consecutive``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cp_sudoku.kinds.base import GridText, Kind
from cp_sudoku.kinds.drawing import marks, rule_lines, squares, unit_groups
from cp_sudoku.kinds.extras import EXTRAS, with_extras
from cp_sudoku.kinds.grid import (
    box_shape,
    default_box,
    flat_grid,
    grid_of,
    grid_size,
    square_puzzle,
    sudoku_units,
)
from cp_sudoku.model import Cell, Puzzle, PuzzleError


def sudoku(
    grid: Any,
    box: Any = None,
    *,
    name: str = "",
    alphabet: str | None = None,
    extras: Iterable[str] = (),
) -> Puzzle:
    """A Sudoku: n x n grid, values 1..n, rows, columns and r x c boxes.

    Args:
        grid: ``n * n`` values, row-major, 0 for a blank: a flat sequence of
            integers, rows (a list of lists) or a string of digits and ``.``.
        box: (rows, columns) of a box, ``r * c == n``; 2x3 and 3x2 differ.
            Default: :func:`~cp_sudoku.kinds.grid.default_box`.
        alphabet: the symbols the puzzle is written in (``Puzzle.alphabet``).
        extras: names from :data:`~cp_sudoku.kinds.extras.EXTRAS`.

    Raises:
        PuzzleError: a grid of another type or whose length is not a square;
            a box that does not fit the size; a given out of range; an
            unknown extra.  Givens that repeat in a unit are valid (the
            puzzle has no solution: :func:`cp_sudoku.model.clashes`).
    """
    values = flat_grid(grid)
    n = grid_size(len(values))
    shape = box_shape(box, n)
    base = square_puzzle(
        n,
        "sudoku",
        values,
        constraints=sudoku_units(n, shape),
        box=shape,
        alphabet=alphabet,
        name=name,
    )
    return with_extras(base, extras)


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    if "grid" not in values:
        raise PuzzleError("a sudoku needs a 'grid:'")
    grid: GridText = values["grid"]
    return sudoku(
        grid.values,
        values.get("box"),
        name=name,
        alphabet=grid.alphabet,
        extras=values.get("extras", ()),
    )


def box_key(puzzle: Puzzle) -> dict[str, Any]:
    """``{"box": ...}`` when the puzzle's box is not the usual one for its size."""
    try:
        usual = default_box(puzzle.rows)
    except PuzzleError:
        usual = None
    return {"box": puzzle.box} if puzzle.box is not None and puzzle.box != usual else {}


def extras_key(puzzle: Puzzle) -> dict[str, Any]:
    """``{"extras": ...}`` when the puzzle has extras."""
    return {"extras": puzzle.extras} if puzzle.extras else {}


def _text(puzzle: Puzzle) -> dict[str, Any]:
    return {
        **box_key(puzzle),
        **extras_key(puzzle),
        "grid": GridText(grid_of(puzzle), puzzle.alphabet),
    }


def draw_boxed(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    """Boxes outlined, extra units marked on the label line, other rules listed below."""
    return squares(puzzle, unit_groups(puzzle, "box"), marks(puzzle), values) + rule_lines(puzzle)


def _draw(puzzle: Puzzle, values: Mapping[Cell, int]) -> str | None:
    return draw_boxed(puzzle, values) if puzzle.extras or not puzzle.only_units else None


KIND = Kind(
    name="sudoku",
    summary="n x n, values 1..n once in every row, column and box",
    keys={"box": "box", "extras": "extras", "grid": "grid"},
    build=_build,
    text=_text,
    draw=_draw,
    extras=EXTRAS,
)
