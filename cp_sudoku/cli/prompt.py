"""A puzzle typed in row by row on a terminal, as in the classic tutorial program."""

from __future__ import annotations

import click

from cp_sudoku.io import Alphabet, parse_line
from cp_sudoku.io.alphabet import DIGITS
from cp_sudoku.io.lines import parse_row
from cp_sudoku.kinds.grid import default_box
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle, PuzzleError, UsageError, clashes


def shape(box: tuple[int, int] | None, alphabet: Alphabet | None) -> tuple[int, int]:
    """The box shape of the grid to ask for: ``box``, or the squarest for the alphabet's
    size, or 3x3.

    Raises:
        UsageError: ``box`` and ``alphabet`` name different sizes, or more than 9
            values with no alphabet (decided before the first prompt).
    """
    size = len(alphabet.symbols) if alphabet is not None and not alphabet.numbers else None
    if box is None:
        return default_box(size) if size else (3, 3)
    n = box[0] * box[1]
    if alphabet is not None and size is not None and size != n:
        raise UsageError(
            f"--box {box[0]}x{box[1]} makes a {n}x{n} grid, but --alphabet {alphabet.name} "
            f"has {size} symbols"
        )
    if alphabet is None and n > 9:
        raise UsageError(f"typing in a {n}x{n} puzzle needs --alphabet (for example 1-9A-G)")
    return box


def ask(box: tuple[int, int] | None, alphabet: Alphabet | None) -> Puzzle:
    """Ask for the rows one at a time; a whole puzzle pasted on one line is accepted too.

    Each row is checked as it comes (symbols, count, clashes with the rows
    before); a bad row is asked again with a hint.

    Raises:
        UsageError: see :func:`shape`; the input ends before the puzzle is complete.
    """
    rows_, cols = shape(box, alphabet)
    n = rows_ * cols
    alphabet = alphabet or Alphabet(DIGITS[:n])
    symbols = [alphabet.symbol(v if v % 2 == 0 else 0) for v in range(1, n + 1)]
    example = " | ".join(" ".join(symbols[start : start + cols]) for start in range(0, n, cols))
    hint = (
        f"A row is {n} symbols: {alphabet.expected(n)}; spaces and '|' are ignored. "
        f"For example: {example}"
    )
    click.echo(f"Enter the {n}x{n} puzzle one row at a time, or paste it whole on one line.")
    click.echo(hint)
    values: list[int] = []
    while len(values) < n * n:
        try:
            text = input(f"Row {len(values) // n + 1}: ")
        except EOFError:
            raise UsageError("the input ended before the puzzle was complete") from None
        if not values:
            try:  # a whole puzzle pasted on one line
                return parse_line(text, box=(rows_, cols), alphabet=alphabet, source="<terminal>")
            except PuzzleError:
                pass  # then it is the first row
        try:
            row = parse_row(text, n, alphabet)
            blanks = [0] * (n * n - len(values) - n)
            so_far = sudoku(values + row + blanks, (rows_, cols), alphabet=alphabet.stored)
        except PuzzleError as error:
            where = f"column {error.column}: " if error.column else ""
            click.echo(f"  That row does not fit: {where}{error.message}. {hint}")
            continue
        clash = clashes(so_far)
        if clash:
            click.echo(f"  That row does not fit: {clash[0].message}. {hint}")
            continue
        values += row
    return sudoku(values, (rows_, cols), name="<terminal>", alphabet=alphabet.stored)
