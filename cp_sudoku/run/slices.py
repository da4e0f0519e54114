"""A puzzle file cut into slices of whole lines, each read and checked on its own.

A run that writes a table (``check --output``), resumes, or goes to a Dask
cluster does not send puzzles one by one: it cuts the file into slices of
``lines`` physical lines (byte offsets found in one quick pass), and a task
reads its slice straight from the file, checks every puzzle in it, and
returns the slice's rows (:mod:`cp_sudoku.run.output`) as columns.  Only
line-based formats can be cut this way: ``line`` (one puzzle per line) and
``csv`` (whose header line is passed to every slice; a slice ends only where
no quoted field goes on, so a record spanning lines stays whole).

A worker reads its slice itself (:class:`Part`), whatever the executor:
this process, a process pool or Dask.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cp_sudoku.io import READERS, Alphabet, Entry, ReadOptions, detect_format
from cp_sudoku.io.grammar import undecoded
from cp_sudoku.io.lines import csv_delimiter, open_quote
from cp_sudoku.io.registry import HEAD_LINES
from cp_sudoku.model import PuzzleError, UsageError

#: Formats whose entries are one physical line each, so a file can be cut anywhere between lines.
SLICEABLE = ("line", "csv")
#: A line as the readers take it (a text file opened with ``newline=""``): it ends at
#: ``\n``, ``\r\n`` or a lone ``\r``.
_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


@dataclass(frozen=True)
class Slice:
    """Lines ``first_line`` (1-based) onwards, bytes ``start`` to ``end`` (end excluded)."""

    index: int
    start: int
    end: int
    first_line: int


@dataclass(frozen=True)
class Source:
    """A puzzle file to read slices of: its path, format, and CSV header line (or '')."""

    path: str
    format: str
    header: str


@dataclass(frozen=True)
class SlicedFile:
    """A puzzle file and its slices.

    ``size`` and ``mtime_ns`` identify the file's state when it was cut (a
    resumed run refuses a file that changed); ``lines`` is the lines per slice.
    """

    source: Source
    slices: tuple[Slice, ...]
    size: int
    mtime_ns: int
    lines: int

    @property
    def path(self) -> str:
        """The file's path as given."""
        return self.source.path


def cut(path: str | Path, lines: int, format: str | None = None) -> SlicedFile:
    """Cut a ``line`` or ``csv`` file into slices of ``lines`` lines (>= 1; a CSV slice goes
    on while a quoted field does, by the csv module's rules as the reader applies them:
    :func:`cp_sudoku.io.lines.open_quote`, comment lines left out).

    Raises:
        UsageError: the format is not line-based, or ``lines < 1``.
        PuzzleError: the format cannot be detected.
        OSError: the file cannot be read.
    """
    if lines < 1:
        raise UsageError(f"a slice holds at least one line, got {lines}")
    path = str(path)
    if format is None:
        with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as handle:
            head = [line for _, line in zip(range(HEAD_LINES), handle, strict=False)]
        format = detect_format(head, path)
    if format not in SLICEABLE:
        raise UsageError(
            f"{path} is in the {format} format: a table output, resume and --cluster need "
            f"one puzzle per line or CSV"
        )
    stat = os.stat(path)
    slices: list[Slice] = []
    header = ""
    with open(path, "rb") as handle:
        offset, number = 0, 0
        if handle.read(3) != b"\xef\xbb\xbf":  # a UTF-8 byte-order mark is skipped
            handle.seek(0)
        else:
            offset = 3
        lines_of = physical(handle)  # one iterator: the header's raw line may hold more
        if format == "csv":
            for raw in lines_of:  # the header: the first line that is not a comment or blank
                number += 1
                offset += len(raw)
                text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
                if text.strip() and not text.startswith("#"):
                    header = text
                    break
        if (undecodable := undecoded(header, path, number)) is not None:
            raise undecodable
        start, first, count = offset, number + 1, 0
        inside = False  # within a quoted CSV field that goes on to the next line
        delimiter = csv_delimiter(header) or ","
        for raw in lines_of:
            offset += len(raw)
            count += 1
            if format == "csv" and b'"' in raw and not raw.startswith(b"#"):  # as the reader
                text = raw.decode("utf-8", "surrogateescape")
                inside = open_quote(text, delimiter, inside) is not None
            if count >= lines and not inside:
                slices.append(Slice(len(slices), start, offset, first))
                start, first, count = offset, first + count, 0
        if count:
            slices.append(Slice(len(slices), start, offset, first))
    return SlicedFile(
        Source(path, format, header), tuple(slices), stat.st_size, stat.st_mtime_ns, lines
    )


def physical(raws: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of a binary file's ``raws`` (split at ``\n`` only) as the readers take
    them: a lone ``\r`` ends a line too (a file saved with classic Mac line ends), so a
    slice holds the lines, and the line numbers, of a whole-file read."""
    for raw in raws:
        if b"\r" not in raw or (raw.endswith(b"\r\n") and raw.count(b"\r") == 1):
            yield raw
        else:
            yield from _LINE.findall(raw)


def read_slice(
    file: Source,
    part: Slice,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    size: int | None = None,
) -> Iterator[Entry]:
    """The entries of one slice, with their line numbers in the whole file (``size``: the
    n of the file's first puzzle when it lies before the slice, so that a slice reads its
    lines as the whole file does: one file holds one size)."""
    with open(file.path, "rb") as handle:
        handle.seek(part.start)
        # a byte that is not UTF-8 stays escaped: the reader refuses its line's puzzle only
        text = handle.read(part.end - part.start).decode("utf-8", "surrogateescape")
    lines = list(io.StringIO(text, newline=""))  # lines as cut() counted them
    options = ReadOptions(box=box, alphabet=alphabet, size=size)
    shift = part.first_line - 1
    if file.header:
        lines.insert(0, file.header + "\n")
        shift -= 1
    for entry in READERS[file.format](lines, file.path, options):
        yield _shifted(entry, shift)


def _shifted(entry: Entry, shift: int) -> Entry:
    if not shift:
        return entry
    error = entry.error
    if error is not None and error.line is not None:
        error = PuzzleError(
            error.message,
            source=error.source,
            line=error.line + shift,
            column=error.column,
            cells=error.cells,
        )
    return replace(entry, line=entry.line + shift, error=error)


@dataclass(frozen=True)
class Part:
    """One slice of a file and how to read it: what a worker needs to read its puzzles
    (``size``: see :func:`read_slice`)."""

    file: Source
    part: Slice
    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
    size: int | None = None

    def entries(self) -> Iterator[Entry]:
        """The slice's entries, numbered by their lines in the whole file."""
        return read_slice(self.file, self.part, self.box, self.alphabet, self.size)


def slice_lines(path: str | Path, workers: int, most: int) -> int:
    """Lines per slice for ``workers``: at least four slices per worker, at most ``most``
    lines a slice (>= 1), so a small file still spreads over every worker and a run
    interrupted part-way keeps finished slices to resume from."""
    with open(path, "rb") as handle:
        lines = sum(
            block.count(b"\n") + block.count(b"\r") - block.count(b"\r\n")  # a lone \r too
            for block in iter(lambda: handle.read(1 << 20), b"")
        )
    return max(1, min(most, -(-lines // (4 * workers))))


def describe(file: SlicedFile) -> dict[str, Any]:
    """The file's identity for a resumed run: path, size, modification time, format, slices."""
    return {
        "input": os.path.abspath(file.path),
        "size": file.size,
        "mtime_ns": file.mtime_ns,
        "format": file.source.format,
        "slices": len(file.slices),
    }
