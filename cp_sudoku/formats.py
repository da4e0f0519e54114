"""Reading puzzles in the formats people use, and writing them back as one line.

Every reader yields :class:`Entry` records in source order: the puzzle, or
the :class:`~cp_sudoku.model.PuzzleError` that stopped it (file, line,
column or cell, what was expected and what was found), so one bad puzzle in
a file never stops the others.  A source with no puzzle at all raises.

Formats (``READERS``; detected by :func:`detect_format` unless named):

``line``
    One puzzle per line, ``n * n`` symbols row-major.  Blank lines and ``#``
    comment lines are skipped; each puzzle keeps its line number.
``grid``
    ``n`` rows of ``n`` symbols.  Spaces and ``|`` are ignored and separator
    lines made of ``-`` and ``+`` are skipped, so the pretty grids of
    :mod:`cp_sudoku.display` read back in.  Several grids may follow each
    other, blank lines between them.
``variant``, ``arithmatrix``, ``xcsp3``, ``kuso``
    Killer, KenKen, Kakuro, jigsaw, X-Sudoku and Windoku: the ``kind:``
    text format and the shared KenKen/Kakuro collections, read by
    :mod:`cp_sudoku.variant_formats` (the last three from a file path).
``csv``
    A header row naming a puzzle column (``quizzes``, ``quiz``, ``puzzle``,
    ``puzzles``) and optionally a solution column (``solutions``,
    ``solution``), as in the public Kaggle sets; the stated solution goes to
    :attr:`Entry.solution`.

Symbols (:class:`Alphabet`): for ``n <= 9`` the digits ``1..n``, with ``.``,
``0`` or ``_`` as blanks.  Larger grids are written either with single
symbols (16x16 as ``0-9A-F``, where ``0`` is a value, or as ``1-9A-G``;
25x25 as ``1-9A-P``) or as whitespace-separated numbers ``1..n`` with ``.``
or ``0`` as the blank.  An alphabet is inferred only when it is certain (a
``G`` in a 16x16 means ``1-9A-G``); otherwise the reader refuses and asks
for ``--alphabet``, because a misread ``0`` silently changes the puzzle.

Adding a format (the variant readers are added this way)::

    READERS["kenken-jsonl"] = read_kenken       # (lines, source, options) -> Iterator[Entry]
    SNIFFERS.insert(0, sniff_kenken)            # (head lines, source) -> name | None

A reader takes the raw lines, the source name (the file path for a file,
``<stdin>`` or ``<argument>`` otherwise) and the :class:`ReadOptions`; it
yields one :class:`Entry` per puzzle, errors included, and keeps line
numbers.  A sniffer returns a format name only when it is certain; the first
sniffer that answers wins, and the Sudoku layouts (grid or line) are tried
last.
"""

from __future__ import annotations

import csv
import re
import string
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, islice
from math import isqrt
from pathlib import Path

from cp_sudoku.model import Grid, Puzzle, PuzzleError
from cp_sudoku.puzzles import default_box, sudoku

BLANKS = ".0_"
DIGITS = "123456789"
#: Column names, lower case, that hold puzzles and stated solutions in a CSV header.
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles")
SOLUTION_COLUMNS = ("solutions", "solution")
#: Lines looked at by :func:`detect_format`.
HEAD_LINES = 128
_ALNUM = string.digits + string.ascii_uppercase
_SEPARATOR = re.compile(r"^[\s+\-=]*-[\s+\-=]*$")
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a source: the puzzle, or the error that stopped it.

    ``line`` is 1-based (the first row's line for a grid); ``text`` is the
    puzzle's text as read (rows joined by newlines for a grid);
    ``solution`` is the grid the source states for the puzzle (CSV solution
    column, stored solutions of a collection), when it states one.
    """

    source: str
    line: int
    text: str
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    solution: Grid | None = None

    @property
    def label(self) -> str:
        """``file:line``, the way messages name this puzzle."""
        return f"{self.source}:{self.line}"


# --- Alphabets -----------------------------------------------------------------------------


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

    @cached_property
    def _values(self) -> dict[str, int]:
        """Symbol -> value, lower-case letters included, blanks -> 0."""
        table = {blank: 0 for blank in self.blanks}
        for value, symbol in enumerate(self.symbols, start=1):
            table[symbol] = table[symbol.lower()] = value
        return table

    def value(self, token: str) -> int | None:
        """The value a symbol (or number) stands for: 0 for a blank, None if invalid."""
        if self.numbers:
            if token in self.blanks:
                return 0
            return int(token) if token.isdigit() and int(token) > 0 else None
        return self._values.get(token)

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


def _infer_alphabet(n: int, symbols: Iterable[tuple[str, int]], *, where: _Where) -> Alphabet:
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


# --- Where a problem is --------------------------------------------------------------------


@dataclass(frozen=True)
class _Where:
    source: str | None = None
    line: int | None = None

    def error(self, message: str, column: int | None = None) -> PuzzleError:
        return PuzzleError(message, source=self.source, line=self.line, column=column)


@dataclass(frozen=True)
class ReadOptions:
    """What readers are told: box shape (rows, columns), alphabet, format name.

    None means the default: the squarest box, an inferred alphabet, a
    detected format.
    """

    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
    format: str | None = None


# --- Symbols of one puzzle -----------------------------------------------------------------


def _tokens(text: str) -> list[tuple[str, int]]:
    """Whitespace-separated tokens of ``text`` and their 1-based columns."""
    return [(m[0], m.start() + 1) for m in _TOKEN.finditer(text)]


def _is_number(token: str) -> bool:
    return token.isdigit() or token in (".", "_")


def _numbers_layout(tokens: list[tuple[str, int]], count: int | None) -> bool:
    """Whether ``tokens`` are whitespace-separated numbers rather than grouped symbols.

    True when a token is longer than one character, every token is a number
    or a blank, and every number fits the size: ``count`` values (a grid
    row), or ``isqrt(len)`` when ``count`` is None (a whole puzzle).
    """
    if len(tokens) < 2 or all(len(t) == 1 for t, _ in tokens):
        return False
    if not all(_is_number(t) for t, _ in tokens):
        return False
    size = count if count is not None else isqrt(len(tokens))
    if count is None and size * size != len(tokens):
        return False
    return max((int(t) for t, _ in tokens if t.isdigit()), default=0) <= size


def _symbols(
    text: str, alphabet: Alphabet | None, *, row: bool
) -> tuple[list[tuple[str, int]], bool]:
    """The symbols of ``text`` with their columns, and whether they are numbers.

    ``|`` is ignored in a grid row (``row``); spaces separate numbers and are
    otherwise ignored.
    """
    body = text.replace("|", " ") if row else text
    tokens = _tokens(body)
    numbers = (
        alphabet.numbers if alphabet else _numbers_layout(tokens, None if not row else len(tokens))
    )
    if numbers:
        return tokens, True
    return [(ch, column + i) for token, column in tokens for i, ch in enumerate(token)], False


def _values(
    symbols: list[tuple[str, int]],
    n: int,
    numbers: bool,
    alphabet: Alphabet | None,
    where: _Where,
) -> tuple[list[int], Alphabet]:
    """Values (0 for a blank) of ``symbols`` for an ``n x n`` puzzle, and the alphabet used."""
    chosen = alphabet or (NUMBERS if numbers else _infer_alphabet(n, symbols, where=where))
    if not chosen.numbers and len(chosen.symbols) != n:
        raise where.error(
            f"--alphabet {chosen.name} has {len(chosen.symbols)} symbols, "
            f"but the puzzle is {n}x{n}: expected {n} symbols"
        )
    values = []
    for symbol, column in symbols:
        value = chosen.value(symbol)
        if value is None or value > n:
            raise where.error(
                f"unexpected symbol {symbol!r}: expected {chosen.expected(n)}", column=column
            )
        values.append(value)
    return values, chosen


def _size_of(count: int, symbols: list[tuple[str, int]], where: _Where, size: int | None) -> int:
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
        column = symbols[expected][1]
        found = f"got {count}; symbol {expected + 1} is extra"
    else:
        column = (symbols[-1][1] + len(symbols[-1][0])) if symbols else 1
        found = f"got {count}; the line ends early"
    raise where.error(
        f"expected n*n symbols for an n x n grid ({expected} for {near}x{near}), {found}",
        column=column,
    )


def _build(
    values: list[int], alphabet: Alphabet, box: tuple[int, int] | None, where: _Where
) -> Puzzle:
    name = f"{where.source}:{where.line}" if where.source and where.line else (where.source or "")
    try:
        return sudoku(values, box, name=name, alphabet=alphabet.stored)
    except PuzzleError as error:
        raise error.located(where.source, where.line) from None


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
        source, line: where the text comes from, for messages.
        size: the n every puzzle of this source has (from an earlier line).

    Raises:
        PuzzleError: an empty line; a length that is not a square, or not
            ``size * size`` (expected and actual count, and the column where
            the line goes wrong); a bad symbol (with its column); ambiguous
            symbols (naming ``--alphabet``); a box that does not fit; givens
            that clash (naming the value, both cells and the unit).
    """
    where = _Where(source, line)
    chosen = parse_alphabet(alphabet) if isinstance(alphabet, str) else alphabet
    if not text.strip():
        raise where.error("empty puzzle: expected n*n symbols")
    symbols, numbers = _symbols(text, chosen, row=False)
    n = _size_of(len(symbols), symbols, where, size)
    values, used = _values(symbols, n, numbers, chosen, where)
    return _build(values, used, box, where)


def parse_row(text: str, n: int, alphabet: Alphabet, *, line: int | None = None) -> list[int]:
    """The ``n`` values (0 for a blank) of one grid row; spaces and ``|`` are ignored.

    Raises:
        PuzzleError: a bad symbol (with its column) or not ``n`` values.
    """
    where = _Where(line=line)
    symbols, numbers = _symbols(text, alphabet, row=True)
    if len(symbols) != n:
        end = symbols[n][1] if len(symbols) > n else None
        raise where.error(f"a row has {n} symbols, got {len(symbols)}", column=end)
    values, _ = _values(symbols, n, numbers, alphabet, where)
    return values


def _skipped(text: str) -> bool:
    return not text.strip() or text.lstrip().startswith("#")


# --- Readers -------------------------------------------------------------------------------


Reader = Callable[[Iterable[str], str, ReadOptions], Iterator[Entry]]
Sniffer = Callable[[Sequence[str], str], "str | None"]


def line_entries(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    """The ``line`` format: one puzzle per line; sizes may not mix in one source."""
    size: int | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if _skipped(text):
            continue
        try:
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
            yield Entry(source, number, text, error=error)


@dataclass
class _GridRows:
    """Rows of one grid being read: (line number, text, symbols)."""

    rows: list[tuple[int, str, list[tuple[str, int]]]]
    width: int

    def entry(self, source: str, options: ReadOptions, size: int | None) -> Entry:
        first = self.rows[0][0]
        text = "\n".join(t for _, t, _ in self.rows)
        where = _Where(source, first)
        try:
            n = self.width
            if size is not None and n != size:
                raise where.error(
                    f"a {n}x{n} grid in a file of {size}x{size} puzzles: one file holds one size"
                )
            numbers = (
                options.alphabet.numbers
                if options.alphabet
                else any(_numbers_layout(_tokens(t.replace("|", " ")), n) for _, t, _ in self.rows)
            )
            symbols = [
                s
                for number, t, found in self.rows
                for s in (_symbols(t, NUMBERS, row=True)[0] if numbers else found)
            ]
            alphabet = options.alphabet or (
                NUMBERS if numbers else _infer_alphabet(n, symbols, where=where)
            )
            values: list[int] = []
            for number, t, _ in self.rows:
                values += parse_row(t, n, alphabet, line=number)
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
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if not text.strip():
            if grid is not None:
                yield _short_grid(grid, source)
                grid = None
            skipping = False
            continue
        if skipping or text.lstrip().startswith("#") or _SEPARATOR.match(text):
            continue
        symbols, _ = _symbols(text, options.alphabet, row=True)
        if grid is None:
            grid = _GridRows([], len(symbols))
        if len(symbols) != grid.width:
            column = symbols[grid.width][1] if len(symbols) > grid.width else None
            error = PuzzleError(
                f"row {len(grid.rows) + 1} of the grid at line {grid.rows[0][0]} "
                f"has {len(symbols)} symbols, expected {grid.width}",
                source=source,
                line=number,
                column=column,
            )
            yield Entry(source, number, text, error=error)
            grid, skipping = None, True
            continue
        grid.rows.append((number, text, symbols))
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
    return Entry(source, grid.rows[0][0], "\n".join(t for _, t, _ in grid.rows), error=error)


def csv_entries(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    """The ``csv`` format: a header naming the puzzle (and solution) column, then rows.

    ``#`` comment lines are skipped.  A record's line is the last physical
    line it spans (the same line for records without quoted newlines).

    Raises:
        PuzzleError: the header names no puzzle column.
    """
    last: list[tuple[int, str]] = [(0, "")]

    def physical() -> Iterator[str]:
        for number, raw in enumerate(lines, start=1):
            if not raw.startswith("#"):
                last[0] = (number, raw)
                yield raw

    columns: _CsvColumns | None = None
    size: int | None = None
    for row in csv.reader(physical()):
        number, raw = last[0]
        if not any(field.strip() for field in row):
            continue
        if columns is None:
            columns = _CsvColumns.of(row, _Where(source, number))
            continue
        entry = columns.entry(row, raw.rstrip("\r\n"), _Where(source, number), options, size)
        if entry.puzzle is not None:
            size = entry.puzzle.rows
        yield entry


@dataclass(frozen=True)
class _CsvColumns:
    """Where the puzzle and the stated solution are in each CSV row."""

    header: tuple[str, ...]
    puzzle: int
    solution: int | None

    @classmethod
    def of(cls, row: list[str], where: _Where) -> _CsvColumns:
        header = tuple(field.strip().lower() for field in row)
        puzzle = _column(header, PUZZLE_COLUMNS)
        if puzzle is None:
            raise where.error(
                f"CSV header {','.join(row)!r} has no puzzle column: expected one of "
                f"{', '.join(PUZZLE_COLUMNS)}"
            )
        return cls(header, puzzle, _column(header, SOLUTION_COLUMNS))

    def entry(
        self, row: list[str], text: str, where: _Where, options: ReadOptions, size: int | None
    ) -> Entry:
        """The entry of one data row (``size``: n of the rows before); columns within the line."""
        source, line = where.source or "", where.line or 0
        if len(row) <= self.puzzle:
            error = where.error(
                f"expected a {self.header[self.puzzle]!r} field (field {self.puzzle + 1}), "
                f"got {len(row)} fields"
            )
            return Entry(source, line, text, error=error)
        try:
            puzzle = parse_line(
                row[self.puzzle], box=options.box, alphabet=options.alphabet, line=line, size=size
            )
        except PuzzleError as error:
            return Entry(
                source, line, text, error=self._in_line(error, row, text, where, self.puzzle)
            )
        if self.solution is None or len(row) <= self.solution or not row[self.solution].strip():
            return Entry(source, line, text, puzzle=puzzle)
        try:
            solution = _stated_solution(row[self.solution], puzzle)
        except PuzzleError as error:
            return Entry(
                source, line, text, error=self._in_line(error, row, text, where, self.solution)
            )
        return Entry(source, line, text, puzzle=puzzle, solution=solution)

    def _in_line(
        self, error: PuzzleError, row: list[str], text: str, where: _Where, field: int
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
    symbols, _ = _symbols(text, alphabet, row=False)
    n = puzzle.max_value
    if len(symbols) != n * n:
        raise PuzzleError(
            f"the stated solution has {len(symbols)} symbols, expected {n * n} for the "
            f"{n}x{n} puzzle"
        )
    try:
        values, _ = _values(symbols, n, alphabet.numbers, alphabet, _Where())
    except PuzzleError as error:
        raise PuzzleError(f"in the stated solution: {error.message}", column=error.column) from None
    if 0 in values:
        raise PuzzleError(
            "the stated solution has a blank: a solution is a full grid",
            column=symbols[values.index(0)][1],
        )
    return tuple(values)


def _column(header: Sequence[str], names: Sequence[str]) -> int | None:
    return next((header.index(name) for name in names if name in header), None)


def _variant_text(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
    from cp_sudoku.variant_formats import read_variant_lines  # it imports this module

    return read_variant_lines(lines, source)


def _variant_collection(name: str) -> Reader:
    """A reader for a shared variant collection, which is read from its file path."""

    def read(lines: Iterable[str], source: str, options: ReadOptions) -> Iterator[Entry]:
        from cp_sudoku.variant_formats import read_path  # it imports this module

        if not Path(source).is_file():
            raise PuzzleError(f"the {name} format is read from a file, not from {source}")
        return read_path(source, name)

    return read


READERS: dict[str, Reader] = {
    "line": line_entries,
    "grid": grid_entries,
    "csv": csv_entries,
    "variant": _variant_text,
    "arithmatrix": _variant_collection("arithmatrix"),
    "xcsp3": _variant_collection("xcsp3"),
    "kuso": _variant_collection("kuso"),
}


def _sniff_variant(head: Sequence[str], source: str) -> str | None:
    """The variant formats of :mod:`cp_sudoku.variant_formats`: a ``kind:`` line first,
    or (for a file) a shared KenKen/Kakuro collection."""
    first = next((line for line in head if not _skipped(line)), "")
    if first.split(":", 1)[0].strip().lower() == "kind" and ":" in first:
        return "variant"
    if Path(source).is_file():
        from cp_sudoku.variant_formats import sniff  # it imports this module

        return sniff(source)
    return None


def _sniff_csv(head: Sequence[str], source: str) -> str | None:
    first = next((line for line in head if not _skipped(line)), None)
    if first is None:
        return None
    try:
        fields = next(csv.reader([first]), [])
    except csv.Error:  # a field over the csv module's limit: not a header
        return None
    return "csv" if any(f.strip().lower() in PUZZLE_COLUMNS for f in fields) else None


#: Format sniffers, tried in order; each returns a format name only when certain.
SNIFFERS: list[Sniffer] = [_sniff_variant, _sniff_csv]


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
    for text in (line.rstrip("\r\n") for line in head):
        if not text.strip():
            if block:
                ended = True
                break
            continue
        if not text.lstrip().startswith("#"):
            block.append(text)
    if any("|" in t or _SEPARATOR.match(t) for t in block):
        return "grid"
    if not block:
        return "line"
    width = len(_symbols(block[0], None, row=True)[0])
    rows = 0
    for text in block:
        if len(_symbols(text, None, row=True)[0]) != width:
            break
        rows += 1
    if width < 2 or rows < width:
        return "line"
    grid_ok = width <= 36 or _numbers_layout(_tokens(block[0]), width)
    line_ok = _line_puzzle(block[0])
    if grid_ok and not line_ok:
        return "grid"
    if grid_ok and len(block) == width and ended:
        raise PuzzleError(
            f"ambiguous layout: {width} lines of {width} symbols read as one {width}x{width} "
            f"grid or as {width} puzzles of one line each; name one with --format grid "
            "or --format line",
            source=source,
        )
    return "line"


def _line_puzzle(text: str) -> bool:
    """Whether ``text`` alone could be a line puzzle (a square count that fits the symbols)."""
    symbols, numbers = _symbols(text, None, row=False)
    n = isqrt(len(symbols))
    if n * n != len(symbols):
        return False
    try:
        if n > 1:
            default_box(n)
        _values(symbols, n, numbers, None, _Where())
    except PuzzleError:
        return False
    return True


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
        PuzzleError: no puzzle at all (empty, or only comments); an unknown
            format name; a layout or header that no format can read.
    """
    chosen = parse_alphabet(alphabet) if isinstance(alphabet, str) else alphabet
    options = ReadOptions(box=box, alphabet=chosen, format=format)
    it = iter(lines)
    head = list(islice(it, HEAD_LINES))
    name = format or detect_format(head, source)
    if name not in READERS:
        raise PuzzleError(f"unknown format {name!r}; choose one of {', '.join(READERS)}")
    count = 0
    for entry in READERS[name](chain(head, it), source, options):
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
    with open(path, encoding="utf-8-sig", newline="") as handle:
        yield from read_lines(handle, str(path), box=box, alphabet=alphabet, format=format)


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
    with open(path, encoding="utf-8-sig") as handle:
        count = sum(1 for line in handle if not _skipped(line))
    return count - 1 if format == "csv" else count


# --- Writing -------------------------------------------------------------------------------


def alphabet_of(puzzle: Puzzle) -> Alphabet:
    """The alphabet a puzzle is written in: its own, digits for n <= 9, else numbers."""
    if puzzle.alphabet:
        return Alphabet(puzzle.alphabet)
    return Alphabet(DIGITS[: puzzle.max_value]) if puzzle.max_value <= 9 else NUMBERS


def grid_string(grid: Sequence[int], alphabet: str | None = None) -> str:
    """A grid as one line, ``0`` for a blank written ``.``.

    With ``alphabet`` (``Puzzle.alphabet``) its symbols; otherwise digits
    for values up to 9, else whitespace-separated numbers.
    """
    if alphabet:
        chosen = Alphabet(alphabet)
    else:
        chosen = Alphabet(DIGITS) if max(grid, default=0) <= 9 else NUMBERS
    return (" " if chosen.numbers else "").join(chosen.symbol(v) for v in grid)


def puzzle_string(puzzle: Puzzle) -> str:
    """The givens of a puzzle as one line in its alphabet, ``.`` for blanks.

    Reading the line back (with the puzzle's box and alphabet) gives the same puzzle.
    """
    index = puzzle.index
    grid = [0] * len(puzzle.cells)
    for cell, value in puzzle.givens.items():
        grid[index[cell]] = value
    alphabet = alphabet_of(puzzle)
    return (" " if alphabet.numbers else "").join(alphabet.symbol(v) for v in grid)
