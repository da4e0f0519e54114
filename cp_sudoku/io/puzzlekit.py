"""The puzzlekit collections (SmilingWayne/puzzlekit-dataset, puzzles from janko.at).

One JSON object per file, ``{"name": TYPE, "data": {ID: {"problem": TEXT,
"solution": TEXT, ...}}}``; ``problem`` and ``solution`` are lines of
whitespace-separated tokens under a header ``R C ...``.  Types, as the
data's README states them exactly:

================  ============================================================
``Skyscraper``    header ``N N K`` or ``N N K D``; top, bottom, left, right
                  clue lines (``-`` none); N lines of givens (``-`` blank).
                  K < N leaves N - K empty cells (0) per row and column;
                  ``D``: both diagonals hold 1..K once
``KenKen``        N lines of clues (``.`` or ``-`` blank, ``12+``, ``3-``,
                  ``2/``, ``24*`` or ``24x``, ``12`` alone: a one-cell value or
                  a hidden operator), N lines of cage ids
``KillerSudoku``  N lines of sums (``-`` none), N lines of cage ids; boxes
                  2x2, 2x3 (N = 6) or 3x3
``JigsawSudoku``  N lines of givens (``-`` blank), N lines of region ids
``Kakuro``        R lines of C squares: ``-`` black, ``0`` white, ``D,A`` a clue
================  ============================================================

Each entry becomes an :class:`Entry` with the stated solution; its line is
the line of its id in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from cp_sudoku.io.entry import Entry
from cp_sudoku.io.limits import MAX_SIZE, load_json
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.kakuro import Clue, Square, kakuro
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.skyscrapers import SIDES, skyscrapers
from cp_sudoku.model import Cell, Grid, Puzzle, PuzzleError
from cp_sudoku.numbers import (
    MAX_DIGITS,
    MAX_TARGET_DIGITS,
    is_number,
    read_number,
    shown,
)

_CLUE = re.compile(r"^([0-9]+)([-+*x/])?$")  # ASCII digits only
_OPS = {"+": "+", "-": "-", "*": "*", "x": "*", "/": "/"}

Rows = list[list[str]]


def sniff_puzzlekit(head: str) -> bool:
    """Whether the start of a JSON file looks like a puzzlekit collection."""
    return all(f'"{key}"' in head for key in ("count_sol", "name", "data"))


def read_puzzlekit(path: str | Path) -> Iterator[Entry]:
    """Every entry of a puzzlekit collection file, with its stated solution.

    Raises:
        PuzzleError: not JSON, or not an object with ``name`` (a known type)
            and ``data``.
        OSError: the file cannot be read.
    """
    source = str(path)
    text = Path(path).read_text(encoding="utf-8-sig")
    record = load_json(text, source)
    kind = record.get("name") if isinstance(record, dict) else None
    if kind not in READERS or not isinstance(record.get("data"), dict):
        raise PuzzleError(
            f"expected a puzzlekit object with 'data' and 'name' one of {', '.join(READERS)}",
            source=source,
        )
    lines = {m.group(1): text.count("\n", 0, m.start()) + 1 for m in _ID.finditer(text)}
    for key, item in record["data"].items():
        line = lines.get(key, 1)
        try:
            if not isinstance(item, dict) or not isinstance(item.get("problem"), str):
                raise PuzzleError("expected an object with a 'problem' text")
            puzzle = READERS[kind](_rows(item["problem"]), f"{source}:{key}")
            stated = item.get("solution")
            solution = _solution(puzzle, _rows(stated)) if isinstance(stated, str) else None
        except PuzzleError as error:
            message = f"entry {key}: {error.message}"
            yield Entry(source, line, key, error=PuzzleError(message, source=source, line=line))
            continue
        yield Entry(source, line, key, puzzle=puzzle, solution=solution)


_ID = re.compile(r'^\s*"([^"]+)":\s*\{', re.MULTILINE)


def _rows(text: str) -> Rows:
    return [line.split() for line in text.split("\n")]


def _header(rows: Rows, at_least: int) -> tuple[int, int, list[str]]:
    head = rows[0] if rows else []
    if len(head) < 2 or not _is_size(head[0]) or not _is_size(head[1]):
        raise PuzzleError(
            f"expected a header 'R C ...' with R and C 1..{MAX_SIZE}, got {shown(' '.join(head))}"
        )
    r, c = int(head[0]), int(head[1])
    if len(rows) < at_least * r + 1:
        raise PuzzleError(f"expected {at_least * r} lines after the header, got {len(rows) - 1}")
    for k, row in enumerate(rows[1 : at_least * r + 1], start=2):
        if len(row) != c:
            raise PuzzleError(f"problem line {k}: expected {c} tokens, got {len(row)}")
    return r, c, head[2:]


def _is_size(token: str) -> bool:
    return is_number(token) and len(token) <= 3 and 1 <= int(token) <= MAX_SIZE


def _number(token: str, blank: str = "-") -> int:
    if token == blank or token == ".":
        return 0
    if not is_number(token):
        raise PuzzleError(f"expected a number or {blank}, got {shown(token)}")
    return read_number(token)


def _groups(rows: Rows) -> dict[str, list[Cell]]:
    """Label -> its cells (row-major) of a grid of ids."""
    groups: dict[str, list[Cell]] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            groups.setdefault(label, []).append((r, c))
    return groups


def _skyscraper(rows: Rows, name: str) -> Puzzle:
    n, _, rest = _header(rows, 0)
    if len(rows) < n + 5 or not rest or not _is_size(rest[0]):
        raise PuzzleError("expected 'N N K [D]', 4 clue lines and N lines of givens")
    clues = {side: [_number(t) or None for t in rows[1 + k]] for k, side in enumerate(SIDES)}
    givens = [_number(t) for row in rows[5 : 5 + n] for t in row]
    extras = ("diagonals",) if rest[1:] == ["D"] else ()
    return skyscrapers(n, clues, givens, heights=int(rest[0]), extras=extras, name=name)


def _kenken(rows: Rows, name: str) -> Puzzle:
    n, _, _ = _header(rows, 2)
    texts, ids = rows[1 : n + 1], rows[n + 1 : 2 * n + 1]
    cages = []
    for label, cells in _groups(ids).items():
        clues = [texts[r][c] for r, c in cells if texts[r][c] not in (".", "-")]
        if len(clues) != 1:
            raise PuzzleError(f"cage {label}: expected one clue, got {len(clues)}")
        match = _CLUE.match(clues[0])
        if not match:
            raise PuzzleError(f"cage {label}: unexpected clue {clues[0]!r}")
        op = _OPS[match.group(2)] if match.group(2) else "=" if len(cells) == 1 else "?"
        target = read_number(match.group(1), "a cage target", MAX_TARGET_DIGITS)
        cages.append((target, op, cells))
    return kenken(n, cages, name=name)


def _killer(rows: Rows, name: str) -> Puzzle:
    n, _, _ = _header(rows, 2)
    sums, ids = rows[1 : n + 1], rows[n + 1 : 2 * n + 1]
    cages = []
    for label, cells in _groups(ids).items():
        found = [_number(sums[r][c]) for r, c in cells if sums[r][c] != "-"]
        if len(found) != 1:
            raise PuzzleError(f"cage {label}: expected one sum, got {len(found)}")
        cages.append((found[0], cells))
    return killer(cages, size=n, name=name)


def _jigsaw(rows: Rows, name: str) -> Puzzle:
    n, _, _ = _header(rows, 2)
    givens = [_number(t) for row in rows[1 : n + 1] for t in row]
    regions = [label for row in rows[n + 1 : 2 * n + 1] for label in row]
    return jigsaw(givens, regions, name=name)


def _kakuro(rows: Rows, name: str) -> Puzzle:
    r, _, _ = _header(rows, 1)
    layout: list[list[Square]] = []
    for row in rows[1 : r + 1]:
        squares: list[Square] = []
        for token in row:
            if token == "0":
                squares.append(None)
            elif token == "-":
                squares.append(Clue())
            else:
                down, comma, across = token.partition(",")
                if not comma or not all(p == "" or is_number(p) for p in (down, across)):
                    raise PuzzleError(
                        f"unexpected Kakuro square {shown(token)}: expected -, 0 or D,A"
                    )
                squares.append(
                    Clue(
                        read_number(down, "a clue") if down else None,
                        read_number(across, "a clue") if across else None,
                    )
                )
        layout.append(squares)
    return kakuro(layout, name=name)


def _solution(puzzle: Puzzle, rows: Rows) -> Grid:
    """The stated solution: the values of the puzzle's cells, read from the rows after the header.

    Only the first ``rows`` lines after the header are read (JigsawSudoku
    ``463_5x5`` repeats its grid).

    Raises:
        PuzzleError: too few lines, or a cell whose token is not a number.
    """
    grid = rows[1 : puzzle.rows + 1]
    if len(grid) != puzzle.rows or any(len(row) != puzzle.cols for row in grid):
        raise PuzzleError(f"the stated solution is not {puzzle.rows} lines of {puzzle.cols} values")
    values = []
    for r, c in puzzle.cells:
        token = grid[r][c]
        if not is_number(token) or len(token) > MAX_DIGITS:
            raise PuzzleError(f"the stated solution has {shown(token)} at r{r + 1}c{c + 1}")
        values.append(int(token))
    return tuple(values)


#: Type name (the file's ``name``) -> the builder of one problem.
READERS: dict[str, Callable[[Rows, str], Puzzle]] = {
    "Skyscraper": _skyscraper,
    "KenKen": _kenken,
    "KillerSudoku": _killer,
    "JigsawSudoku": _jigsaw,
    "Kakuro": _kakuro,
}
