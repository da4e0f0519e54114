"""The reading layer's old home: every name now lives in :mod:`cp_sudoku.io`.

Kept so that ``from cp_sudoku.formats import ...`` still works while the
rest of the package moves to :mod:`cp_sudoku.io`.
"""

from cp_sudoku.io import (
    NUMBERS,
    READERS,
    SNIFFERS,
    Alphabet,
    Entry,
    ReadOptions,
    alphabet_of,
    count_entries,
    detect_format,
    grid_string,
    parse_alphabet,
    parse_line,
    puzzle_string,
    read_file,
    read_lines,
    read_text,
)
from cp_sudoku.io.alphabet import BLANKS, DIGITS
from cp_sudoku.io.lines import PUZZLE_COLUMNS, SOLUTION_COLUMNS, parse_row
from cp_sudoku.io.registry import HEAD_LINES, Reader, Sniffer

__all__ = [
    "BLANKS",
    "DIGITS",
    "HEAD_LINES",
    "NUMBERS",
    "PUZZLE_COLUMNS",
    "READERS",
    "SNIFFERS",
    "SOLUTION_COLUMNS",
    "Alphabet",
    "Entry",
    "ReadOptions",
    "Reader",
    "Sniffer",
    "alphabet_of",
    "count_entries",
    "detect_format",
    "grid_string",
    "parse_alphabet",
    "parse_line",
    "parse_row",
    "puzzle_string",
    "read_file",
    "read_lines",
    "read_text",
]
