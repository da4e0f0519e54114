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
from cp_sudoku.io.fpuzzles_link import looks_like_fpuzzles
from cp_sudoku.io.registry import HEAD_LINES
from cp_sudoku.model import UsageError

#: Files larger than this are not counted for the progress bar or the interrupt line.
COUNTED_BYTES = 64 * 1024 * 1024


def _puzzle_like(text: str) -> bool:
    """Mostly digits and blanks, and at least a 4x4's worth: a puzzle with a stray symbol
    (``...8..x9``), not a file name with an extension."""
    blank_or_digit = sum(ch.isdigit() or ch in "._" for ch in text)
    return len(text) >= 16 and blank_or_digit >= 0.8 * len(text)


def _names_a_file(target: str, reading: Reading) -> bool:
    """A path (``/``), a name with an extension that is no puzzle, or, without
    ``--alphabet``, a word with no digit and no blank (``models``): the default
    alphabets are digits (and letters after 9), so no puzzle is written that way.  A link
    (``https://www.f-puzzles.com/?load=...``, with or without its scheme) is a puzzle, not a
    file."""
    if re.match(r"https?://", target) or looks_like_fpuzzles(target):
        return False
    if "/" in target or (re.search(r"\.[a-z][a-z0-9]{1,4}$", target) and not _puzzle_like(target)):
        return True
    return reading.alphabet is None and re.search(r"[0-9._]", target) is None


def entries(target: str | None, reading: Reading) -> Iterator[Entry]:
    """Puzzles from a file, from stdin (``-`` or None), or from the argument itself.

    Raises:
        UsageError: a directory, or a name that looks like a file and is not one.
        PuzzleError, OSError: from the reader.
    """
    box, alphabet, format_ = reading.box, reading.alphabet, reading.format
    if target is None or target == "-":
        return read_lines(sys.stdin, "<stdin>", box=box, alphabet=alphabet, format=format_)
    refuse_missing(target, reading)
    if _is(target, Path.is_file) or _is_pipe(target):
        return read_file(target, box=box, alphabet=alphabet, format=format_)
    return read_argument(target, "<argument>", box=box, alphabet=alphabet, format=format_)


def refuse_missing(target: str | None, reading: Reading) -> None:
    """Nothing when ``target`` is stdin, a file (a pipe too: ``/dev/stdin``, a shell's
    ``<(...)``) or a puzzle written as the argument.

    Raises:
        UsageError: a directory, or a name that looks like a file and is not one.
    """
    if target is None or target == "-" or _is(target, Path.is_file) or _is_pipe(target):
        return
    if _is(target, Path.is_dir):
        raise UsageError(f"{target} is a directory: expected a puzzle file or a puzzle")
    if _names_a_file(target, reading):
        raise UsageError(f"no such file: {target}")


def _is_pipe(target: str) -> bool:
    """``target`` names something to read that is neither a regular file nor a directory
    (a FIFO, ``/dev/stdin``, a shell's ``<(...)``): read once, as a stream."""
    return (
        _is(target, Path.exists) and not _is(target, Path.is_file) and not _is(target, Path.is_dir)
    )


def _is(target: str, test: object) -> bool:
    try:
        return bool(test(Path(target)))  # type: ignore[operator]
    except (OSError, ValueError):  # a name too long for a path, or with a NUL: a puzzle
        return False


def total(target: str | None, reading: Reading) -> int | None:
    """How many entries ``target`` holds, when a quick pass can tell (None otherwise):
    1 for a puzzle written as the argument, the count of a line or CSV file."""
    if target is None or target == "-" or _is_pipe(target):  # a pipe is read once only
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


def path_of(target: str | None) -> str | None:
    """``target`` when it names a file (which a worker can read by itself), else None."""
    return target if target is not None and target != "-" and _is(target, Path.is_file) else None
