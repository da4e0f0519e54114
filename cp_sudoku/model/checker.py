"""The independent checker: does a grid obey every rule of its puzzle?

Written straight from the rules (each constraint's ``holds``); it shares no
code with any back end, and every grid a back end returns is re-verified here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from cp_sudoku.constraints import Unit
from cp_sudoku.errors import cell_name
from cp_sudoku.model.puzzle import Puzzle


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` (one value per cell, row-major) breaks, in words; empty if none."""
    if len(grid) != len(puzzle.cells):
        return [f"grid has {len(grid)} values, expected {len(puzzle.cells)}"]
    values = puzzle.values
    if set(map(type, grid)) != {int} or not _value_set(values).issuperset(grid):
        return [
            f"{cell_name(cell)} is {v}, outside {puzzle.min_value}..{puzzle.max_value}"
            for cell, v in zip(puzzle.cells, grid, strict=True)
            if type(v) is not int or v not in values
        ]
    index = puzzle.index
    problems = [
        f"{cell_name(cell)} is {grid[index[cell]]}, but the given is {v}"
        for cell, v in puzzle.givens.items()
        if grid[index[cell]] != v
    ]
    readers = puzzle.readers
    if puzzle.only_units:  # the commonest rules, all units: no value twice in any, in C
        seen = [read(grid) for read in readers]
        if sum(map(len, map(set, seen))) == sum(map(len, seen)):
            return problems  # else the loop below names each unit that repeats a value
    for constraint, read in zip(puzzle.constraints, readers, strict=True):
        if not constraint.holds(read(grid)):
            what = constraint.describe()
            broken = "repeats a value" if isinstance(constraint, Unit) else "does not hold"
            problems.append(f"{what} {broken}")
    return problems


@cache
def _value_set(values: range) -> frozenset[int]:
    """The values of a range as a set, made once per range."""
    return frozenset(values)


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether ``grid`` (one value per cell, row-major) solves ``puzzle``."""
    return not violations(puzzle, grid)
