"""Whole numbers written in puzzle text: ASCII decimal digits only, and a bounded length.

Python's ``str.isdigit`` and ``int`` accept far more than ``0-9``: superscripts
(``'³'.isdigit()`` is true, ``int('³')`` fails), and every Unicode decimal
digit (Arabic-Indic ``٣`` reads as 3).  A puzzle file names numbers in ASCII
only, so each of those is an error, never a number.  A number has at most
:data:`MAX_DIGITS` significant digits: it stays below 2**63, which every
solver's 64-bit integers hold, and far below Python's 4,300-digit limit on
reading integers.
"""

from __future__ import annotations

import re

from cp_sudoku.errors import PuzzleError

#: The most rows, and the most columns, of any grid (a 100 x 100 grid is 10,000 cells).
MAX_SIZE = 100
#: Significant digits a number may have: 10**18 - 1 < 2**63 - 1.
MAX_DIGITS = 18
#: The largest number :func:`read_number` returns.
MAX_NUMBER: int = 10**MAX_DIGITS - 1
#: Significant digits a cage target may have: a target no values can reach is read and
#: the puzzle is ``none`` (no solver sees the number); past this, the text is refused.
MAX_TARGET_DIGITS = 4_000
#: Characters of a number shown in a message (a huge one is cut).
_SHOWN = 24
_ASCII_DIGITS = re.compile(r"[0-9]+")


def is_number(text: str) -> bool:
    """Whether ``text`` is ASCII decimal digits (at least one, any length)."""
    return _ASCII_DIGITS.fullmatch(text) is not None


def shown(text: str) -> str:
    """``text`` quoted for a message, cut after a few characters with its length."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text):,} characters)"


def read_number(text: str, what: str = "a number", digits: int = MAX_DIGITS) -> int:
    """``text`` as a whole number: ASCII digits ``0-9``, at most ``digits`` significant
    ones (:data:`MAX_DIGITS` by default).

    Raises:
        PuzzleError: anything else (no location: the caller adds it), saying
            ``what`` was expected.
    """
    if not is_number(text):
        raise PuzzleError(f"expected {what} in the digits 0-9, got {shown(text)}")
    if len(text.lstrip("0")) > digits:
        raise PuzzleError(
            f"{what} has {len(text.lstrip('0')):,} digits, over the limit of {digits:,}: "
            f"got {shown(text)}"
        )
    return int(text)


def in_range(value: int) -> bool:
    """Whether ``value`` is within ``-MAX_NUMBER .. MAX_NUMBER`` (a target the solvers hold)."""
    return -MAX_NUMBER <= value <= MAX_NUMBER
