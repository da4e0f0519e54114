"""One registry of readers and sniffers, and reading a source in its format.

Every reader yields :class:`Entry` records in source order: the puzzle, or
the :class:`~cp_sudoku.model.PuzzleError` that stopped it (file, line,
column or cells, what was expected and what was found), so one bad puzzle in
a source never stops the others.  A source with no puzzle at all raises.

=================  ==========================================================
format             read by, detected by
=================  ==========================================================
``line``           :mod:`cp_sudoku.io.lines`; the default
``grid``           :mod:`cp_sudoku.io.lines`; ``|``, separator lines, or
                   n lines of n symbols that cannot be one-line puzzles
``csv``            :mod:`cp_sudoku.io.lines`; a header naming a puzzle
                   column, separated by ``,`` or ``;``
``variant``        :mod:`cp_sudoku.io.text`; the first line is ``kind:``
``arithmatrix``    KenKen JSON lines (a ``.jsonl`` file with ``puzzle.cages``)
``xcsp3``          Kakuro JSON (a ``.json`` file with nRows, nCols, clues)
``kuso``           Kakuro CSV (a ``.csv`` file with ``\\`` in its first row)
``puzzlekit``      a ``.json`` puzzlekit collection (:mod:`cp_sudoku.io.puzzlekit`)
``fpuzzles``       :mod:`cp_sudoku.io.fpuzzles`; f-puzzles JSON (``size`` and
                   ``grid``), or a first line that is an f-puzzles string or link
=================  ==========================================================

Adding a format::

    READERS["name"] = reader       # (lines, source, options) -> Iterator[Entry]
    SNIFFERS.insert(0, sniffer)    # (head lines, source) -> name | None

A reader takes the raw lines, the source name (the file path for a file,
``<stdin>`` or ``<argument>`` otherwise) and the :class:`ReadOptions`.  A
sniffer returns a format name only when it is certain; the first that
answers wins, and the Sudoku layouts (grid or line) are tried last.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, islice
from math import isqrt
from pathlib import Path

from cp_sudoku.io.alphabet import Alphabet, parse_alphabet
from cp_sudoku.io.collections import read_arithmatrix, read_kuso, read_xcsp3
from cp_sudoku.io.entry import Entry
from cp_sudoku.io.fpuzzles import read_fpuzzles, sniff_fpuzzles
from cp_sudoku.io.grammar import (
    NOT_UTF8,
    SEPARATOR,
    numbers_layout,
    skipped,
    strip_comment,
    symbols,
    tokens,
    undecoded,
)
from cp_sudoku.io.limits import MAX_LINE
from cp_sudoku.io.lines import csv_delimiter, csv_entries, grid_entries, line_entries, parse_line
from cp_sudoku.io.options import ReadOptions
from cp_sudoku.io.puzzlekit import read_puzzlekit, sniff_puzzlekit
from cp_sudoku.io.text import is_kind_line, read_text_lines
from cp_sudoku.model import PuzzleError, UsageError

#: Lines looked at by :func:`detect_format`.
HEAD_LINES = 128

Reader = Callable[[Iterable[str], str, ReadOptions], Iterator[Entry]]
Sniffer = Callable[[Sequence[str], str], "str | None"]


def _from_path(name: str, read: Callable[[Path], Iterator[Entry]]) -> Reader:
    """A reader for a collection that is read from its file path, not from lines."""

    def reader(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
        path = Path(source)
        if not path.is_file():
            raise UsageError(f"the {name} format is read from a file, not from {source}")
        try:
            yield from read(path)
        except UnicodeDecodeError as error:
            raw = path.read_bytes()[: error.start]
            raise PuzzleError(
                f"byte 0x{error.object[error.start]:02X} is not UTF-8: save the file as UTF-8",
                source=source,
                line=raw.count(b"\n") + 1,
                column=error.start - (raw.rfind(b"\n") + 1) + 1,
            ) from None

    return reader


READERS: dict[str, Reader] = {
    "line": line_entries,
    "grid": grid_entries,
    "csv": csv_entries,
    "variant": read_text_lines,
    "arithmatrix": _from_path("arithmatrix", read_arithmatrix),
    "xcsp3": _from_path("xcsp3", read_xcsp3),
    "kuso": _from_path("kuso", read_kuso),
    "puzzlekit": _from_path("puzzlekit", read_puzzlekit),
    "fpuzzles": read_fpuzzles,
}


def _first(head: Sequence[str]) -> str | None:
    return next((line for line in head if not skipped(line)), None)


def _sniff_variant(head: Sequence[str], source: str) -> str | None:
    first = _first(head)
    return "variant" if first is not None and is_kind_line(first) else None


def _sniff_collection(head: Sequence[str], source: str) -> str | None:
    """The shared collections, from a file's suffix and first line."""
    path = Path(source)
    if not path.is_file():
        return None
    suffix = path.suffix.lower()
    text = "".join(head)
    if suffix == ".jsonl":
        try:
            puzzle = json.loads(head[0]).get("puzzle") if head else None
        except (json.JSONDecodeError, AttributeError):
            return None
        return "arithmatrix" if isinstance(puzzle, dict) and "cages" in puzzle else None
    if suffix == ".json":
        if sniff_puzzlekit(text):
            return "puzzlekit"
        return "xcsp3" if all(f'"{key}"' in text for key in ("nRows", "nCols", "clues")) else None
    if suffix == ".csv" and head:
        try:
            first_row = next(csv.reader([head[0]]), [])
        except csv.Error:
            return None
        return "kuso" if any("\\" in value for value in first_row) else None
    return None


def _sniff_csv(head: Sequence[str], source: str) -> str | None:
    first = _first(head)
    return "csv" if first is not None and csv_delimiter(first) else None


#: Format sniffers, tried in order; each returns a format name only when certain.
SNIFFERS: list[Sniffer] = [sniff_fpuzzles, _sniff_variant, _sniff_collection, _sniff_csv]


def detect_format(head: Sequence[str], source: str = "<input>") -> str:
    """The format of a source from its first lines: a sniffer's answer, else grid or line.

    ``grid`` when the first puzzle line holds ``|`` or a separator line
    follows, or when the first block is ``V`` lines of ``V`` symbols that
    cannot be a line puzzle; otherwise ``line``.

    Raises:
        PuzzleError: ``V`` lines of ``V`` symbols that read both ways (for
            example 16 lines of 16 digits 1-4: one 16x16 grid or sixteen
            4x4 puzzles); the message names ``--format``.
    """
    for sniff in SNIFFERS:
        found = sniff(head, source)
        if found:
            return found
    block: list[str] = []
    ended = len(head) < HEAD_LINES  # the head reaches the end of the source
    for line in head:
        if not line.strip():
            if block:
                ended = True
                break
            continue
        text = strip_comment(line)
        if text.strip():
            block.append(text)
    if not block or any(len(t) > MAX_LINE for t in block):
        return "line"  # which reports an over-long line as that line's error
    if any("|" in t or SEPARATOR.match(t) for t in block):
        return "grid"
    width = len(symbols(block[0], None, row=True)[0])
    grid_ok = width <= 36 or numbers_layout(tokens(block[0]), width)
    if width < 2 or not grid_ok or len(block) < width:  # too few rows for a grid (no pass)
        return "line"
    if any(len(symbols(text, None, row=True)[0]) != width for text in block[:width]):
        return "line"  # a grid's first `width` rows are `width` symbols wide
    if not _line_puzzle(block[0]):
        return "grid"
    if len(block) == width and ended:
        raise PuzzleError(
            f"ambiguous layout: {width} lines of {width} symbols read as one {width}x{width} "
            f"grid or as {width} puzzles of one line each; name one with --format grid "
            "or --format line",
            source=source,
        )
    return "line"


def _line_puzzle(text: str) -> bool:
    """Whether ``text`` alone could be a line puzzle (a square count that fits the symbols)."""
    found, _ = symbols(text, None, row=False)
    if isqrt(len(found)) ** 2 != len(found):
        return False
    try:
        parse_line(text)
    except PuzzleError:
        return False
    return True


#: Formats of one puzzle per line: a byte that is not UTF-8 spoils that puzzle only.
PER_LINE = ("line", "csv")


def _utf8(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` (decoded with ``surrogateescape``) with the bytes that are not UTF-8
    dropped from ``#`` comments (those elsewhere are kept, escaped, for :func:`_strict`
    or the reader of a :data:`PER_LINE` format to refuse).  A byte-order mark opening the
    first line is dropped, as a file opened ``utf-8-sig`` drops it (stdin, the argument and
    the service's text are not)."""
    for number, line in enumerate(lines, start=1):
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        escaped = not line.isascii() and NOT_UTF8.search(line)  # ASCII: none, no search
        if escaped and not NOT_UTF8.search(strip_comment(line)):  # in a comment only
            line = NOT_UTF8.sub("", line)
        yield line


def _strict(lines: Iterable[str], source: str) -> Iterator[str]:
    """``lines``, stopped by the first byte that is not UTF-8 outside a comment.

    Raises:
        PuzzleError: that byte, naming its line and column.
    """
    for number, line in enumerate(lines, start=1):
        error = undecoded(line, source, number)
        if error is not None:
            raise error
        yield line


def read_lines(
    lines: Iterable[str],
    source: str = "<input>",
    *,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | str | None = None,
    format: str | None = None,
) -> Iterator[Entry]:
    """The puzzles of ``lines``, streamed, in the named or detected format.

    Raises:
        PuzzleError: no puzzle at all (empty, or only comments); a layout or
            header that no format can read; a byte that is not UTF-8 outside
            a comment (file, line, column), except in the :data:`PER_LINE` formats,
            where it is the error entry of its line's puzzle.
        UsageError: an unknown format name.
    """
    if format is not None and format not in READERS:
        raise UsageError(f"unknown format {format!r}; choose one of {', '.join(READERS)}")
    chosen = parse_alphabet(alphabet) if isinstance(alphabet, str) else alphabet
    options = ReadOptions(box=box, alphabet=chosen)
    it = _utf8(lines)
    head = list(islice(it, HEAD_LINES))
    name = format or detect_format(head, source)
    count = 0
    read = chain(head, it) if name in PER_LINE else _strict(chain(head, it), source)
    for entry in READERS[name](read, source, options):
        count += 1
        yield entry
    if count == 0:
        raise PuzzleError("no puzzle found: the input is empty or only comments", source=source)


def read_file(
    path: str | Path,
    *,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | str | None = None,
    format: str | None = None,
) -> Iterator[Entry]:
    """The puzzles of a file, streamed; see :func:`read_lines`.

    Raises:
        PuzzleError: the file holds no puzzle (see :func:`read_lines`).
        OSError: the file cannot be read.
    """
    with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
        yield from read_lines(handle, str(path), box=box, alphabet=alphabet, format=format)


def same_file(path: str | Path, other: str | Path) -> bool:
    """Whether ``path`` names the file ``other`` (through a symbolic or hard link too);
    False when either does not exist.  An output that names its own input is refused with
    this: writing it would replace the puzzles."""
    try:
        return os.path.samefile(path, other)
    except (OSError, ValueError):  # no such file yet, or a name with a NUL
        return False


def read_text(
    text: str,
    source: str = "<argument>",
    *,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | str | None = None,
    format: str | None = None,
) -> Iterator[Entry]:
    """The puzzles of a string (one line, a grid, ...); see :func:`read_lines`."""
    return read_lines(text.splitlines(), source, box=box, alphabet=alphabet, format=format)


def count_entries(path: str | Path, format: str) -> int | None:
    """How many entries a ``line`` or ``csv`` file holds (a quick pass); None for others."""
    if format not in ("line", "csv"):
        return None
    with open(path, encoding="utf-8-sig", errors="surrogateescape") as handle:
        count = sum(1 for line in handle if not skipped(line))
    return count - 1 if format == "csv" else count
