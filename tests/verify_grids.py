"""Brute force for the verify tests: every grid the rule checker accepts, for small puzzles."""

from __future__ import annotations

from cp_sudoku.model import Grid, Puzzle, is_solution


def checker_solutions(puzzle: Puzzle) -> set[Grid]:
    """Every grid of ``puzzle`` that :func:`is_solution` accepts, by enumeration.

    Cells are filled in order with every value; a branch is cut only when a
    unit already repeats a value (a grid the checker rejects whatever
    follows), so the result is exactly the checker's set of solutions.
    """
    cells = puzzle.cells
    units_of = {cell: [u.cells for u in puzzle.units if cell in u.cells] for cell in cells}
    position = {cell: i for i, cell in enumerate(cells)}
    grid = [0] * len(cells)
    found: set[Grid] = set()

    def fill(i: int) -> None:
        if i == len(cells):
            if is_solution(puzzle, grid):
                found.add(tuple(grid))
            return
        for value in range(1, puzzle.max_value + 1):
            if any(
                grid[position[other]] == value
                for unit in units_of[cells[i]]
                for other in unit
                if position[other] < i
            ):
                continue
            grid[i] = value
            fill(i + 1)
        grid[i] = 0

    fill(0)
    return found
