"""Blanked grids: solved grids with cells blanked at random, *no* uniqueness claimed.

Benchmarks and tests use them for puzzles of a chosen size and density fast
(:func:`generated_sudoku`, :func:`generated_killers`); the generator proper,
whose puzzles are unique and minimal, is :mod:`cp_sudoku.generate.making`.
"""

from __future__ import annotations

import random

from cp_sudoku.io import Entry, puzzle_string
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle

__all__ = ["generated_killers", "generated_sudoku", "solved_grid"]


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


def generated_killers(count: int, given_every: int = 4, seed: int = 0) -> list[Entry]:
    """Generated 9x9 Killer Sudoku: ``count`` grids of :func:`solved_grid`
    (seeds ``seed..``), cut into cages of 2-4 cells grown at random with no digit twice,
    each summing to the grid's values, and every ``given_every``-th cell given (none
    when 0).  The source grid is a solution (stated in the entry); there may be others.
    """
    entries = []
    for k in range(seed, seed + count):
        grid = solved_grid((3, 3), k)
        rng = random.Random(k)
        free = {(r, c) for r in range(9) for c in range(9)}
        cages = []
        while free:
            cells = [min(free)]
            free.discard(cells[0])
            size = rng.randint(2, 4)
            while len(cells) < size:
                held = {grid[r * 9 + c] for r, c in cells}
                near = sorted(
                    {
                        (r + dr, c + dc)
                        for r, c in cells
                        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                        if (r + dr, c + dc) in free and grid[(r + dr) * 9 + c + dc] not in held
                    }
                )
                if not near:
                    break
                cells.append(rng.choice(near))
                free.discard(cells[-1])
            cages.append((sum(grid[r * 9 + c] for r, c in cells), cells))
        givens = [v if given_every and i % given_every == 0 else 0 for i, v in enumerate(grid)]
        puzzle = killer(cages, givens, name=f"generated killer seed {k}")
        entries.append(Entry("generated killer", k, puzzle_string(puzzle), puzzle, solution=grid))
    return entries
