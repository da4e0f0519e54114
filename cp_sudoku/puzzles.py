"""Builders: each variant is a function that only emits a :class:`Puzzle`.

No builder knows any back end.  A grid argument is a flat row-major sequence
of ``n * n`` values with ``0`` for a blank cell.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from math import isqrt

from cp_sudoku.model import Cell, Puzzle, PuzzleError, Unit, cells_of


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
    return tuple(units)


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


def givens_of(grid: Sequence[int], n: int) -> dict[Cell, int]:
    """Cell -> value for the non-zero entries of a flat row-major grid."""
    return {(i // n, i % n): v for i, v in enumerate(grid) if v}


def sudoku(
    grid: Sequence[int],
    box: tuple[int, int] | None = None,
    *,
    name: str = "",
    alphabet: str | None = None,
) -> Puzzle:
    """A Sudoku: n x n grid, values 1..n, rows, columns and r x c boxes.

    Args:
        grid: ``n * n`` values, row-major, 0 for a blank.
        box: (rows, columns) of a box, ``r * c == n``; 2x3 and 3x2 differ.
            Default: :func:`default_box`.

    Raises:
        PuzzleError: the length is not a square; the box does not fit the
            size; a given is out of range or repeats in a unit.
    """
    n = grid_size(len(grid))
    box = box or default_box(n)
    if len(box) != 2 or box[0] < 1 or box[1] < 1 or box[0] * box[1] != n:
        raise PuzzleError(
            f"box {box[0]}x{box[1]} does not fit a {n}x{n} grid: rows x columns must be {n}"
        )
    return Puzzle(
        rows=n,
        cols=n,
        cells=cells_of(n, n),
        max_value=n,
        units=sudoku_units(n, box),
        givens=givens_of(grid, n),
        kind="sudoku",
        box=box,
        alphabet=alphabet,
        name=name,
    )


def solved_grid(box: tuple[int, int], seed: int | None = None) -> tuple[int, ...]:
    """A solved n x n Sudoku grid (n = r * c), flat and row-major.

    The pattern grid ``value(row, col) = (c * (row % r) + row // r + col) % n + 1``
    with values, bands, rows within bands, stacks and columns within stacks
    shuffled by a generator seeded with ``seed`` (every step keeps it solved).
    """
    br, bc = box
    n = br * bc
    rng = random.Random(seed)
    values = rng.sample(range(1, n + 1), n)
    rows = [
        b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)
    ]
    cols = [
        s * bc + c for s in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)
    ]
    return tuple(values[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols)


def generated_sudoku(
    box: tuple[int, int], blank_fraction: float = 0.45, seed: int | None = None
) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle made from :func:`solved_grid` with ``blank_fraction`` of its cells blanked.

    Returns the puzzle and the grid it was made from (one of its solutions;
    the puzzle may have others when many cells are blank).  Blanked cells are
    chosen by the same seeded generator, so a seed always gives the same puzzle.

    Raises:
        ValueError: ``blank_fraction`` outside 0..1.
    """
    if not 0 <= blank_fraction <= 1:
        raise ValueError(f"blank_fraction must be within 0..1, got {blank_fraction}")
    grid = solved_grid(box, seed)
    rng = random.Random(seed)
    blanks = set(rng.sample(range(len(grid)), round(blank_fraction * len(grid))))
    values = [0 if i in blanks else v for i, v in enumerate(grid)]
    n = box[0] * box[1]
    return sudoku(values, box, name=f"generated {n}x{n} seed {seed}"), grid
