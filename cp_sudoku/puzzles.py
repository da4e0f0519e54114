"""Generated Sudoku grids and puzzles (the Sudoku builder is :mod:`cp_sudoku.kinds.sudoku`)."""

from __future__ import annotations

import random

from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle

__all__ = ["generated_sudoku", "solved_grid"]


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
