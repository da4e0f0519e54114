"""Where a command's puzzles come from: a file, stdin, or the argument itself."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from cp_sudoku.cli.options import Reading
from cp_sudoku.io import Entry, count_entries, detect_format, read_file, read_lines
from cp_sudoku.io import read_text as read_argument
from cp_sudoku.io.registry import HEAD_LINES
from cp_sudoku.model import PuzzleError, UsageError

#: Files larger than this are not counted for the progress bar or the interrupt line.
COUNTED_BYTES = 64 * 1024 * 1024


def entries(target: str | None, reading: Reading) -> Iterator[Entry]:
    """Puzzles from a file, from stdin (``-`` or None), or from the argument itself.

    Raises:
        UsageError: a directory, or a name that looks like a file and is not one.
        PuzzleError, OSError: from the reader.
    """
    box, alphabet, format_ = reading.box, reading.alphabet, reading.format
    if target is None or target == "-":
        lines = read_lines(sys.stdin, "<stdin>", box=box, alphabet=alphabet, format=format_)
        return _named(lines, "<stdin>")
    if _is(target, Path.is_file):
        return _named(read_file(target, box=box, alphabet=alphabet, format=format_), target)
    if _is(target, Path.is_dir):
        raise UsageError(f"{target} is a directory: expected a puzzle file or a puzzle")
    if "/" in target or re.search(r"\.[a-z][a-z0-9]{1,4}$", target):
        raise UsageError(f"no such file: {target}")
    return read_argument(target, "<argument>", box=box, alphabet=alphabet, format=format_)


def _named(entries: Iterator[Entry], source: str) -> Iterator[Entry]:
    """``entries``, with a text that is not UTF-8 refused as a puzzle error naming ``source``."""
    try:
        yield from entries
    except UnicodeDecodeError as error:
        raise PuzzleError(f"not a UTF-8 text file ({error.reason})", source=source) from None


def _is(target: str, test: object) -> bool:
    try:
        return bool(test(Path(target)))  # type: ignore[operator]
    except (OSError, ValueError):  # a name too long for a path, or with a NUL: a puzzle
        return False


def total(target: str | None, reading: Reading) -> int | None:
    """How many entries ``target`` holds, when a quick pass can tell (None otherwise):
    1 for a puzzle written as the argument, the count of a line or CSV file."""
    if target is None or target == "-":
        return None
    if not _is(target, Path.is_file):
        return 1
    path = Path(target)
    if path.stat().st_size > COUNTED_BYTES:
        return None
    format_ = reading.format
    if format_ is None:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            format_ = detect_format(list(islice(handle, HEAD_LINES)), target)
    return count_entries(path, format_)
