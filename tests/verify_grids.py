"""Brute force for the verify tests: every grid the rule checker accepts, for small puzzles."""

from __future__ import annotations

from cp_sudoku.model import Grid, Puzzle, is_solution


def checker_solutions(puzzle: Puzzle) -> set[Grid]:
    """Every grid of ``puzzle`` that :func:`is_solution` accepts, by enumeration.

    Cells are filled in order with every value (a given cell with its given
    only); a branch is cut only when a unit already repeats a value among the
    filled cells and the givens, a grid the checker rejects whatever follows.
    Every full grid left is then put to the checker, so the result is exactly
    the checker's set of solutions.
    """
    cells = puzzle.cells
    position = {cell: i for i, cell in enumerate(cells)}
    seen_by = {
        cell: sorted({position[o] for u in puzzle.units if cell in u.cells for o in u.cells} - {position[cell]})
        for cell in cells
    }
    grid = [puzzle.givens.get(cell, 0) for cell in cells]
    given = [cell in puzzle.givens for cell in cells]
    found: set[Grid] = set()

    def fill(i: int) -> None:
        if i == len(cells):
            if is_solution(puzzle, grid):
                found.add(tuple(grid))
            return
        choices = [grid[i]] if given[i] else range(1, puzzle.max_value + 1)
        for value in choices:
            if any(grid[j] == value and (j < i or given[j]) for j in seen_by[cells[i]]):
                continue
            grid[i] = value
            fill(i + 1)
        if not given[i]:
            grid[i] = 0

    fill(0)
    return found
