"""The reading layer's old home: every name now lives in :mod:`cp_sudoku.io`.

Kept so that ``from cp_sudoku.formats import ...`` still works while the
rest of the package moves to :mod:`cp_sudoku.io`.
"""

from cp_sudoku.io import *  # noqa: F403
from cp_sudoku.io import __all__ as _IO
from cp_sudoku.io.alphabet import BLANKS, DIGITS
from cp_sudoku.io.lines import PUZZLE_COLUMNS, SOLUTION_COLUMNS, parse_row
from cp_sudoku.io.registry import HEAD_LINES, Reader, Sniffer

__all__ = [
    *_IO,
    "BLANKS",
    "DIGITS",
    "HEAD_LINES",
    "PUZZLE_COLUMNS",
    "SOLUTION_COLUMNS",
    "Reader",
    "Sniffer",
    "parse_row",
]
