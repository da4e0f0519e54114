"""cp_sudoku: Sudoku-like puzzles as constraint problems, cross-checked by several back ends.

Quick start::

    from cp_sudoku import crosscheck, parse_line
    verdict = crosscheck(parse_line("53..7....6..195....98....6.8...6...3"
                                    "4..8.3..17...2...6.6....28....419..5....8..79"))
    verdict.status      # 'unique'
    verdict.solution    # the grid, a tuple of 81 values, row-major

Importing the package does not import OR-Tools or python-sat; each back end
imports its own library when it is built.
"""

from cp_sudoku.backends import available, get_backend
from cp_sudoku.backends.base import Result, Status
from cp_sudoku.crosscheck import Verdict, count, crosscheck, solutions
from cp_sudoku.io import parse_line, parse_text, read_file, to_text
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import (
    Cage,
    Cell,
    CpSudokuError,
    Grid,
    Puzzle,
    PuzzleError,
    Unit,
    UsageError,
    is_solution,
    violations,
)

__version__ = "0.1.0"

__all__ = [
    "Cage",
    "Cell",
    "CpSudokuError",
    "Grid",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Status",
    "Unit",
    "UsageError",
    "Verdict",
    "__version__",
    "available",
    "count",
    "crosscheck",
    "get_backend",
    "is_solution",
    "parse_line",
    "parse_text",
    "read_file",
    "solutions",
    "sudoku",
    "to_text",
    "violations",
]
