r"""Readers for the shared KenKen and Kakuro collections (see ``../shared/data/README.md``).

Each reader yields :class:`cp_sudoku.io.entry.Entry` records with the
solution the collection stores, when it stores one; a bad puzzle becomes an
Entry holding a :class:`~cp_sudoku.model.PuzzleError` that names the file,
the line and what was expected, and the other puzzles are still read.

- :func:`read_arithmatrix`: KenKen, heydenberk/arithmatrix JSON lines.
- :func:`read_xcsp3`: Kakuro, the xcsp3 JSON of xcsp3team/PyCSP3-models.
- :func:`read_kuso`: Kakuro, the CSV of FranciscoDA/kakuro-kuso, with the
  solution file beside it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, cast

from cp_sudoku.io.entry import Entry
from cp_sudoku.io.limits import load_json
from cp_sudoku.kinds.kakuro import Clue, Square, kakuro
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.model import Grid, Puzzle, PuzzleError, cell_name
from cp_sudoku.numbers import MAX_DIGITS, MAX_SIZE, in_range, shown


def read_arithmatrix(path: str | Path) -> Iterator[Entry]:
    """KenKen puzzles from heydenberk/arithmatrix JSON lines, with stored solutions.

    Each line: ``{"puzzle": {"size": n, "cages": [{"cells": [row-major index],
    "operation": "+" | "-" | "*" | "/" | "", "value": int}], "solution": [[...]]}}``;
    an empty operation is a one-cell cage that gives its value.

    Raises:
        OSError: the file cannot be read.
    """
    source = str(path)
    with open(path, encoding="utf-8-sig") as handle:
        for number, raw in enumerate(handle, start=1):
            text = raw.rstrip("\r\n")
            if not text.strip():
                continue
            yield entry_of(
                source, number, text, partial(_arithmatrix_line, text, f"{source}:{number}")
            )


def _arithmatrix_line(text: str, name: str) -> tuple[Puzzle, Grid | None]:
    record = load_json(text)
    if not isinstance(record, dict):
        raise PuzzleError("expected a JSON object with 'puzzle'")
    puzzle = field_of(record, "puzzle", dict, "the record")
    n = field_of(puzzle, "size", int, "puzzle")
    cages = []
    for k, cage in enumerate(field_of(puzzle, "cages", list, "puzzle"), start=1):
        where = f"cage {k}"
        if not isinstance(cage, dict):
            raise PuzzleError(f"{where}: expected an object")
        indices = field_of(cage, "cells", list, where)
        op = field_of(cage, "operation", str, where) or "="
        value = field_of(cage, "value", int, where)
        for i in indices:
            if not isinstance(i, int) or not 0 <= i < n * n:
                raise PuzzleError(f"{where}: cell index {i!r} is not in 0..{n * n - 1}")
        if op not in ("+", "-", "*", "/", "="):
            raise PuzzleError(f"{where}: operation {op!r} is not one of + - * / or empty")
        cages.append((value, op, [(i // n, i % n) for i in indices]))
    solution = None
    if "solution" in puzzle:
        rows = field_of(puzzle, "solution", list, "puzzle")
        if len(rows) != n or any(
            not isinstance(row, list) or len(row) != n or not all(type(v) is int for v in row)
            for row in rows
        ):
            raise PuzzleError(f"solution: expected {n} rows of {n} integers")
        solution = tuple(v for row in rows for v in row)
    return kenken(n, cages, name=name), solution


def field_of(record: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """``record[key]``, checked to be a ``kind`` (an int is never a bool, and has at most
    18 digits: :func:`cp_sudoku.numbers.in_range`).

    Raises:
        PuzzleError: the key is missing or holds another type, located by ``where``.
    """
    if key not in record:
        raise PuzzleError(f"{where}: missing {key!r}")
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PuzzleError(f"{where}: {key!r} must be {kind.__name__}, got {shown(repr(value))}")
    if kind is int and not in_range(cast(int, value)):
        raise PuzzleError(f"{where}: {key!r} has more than {MAX_DIGITS} digits")
    return value


def read_xcsp3(path: str | Path) -> Iterator[Entry]:
    """A Kakuro in the xcsp3 JSON of PyCSP3-models (recreational/Kakuro).

    ``{"nRows": r, "nCols": c, "clues": [[{"x": across, "y": down}]]}``:
    ``-1`` is no clue in that direction, ``{"x": 0, "y": 0}`` a white cell.
    The file states no solution.

    Raises:
        OSError: the file cannot be read.
    """
    source = str(path)
    text = Path(path).read_text(encoding="utf-8-sig")
    yield entry_of(source, 1, text.split("\n", 1)[0], lambda: (_xcsp3(text, source), None))


def _xcsp3(text: str, name: str) -> Puzzle:
    record = load_json(text)
    if not isinstance(record, dict):
        raise PuzzleError("expected a JSON object with nRows, nCols and clues")
    rows = field_of(record, "nRows", int, "the record")
    cols = field_of(record, "nCols", int, "the record")
    if not (0 < rows <= MAX_SIZE and 0 < cols <= MAX_SIZE):
        raise PuzzleError(f"nRows and nCols: 1..{MAX_SIZE}, got {rows} and {cols}")
    clues = field_of(record, "clues", list, "the record")
    if len(clues) != rows or any(not isinstance(row, list) or len(row) != cols for row in clues):
        raise PuzzleError(f"clues: expected {rows} rows of {cols} squares")
    layout: list[list[Square]] = []
    for r, row in enumerate(clues):
        squares: list[Square] = []
        for c, square in enumerate(row):
            where = f"clues at {cell_name((r, c))}"
            if not isinstance(square, dict):
                raise PuzzleError(f"{where}: expected an object with x and y")
            across, down = field_of(square, "x", int, where), field_of(square, "y", int, where)
            if across == 0 and down == 0:
                squares.append(None)
            elif across == 0 or down == 0 or across < -1 or down < -1:
                raise PuzzleError(
                    f"{where}: expected -1 (no clue) or a positive sum on each side, or both 0 "
                    f"(white), got x={across}, y={down}"
                )
            else:
                squares.append(Clue(down if down > 0 else None, across if across > 0 else None))
        layout.append(squares)
    return kakuro(layout, name=name)


def read_kuso(path: str | Path) -> Iterator[Entry]:
    """A Kakuro in the CSV of FranciscoDA/kakuro-kuso, with its stored solution.

    Each CSV row is a row of squares: ``down\\across`` a clue (either side may
    be empty), ``\\`` alone a black square, an empty field a white cell.  The
    solution, when ``NAME.solution.txt`` exists beside ``NAME.csv``, is read
    from that file: tab-separated rows with a digit in every white cell and
    the CSV's text in every other square, then the line ``Success.``.

    Raises:
        OSError: a file cannot be read.
    """
    source = str(path)
    with open(path, encoding="utf-8-sig", newline="") as handle:
        try:
            rows = list(csv.reader(handle))
        except csv.Error as error:  # a field over MAX_FIELD characters, a NUL
            failure = PuzzleError(f"not CSV this reader takes: {error}", source=source)
            yield Entry(source, 1, "", error=failure)
            return
    first = ",".join(rows[0]) if rows else ""
    solution_path = Path(path).with_suffix("").with_suffix(".solution.txt")
    yield entry_of(source, 1, first, lambda: _kuso(rows, source, solution_path))


def _kuso(rows: list[list[str]], source: str, solution_path: Path) -> tuple[Puzzle, Grid | None]:
    if not rows:
        raise PuzzleError("empty file: expected rows of Kakuro squares")
    if len(rows) > MAX_SIZE or max(map(len, rows)) > MAX_SIZE:  # refused before it is built
        raise PuzzleError(f"a Kakuro has at most {MAX_SIZE} rows of {MAX_SIZE} squares")
    layout: list[list[Square]] = []
    for r, row in enumerate(rows):
        squares: list[Square] = []
        column = 1  # of the field's first character, counted as it was written
        for text in row:
            try:
                squares.append(None if text == "" else Clue.parse(text))
            except PuzzleError:
                raise PuzzleError(
                    f"unexpected {shown(text)}: expected empty (white), \\ (black) "
                    "or D\\A (a clue)",
                    source=source,
                    line=r + 1,
                    column=column,
                ) from None
            column += len(text) + 1
        layout.append(squares)
    if any(len(row) != len(rows[0]) for row in rows):
        r = next(i for i, row in enumerate(rows) if len(row) != len(rows[0]))
        raise PuzzleError(
            f"row has {len(rows[r])} fields, expected {len(rows[0])}", source=source, line=r + 1
        )
    puzzle = kakuro(layout, name=source)
    if not solution_path.is_file():
        return puzzle, None
    return puzzle, _kuso_solution(rows, solution_path)


def _kuso_solution(rows: list[list[str]], path: Path) -> Grid:
    source = str(path)
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    if len(lines) != len(rows) + 1 or lines[-1].strip() != "Success.":
        raise PuzzleError(
            f"expected {len(rows)} rows then 'Success.', got {len(lines)} lines", source=source
        )
    values = []
    for r, (line, row) in enumerate(zip(lines, rows, strict=False)):
        fields = line.split("\t")
        if len(fields) != len(row):
            raise PuzzleError(
                f"{len(fields)} fields, expected {len(row)} as in the puzzle",
                source=source,
                line=r + 1,
            )
        for c, (found, square) in enumerate(zip(fields, row, strict=True)):
            if square == "":
                if not (len(found) == 1 and found in "123456789"):
                    raise PuzzleError(
                        f"{cell_name((r, c))}: expected a digit 1-9, got {found!r}",
                        source=source,
                        line=r + 1,
                    )
                values.append(int(found))
            elif found != square:
                raise PuzzleError(
                    f"{cell_name((r, c))}: expected {square!r} as in the puzzle, got {found!r}",
                    source=source,
                    line=r + 1,
                )
    return tuple(values)


def entry_of(
    source: str, line: int, text: str, build: Callable[[], tuple[Puzzle, Grid | None]]
) -> Entry:
    """An Entry from ``build()``, or one holding its error located at ``source:line``."""
    try:
        puzzle, solution = build()
    except PuzzleError as error:
        return Entry(source, line, text, error=error.located(source, line))
    return Entry(source, line, text, puzzle=puzzle, solution=solution)
