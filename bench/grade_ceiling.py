"""The highest grade a small puzzle can reach: every minimal puzzle of the rules, graded.

Usage: python bench/grade_ceiling.py [--size N ...]

For each rule set that ``cp-sudoku generate`` accepts at sizes 2 to 4 with givens and
all-different units only (Sudoku of every box shape, with the ``diagonals`` and
``windows`` extras; ``non-consecutive`` too, though its relations are outside the
argument below), every solution grid is enumerated (the ``backtrack`` back end), then
every *minimal* puzzle of every grid: a set of givens S is unique when no other grid
agrees with the solution on all of S, and minimal when each S minus one given is not.
Each minimal puzzle is graded (:func:`cp_sudoku.deduction.grade`) and the hardest
technique of its path counted. Only the grids whose first row reads 1 to n are taken (one
of each class under renaming the digits: the n! renamings of a grid have the renamed
minimal puzzles, and every technique treats the digits alike), each compared with all.

Why minimal puzzles suffice: when every minimal puzzle is solved by singles alone, so is
every unique puzzle of those rules, each holding a minimal one (a hidden or naked single
stays one, or is placed already, when more cells are given: a given only removes
candidates), and the easiest-first path never takes a harder step while a single is
open. Such rules reach at most the rating of the hardest single,
:data:`cp_sudoku.generate.grading.SINGLES_RATING`. The table
:data:`cp_sudoku.generate.grading.SINGLES_ONLY` lists the rules found so.

Prints one row per rule set (grids, unique and minimal puzzles, ratings, hardest
techniques) and the CPU seconds; exits 1 when a rule set listed in ``SINGLES_ONLY``
has a minimal puzzle that needs more than singles.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from cp_sudoku.crosscheck import solutions
from cp_sudoku.deduction import grade
from cp_sudoku.errors import CpSudokuError
from cp_sudoku.generate import Request
from cp_sudoku.generate.grading import SINGLES, SINGLES_ONLY, rules_key
from cp_sudoku.model import Puzzle

#: (size, boxes, extras) tried; a combination generate refuses is skipped.
BOXES = {2: [(1, 2), (2, 1)], 3: [(1, 3), (3, 1)], 4: [(2, 2), (1, 4), (4, 1)]}
EXTRAS: list[tuple[str, ...]] = [
    (),
    ("diagonals",),
    ("windows",),
    ("diagonals", "windows"),
    ("non-consecutive",),
]


def requests(sizes: list[int]) -> Iterator[Request]:
    """Every Sudoku rule set of ``sizes`` that ``generate`` accepts."""
    for n in sizes:
        for box in BOXES[n]:
            for extras in EXTRAS:
                request = Request(size=n, box=box, extras=extras)
                try:
                    request.maker()
                except CpSudokuError:
                    continue
                yield request


def minimal_sets(grids: np.ndarray, index: int) -> np.ndarray:
    """The minimal unique sets of givens (bit i: cell i given) of grid ``index`` among
    ``grids`` (g x cells, every solution of the rules)."""
    cells = grids.shape[1]
    subsets = np.arange(1 << cells, dtype=np.int64)
    bits = 1 << np.arange(cells, dtype=np.int64)
    agree = ((grids == grids[index]) * bits).sum(axis=1)
    unique = np.ones(1 << cells, dtype=bool)
    for other, mask in enumerate(agree):
        if other != index:
            unique &= (subsets & ~mask) != 0  # S holds a cell where the other grid differs
    minimal = unique.copy()
    for i in range(cells):
        given = (subsets >> i) & 1 == 1
        minimal &= ~(given & unique[subsets ^ (1 << i)])
    return np.nonzero(minimal)[0], int(unique.sum())


def measure(request: Request, out=sys.stdout) -> tuple[float, bool]:
    """Grade every minimal puzzle of ``request``'s rules: the highest rating, and whether
    singles alone solved every one."""
    shape: Puzzle = request.maker().shape
    start = time.process_time()
    found = [tuple(grid) for grid in solutions(shape, "backtrack", limit=10**6)]
    label = f"{shape.rows}x{shape.cols} box {request.box} {' '.join(request.extras) or '-'}"
    if not found:
        print(f"{label:32} no grid: no puzzle", file=out, flush=True)
        return 0.0, True
    grids = np.array(found, dtype=np.int64)
    ratings: Counter[float] = Counter()
    hardest: Counter[str] = Counter()
    unique_total = minimal_total = 0
    first_row = tuple(range(1, shape.cols + 1))
    for index, grid in enumerate(found):
        if grid[: shape.cols] != first_row:
            continue  # a renaming of one taken
        chosen, unique = minimal_sets(grids, index) if len(found) > 1 else (np.array([0]), 1)
        unique_total += unique
        for subset in chosen:
            givens = {c: grid[i] for i, c in enumerate(shape.cells) if subset >> i & 1}
            graded = grade(replace(shape, givens=givens))
            assert graded.solved, (request, givens)
            minimal_total += 1
            ratings[graded.rating] += 1
            hardest[graded.hardest or "none"] += 1
    top = max(ratings, default=0.0)
    singles = set(hardest) <= {*SINGLES, "none"}
    taken = sum(grid[: shape.cols] == first_row for grid in found)
    print(
        f"{label:32} {len(found):3} grids ({taken:2} up to renaming): {unique_total:9,} unique "
        f"{minimal_total:6,} minimal puzzles"
        f"  top rating {top:.1f}  {dict(sorted(hardest.items()))}"
        f"  {time.process_time() - start:.1f} s CPU",
        file=out,
        flush=True,
    )
    return top, singles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, nargs="*", default=[2, 3, 4], choices=[2, 3, 4])
    args = parser.parse_args()
    wrong = []
    for request in requests(args.size):
        _, singles = measure(request)
        if rules_key(request) in SINGLES_ONLY and not singles:
            wrong.append(request)
    for request in wrong:
        print("FAIL listed as singles-only, needs more:", request, file=sys.stderr)
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
