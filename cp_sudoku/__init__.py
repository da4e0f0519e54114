"""cp_sudoku: Sudoku-like puzzles as constraint problems, cross-checked by several back ends.

Quick start::

    from cp_sudoku import crosscheck, parse_line
    verdict = crosscheck(parse_line("53..7....6..195....98....6.8...6...3"
                                    "4..8.3..17...2...6.6....28....419..5....8..79"))
    verdict.status      # 'unique'
    verdict.solution    # the grid, a tuple of 81 values, row-major

The names below are imported when first used, so ``import cp_sudoku`` is
quick, and it never imports OR-Tools or python-sat: each back end imports its
own library when it is built.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_HOMES = {
    "available": "cp_sudoku.backends",
    "get_backend": "cp_sudoku.backends",
    "Result": "cp_sudoku.backends.base",
    "Status": "cp_sudoku.backends.base",
    "Verdict": "cp_sudoku.crosscheck",
    "count": "cp_sudoku.crosscheck",
    "crosscheck": "cp_sudoku.crosscheck",
    "solutions": "cp_sudoku.crosscheck",
    "parse_line": "cp_sudoku.io",
    "read_file": "cp_sudoku.io",
    "to_text": "cp_sudoku.io",
    "Cage": "cp_sudoku.model",
    "Cell": "cp_sudoku.model",
    "CpSudokuError": "cp_sudoku.model",
    "Grid": "cp_sudoku.model",
    "Puzzle": "cp_sudoku.model",
    "PuzzleError": "cp_sudoku.model",
    "Unit": "cp_sudoku.model",
    "UsageError": "cp_sudoku.model",
    "is_solution": "cp_sudoku.model",
    "violations": "cp_sudoku.model",
    "sudoku": "cp_sudoku.kinds.sudoku",
}

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
    "read_file",
    "solutions",
    "sudoku",
    "to_text",
    "violations",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'cp_sudoku' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from cp_sudoku.backends import available, get_backend
    from cp_sudoku.backends.base import Result, Status
    from cp_sudoku.crosscheck import Verdict, count, crosscheck, solutions
    from cp_sudoku.io import parse_line, read_file, to_text
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
