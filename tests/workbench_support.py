"""Helpers of the workbench tests: enumeration by the backtracker, puzzles made contradictory."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from cp_sudoku.backends import get_backend
from cp_sudoku.crosscheck import clash_reason
from cp_sudoku.model import Cell, Grid, Puzzle, candidates, violations
from cp_sudoku.workbench import true_candidates

#: Far above the solution counts of the puzzles the tests enumerate.
ENUMERATION_LIMIT = 100_000


def enumerated(puzzle: Puzzle) -> list[Grid]:
    """Every solution, by the backtracker with a limit it never reaches, each re-checked."""
    result = get_backend("backtrack").solve(puzzle, limit=ENUMERATION_LIMIT)
    assert result.complete, "the enumeration must exhaust the search"
    assert all(not violations(puzzle, grid) for grid in result.solutions)
    return list(result.solutions)


def enumerated_candidates(puzzle: Puzzle, grids: list[Grid]) -> dict[Cell, tuple[int, ...]]:
    """Cell -> the values it takes in ``grids``, ascending."""
    return {cell: tuple(sorted({grid[i] for grid in grids})) for i, cell in enumerate(puzzle.cells)}


def contradictory(puzzle: Puzzle) -> Puzzle | None:
    """``puzzle`` with one given added that no solution has but no peer clashes with
    (so the contradiction needs search), or None when there is no such value."""
    found = true_candidates(puzzle)
    for i, (cell, values) in enumerate(found.values.items()):
        if cell in puzzle.givens:
            continue
        for value in candidates(puzzle)[i]:
            if value not in values:
                made = replace(puzzle, givens={**puzzle.givens, cell: value})
                if clash_reason(made) is None:
                    return made
    return None


def fewest_givens(puzzle: Puzzle, grids: list[Grid], targets: list[Grid] | None = None) -> int:
    """The fewest givens that make ``puzzle`` unique and single out one of ``targets``
    (default: any solution), by brute force over every set of open cells, smallest first."""
    open_cells = [i for i, cell in enumerate(puzzle.cells) if cell not in puzzle.givens]
    if len(grids) < 2:
        return 0
    for size in range(1, len(open_cells) + 1):
        for chosen in combinations(open_cells, size):
            for target in targets or grids:
                same = [g for g in grids if all(g[i] == target[i] for i in chosen)]
                if len(same) == 1:
                    return size
    raise AssertionError("a full grid is always unique")


def snake_palindrome() -> str:
    """A 16x16 Sudoku whose one palindrome runs through all 256 cells, row by row and
    turning at each row's end: its two middle cells lie one above the other in column 16
    and must be equal, so there is no solution.  Without a time limit, explaining it takes
    long: the formula of the core about 2 s of CPU, the deduction minutes (nets)."""
    path = []
    for r in range(1, 17):
        columns = range(1, 17) if r % 2 else range(16, 0, -1)
        path += [f"r{r}c{c}" for c in columns]
    rows = [" ".join(["0"] * 16)] * 16
    return "\n".join(
        [
            "kind: sudoku",
            "alphabet: numbers",
            "grid:",
            *rows,
            "constraints:",
            "palindrome " + " ".join(path),
        ]
    )
