"""Square grids shared by the kinds: box shapes, rows/columns/boxes, givens, cage cover.

Also the public boundary for grids and boxes passed in by a caller: a grid
may be a string (``"53..7...."``), a flat sequence or rows (a list of
lists); values may be any integers, numpy's included (``operator.index``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import compress
from math import isqrt
from operator import index
from typing import Any

from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError, Unit, cell_name, cells_of
from cp_sudoku.model.puzzle import by_recipe
from cp_sudoku.numbers import shown


@cache
def default_box(n: int) -> tuple[int, int]:
    """The box shape (rows, columns) usual for an n x n Sudoku.

    The factorisation ``r * c = n`` with ``r <= c`` and ``r`` largest: 9 -> 3x3,
    6 -> 2x3, 8 -> 2x4, 12 -> 3x4, 1 -> 1x1.

    Raises:
        PuzzleError: n > 1 has no factorisation with ``r > 1`` (n is prime),
            so a box shape must be given explicitly.
    """
    rows = max(r for r in range(1, isqrt(n) + 1) if n % r == 0)
    if rows == 1 and n > 1:
        raise PuzzleError(f"no box shape fits a {n}x{n} grid ({n} is prime); name one")
    return rows, n // rows


def parse_box(text: str) -> tuple[int, int]:
    """A box written ``RxC`` (``2x3``, ``3 X 3``) as ``(rows, columns)``, each 1..999 in
    ASCII digits.

    Raises:
        PuzzleError: not of that form.
    """
    match = re.fullmatch(r"\s*([0-9]{1,3})\s*[xX]\s*([0-9]{1,3})\s*", text)  # ASCII digits
    if not match or int(match.group(1)) < 1 or int(match.group(2)) < 1:
        raise PuzzleError(f"expected a box RxC such as 2x3, got {shown(text)}")
    return int(match.group(1)), int(match.group(2))


def box_shape(box: Any, n: int) -> tuple[int, int]:
    """``box`` as ``(rows, columns)`` fitting an n x n grid; None gives :func:`default_box`.

    Accepts any pair of integers (a tuple, a list ``[3, 3]``, numpy integers).

    Raises:
        PuzzleError: not a pair of integers, or ``rows * columns != n``.
    """
    if box is None:
        return default_box(n)
    try:
        rows, cols = (index(part) for part in box)
    except (TypeError, ValueError):
        raise PuzzleError(f"box must be a pair of integers (rows, columns), got {box!r}") from None
    if rows < 1 or cols < 1 or rows * cols != n:
        raise PuzzleError(
            f"box {rows}x{cols} does not fit a {n}x{n} grid: rows x columns must be {n}"
        )
    return rows, cols


@cache
def sudoku_units(n: int, box: tuple[int, int] | None) -> tuple[Unit, ...]:
    """Rows, columns and (when ``box`` is given) r x c boxes of an n x n grid.

    Boxes are numbered 1..n row-major; rows and columns 1..n.  Cached: every
    puzzle of a shape shares one tuple, so comparing shapes is cheap.
    """
    units = [Unit(f"row {r + 1}", tuple((r, c) for c in range(n)), "row") for r in range(n)]
    units += [Unit(f"column {c + 1}", tuple((r, c) for r in range(n)), "column") for c in range(n)]
    if box is not None:
        br, bc = box
        for b in range(n):
            top, left = (b // (n // bc)) * br, (b % (n // bc)) * bc
            cells = tuple((top + r, left + c) for r in range(br) for c in range(bc))
            units.append(Unit(f"box {b + 1}", cells, "box"))
    return by_recipe(tuple(units), sudoku_units, n, box)  # pickled as (sudoku_units, n, box)


def grid_size(count: int) -> int:
    """n for a flat grid of ``count = n * n`` cells.

    Raises:
        PuzzleError: ``count`` is not a square; the message gives the nearest
            square size and the actual count.
    """
    n = isqrt(count)
    if n * n != count or count == 0:
        near = max(1, round(count**0.5))
        raise PuzzleError(
            f"expected n*n cells for an n x n grid ({near * near} for {near}x{near}), got {count}"
        )
    return n


def flat_grid(grid: Any) -> list[int]:
    """A grid passed in by a caller, as a flat row-major list of ints (0 for a blank).

    ``grid`` is a string of digits and blanks (``.``, ``0``, ``_``), a flat
    sequence of integers, or rows (a sequence of sequences).

    Raises:
        PuzzleError: anything else, naming what was expected and what was found.
    """
    if isinstance(grid, str):
        bad = next((ch for ch in grid if ch not in "0123456789._"), None)
        if bad is not None:
            raise PuzzleError(
                f"a grid string holds digits and blanks (. 0 _), got {bad!r}; "
                "read other alphabets with cp_sudoku.parse_line"
            )
        return [0 if ch in "._" else int(ch) for ch in grid]
    if not isinstance(grid, Sequence) and not hasattr(grid, "__len__"):
        raise PuzzleError(
            f"expected a grid as a string, a flat sequence of ints or rows, got "
            f"{type(grid).__name__}"
        )
    items = list(grid)
    if set(map(type, items)) == {int}:  # the usual case, checked in C: a flat list of ints
        return items
    if items and all(_is_row(item) for item in items):
        items = [value for row in items for value in row]
    try:
        return [index(value) for value in items]
    except TypeError:
        bad = next(v for v in items if not hasattr(v, "__index__"))
        raise PuzzleError(
            f"grid values must be integers (0 for a blank), got {bad!r} ({type(bad).__name__})"
        ) from None


def _is_row(item: object) -> bool:
    return (
        not isinstance(item, str | bytes) and hasattr(item, "__len__") and hasattr(item, "__iter__")
    )


def square_puzzle(n: int, kind: str, values: Sequence[int] = (), **fields: Any) -> Puzzle:
    """An n x n ``Puzzle`` of ``kind``: every cell, values 1..n, givens from the flat
    ``values`` (0 blank), rows and columns as units unless ``constraints`` is given;
    other ``Puzzle`` fields as keywords."""
    if "constraints" not in fields:
        fields["constraints"] = sudoku_units(n, None)
    return Puzzle(
        rows=n,
        cols=n,
        cells=cells_of(n, n),
        max_value=fields.pop("max_value", n),
        givens=givens_of(values, n),
        kind=kind,
        **fields,
    )


def givens_of(grid: Sequence[int], n: int) -> dict[Cell, int]:
    """Cell -> value for the non-zero entries of a flat row-major grid of n x n values."""
    if len(grid) != n * n:
        return {(i // n, i % n): v for i, v in enumerate(grid) if v}
    return dict(zip(compress(cells_of(n, n), grid), compress(grid, grid), strict=True))


def grid_of(puzzle: Puzzle) -> tuple[int, ...]:
    """The givens of a square puzzle as a flat row-major grid, 0 for a blank."""
    return tuple(
        puzzle.givens.get((r, c), 0) for r in range(puzzle.rows) for c in range(puzzle.cols)
    )


def check_cover(puzzle: Puzzle, variant: str) -> None:
    """Every cell of a built ``puzzle`` in exactly one of its cages.

    Raises:
        PuzzleError: a cell in two cages or in none (``cells``: that cell and
            the cells of the later cage).
    """
    owner: dict[Cell, Cage] = {}
    for cage in puzzle.cages:
        for cell in cage.cells:
            if cell in owner:
                raise PuzzleError(
                    f"{cell_name(cell)} is in two cages, {owner[cell].describe()} and "
                    f"{cage.describe()}: in a {variant} cages must not overlap",
                    cells=cage.cells,
                )
            owner[cell] = cage
    missing = [cell for cell in puzzle.cells if cell not in owner]
    if missing:
        raise PuzzleError(
            f"{cell_name(missing[0])} is in no cage ({len(missing)} cell(s) uncovered): "
            f"in a {variant} every cell belongs to one cage"
        )
