"""Candidates left by the givens, and clues that contradict each other (clashes).

A clash is a proof of ``none`` that needs no solver: two givens equal in one
unit, a cell left with no candidate, a cage or clue no candidates can meet.
Each is confirmed by the rules alone, so it serves as a certificate.
"""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.model.constraints import Cage
from cp_sudoku.model.errors import Cell, cell_name
from cp_sudoku.model.puzzle import Puzzle

#: Clashes named at most, per puzzle.
MAX_CLASHES = 10
#: Cages and relations whose allowed tuples are enumerated to find a clash
#: have at most this many cells (larger ones are left to the back ends).
_ENUMERATED_CELLS = 6


@dataclass(frozen=True)
class Clash:
    """Clues that contradict each other: the rule broken, the cells, and in words."""

    rule: str
    cells: tuple[Cell, ...]
    message: str


def candidates(puzzle: Puzzle) -> list[list[int]]:
    """Per cell (``puzzle.cells`` order): the values no given peer has taken.

    A given cell's candidates are its value alone.  A list may be empty: the
    puzzle then has no solution.
    """
    values, index, peers = puzzle.values, puzzle.index, puzzle.peers
    allowed = [set(values) for _ in puzzle.cells]
    for cell, value in puzzle.givens.items():
        allowed[index[cell]] = {value}
    for cell, value in puzzle.givens.items():
        for peer in peers[cell]:
            allowed[index[peer]].discard(value)
    return [sorted(values) for values in allowed]


def clashes(puzzle: Puzzle) -> list[Clash]:
    """Up to :data:`MAX_CLASHES` contradictions among the clues, found without search.

    Empty when none is found (the puzzle may still have no solution).
    """
    found: list[Clash] = []
    for unit in puzzle.units:
        seen: dict[int, Cell] = {}
        for cell in unit.cells:
            value = puzzle.givens.get(cell)
            if value is None:
                continue
            if value in seen:
                found.append(
                    Clash(
                        unit.role or "unit",
                        (seen[value], cell),
                        f"{value} repeats at {cell_name(seen[value])} and {cell_name(cell)} "
                        f"in {unit.name}",
                    )
                )
            else:
                seen[value] = cell
    if found:
        return found[:MAX_CLASHES]
    domains = candidates(puzzle)
    index = puzzle.index
    for cell, values in zip(puzzle.cells, domains, strict=True):
        if not values:
            found.append(Clash("candidates", (cell,), f"{cell_name(cell)} has no candidate left"))
    for constraint in (*puzzle.cages, *puzzle.relations):
        if len(constraint.cells) > _ENUMERATED_CELLS:
            continue
        cells = constraint.cells
        tuples = constraint.allowed([domains[index[c]] for c in cells], puzzle.differ_pairs(cells))
        if not tuples:
            rule = "cage" if isinstance(constraint, Cage) else "relation"
            found.append(
                Clash(rule, cells, f"{constraint.describe()} cannot be met by the candidates left")
            )
    return found[:MAX_CLASHES]
