"""Compilation helpers shared by the back ends: candidates, allowed tuples, digit sets, shapes.

The independent checker in :mod:`cp_sudoku.model` uses none of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from cp_sudoku.model import Cage, Cell, Puzzle, Unit

#: What a model reused across puzzles depends on: values, cells, units.
ShapeKey = tuple[int, tuple[Cell, ...], tuple[Unit, ...]]


def candidates(puzzle: Puzzle) -> list[list[int]]:
    """Per cell (``puzzle.cells`` order): the values no given peer has taken.

    A given cell's candidates are its value alone.  A list may be empty: the
    puzzle then has no solution.
    """
    index = puzzle.index()
    allowed = [set(range(1, puzzle.max_value + 1)) for _ in puzzle.cells]
    for cell, value in puzzle.givens.items():
        allowed[index[cell]] = {value}
    for unit in puzzle.units:
        taken = {puzzle.givens[c] for c in unit.cells if c in puzzle.givens}
        for cell in unit.cells:
            if cell not in puzzle.givens:
                allowed[index[cell]] -= taken
    return [sorted(values) for values in allowed]


def shape_key(puzzle: Puzzle) -> ShapeKey | None:
    """The shape a back end may compile once and reuse for every puzzle that shares it.

    Values, cells and units; None for a puzzle with cages (whose compiled
    form depends on the puzzle).  Sudoku puzzles of one size and box share
    one units tuple (:func:`cp_sudoku.puzzles.sudoku_units` is cached), so
    comparing keys is cheap.
    """
    if puzzle.cages:
        return None
    return (puzzle.max_value, puzzle.cells, puzzle.units)


def is_distinct_sum(cage: Cage) -> bool:
    """A sum cage whose values differ: compiled through digit sets."""
    return cage.op == "+" and cage.distinct


@cache
def digit_sets(size: int, target: int, max_value: int) -> tuple[frozenset[int], ...]:
    """All sets of ``size`` distinct values in ``1..max_value`` summing to ``target``.

    Few per (size, sum) pair: at most 12 for 9 values (size 4 or 5, sum 20).
    """
    return tuple(
        frozenset(combo)
        for combo in combinations(range(1, max_value + 1), size)
        if sum(combo) == target
    )


def differ_pairs(puzzle: Puzzle, cells: Sequence[Cell]) -> list[tuple[int, int]]:
    """Positions ``(i, j)``, i < j, of cage cells that share a unit."""
    unit_sets = [set(unit.cells) for unit in puzzle.units]
    return [
        (i, j)
        for i, j in combinations(range(len(cells)), 2)
        if any(cells[i] in u and cells[j] in u for u in unit_sets)
    ]


def cage_tuples(
    cage: Cage, domains: Sequence[Sequence[int]], differ: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, ...]]:
    """Every tuple of values, one per cage cell from its domain, meeting the cage.

    ``differ`` lists cell positions that must take different values (cells
    sharing a unit; all pairs when the cage is distinct).  Enumeration prunes
    on partial sums and divisibility, so a KenKen cage of 4 cells over 1..9
    costs at most 9**4 steps.
    """
    size = len(cage.cells)
    if cage.distinct:
        differ = list(combinations(range(size), 2))
    before: list[list[int]] = [[] for _ in range(size)]
    for i, j in differ:
        before[j].append(i)
    op, target = cage.op, cage.target
    result: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def extend(pos: int, acc: int) -> None:
        if pos == size:
            if _final(op, target, chosen, acc):
                result.append(tuple(chosen))
            return
        left = size - pos - 1
        for value in domains[pos]:
            if any(chosen[i] == value for i in before[pos]):
                continue
            if op == "+":
                new = acc + value
                if new + left > target:
                    continue
            elif op == "*":
                new = acc * value
                if target % new:
                    continue
            else:
                new = acc
            chosen.append(value)
            extend(pos + 1, new)
            chosen.pop()

    extend(0, 1 if op == "*" else 0)
    return result


def _final(op: str, target: int, values: list[int], acc: int) -> bool:
    if op in "+*":
        return acc == target
    if op == "=":
        return values[0] == target
    a, b = values
    if op == "-":
        return abs(a - b) == target
    return a == b * target or b == a * target  # "/"
