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
        written = _written(grid, _DIGIT_SYMBOLS)  # the usual grid: no pass to find its largest
        if written is not None:
            return written
        chosen = Alphabet(DIGITS) if max(grid, default=0) <= 9 else NUMBERS
    if chosen.numbers:
        return " ".join(chosen.symbol(v) for v in grid)
    symbols = "." + chosen.symbols  # symbols[v] writes value v, 0 (blank) included
    written = _written(grid, symbols)
    if written is not None:
        return written
    return "".join([symbols[v] for v in grid])


_DIGIT_SYMBOLS = "." + DIGITS


def _written(grid: Sequence[int], symbols: str) -> str | None:
    """``grid`` written in ``symbols`` (``symbols[v]`` writes value ``v``) by one C call, or
    None when that cannot be: a symbol that is not one ASCII character, or a value
    without a symbol."""
    table = _table(symbols)
    if table is None:
        return None
    try:
        written = bytes(grid).translate(table)
    except (ValueError, TypeError):  # a value outside 0..255, or not an integer
        return None
    return written.decode("ascii") if written.isascii() else None  # 0xFF: no symbol


@cache
def _table(symbols: str) -> bytes | None:
    """``symbols`` as a ``bytes.translate`` table (value -> its symbol, 0xFF past the last),
    or None when a symbol is not one ASCII character."""
    if not symbols.isascii() or len(symbols) > 256:
        return None
    return symbols.encode("ascii").ljust(256, b"\xff")


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
