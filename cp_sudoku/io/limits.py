"""Bounds on what a reader takes in, so that bad input is an error and never a crash.

- Grid sizes: at most :data:`MAX_SIZE` (100) rows and columns (``size:``,
  ``heights:``, a puzzlekit header, a Kakuro's squares); a 100 x 100 grid is
  10,000 cells.
- Numbers: ASCII digits, at most 18 significant ones (:mod:`cp_sudoku.numbers`).
- JSON: :func:`load_json` turns every way ``json.loads`` fails into a
  :class:`PuzzleError`: bad syntax, nesting deeper than Python's recursion
  limit allows (about 1,000 levels), an integer of more than 4,300 digits.
- CSV fields: up to :data:`MAX_FIELD` characters (the ``csv`` module's
  default limit, kept); a longer one is a located error.
- Lines read as puzzle text: up to :data:`MAX_LINE` characters (a 100 x 100
  puzzle written as numbers on one line takes under 40,000); a longer line
  is refused before it is split into tokens.
"""

from __future__ import annotations

import json
from typing import Any

from cp_sudoku.model import PuzzleError
from cp_sudoku.numbers import MAX_SIZE

__all__ = ["MAX_FIELD", "MAX_LINE", "MAX_SIZE", "load_json"]
#: The most characters in one CSV field (the csv module's default ``field_size_limit``).
MAX_FIELD = 131_072
#: The most characters in one line of puzzle text.
MAX_LINE = 131_072


def load_json(text: str, source: str | None = None, line: int | None = None) -> Any:
    """``json.loads(text)``, every failure as a located error.

    Raises:
        PuzzleError: not JSON (with the line and column), nested too deeply, or
            an integer too long for Python to read.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # one line of a file: its caller locates it; a whole text: the line in it
        where = line if "\n" not in text else error.lineno + (line or 1) - 1
        raise PuzzleError(
            f"not JSON: {error.msg}", source=source, line=where, column=error.colno
        ) from None
    except RecursionError:
        raise PuzzleError(
            "not JSON this reader takes: nested deeper than about 1,000 levels",
            source=source,
            line=line,
        ) from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise PuzzleError(
            "not JSON this reader takes: a number of more than 4,300 digits",
            source=source,
            line=line,
        ) from None
