"""The shape of a puzzle: what a back end may compile once and reuse across puzzles."""

from __future__ import annotations

from cp_sudoku.model import Cell, Constraint, Puzzle

#: Values, cells and the whole rule set: puzzles that differ only in their givens share it.
Shape = tuple[range, tuple[Cell, ...], tuple[Constraint, ...]]


def shape_of(puzzle: Puzzle) -> Shape | None:
    """The puzzle's shape, or None when it has constraints other than units
    (cages, relations, clues, ...), whose compiled form is its own.

    The shape holds every constraint (never a subset), so a model compiled for
    one shape is never reused for a puzzle with other rules.  Sudoku puzzles of
    one size and box share one units tuple (it is cached by the builder), so
    comparing shapes is cheap.
    """
    if not puzzle.only_units:
        return None
    return (puzzle.values, puzzle.cells, puzzle.constraints)
