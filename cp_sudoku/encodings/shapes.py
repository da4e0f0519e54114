"""The shape of a puzzle: what a back end may compile once and reuse across puzzles."""

from __future__ import annotations

from cp_sudoku.model import Cell, Puzzle, Unit

#: Values, cells and units: puzzles that differ only in their givens share it.
Shape = tuple[range, tuple[Cell, ...], tuple[Unit, ...]]


def shape_of(puzzle: Puzzle) -> Shape | None:
    """The puzzle's shape, or None when it has constraints other than units
    (cages, relations, clues), whose compiled form depends on the puzzle.

    Sudoku puzzles of one size and box share one units tuple (it is cached
    by the builder), so comparing shapes is cheap.
    """
    if puzzle.cages or puzzle.relations or puzzle.clues:
        return None
    return (puzzle.values, puzzle.cells, puzzle.units)
