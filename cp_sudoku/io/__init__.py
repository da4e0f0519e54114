"""Reading and writing puzzles: one reading layer for every format and kind.

- :mod:`~cp_sudoku.io.entry`: :class:`Entry`, what every reader yields (a leaf).
- :mod:`~cp_sudoku.io.alphabet`: the symbols of values; inference when certain.
- :mod:`~cp_sudoku.io.grammar`: the one tokeniser and the one grid grammar.
- :mod:`~cp_sudoku.io.lines`: one-line puzzles, pretty grids, CSV.
- :mod:`~cp_sudoku.io.text`: the variant text format of every kind, and
  :func:`to_text`, which writes any puzzle so that it reads back equal.
- :mod:`~cp_sudoku.io.collections`, :mod:`~cp_sudoku.io.puzzlekit`: the
  shared collections (arithmatrix, xcsp3, kuso, puzzlekit).
- :mod:`~cp_sudoku.io.registry`: the readers and sniffers, and
  :func:`read_file` / :func:`read_lines` / :func:`read_text`.
- :mod:`~cp_sudoku.io.writers`: grids and puzzles as one line.
"""

from cp_sudoku.io.alphabet import NUMBERS, Alphabet, alphabet_of, parse_alphabet
from cp_sudoku.io.entry import Entry
from cp_sudoku.io.lines import parse_line
from cp_sudoku.io.options import ReadOptions
from cp_sudoku.io.registry import (
    READERS,
    SNIFFERS,
    count_entries,
    detect_format,
    read_file,
    read_lines,
    read_text,
    same_file,
)
from cp_sudoku.io.text import parse_text, to_text
from cp_sudoku.io.writers import grid_string, puzzle_string

__all__ = [
    "NUMBERS",
    "READERS",
    "SNIFFERS",
    "Alphabet",
    "Entry",
    "ReadOptions",
    "alphabet_of",
    "count_entries",
    "detect_format",
    "grid_string",
    "parse_alphabet",
    "parse_line",
    "parse_text",
    "puzzle_string",
    "read_file",
    "read_lines",
    "read_text",
    "same_file",
    "to_text",
]
