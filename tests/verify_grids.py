"""Brute force for the verify tests: every grid the rule checker accepts, for small puzzles."""

from __future__ import annotations

from cp_sudoku.model import Grid, Puzzle, is_solution


def checker_solutions(puzzle: Puzzle) -> set[Grid]:
    """Every grid of ``puzzle`` that :func:`is_solution` accepts, by enumeration.

    Cells are filled in order with every value (a given cell with its given
    only).  A branch is cut only where the checker would reject every grid
    below it: a unit repeating a value among the filled cells and the givens,
    or a constraint whose cells are all filled and which does not hold.  Every
    full grid left is then put to the checker, so the result is exactly the
    checker's set of solutions.
    """
    cells = puzzle.cells
    position = puzzle.index
    seen_by = [sorted(position[o] for o in puzzle.peers[cell]) for cell in cells]
    completed: list[list] = [[] for _ in cells]  # constraints whose last cell is i
    for constraint in puzzle.constraints:
        completed[max(position[c] for c in constraint.cells)].append(constraint)
    grid = [puzzle.givens.get(cell, 0) for cell in cells]
    given = [cell in puzzle.givens for cell in cells]
    found: set[Grid] = set()

    def fill(i: int) -> None:
        if i == len(cells):
            if is_solution(puzzle, grid):
                found.add(tuple(grid))
            return
        for value in [grid[i]] if given[i] else puzzle.values:
            if any(grid[j] == value and (j < i or given[j]) for j in seen_by[i]):
                continue
            grid[i] = value
            if all(c.holds([grid[position[x]] for x in c.cells]) for c in completed[i]):
                fill(i + 1)
        if not given[i]:
            grid[i] = 0

    fill(0)
    return found
