r"""The value grammars of the variant text format: how each key's text reads and writes.

Each grammar (named in a kind's keys, :mod:`cp_sudoku.kinds.base`) has a
reader, from the text after ``key:`` (or the lines of a section) to the value
a kind's builder takes, and a writer back to lines.  Cells are written rXcY
(1-based) or in Norvig's notation (row letter A-I, column digit: ``A1``);
cage operations ``+ - * / = ?``, also ``x``, ``X``, the times sign (U+00D7),
the division sign (U+00F7) and the minus sign (U+2212).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cp_sudoku.constraints import REGISTRY, Constraint
from cp_sudoku.io.alphabet import DIGITS, NUMBERS, Alphabet, Where
from cp_sudoku.io.grammar import grid_rows, grid_values, square_rows, strip_comment, tokens
from cp_sudoku.io.limits import MAX_SIZE
from cp_sudoku.kinds.base import CageText, GridText, RelationText
from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.kinds.kakuro import Clue, Square
from cp_sudoku.model import Cell, PuzzleError, cell_name
from cp_sudoku.numbers import (
    MAX_DIGITS,
    MAX_TARGET_DIGITS,
    is_number,
    read_number,
    shown,
)

#: Written operation symbol -> the model's operation.
OPERATORS = {
    "+": "+",
    "-": "-",
    "\u2212": "-",
    "*": "*",
    "x": "*",
    "X": "*",
    "\u00d7": "*",
    "/": "/",
    "\u00f7": "/",
    "=": "=",
    "?": "?",
}
_OPS = "".join(re.escape(symbol) for symbol in OPERATORS)
_CAGE_HEAD = re.compile(r"^\s*([0-9]+)\s*([" + _OPS + r"])?\s*:?\s*(.*)$", re.DOTALL)
_CELL = re.compile(r"^(?:[rR]([0-9]+)[cC]([0-9]+)|([A-Ia-i])([1-9]))$")  # ASCII digits only
_RELATION = re.compile(r"^\s*(\S+)\s*([<>])\s*(\S+)\s*$")

#: Lines of a section or of a key: (line number, text).
Rows = list[tuple[int, str]]


@dataclass(frozen=True)
class Grammar:
    """How one kind of value reads (``read(rows, where, alphabet)``) and writes.

    ``section``: the value spans the lines after its key (a grid, cages),
    rather than the rest of the key's line.
    """

    read: Callable[[Rows, Where, Alphabet | None], Any]
    write: Callable[[Any], list[str]]
    section: bool = False


def _one(rows: Rows) -> str:
    return " ".join(text.strip() for _, text in rows).strip()


def _number(key: str) -> Callable[[Rows, Where, Alphabet | None], int]:
    """The reader of ``key: N``, a whole number 1 <= N <= :data:`MAX_SIZE` in ASCII digits."""

    def read(rows: Rows, where: Where, _: Alphabet | None) -> int:
        text = _one(rows)
        if not is_number(text) or len(text) > 3 or not 1 <= int(text) <= MAX_SIZE:
            raise where.error(f"expected '{key}: N' with 1 <= N <= {MAX_SIZE}, got {shown(text)}")
        return int(text)

    return read


def _read_box(rows: Rows, where: Where, _: Alphabet | None) -> tuple[int, int]:
    text = _one(rows)
    try:
        return parse_box(text)
    except PuzzleError:
        raise where.error(f"expected 'box: RxC' such as 2x3, got {shown(text)}") from None


def _read_words(rows: Rows, where: Where, _: Alphabet | None) -> tuple[str, ...]:
    return tuple(word.lower() for word in re.split(r"[\s,]+", _one(rows)) if word)


def _read_grid(rows: Rows, where: Where, alphabet: Alphabet | None) -> GridText:
    kept = grid_rows(rows)
    if not kept:
        raise where.error("expected the rows of the grid after 'grid:'")
    values, used = grid_values(kept, alphabet, where.source)
    return GridText(tuple(values), used.stored)


def _write_grid(grid: GridText) -> list[str]:
    n = round(len(grid.values) ** 0.5)
    alphabet = Alphabet(grid.alphabet) if grid.alphabet else Alphabet(DIGITS) if n <= 9 else NUMBERS
    symbols = [alphabet.symbol(v) for v in grid.values]
    if alphabet is NUMBERS:  # whitespace-separated even when every cell is blank ('.')
        return [" ".join(symbols[r * n : (r + 1) * n]) for r in range(n)]
    return _rows_of(symbols, n)


def _rows_of(texts: Sequence[str], n: int) -> list[str]:
    width = max(len(t) for t in texts)
    rows = [texts[r * n : (r + 1) * n] for r in range(n)]
    if width == 1:
        return ["".join(row) for row in rows]
    return [" ".join(t.rjust(width) for t in row) for row in rows]


def _read_labels(rows: Rows, where: Where, _: Alphabet | None) -> list[str]:
    kept = [(number, tokens(text.replace("|", " "))) for number, text in grid_rows(rows)]
    spread = [
        # one word per row: one character per cell
        (number, [(ch, found[0][1] + i) for i, ch in enumerate(found[0][0])])
        if len(found) == 1 and len(kept) > 1
        else (number, found)
        for number, found in kept
    ]
    square_rows(spread, where.source)
    return [label for _, found in spread for label, _ in found]


def _write_labels(labels: Sequence[str]) -> list[str]:
    return _rows_of([str(label) for label in labels], round(len(labels) ** 0.5))


def _read_squares(rows: Rows, where: Where, _: Alphabet | None) -> list[list[Square]]:
    layout: list[list[Square]] = []
    lines = []
    for number, text in rows:
        text = strip_comment(text)
        if not text.strip():
            continue
        found = tokens(text)
        if len(found) > MAX_SIZE or len(layout) == MAX_SIZE:  # refused before it is built
            raise Where(where.source, number).error(
                f"a Kakuro has at most {MAX_SIZE} rows of {MAX_SIZE} squares"
            )
        layout.append([_square(t, Where(where.source, number), c) for t, c in found])
        lines.append(number)
    if not layout:
        raise where.error("expected the rows of squares after 'grid:'")
    first = len(layout[0])
    for number, row in zip(lines, layout, strict=True):
        if len(row) != first:
            raise Where(where.source, number).error(
                f"Kakuro rows must have one length: {len(row)} squares, expected {first}"
            )
    return layout


def _square(token: str, where: Where, column: int) -> Square:
    if token == "_":
        return None
    if token in ("x", "X"):
        return Clue()
    try:
        return Clue.parse(token)
    except PuzzleError:
        raise where.error(
            f"unexpected Kakuro square {shown(token)}: expected _ (white), x (black) "
            "or D\\A (a clue)",
            column=column,
        ) from None


def _write_squares(layout: Sequence[Sequence[Square]]) -> list[str]:
    texts = [["_" if square is None else square.text() for square in row] for row in layout]
    width = max(len(t) for row in texts for t in row)
    return [" ".join(t.ljust(width) for t in row).rstrip() for row in texts]


def _pieces(rows: Rows, where: Where) -> list[tuple[Where, str]]:
    """The ``;``-separated pieces of a section's lines, each with where its line is."""
    return [
        (Where(where.source, number), piece)
        for number, text in rows
        for piece in strip_comment(text).split(";")
        if piece.strip()
    ]


def cell_of(token: str, where: Where) -> Cell:
    """A cell written rXcY or A1 (row letter A-I, column digit), 0-based.

    Raises:
        PuzzleError: neither form.
    """
    match = _CELL.match(token)
    if not match:
        raise where.error(
            f"expected a cell such as r1c2 or A2 (row letter, column digit), got {shown(token)}"
        )
    if match.group(1):
        try:
            return read_number(match.group(1)) - 1, read_number(match.group(2)) - 1
        except PuzzleError as error:
            raise where.error(f"cell {shown(token)}: {error.message}") from None
    return ord(match.group(3).upper()) - ord("A"), int(match.group(4)) - 1


def _read_cages(rows: Rows, where: Where, _: Alphabet | None) -> list[CageText]:
    cages = []
    for here, piece in _pieces(rows, where):
        match = _CAGE_HEAD.match(piece)
        if not match:
            raise here.error(
                f"expected a cage such as '11+ A1 B1' or '3: r1c1,r1c2', got {piece.strip()!r}"
            )
        try:
            target = read_number(match.group(1), "a cage target", MAX_TARGET_DIGITS)
        except PuzzleError as error:
            raise here.error(error.message) from None
        symbol, rest = match.group(2), match.group(3)
        cells = tuple(cell_of(t, here) for t in re.split(r"[\s,]+", rest.strip()) if t)
        if not cells:
            raise here.error(f"cage {piece.strip()!r} lists no cells")
        cages.append(CageText(target, OPERATORS[symbol] if symbol else None, cells, here.line))
    return cages


def _write_cages(cages: Sequence[CageText]) -> list[str]:
    return [
        f"{cage.target}{cage.op or ''} " + " ".join(cell_name(c) for c in cage.cells)
        for cage in cages
    ]


def _read_relations(rows: Rows, where: Where, _: Alphabet | None) -> list[RelationText]:
    found = []
    for here, piece in _pieces(rows, where):
        match = _RELATION.match(piece)
        if not match:
            raise here.error(f"expected a relation such as 'r1c1 < r1c2', got {piece.strip()!r}")
        first, second = cell_of(match.group(1), here), cell_of(match.group(3), here)
        found.append(RelationText(first, match.group(2), second, here.line))
    return found


def _write_relations(relations: Sequence[RelationText]) -> list[str]:
    return [f"{cell_name(r.first)} {r.op} {cell_name(r.second)}" for r in relations]


def _read_clues(rows: Rows, where: Where, alphabet: Alphabet | None) -> list[int | None]:
    clues: list[int | None] = []
    for token, _ in tokens(_one(rows)):
        if token in (".", "-"):
            clues.append(None)
        elif is_number(token) and len(token) <= MAX_DIGITS:
            clues.append(int(token))
        else:
            raise where.error(
                f"unexpected clue {shown(token)}: expected a number of at most {MAX_DIGITS} "
                "digits 0-9, or . (no clue)"
            )
    return clues


def _write_clues(clues: Sequence[int | None]) -> list[str]:
    return [" ".join("." if clue is None else str(clue) for clue in clues)]


#: A constraint as read from a ``constraints:`` section, with its line.
Placed = tuple[int, Constraint]


def _read_constraints(rows: Rows, where: Where, _: Alphabet | None) -> list[Placed]:
    """One constraint per line, ``<type_name> <tokens...>``, read by its type's ``from_text``."""
    found = []
    for number, text in rows:
        words = [token for token, _ in tokens(strip_comment(text))]
        if not words:
            continue
        here = Where(where.source, number)
        kind = REGISTRY.get(words[0].lower())
        if kind is None:
            known = ", ".join(sorted(REGISTRY))
            raise here.error(f"unknown constraint type {words[0]!r}: expected one of {known}")
        spot = f"{where.source}:{number}"
        try:
            found.append((number, kind.from_text(words[1:], spot)))
        except PuzzleError as error:
            message = error.message.removeprefix(f"{spot}: ")
            raise PuzzleError(
                message, source=where.source, line=number, cells=error.cells
            ) from None
    return found


def write_constraints(constraints: Sequence[Constraint]) -> list[str]:
    """Each constraint's own line (:meth:`~cp_sudoku.constraints.Constraint.to_text`).

    Raises:
        PuzzleError: a type with no text form (never dropped silently).
    """
    lines = []
    for constraint in constraints:
        try:
            lines.append(constraint.to_text())
        except NotImplementedError:
            raise PuzzleError(
                f"{constraint.describe()}: a {type(constraint).__name__} has no text form",
                cells=constraint.cells,
            ) from None
    return lines


#: Grammar name -> its reader and writer.
GRAMMARS: dict[str, Grammar] = {
    "size": Grammar(_number("size"), lambda n: [str(n)]),
    "heights": Grammar(_number("heights"), lambda n: [str(n)]),
    "box": Grammar(_read_box, lambda box: [f"{box[0]}x{box[1]}"]),
    "extras": Grammar(_read_words, lambda words: [" ".join(words)]),
    "clues": Grammar(_read_clues, _write_clues),
    "grid": Grammar(_read_grid, _write_grid, section=True),
    "labels": Grammar(_read_labels, _write_labels, section=True),
    "squares": Grammar(_read_squares, _write_squares, section=True),
    "cages": Grammar(_read_cages, _write_cages, section=True),
    "relations": Grammar(_read_relations, _write_relations, section=True),
    "constraints": Grammar(
        _read_constraints, lambda placed: write_constraints([c for _, c in placed]), section=True
    ),
}
