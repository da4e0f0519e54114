"""The one tokeniser and the one grid grammar, shared by every reader and every kind.

- :func:`tokens`: whitespace-separated tokens with their 1-based columns.
- :func:`strip_comment`: a ``#`` at the start of a line or after a space
  starts a comment, to the end of the line.
- :func:`symbols`: the symbols of a grid row or of a one-line puzzle: either
  whitespace-separated numbers (``1 12 .``) or single characters (``12.4``,
  spaces and ``|`` ignored).
- :func:`grid_values`: ``n`` rows of ``n`` symbols, in an :class:`Alphabet`
  (inferred when certain), read to values (0 for a blank).  The ``grid``
  reader, the ``line`` reader and the grids of the variant text format all
  read through it, so every alphabet works in every format.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from math import isqrt

from cp_sudoku.io.alphabet import NUMBERS, Alphabet, Where, infer_alphabet
from cp_sudoku.io.limits import MAX_LINE
from cp_sudoku.model import PuzzleError
from cp_sudoku.numbers import is_number

#: A separator line of a pretty grid: only ``-``, ``+``, ``=`` and spaces, at least one ``-``.
SEPARATOR = re.compile(r"^[\s+\-=]*-[\s+\-=]*$")
_TOKEN = re.compile(r"\S+")
_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$", re.DOTALL)

#: A token and its 1-based column.
Token = tuple[str, int]


def strip_comment(line: str) -> str:
    """``line`` without its line ending and its trailing ``# comment``, if any."""
    if "#" not in line:  # the usual line: no comment, no search
        return line.rstrip()
    return _COMMENT.sub("", line.rstrip("\r\n")).rstrip()


#: A byte that is not UTF-8, as a file opened with ``errors="surrogateescape"`` reads it.
NOT_UTF8 = re.compile("[\udc80-\udcff]")


def undecoded(line: str, source: str | None, number: int | None) -> PuzzleError | None:
    """The error for the first byte of ``line`` that is not UTF-8 (read as an escaped
    surrogate) outside a ``# comment`` (``source``, line ``number``, its column), or None."""
    if line.isascii():  # the usual line: nothing escaped, no search
        return None
    bad = NOT_UTF8.search(strip_comment(line))
    if bad is None:
        return None
    return PuzzleError(
        f"byte 0x{ord(bad.group()) - 0xDC00:02X} is not UTF-8: save the file as UTF-8",
        source=source,
        line=number,
        column=bad.start() + 1,
    )


def skipped(line: str) -> bool:
    """Whether ``line`` holds nothing but spaces and a comment."""
    if "#" not in line:  # the usual line: no comment to strip
        return not line.strip()
    return not strip_comment(line).strip()


def tokens(text: str) -> list[Token]:
    """Whitespace-separated tokens of ``text`` and their 1-based columns.

    Raises:
        PuzzleError: ``text`` is longer than :data:`~cp_sudoku.io.limits.MAX_LINE`
            characters (its tokens would take about 100 bytes each).
    """
    if len(text) > MAX_LINE:
        raise PuzzleError(
            f"a line of {len(text):,} characters, over the {MAX_LINE:,} a line may hold"
        )
    return [(m[0], m.start() + 1) for m in _TOKEN.finditer(text)]


def _is_number(token: str) -> bool:
    return is_number(token) or token in (".", "_")


def numbers_layout(found: list[Token], count: int | None) -> bool:
    """Whether ``found`` are whitespace-separated numbers rather than grouped symbols.

    True when a token is longer than one character, every token is a number
    or a blank, and every number fits the size: ``count`` values (a grid
    row), or ``isqrt(len)`` when ``count`` is None (a whole puzzle).
    """
    if len(found) < 2 or all(len(t) == 1 for t, _ in found):
        return False
    if not all(_is_number(t) for t, _ in found):
        return False
    size = count if count is not None else isqrt(len(found))
    if count is None and size * size != len(found):
        return False
    return all(len(t) <= 3 and int(t) <= size for t, _ in found if is_number(t))


def symbols(text: str, numbers: bool | None, *, row: bool) -> tuple[list[Token], bool]:
    """The symbols of ``text`` with their columns, and whether they are numbers.

    ``numbers``: True for whitespace-separated numbers, False for single
    characters, None to decide from the text.  ``|`` is ignored in a grid
    row (``row``); spaces separate numbers and are otherwise ignored.
    """
    body = text.replace("|", " ") if row else text
    found = tokens(body)
    if numbers is None:
        numbers = numbers_layout(found, len(found) if row else None)
    if numbers:
        return found, True
    return [(ch, column + i) for token, column in found for i, ch in enumerate(token)], False


def values_of(found: list[Token], n: int, alphabet: Alphabet, where: Where) -> list[int]:
    """Values (0 for a blank) of ``found`` symbols for an ``n x n`` puzzle.

    Raises:
        PuzzleError: the alphabet does not have ``n`` symbols; a symbol that
            is not in it or stands for a value over ``n`` (with its column).
    """
    if not alphabet.numbers and len(alphabet.symbols) != n:
        raise where.error(
            f"--alphabet {alphabet.name} has {len(alphabet.symbols)} symbols, "
            f"but the puzzle is {n}x{n}: expected {n} symbols"
        )
    found_values = alphabet.values([symbol for symbol, _ in found])
    values = [value for value in found_values if value is not None]
    if len(values) < len(found_values) or max(values, default=0) > n:
        symbol, column = next(
            token
            for token, value in zip(found, found_values, strict=True)
            if value is None or value > n
        )
        raise where.error(
            f"unexpected symbol {symbol!r}: expected {alphabet.expected(n)}", column=column
        )
    return values


def choose_alphabet(
    found: list[Token], n: int, numbers: bool, alphabet: Alphabet | None, where: Where
) -> Alphabet:
    """The alphabet named, else numbers, else the one inferred from ``found`` when certain."""
    return alphabet or (NUMBERS if numbers else infer_alphabet(n, found, where=where))


def grid_rows(rows: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """The ``(line, text)`` rows of a grid, comments removed and separator lines dropped."""
    kept = [(number, strip_comment(text)) for number, text in rows]
    return [(number, text) for number, text in kept if text.strip() and not SEPARATOR.match(text)]


def square_rows(found: Sequence[tuple[int, Sequence[tuple[str, int]]]], source: str | None) -> None:
    """Nothing when the ``(line, [(symbol, column), ...])`` rows make a square.

    Raises:
        PuzzleError: every row of one width above their count (the grid ends early,
            or one row holds a whole puzzle), or a row of another length than the
            count (its line, and the column of its first extra symbol).
    """
    n = len(found)
    widths = {len(row) for _, row in found}
    if len(widths) == 1 and (width := widths.pop()) > n:
        side = isqrt(width)
        rows_said = f"{n} row" + ("s" if n > 1 else "")
        one_line = n == 1 and side > 1 and side * side == width
        also = f" (or, for a {side}x{side} puzzle on one line, {side} rows of {side})"
        raise Where(source, found[-1][0]).error(
            f"the grid ends after {rows_said}, expected {width} rows of {width} symbols"
            + (also if one_line else "")
        )
    for number, row in found:
        if len(row) != n:
            column = row[n][1] if len(row) > n else None
            raise Where(source, number).error(
                f"a grid of {n} rows needs {n} entries per row, got {len(row)}", column=column
            )


def grid_values(
    rows: Sequence[tuple[int, str]], alphabet: Alphabet | None, source: str | None
) -> tuple[list[int], Alphabet]:
    """The values (row-major, 0 for a blank) of ``n`` rows of ``n`` symbols, and their alphabet.

    ``rows`` are ``(line, text)`` pairs, comments and separator lines already
    dropped (:func:`grid_rows`); ``n`` is their count.

    Raises:
        PuzzleError: a row without ``n`` symbols; a bad symbol (line and
            column); an alphabet that cannot be inferred for sure.
    """
    n = len(rows)
    numbers = (
        alphabet.numbers
        if alphabet
        else any(numbers_layout(tokens(text.replace("|", " ")), n) for _, text in rows)
    )
    found = [(number, symbols(text, numbers, row=True)[0]) for number, text in rows]
    square_rows(found, source)
    first = Where(source, rows[0][0] if rows else None)
    chosen = choose_alphabet([s for _, row in found for s in row], n, numbers, alphabet, first)
    values: list[int] = []
    for number, row in found:
        values += values_of(row, n, chosen, Where(source, number))
    return values, chosen
