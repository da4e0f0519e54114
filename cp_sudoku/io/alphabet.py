"""Alphabets: the symbols that write the values of a grid, and where a problem is.

For ``n <= 9`` the digits ``1..n``, with ``.``, ``0`` or ``_`` as blanks.
Larger grids are written either with single symbols (16x16 as ``0-9A-F``,
where ``0`` is a value, or as ``1-9A-G``; 25x25 as ``1-9A-P``) or as
whitespace-separated numbers ``1..n`` with ``.`` or ``0`` as the blank.  An
alphabet is inferred only when it is certain (a ``G`` in a 16x16 means
``1-9A-G``); otherwise the reader refuses and asks for ``--alphabet``,
because a misread ``0`` silently changes the puzzle.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from cp_sudoku.model import Puzzle, PuzzleError
from cp_sudoku.numbers import MAX_DIGITS, is_number

BLANKS = ".0_"
DIGITS = "123456789"
_ALNUM = string.digits + string.ascii_uppercase


@dataclass(frozen=True)
class Where:
    """A place in a source (file, line), and errors located there."""

    source: str | None = None
    line: int | None = None

    def error(self, message: str, column: int | None = None) -> PuzzleError:
        """A :class:`PuzzleError` saying ``message`` at this place (``column`` 1-based)."""
        return PuzzleError(message, source=self.source, line=self.line, column=column)


@dataclass(frozen=True)
class Alphabet:
    """The symbols of values ``1..n``: ``symbols[v - 1]`` writes value ``v``.

    Empty ``symbols`` means whitespace-separated numbers ``1..n``.  Blanks
    are ``.``, ``_`` and, when it is not a value, ``0``.
    """

    symbols: str

    @property
    def numbers(self) -> bool:
        """Values are written as whitespace-separated numbers ``1..n``."""
        return not self.symbols

    @property
    def blanks(self) -> str:
        """The symbols read as a blank cell (``0`` only when it is not a value)."""
        return "".join(b for b in BLANKS if b not in self.symbols)

    @property
    def name(self) -> str:
        """Compact name, as ``--alphabet`` takes it: ``1-9A-G``, ``numbers``."""
        if self.numbers:
            return "numbers"
        runs: list[str] = []
        start = prev = self.symbols[0]
        for symbol in [*self.symbols[1:], ""]:
            if symbol and _ALNUM.find(symbol) == _ALNUM.find(prev) + 1 and prev != "9":
                prev = symbol
                continue
            runs.append(start if start == prev else f"{start}-{prev}")
            start = prev = symbol
        return "".join(runs)

    @property
    def _values(self) -> dict[str, int]:
        """Symbol -> value, lower-case letters included, blanks -> 0 (one table per alphabet)."""
        return _table(self.symbols, self.blanks)

    def value(self, token: str) -> int | None:
        """The value a symbol (or number) stands for: 0 for a blank, None if invalid."""
        if self.numbers:
            if token in self.blanks:
                return 0
            if not (is_number(token) and len(token) <= MAX_DIGITS):  # ASCII digits only
                return None
            return int(token) or None
        return self._values.get(token)

    def values(self, tokens: Sequence[str]) -> list[int | None]:
        """:meth:`value` of each token, in one pass."""
        if self.numbers:
            return [self.value(token) for token in tokens]
        get = self._values.get
        return [get(token) for token in tokens]

    def symbol(self, value: int) -> str:
        """How value ``value`` (``0`` for a blank) is written."""
        if value == 0:
            return "."
        return str(value) if self.numbers else self.symbols[value - 1]

    def expected(self, n: int) -> str:
        """What a valid symbol is, for messages."""
        values = f"numbers 1-{n}" if self.numbers else self.name
        return f"{values} or a blank ({' '.join(self.blanks)})"

    @property
    def stored(self) -> str | None:
        """The value of ``Puzzle.alphabet`` for this alphabet: None for digits or numbers."""
        return None if self.numbers or DIGITS.startswith(self.symbols) else self.symbols


NUMBERS = Alphabet("")


def parse_alphabet(spec: str) -> Alphabet:
    """An alphabet from its ``--alphabet`` spelling.

    ``numbers``, ranges such as ``0-9A-F``, ``1-9A-G``, ``1-9A-P``, or the
    symbols written out (``123456789ABCDEFG``).  Letters are upper case.

    Raises:
        PuzzleError: a repeated symbol, a blank symbol (``.``, ``_``) or a
            symbol that is not a digit or letter.
    """
    if spec.strip().lower() == "numbers":
        return NUMBERS
    text = spec.strip().upper()
    symbols = ""
    for piece in re.finditer(r"(.)-(.)|.", text):
        if piece[1] is None:
            symbols += piece[0]
            continue
        low, high = _ALNUM.find(piece[1]), _ALNUM.find(piece[2])
        if low < 0 or high < low:
            raise PuzzleError(
                f"--alphabet {spec!r}: {piece[0]!r} is not a range such as 0-9 or A-F"
            )
        symbols += _ALNUM[low : high + 1]
    bad = [s for s in symbols if s not in _ALNUM]
    if not symbols or bad or len(set(symbols)) != len(symbols):
        problem = f"symbol {bad[0]!r}" if bad else "a repeated symbol" if symbols else "nothing"
        raise PuzzleError(
            f"--alphabet {spec!r} has {problem}: expected distinct digits and letters, "
            "ranges such as 0-9A-F or 1-9A-P, or 'numbers'"
        )
    return Alphabet(symbols)


def _one_based(n: int) -> str:
    return (DIGITS + string.ascii_uppercase)[:n] if n <= 35 else ""


def _zero_based(n: int) -> str:
    return _ALNUM[:n] if n <= 36 else ""


def infer_alphabet(n: int, symbols: Iterable[tuple[str, int]], *, where: Where) -> Alphabet:
    """The alphabet of an ``n x n`` puzzle written with single ``symbols``, when certain.

    ``symbols`` are (symbol, column) pairs.  For ``n <= 9`` it is the digits
    ``1..n`` (``0`` a blank).  For larger ``n`` the candidates are ``1-9A-..``
    (``0`` a blank) and ``0-9A-..`` (``0`` a value); the top symbol of the
    first (``G`` for 16) decides it, and without it the input is ambiguous.

    Raises:
        PuzzleError: a symbol outside both candidates (with its column); an
            ambiguous input (naming ``--alphabet``); ``n > 36``, which single
            symbols cannot write.
    """
    if n <= 9:
        return Alphabet(DIGITS[:n])
    one, zero = _one_based(n), _zero_based(n)
    if not zero:
        raise where.error(
            f"a {n}x{n} grid cannot be written with single symbols; "
            "write whitespace-separated numbers (--alphabet numbers)"
        )
    seen: set[str] = set()
    for symbol, column in symbols:
        upper = symbol.upper()
        if upper not in one and upper not in zero and symbol not in BLANKS:
            raise where.error(
                f"unexpected symbol {symbol!r}: expected {Alphabet(one or zero).name} "
                f"or {Alphabet(zero).name} for a {n}x{n} grid, or a blank (. 0 _)",
                column=column,
            )
        seen.add(upper)
    if one and one[-1] in seen:
        return Alphabet(one)
    if not one:  # n == 36: only 0-9A-Z exists
        return Alphabet(zero)
    if "0" in seen:
        doubt = f"'0' may be a value (--alphabet {Alphabet(zero).name}) or a blank"
    else:
        doubt = f"the {n}th symbol may be '0' (--alphabet {Alphabet(zero).name}) or '{one[-1]}'"
    raise where.error(
        f"ambiguous symbols for a {n}x{n} grid: {doubt} (--alphabet {Alphabet(one).name}); "
        "name the alphabet with --alphabet"
    )


def alphabet_of(puzzle: Puzzle) -> Alphabet:
    """The alphabet a puzzle is written in: its own, digits for n <= 9, else numbers."""
    if puzzle.alphabet:
        return Alphabet(puzzle.alphabet)
    return Alphabet(DIGITS[: puzzle.max_value]) if puzzle.max_value <= 9 else NUMBERS


@cache
def _table(symbols: str, blanks: str) -> dict[str, int]:
    """Symbol -> value for the alphabet ``symbols``, lower-case letters included, blanks -> 0."""
    table = {blank: 0 for blank in blanks}
    for value, symbol in enumerate(symbols, start=1):
        table[symbol] = table[symbol.lower()] = value
    return table
