"""The project's exceptions, as the model has always exported them (see :mod:`cp_sudoku.errors`,
which the constraint types import without importing the model)."""

from cp_sudoku.errors import (
    Cell,
    CpSudokuError,
    PuzzleError,
    Unsupported,
    UsageError,
    cell_name,
)

__all__ = ["Cell", "CpSudokuError", "PuzzleError", "Unsupported", "UsageError", "cell_name"]
