"""Grids and puzzles written as one line, in their alphabet."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from cp_sudoku.io.alphabet import DIGITS, NUMBERS, Alphabet, alphabet_of
from cp_sudoku.model import Puzzle


def grid_string(grid: Sequence[int], alphabet: str | None = None) -> str:
    """A grid as one line, ``0`` for a blank written ``.``.

    With ``alphabet`` (``Puzzle.alphabet``) its symbols; otherwise digits
    for values up to 9, else whitespace-separated numbers.
    """
    if alphabet:
        chosen = Alphabet(alphabet)
    else:
        chosen = Alphabet(DIGITS) if max(grid, default=0) <= 9 else NUMBERS
    if chosen.numbers:
        return " ".join(chosen.symbol(v) for v in grid)
    symbols = "." + chosen.symbols  # symbols[v] writes value v, 0 (blank) included
    table = _table(symbols)
    if table is not None and min(grid, default=0) >= 0 and max(grid, default=0) < len(symbols):
        return bytes(grid).translate(table).decode("ascii")  # one C call for the grid
    return "".join([symbols[v] for v in grid])


@cache
def _table(symbols: str) -> bytes | None:
    """``symbols`` as a ``bytes.translate`` table (value -> its symbol), or None when a
    symbol is not one ASCII character."""
    if not symbols.isascii() or len(symbols) > 256:
        return None
    return symbols.encode("ascii").ljust(256, b"?")


def puzzle_string(puzzle: Puzzle) -> str:
    """The givens of a puzzle as one line in its alphabet, ``.`` for blanks.

    Reading the line back (with the puzzle's box and alphabet) gives the same puzzle.
    """
    index = puzzle.index
    grid = [0] * len(puzzle.cells)
    for cell, value in puzzle.givens.items():
        grid[index[cell]] = value
    alphabet = alphabet_of(puzzle)
    return (" " if alphabet.numbers else "").join(alphabet.symbol(v) for v in grid)
