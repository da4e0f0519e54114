"""The Sudoku layouts: one puzzle per line, pretty grids, and CSV with stated solutions.

``line``
    One puzzle per line, ``n * n`` symbols row-major.  Blank lines and ``#``
    comments (whole lines, or after the puzzle) are skipped; each puzzle
    keeps its line number.
``grid``
    ``n`` rows of ``n`` symbols.  Spaces and ``|`` are ignored and separator
    lines made of ``-`` and ``+`` are skipped, so the pretty grids of
    :mod:`cp_sudoku.display` read back in.  Several grids may follow each
    other, blank lines between them.
``csv``
    A header row naming a puzzle column (``quizzes``, ``quiz``, ``puzzle``,
    ``puzzles``) and optionally a solution column (``solutions``,
    ``solution``), as in the public Kaggle sets; the stated solution goes to
    :attr:`Entry.solution`.  Fields are separated by ``,`` or, when the
    header says so, by ``;``.

Symbols are read through :mod:`cp_sudoku.io.grammar` in an alphabet of
:mod:`cp_sudoku.io.alphabet`.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from math import isqrt

from cp_sudoku.io.alphabet import Alphabet, Where, alphabet_of, parse_alphabet
from cp_sudoku.io.entry import Entry
from cp_sudoku.io.grammar import (
    SEPARATOR,
    Token,
    choose_alphabet,
    grid_values,
    skipped,
    strip_comment,
    symbols,
    undecoded,
    values_of,
)
from cp_sudoku.io.options import ReadOptions
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Grid, Puzzle, PuzzleError
from cp_sudoku.numbers import shown

#: Column names, lower case, that hold puzzles and stated solutions in a CSV header.
#: The commonest line, 81 digits and blanks, read without the general grammar (the same
#: puzzle, about 20 us less a line): symbol -> value in the digits 1-9.
_PLAIN_9X9 = {".": 0, "_": 0, **{str(d): d for d in range(10)}}
#: The same as a ``bytes.translate`` table (255: not one of those symbols).
_PLAIN_TABLE = bytes(_PLAIN_9X9.get(chr(b), 255) for b in range(256))
_DIGITS_9X9 = Alphabet("123456789")
#: box -> a blank 9x9 Sudoku read with it (see :func:`_plain`).
_BLANKS: dict[tuple[int, int] | None, Puzzle] = {}
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solutions", "solution")


def _size_of(count: int, found: list[Token], where: Where, size: int | None) -> int:
    """n for ``count = n * n`` symbols; the error says where the line goes wrong."""
    n = isqrt(count)
    if size is not None and count != size * size:
        if n * n == count and n > 0:
            raise where.error(
                f"a {n}x{n} puzzle in a file of {size}x{size} puzzles: one file holds one size"
            )
        near = size
    elif n * n == count and count > 0:
        return n
    else:
        near = max(1, round(count**0.5))
    expected = near * near
    if count > expected:
        column = found[expected][1]
        what = f"got {count}; symbol {expected + 1} is extra"
    else:
        column = (found[-1][1] + len(found[-1][0])) if found else 1
        what = f"got {count}; the line ends early"
    raise where.error(
        f"expected n*n symbols for an n x n grid ({expected} for {near}x{near}), {what}",
        column=column,
    )


def _build(
    values: list[int], alphabet: Alphabet, box: tuple[int, int] | None, where: Where
) -> Puzzle:
    try:
        return sudoku(values, box, name=_name(where.source, where.line), alphabet=alphabet.stored)
    except PuzzleError as error:
        raise error.located(where.source, where.line) from None


def _name(source: str | None, line: int | None) -> str:
    return f"{source}:{line}" if source and line else (source or "")


def _plain_values(text: str) -> bytes | None:
    """The values of a plain 9x9 line, 81 of the symbols of ``_PLAIN_9X9`` (0 blank, else
    1-9), or None when ``text`` is not one."""
    if len(text) != 81 or not text.isascii():
        return None
    values = text.encode("ascii").translate(_PLAIN_TABLE)
    return None if 255 in values else values


def _plain(
    values: bytes, box: tuple[int, int] | None, source: str | None, line: int | None
) -> Puzzle:
    """The 9x9 Sudoku of a plain line's ``values`` (as :func:`_plain_values` gives them),
    at ``line`` of ``source``: the blank 9x9 of ``box``, built by :func:`_build` once, with
    these givens (:meth:`Puzzle.with_grid`): the puzzle :func:`_build` gives, without
    building and checking its cells and units again (about 15 us less a line).

    Raises:
        PuzzleError: a box that does not fit, as :func:`_build` says it.
    """
    if box is not None and not isinstance(box, tuple):  # not a key: the general path
        return _build(list(values), _DIGITS_9X9, box, Where(source, line))
    blank = _BLANKS.get(box)
    if blank is None:
        blank = _BLANKS[box] = _build([0] * 81, _DIGITS_9X9, box, Where(source, line))
    return blank.with_grid(values, _name(source, line))


def parse_line(
    text: str,
    *,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | str | None = None,
    source: str | None = None,
    line: int | None = None,
    size: int | None = None,
) -> Puzzle:
    """A Sudoku from one line: ``n * n`` symbols, or whitespace-separated numbers.

    Args:
        box: (rows, columns) of a box; default the squarest.
        alphabet: the symbols (an :class:`Alphabet` or its ``--alphabet``
            spelling); default: inferred when certain.
        source, line: where the text comes from, for messages; neither given,
            ``<string>`` line 1 (``<string>:1:5: unexpected symbol 'x' ...``,
            as the CLI's ``<argument>:1:5: ...``).
        size: the n every puzzle of this source has (from an earlier line).

    Raises:
        PuzzleError: an empty line; a length that is not a square, or not
            ``size * size`` (expected and actual count, and the column where
            the line goes wrong); a bad symbol (with its column); ambiguous
            symbols (naming ``--alphabet``); a box that does not fit; givens
            that clash (naming the value, both cells and the unit).
    """
    try:
        return _parse_line(text, box, alphabet, Where(source, line), size)
    except PuzzleError as error:
        if source is None and line is None:  # the place, not the puzzle's name: that stays ""
            raise error.located("<string>", 1) from None
        raise


def _parse_line(
    text: str,
    box: tuple[int, int] | None,
    alphabet: Alphabet | str | None,
    where: Where,
    size: int | None,
) -> Puzzle:
    """:func:`parse_line`, with its place as a :class:`Where`."""
    if not isinstance(text, str):
        raise where.error(
            f"expected the puzzle as a string of n*n symbols, got {type(text).__name__}"
        )
    if alphabet is None and size in (None, 9) and (plain := _plain_values(text)) is not None:
        return _plain(plain, box, where.source, where.line)
    chosen = parse_alphabet(alphabet) if isinstance(alphabet, str) else alphabet
    text = strip_comment(text)
    if not text.strip():
        raise where.error("empty puzzle: expected n*n symbols")
    found, numbers = symbols(text, chosen.numbers if chosen else None, row=False)
    n = _size_of(len(found), found, where, size)
    used = choose_alphabet(found, n, numbers, chosen, where)
    return _build(values_of(found, n, used, where), used, box, where)


def parse_row(text: str, n: int, alphabet: Alphabet, *, line: int | None = None) -> list[int]:
    """The ``n`` values (0 for a blank) of one grid row; spaces and ``|`` are ignored.

    Raises:
        PuzzleError: a bad symbol (with its column) or not ``n`` values.
    """
    where = Where(line=line)
    found, _ = symbols(strip_comment(text), alphabet.numbers, row=True)
    if len(found) != n:
        end = found[n][1] if len(found) > n else None
        raise where.error(f"a row has {n} symbols, got {len(found)}", column=end)
    return values_of(found, n, alphabet, where)


def line_entries(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    """The ``line`` format: one puzzle per line; sizes may not mix in one source."""
    size = options.size
    box, plain = options.box, options.alphabet is None
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        values = _plain_values(text) if plain and size in (None, 9) else None
        if values is not None:  # the commonest line, straight to its puzzle (as parse_line)
            try:
                puzzle = _plain(values, box, source, number)
            except PuzzleError as error:
                yield Entry(source, number, text, error=error.located(source, number))
                continue
            size = 9
            yield Entry(source, number, text, puzzle)
            continue
        if skipped(text):
            continue
        try:
            if (undecodable := undecoded(text, source, number)) is not None:
                raise undecodable
            puzzle = parse_line(
                text,
                box=options.box,
                alphabet=options.alphabet,
                source=source,
                line=number,
                size=size,
            )
            size = puzzle.rows
            yield Entry(source, number, text, puzzle=puzzle)
        except PuzzleError as error:
            yield Entry(source, number, text, error=error.located(source, number))


@dataclass
class _GridRows:
    """Rows of one grid being read: (line number, text)."""

    rows: list[tuple[int, str]]
    width: int

    def entry(self, source: str, options: ReadOptions, size: int | None) -> Entry:
        first = self.rows[0][0]
        text = "\n".join(t for _, t in self.rows)
        where = Where(source, first)
        try:
            n = self.width
            if size is not None and n != size:
                raise where.error(
                    f"a {n}x{n} grid in a file of {size}x{size} puzzles: one file holds one size"
                )
            values, alphabet = grid_values(self.rows, options.alphabet, source)
            return Entry(source, first, text, puzzle=_build(values, alphabet, options.box, where))
        except PuzzleError as error:
            return Entry(source, first, text, error=error.located(source, first))


def grid_entries(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    """The ``grid`` format: ``n`` rows of ``n`` symbols per puzzle, blank lines between.

    A row with the wrong number of symbols is reported with its line and the
    rest of that grid (up to the next blank line) is skipped.
    """
    grid: _GridRows | None = None
    skipping = False
    size: int | None = None
    numbers = options.alphabet.numbers if options.alphabet else None
    for number, raw in enumerate(lines, start=1):
        text = strip_comment(raw)
        if not raw.strip():
            if grid is not None:
                yield _short_grid(grid, source)
                grid = None
            skipping = False
            continue
        if skipping or not text.strip() or SEPARATOR.match(text):
            continue
        found, _ = symbols(text, numbers, row=True)
        if grid is None:
            grid = _GridRows([], len(found))
        if len(found) != grid.width:
            column = found[grid.width][1] if len(found) > grid.width else None
            error = PuzzleError(
                f"row {len(grid.rows) + 1} of the grid at line {grid.rows[0][0]} "
                f"has {len(found)} symbols, expected {grid.width}",
                source=source,
                line=number,
                column=column,
            )
            yield Entry(source, number, text, error=error)
            grid, skipping = None, True
            continue
        grid.rows.append((number, text))
        if len(grid.rows) == grid.width:
            entry = grid.entry(source, options, size)
            if entry.puzzle is not None:
                size = entry.puzzle.rows
            yield entry
            grid = None
    if grid is not None:
        yield _short_grid(grid, source)


def _short_grid(grid: _GridRows, source: str) -> Entry:
    last = grid.rows[-1][0]
    error = PuzzleError(
        f"the grid at line {grid.rows[0][0]} ends after {len(grid.rows)} rows, "
        f"expected {grid.width} rows of {grid.width} symbols",
        source=source,
        line=last + 1,
    )
    return Entry(source, grid.rows[0][0], "\n".join(t for _, t in grid.rows), error=error)


def csv_entries(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    """The ``csv`` format: a header naming the puzzle (and solution) column, then rows.

    ``#`` comment lines are skipped.  A record's line is the last physical
    line it spans (the same line for records without quoted newlines).  The
    separator is ``;`` when the header names its columns with ``;``
    (:func:`csv_delimiter`), else ``,``.  A quoted field that never closes
    (it runs to the end of the input, or past the csv module's field limit)
    is an error at the line and column of its opening quote, naming the lines
    it would have taken; the lines after that one are read again as records.

    Raises:
        PuzzleError: the header names no puzzle column.
    """
    kept = ((n, raw) for n, raw in enumerate(lines, start=1) if not raw.startswith("#"))
    first = next(kept, None)
    if first is None:
        return
    delimiter = csv_delimiter(first[1]) or ","
    columns: _CsvColumns | None = None
    size = options.size
    for row, taken in _csv_records(chain([first], kept), delimiter):
        number, raw = taken[-1]
        if not isinstance(row, list):  # one bad record: reported, the rest still read
            if isinstance(row, _Unclosed):
                number, raw = taken[0]
                error = Where(source, number).error(row.message(taken), column=row.column)
            else:
                error = Where(source, number).error(f"not CSV this reader takes: {row}")
            if columns is None:
                raise error
            yield Entry(source, number, shown(raw.rstrip("\r\n")), error=error)
            continue
        if not any(field.strip() for field in row):
            continue
        undecodable = undecoded(raw, source, number)
        if undecodable is not None:  # that record only, unless it is the header
            if columns is None:
                raise undecodable
            yield Entry(source, number, shown(raw.rstrip("\r\n")), error=undecodable)
            continue
        if columns is None:
            columns = _CsvColumns.of(row, Where(source, number))
            continue
        entry = columns.entry(row, raw.rstrip("\r\n"), Where(source, number), options, size)
        if entry.puzzle is not None:
            size = entry.puzzle.rows
        yield entry


@dataclass(frozen=True)
class _Unclosed:
    """A record whose quoted field, opened at ``column`` of its first line, never closes:
    the input ended inside it, or the csv module refused it (``refused``)."""

    column: int | None
    refused: csv.Error | None = None

    def message(self, taken: Sequence[tuple[int, str]]) -> str:
        """What went wrong, and how many lines the field would have taken (``taken``; said
        as a count: a slice of a file numbers its lines from the slice's start)."""
        after = len(taken) - 1
        ends = f"{self.refused}" if self.refused else "the input ends inside it"
        if not after:
            return f"not CSV this reader takes: a quoted field never closes ({ends})"
        lines = "line" if after == 1 else "lines"
        return (
            f"not CSV this reader takes: a quoted field never closes ({ends}; it would take "
            f"this line and the {after:,} {lines} after it, which are read as rows)"
        )


def _csv_records(
    lines: Iterator[tuple[int, str]], delimiter: str
) -> Iterator[tuple[list[str] | csv.Error | _Unclosed, list[tuple[int, str]]]]:
    """The records of ``lines`` (numbered physical lines), each with the lines it spans, or
    the error of a record the csv module refuses (a field over
    :data:`~cp_sudoku.io.limits.MAX_FIELD` characters): it reads on after one.

    A quoted field still open at the end of the input, or refused while it spans several
    lines, gives :class:`_Unclosed` over the lines it took; the lines after the first are
    then read again as records (a stray quote swallows no row)."""
    source: Iterator[tuple[int, str]] = lines
    while True:
        read = _Taken(source)
        reader = csv.reader(read, delimiter=delimiter)
        while True:
            read.taken = []
            try:
                row: list[str] | csv.Error = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                row = error
            taken = read.taken
            if not read.ended and not (isinstance(row, csv.Error) and len(taken) > 1):
                yield row, taken
                continue
            refused = row if isinstance(row, csv.Error) else None
            yield _Unclosed(open_quote(taken[0][1], delimiter), refused), taken
            source = chain(taken[1:], source)
            break


class _Taken:
    """The text of numbered lines, for the csv module; ``taken``: the lines handed out
    (the caller empties it at each record), ``ended``: the lines are exhausted."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self.lines = lines
        self.taken: list[tuple[int, str]] = []
        self.ended = False

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        item = next(self.lines, None)
        if item is None:
            self.ended = True
            raise StopIteration
        self.taken.append(item)
        return item[1]


def open_quote(line: str, delimiter: str, inside: bool = False) -> int | None:
    """The 1-based column of the quote that opens a field of ``line`` still open at its end
    (the csv module's rules: a quote opens a field only at its start, ``""`` within
    quotes is one quote), 0 when the field open before the line (``inside``) is still
    open, or None.  Only quotes and delimiters are visited (a regular expression finds
    them), so a line of long quoted fields costs a few steps."""
    if not inside and _CLOSED[delimiter].fullmatch(line):  # the common line, in one step
        return None
    opened: int | None = -1 if inside else None
    at_start = not inside  # the next character starts a field
    after = 0  # where the characters not yet visited begin
    for found in _SPECIAL[delimiter].finditer(line):
        column = found.start()
        if column < after:  # the second quote of a ""
            continue
        if opened is None:
            if column > after:  # ordinary characters first: the field has begun
                at_start = False
            if found.group() == '"' and at_start:
                opened = column
            at_start = found.group() == delimiter
        elif found.group() == '"':
            if line.startswith('"', column + 1):
                column += 1
            else:
                opened, at_start = None, False
        after = column + 1
    return None if opened is None else opened + 1


#: delimiter -> the characters :func:`open_quote` visits.
_SPECIAL = {d: re.compile(f'["{re.escape(d)}]') for d in (",", ";")}
_FIELD = '"[^"]*(?:""[^"]*)*"|[^"%s\r\n]*'
#: delimiter -> a line of whole fields, each quoted (``""`` within) or without a quote.
_CLOSED = {d: re.compile(f"(?:{_FIELD % d})(?:{d}(?:{_FIELD % d}))*\r?\n?") for d in (",", ";")}


@dataclass(frozen=True)
class _CsvColumns:
    """Where the puzzle and the stated solution are in each CSV row."""

    header: tuple[str, ...]
    puzzle: int
    solution: int | None

    @classmethod
    def of(cls, row: list[str], where: Where) -> _CsvColumns:
        header = tuple(field.strip().lower() for field in row)
        puzzle = _column(header, PUZZLE_COLUMNS)
        if puzzle is None:
            raise where.error(
                f"CSV header {','.join(row)!r} has no puzzle column: expected one of "
                f"{', '.join(PUZZLE_COLUMNS)}"
            )
        return cls(header, puzzle, _column(header, SOLUTION_COLUMNS))

    def entry(
        self, row: list[str], text: str, where: Where, options: ReadOptions, size: int | None
    ) -> Entry:
        """The entry of one data row (``size``: n of the rows before); columns within the line.

        The entry's text is the puzzle field as read (the whole record when it has none)."""
        source, line = where.source or "", where.line or 0
        if len(row) <= self.puzzle:
            error = where.error(
                f"expected a {self.header[self.puzzle]!r} field (field {self.puzzle + 1}), "
                f"got {len(row)} fields"
            )
            return Entry(source, line, text, error=error)
        field = row[self.puzzle]
        try:
            puzzle = parse_line(
                field, box=options.box, alphabet=options.alphabet, line=line, size=size
            )
        except PuzzleError as error:
            return Entry(
                source, line, field, error=self._in_line(error, row, text, where, self.puzzle)
            )
        if self.solution is None or len(row) <= self.solution or not row[self.solution].strip():
            return Entry(source, line, field, puzzle=puzzle)
        try:
            solution = _stated_solution(row[self.solution], puzzle)
        except PuzzleError as error:
            return Entry(
                source, line, field, error=self._in_line(error, row, text, where, self.solution)
            )
        return Entry(source, line, field, puzzle=puzzle, solution=solution)

    def _in_line(
        self, error: PuzzleError, row: list[str], text: str, where: Where, field: int
    ) -> PuzzleError:
        """``error`` located in the line: its column shifted past the fields before ``field``."""
        if error.column is None:
            return where.error(error.message)
        if '"' in text:  # a quoted field: columns within the line are not exact
            message = f"{error.message} (symbol {error.column} of field {self.header[field]!r})"
            return where.error(message)
        offset = sum(len(f) + 1 for f in row[:field])
        return where.error(error.message, column=error.column + offset)


def _stated_solution(text: str, puzzle: Puzzle) -> Grid:
    """A full grid written in ``puzzle``'s alphabet (a CSV solution field).

    Raises:
        PuzzleError: not ``n * n`` symbols, a bad symbol, or a blank (the
            message says "solution" and gives the column within the field).
    """
    alphabet = alphabet_of(puzzle)
    found, _ = symbols(text, alphabet.numbers, row=False)
    n = puzzle.max_value
    if len(found) != n * n:
        raise PuzzleError(
            f"the stated solution has {len(found)} symbols, expected {n * n} for the {n}x{n} puzzle"
        )
    try:
        values = values_of(found, n, alphabet, Where())
    except PuzzleError as error:
        raise PuzzleError(f"in the stated solution: {error.message}", column=error.column) from None
    if 0 in values:
        raise PuzzleError(
            "the stated solution has a blank: a solution is a full grid",
            column=found[values.index(0)][1],
        )
    return tuple(values)


def csv_delimiter(header: str) -> str | None:
    """``,`` or ``;`` when ``header`` is a CSV header naming a puzzle column with it, else None."""
    for delimiter in (",", ";"):
        try:
            fields = next(csv.reader([header], delimiter=delimiter), [])
        except csv.Error:  # a field over the csv module's limit: not a header
            return None
        if any(f.strip().lower() in PUZZLE_COLUMNS for f in fields):
            return delimiter
    return None


def _column(header: Sequence[str], names: Sequence[str]) -> int | None:
    return next((header.index(name) for name in names if name in header), None)
