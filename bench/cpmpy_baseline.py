"""CPMpy's Sudoku model (its README example: AllDifferent per row, column, box; the givens as
equalities) solved by CPMpy's default solver (OR-Tools CP-SAT) with ``solveAll(solution_limit=2)``,
timed like ``cp-sudoku bench``: per puzzle, model building included, puzzles parsed first.

    python bench/cpmpy_baseline.py royle-17clue 1000
"""

from __future__ import annotations

import statistics
import sys
import time

import cpmpy as cp
import numpy as np

from cp_sudoku.datasets import dataset_path


def solve(text: str) -> int:
    grid = np.array([int(ch) if ch.isdigit() else 0 for ch in text]).reshape(9, 9)
    x = cp.intvar(1, 9, shape=(9, 9))
    model = cp.Model(
        [cp.AllDifferent(row) for row in x],
        [cp.AllDifferent(col) for col in x.T],
        [cp.AllDifferent(x[r : r + 3, c : c + 3]) for r in range(0, 9, 3) for c in range(0, 9, 3)],
        x[grid != 0] == grid[grid != 0],
    )
    return model.solveAll(solution_limit=2)


def main(name: str, count: int) -> None:
    with open(dataset_path(name)) as handle:
        puzzles = [line.strip() for line in handle if line.strip()][:count]
    times, cpu, counts = [], 0.0, []
    for text in puzzles:
        c, t = time.process_time(), time.perf_counter()
        counts.append(solve(text))
        times.append(time.perf_counter() - t)
        cpu += time.process_time() - c
    print(
        f"{name}: {len(puzzles)} puzzles, {len(puzzles) / sum(times):.0f}/s wall, "
        f"{len(puzzles) / cpu:.0f}/s CPU, median {statistics.median(times) * 1000:.2f} ms, "
        f"unique {counts.count(1)}, cpmpy {cp.__version__}"
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
