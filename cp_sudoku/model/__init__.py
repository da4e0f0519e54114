"""The puzzle model: cells, values, givens, the checker and clashes.

The constraint types live in :mod:`cp_sudoku.constraints`; the five of the
classic kinds are re-exported here for convenience.

A :class:`Puzzle` is validated when it is built; every back end trusts a
built puzzle.  :func:`violations` is the independent checker, written
straight from the rules and used to re-verify every grid a back end returns.
"""

from cp_sudoku.constraints import (
    OPERATIONS,
    RELATIONS,
    Cage,
    Constraint,
    Relation,
    SparseUnit,
    Unit,
    Visibility,
)
from cp_sudoku.errors import (
    Cell,
    CpSudokuError,
    PuzzleError,
    Unsupported,
    UsageError,
    cell_name,
)
from cp_sudoku.model.checker import is_solution, violations
from cp_sudoku.model.clashes import Clash, candidates, clashes, out_of_reach, repeated_givens
from cp_sudoku.model.puzzle import Grid, Puzzle, cells_of

__all__ = [
    "OPERATIONS",
    "RELATIONS",
    "Cage",
    "Cell",
    "Clash",
    "Constraint",
    "CpSudokuError",
    "Grid",
    "Puzzle",
    "PuzzleError",
    "Relation",
    "SparseUnit",
    "Unit",
    "Unsupported",
    "UsageError",
    "Visibility",
    "candidates",
    "cell_name",
    "cells_of",
    "clashes",
    "is_solution",
    "out_of_reach",
    "repeated_givens",
    "violations",
]
