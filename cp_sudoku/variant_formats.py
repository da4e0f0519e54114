r"""Files for the variants: a text format for people, and format detection.

The readers of the shared collections are in :mod:`cp_sudoku.variant_collections`;
:func:`read_path` reads any of these formats.  Every reader yields
:class:`cp_sudoku.formats.Entry` records in file order; a bad puzzle becomes
an Entry holding a :class:`~cp_sudoku.model.PuzzleError` (file, line, column
where known, and what was expected) and the others are still read.

Detection (:func:`sniff`), checked in this order:

===============  ==============================================================
format           detected by
===============  ==============================================================
``variant``      the first line that is neither blank nor a ``#`` comment
                 starts with ``kind:``
``arithmatrix``  ``.jsonl``, and the first line is an object with
                 ``puzzle.cages`` (KenKen; heydenberk/arithmatrix)
``xcsp3``        ``.json`` with ``nRows``, ``nCols`` and ``clues`` (Kakuro;
                 xcsp3team/PyCSP3-models)
``kuso``         ``.csv`` whose first row has a field with ``\`` (Kakuro;
                 FranciscoDA/kakuro-kuso); its solution is read from
                 ``NAME.solution.txt`` beside it when that file exists
===============  ==============================================================

The ``variant`` text format (documented with examples in the README)::

    # comments start with '#'
    kind: kenken            # sudoku | killer | kenken | kakuro | jigsaw | x-sudoku | windoku
    size: 4                 # kenken (required), killer (when there is no grid)
    box: 2x3                # sudoku, killer, x-sudoku, windoku (default: the usual box)
    grid:                   # rows of the grid, one per line
    regions:                # jigsaw: rows of region labels
    cages:                  # kenken, killer: one cage per line or ';'-separated

- Grid rows: values separated by spaces, or, without spaces, one character
  per cell; ``.``, ``0`` and ``_`` are blanks; ``|`` is ignored and lines
  made only of ``-``, ``+`` and spaces are skipped.
- Kakuro rows: squares separated by spaces: ``_`` a white cell, ``x`` a black
  square, ``D\A`` a clue (down sum D, across sum A; ``6\``, ``\10``).
- Cages: a target, an operation, then cells: ``11+ A1 B1``, ``11 + A1 B1``
  (Norvig's notation: row letter A-I, column digit), ``3: r1c1,r1c2`` (rXcY),
  ``4 r2c4`` (one cell: gives its value).  Operations ``+ - * / =``, also
  ``x``, ``X`` and the signs U+00D7 (times) and U+00F7 (divide).  A Killer
  cage is a sum: its operation may be left out.
- A file may hold several puzzles, each starting at its ``kind:`` line.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from cp_sudoku.formats import Entry
from cp_sudoku.model import Cell, Puzzle, PuzzleError, cell_name
from cp_sudoku.puzzles import default_box, sudoku
from cp_sudoku.variant_collections import read_arithmatrix, read_kuso, read_xcsp3
from cp_sudoku.variants import Clue, Square, jigsaw, kakuro, kenken, killer, windoku, x_sudoku

FORMATS = ("variant", "arithmatrix", "xcsp3", "kuso")
VARIANT_KINDS = ("sudoku", "killer", "kenken", "kakuro", "jigsaw", "x-sudoku", "windoku")
_KEYS = ("kind", "size", "box", "grid", "regions", "cages")
_KEY_LINE = re.compile(r"^\s*(" + "|".join(_KEYS) + r")\s*:(.*)$", re.IGNORECASE)
_SEPARATOR = re.compile(r"^[\s+\-=]*$")
_BLANKS = {".", "0", "_"}
_TIMES, _DIVIDE = "\u00d7", "\u00f7"
_OPS = {
    "+": "+",
    "-": "-",
    "*": "*",
    "x": "*",
    "X": "*",
    _TIMES: "*",
    "/": "/",
    _DIVIDE: "/",
    "=": "=",
}
_CAGE_HEAD = re.compile(
    r"^\s*(\d+)\s*([-+*/=xX" + _TIMES + _DIVIDE + r"])?\s*:?\s*(.*)$", re.DOTALL
)
_CELL = re.compile(r"^(?:[rR](\d+)[cC](\d+)|([A-Ia-i])([1-9]))$")


# ---------------------------------------------------------------- detection


def sniff(path: str | Path) -> str | None:
    """Which of :data:`FORMATS` a file is in, or None for none of them.

    Reads at most the first few kilobytes.

    Raises:
        OSError: the file cannot be read.
    """
    path = Path(path)
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        head = handle.read(4096)
    for raw in head.splitlines():
        if raw.strip() and not raw.lstrip().startswith("#"):
            if _KEY_LINE.match(raw) and raw.split(":")[0].strip().lower() == "kind":
                return "variant"
            break
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        first = head.split("\n", 1)[0]
        try:
            puzzle = json.loads(first).get("puzzle")
        except (json.JSONDecodeError, AttributeError):
            return None
        return "arithmatrix" if isinstance(puzzle, dict) and "cages" in puzzle else None
    if suffix == ".json":
        return "xcsp3" if all(f'"{key}"' in head for key in ("nRows", "nCols", "clues")) else None
    if suffix == ".csv":
        first_row = next(csv.reader([head.split("\n", 1)[0]]), [])
        return "kuso" if any("\\" in value for value in first_row) else None
    return None


def read_path(path: str | Path, fmt: str | None = None) -> Iterator[Entry]:
    """The puzzles of a file in ``fmt`` (default: :func:`sniff`), as Entries.

    Raises:
        PuzzleError: the format is unknown or not recognised; the file holds
            no puzzle at all (``variant``).
        OSError: the file cannot be read.
    """
    fmt = fmt or sniff(path)
    readers: dict[str, Callable[[Path], Iterator[Entry]]] = {
        "variant": read_variant_file,
        "arithmatrix": read_arithmatrix,
        "xcsp3": read_xcsp3,
        "kuso": read_kuso,
    }
    if fmt not in readers:
        raise PuzzleError(
            f"not a variant file: expected a 'kind:' line, an arithmatrix .jsonl, "
            f"an xcsp3 Kakuro .json or a kakuro-kuso .csv (formats: {', '.join(FORMATS)})",
            source=str(path),
        )
    return readers[fmt](Path(path))


# ---------------------------------------------------------------- the text format


@dataclass
class _Block:
    """One puzzle of a variant text file: its key lines, section lines, first problem."""

    start: int
    text: str
    keys: dict[str, tuple[int, str]] = field(default_factory=dict)
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    error: PuzzleError | None = None


def read_variant_file(path: str | Path) -> Iterator[Entry]:
    """The puzzles of a ``variant`` text file.

    Raises:
        PuzzleError: the file holds no puzzle (no ``kind:`` line).
        OSError: the file cannot be read.
    """
    with open(path, encoding="utf-8-sig") as handle:
        yield from read_variant_lines(handle, str(path))


def read_variant_lines(lines: Iterable[str], source: str = "<input>") -> Iterator[Entry]:
    """Each puzzle of ``variant`` text, one Entry per ``kind:`` block.

    Raises:
        PuzzleError: no ``kind:`` line at all, or text before the first one.
    """
    found = False
    for block in _blocks(lines, source):
        found = True
        try:
            yield Entry(source, block.start, block.text, puzzle=_build(block, source))
        except PuzzleError as error:
            yield Entry(source, block.start, block.text, error=error.located(source, block.start))
    if not found:
        raise PuzzleError("no puzzle found: expected a 'kind:' line", source=source)


def parse_variant(text: str, source: str = "<input>") -> Puzzle:
    """The single puzzle of ``variant`` text.

    Raises:
        PuzzleError: the text holds no puzzle, several, or a bad one.
    """
    blocks = list(_blocks(text.splitlines(), source))
    if len(blocks) != 1:
        raise PuzzleError(f"expected one puzzle, found {len(blocks)}", source=source)
    try:
        return _build(blocks[0], source)
    except PuzzleError as error:
        raise error.located(source, blocks[0].start) from None


def _blocks(lines: Iterable[str], source: str) -> Iterator[_Block]:
    """The ``kind:`` blocks of ``lines``; a problem inside a block is kept in it.

    Raises:
        PuzzleError: a line before the first ``kind:`` line.
    """
    block: _Block | None = None
    section: str | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _KEY_LINE.match(line)
        key = match.group(1).lower() if match else None
        if key == "kind":
            if block is not None:
                yield block
            block = _Block(number, line)
        elif block is None:
            raise PuzzleError(
                f"expected a 'kind:' line first, got {line.strip()[:30]!r}",
                source=source,
                line=number,
            )
        if block.error is not None:
            continue
        if match and key is not None:
            rest = match.group(2).strip()
            if key in block.keys or key in block.sections:
                block.error = PuzzleError(
                    f"'{key}:' appears twice in one puzzle", source=source, line=number
                )
            elif key in ("grid", "regions", "cages"):
                section = key
                block.sections[key] = [(number, rest)] if rest else []
            else:
                section = None
                block.keys[key] = (number, rest)
        elif section is None:
            block.error = PuzzleError(
                f"expected 'key: value' ({', '.join(_KEYS)}), got {line.strip()[:30]!r}",
                source=source,
                line=number,
            )
        else:
            block.sections[section].append((number, line))
    if block is not None:
        yield block


def _build(block: _Block, source: str) -> Puzzle:
    if block.error is not None:
        raise block.error
    kind = block.keys["kind"][1].lower()
    if kind not in VARIANT_KINDS:
        raise PuzzleError(f"unknown kind {kind!r}: expected one of {', '.join(VARIANT_KINDS)}")
    allowed = {
        "sudoku": {"box", "grid"},
        "killer": {"box", "size", "grid", "cages"},
        "kenken": {"size", "cages"},
        "kakuro": {"grid"},
        "jigsaw": {"grid", "regions"},
        "x-sudoku": {"box", "grid"},
        "windoku": {"box", "grid"},
    }[kind]
    for key, (number, _) in block.keys.items():
        if key != "kind" and key not in allowed:
            raise PuzzleError(f"'{key}:' does not apply to a {kind}", source=source, line=number)
    for key, rows in block.sections.items():
        if key not in allowed:
            number = rows[0][0] if rows else block.start
            raise PuzzleError(f"'{key}:' does not apply to a {kind}", source=source, line=number)
    name = f"{source}:{block.start}"
    if kind == "kakuro":
        return kakuro(_kakuro_rows(_section(block, "grid", kind), source), name=name)
    if kind == "kenken":
        size = _size(block, source)
        if size is None:
            raise PuzzleError("a kenken needs 'size: N'", source=source, line=block.start)
        cages = _cages(_section(block, "cages", kind), source, kind)
        return kenken(size, cages, name=name)
    box = _box(block, source)
    grid = _values(block.sections["grid"], source) if "grid" in block.sections else None
    if kind == "killer":
        size = _size(block, source)
        if grid is None and size is None:
            raise PuzzleError(
                "a killer needs 'size: N' or a 'grid:'", source=source, line=block.start
            )
        cages = [
            (target, cells)
            for target, _, cells in _cages(_section(block, "cages", kind), source, kind)
        ]
        if grid is not None and size is not None and size * size != len(grid):
            raise PuzzleError(
                f"'size: {size}' but the grid has {len(grid)} cells",
                source=source,
                line=block.keys["size"][0],
            )
        return killer(cages, grid, size=size or 9, box=box, name=name)
    if grid is None:
        raise PuzzleError(f"a {kind} needs a 'grid:'", source=source, line=block.start)
    if kind == "jigsaw":
        regions = _labels(_section(block, "regions", kind), source)
        return jigsaw(grid, regions, name=name)
    builder = {"sudoku": sudoku, "x-sudoku": x_sudoku, "windoku": windoku}[kind]
    return builder(grid, box, name=name)


def _section(block: _Block, key: str, kind: str) -> list[tuple[int, str]]:
    rows = block.sections.get(key)
    if not rows:
        raise PuzzleError(f"a {kind} needs a '{key}:' section with at least one line")
    return rows


def _size(block: _Block, source: str) -> int | None:
    if "size" not in block.keys:
        return None
    number, text = block.keys["size"]
    if not text.isdigit() or int(text) < 1:
        raise PuzzleError(
            f"expected 'size: N' with N >= 1, got {text!r}", source=source, line=number
        )
    return int(text)


def _box(block: _Block, source: str) -> tuple[int, int] | None:
    if "box" not in block.keys:
        return None
    number, text = block.keys["box"]
    match = re.fullmatch(r"(\d+)\s*[xX]\s*(\d+)", text)
    if not match:
        raise PuzzleError(
            f"expected 'box: RxC' such as 2x3, got {text!r}", source=source, line=number
        )
    return int(match.group(1)), int(match.group(2))


def _tokens(line: str) -> list[tuple[int, str]]:
    """(column, token) of a grid row: by whitespace, else one per character."""
    body = line.replace("|", " ")
    if " " in body.strip() or "\t" in body.strip():
        return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", body)]
    stripped = body.strip()
    offset = body.index(stripped) if stripped else 0
    return [(offset + i + 1, ch) for i, ch in enumerate(stripped)]


def _square_rows(rows: list[tuple[int, str]], source: str) -> list[list[tuple[int, int, str]]]:
    """Rows of (line, column, token), separator lines skipped, checked to be n x n."""
    kept = [(number, _tokens(line)) for number, line in rows if not _SEPARATOR.match(line)]
    for number, tokens in kept:
        if len(tokens) != len(kept):
            raise PuzzleError(
                f"a grid of {len(kept)} rows needs {len(kept)} entries per row, got {len(tokens)}",
                source=source,
                line=number,
            )
    return [[(number, column, token) for column, token in tokens] for number, tokens in kept]


def _values(rows: list[tuple[int, str]], source: str) -> list[int]:
    values = []
    for row in _square_rows(rows, source):
        for number, column, token in row:
            if token in _BLANKS:
                values.append(0)
            elif token.isdigit():
                values.append(int(token))
            else:
                raise PuzzleError(
                    f"unexpected {token!r}: expected a value or a blank (. 0 _)",
                    source=source,
                    line=number,
                    column=column,
                )
    return values


def _labels(rows: list[tuple[int, str]], source: str) -> list[str]:
    return [token for row in _square_rows(rows, source) for _, _, token in row]


def _kakuro_rows(rows: list[tuple[int, str]], source: str) -> list[list[Square]]:
    layout = []
    for number, line in rows:
        squares: list[Square] = []
        for match in re.finditer(r"\S+", line):
            squares.append(_kakuro_square(match.group(), source, number, match.start() + 1))
        layout.append(squares)
    widths = {len(row) for row in layout}
    if len(widths) > 1:
        first = len(layout[0])
        bad = next(i for i, row in enumerate(layout) if len(row) != first)
        raise PuzzleError(
            f"Kakuro rows must have one length: {len(layout[bad])} squares, expected {first}",
            source=source,
            line=rows[bad][0],
        )
    return layout


def _kakuro_square(token: str, source: str, line: int, column: int) -> Square:
    if token == "_":
        return None
    if token in ("x", "X"):
        return Clue()
    try:
        return Clue.parse(token)
    except PuzzleError:
        raise PuzzleError(
            f"unexpected Kakuro square {token!r}: expected _ (white), x (black) or D\\A (a clue)",
            source=source,
            line=line,
            column=column,
        ) from None


def _cages(
    rows: list[tuple[int, str]], source: str, kind: str
) -> list[tuple[int, str, list[Cell]]]:
    cages = []
    for number, line in rows:
        for piece in line.split(";"):
            if piece.strip():
                cages.append(_cage(piece, source, number, kind))
    return cages


def _cage(piece: str, source: str, line: int, kind: str) -> tuple[int, str, list[Cell]]:
    match = _CAGE_HEAD.match(piece)
    if not match:
        raise PuzzleError(
            f"expected a cage such as '11+ A1 B1' or '3: r1c1,r1c2', got {piece.strip()!r}",
            source=source,
            line=line,
        )
    target, symbol, rest = int(match.group(1)), match.group(2), match.group(3)
    cells = [_cell(token, source, line) for token in re.split(r"[\s,]+", rest.strip()) if token]
    if not cells:
        raise PuzzleError(f"cage {piece.strip()!r} lists no cells", source=source, line=line)
    op = _OPS[symbol] if symbol else None
    if kind == "killer":
        if op not in (None, "+", "="):
            raise PuzzleError(
                f"a Killer cage is a sum: use '+' or no operation, got {symbol!r}",
                source=source,
                line=line,
            )
        op = "+"
    elif op is None:
        if len(cells) != 1:
            raise PuzzleError(
                f"cage {piece.strip()!r} needs an operation (+ - * /)", source=source, line=line
            )
        op = "="
    return target, op, cells


def _cell(token: str, source: str, line: int) -> Cell:
    match = _CELL.match(token)
    if not match:
        raise PuzzleError(
            f"expected a cell such as r1c2 or A2 (row letter, column digit), got {token!r}",
            source=source,
            line=line,
        )
    if match.group(1):
        return int(match.group(1)) - 1, int(match.group(2)) - 1
    return ord(match.group(3).upper()) - ord("A"), int(match.group(4)) - 1


# ---------------------------------------------------------------- writing


def variant_text(puzzle: Puzzle) -> str:
    """``puzzle`` in the ``variant`` text format (reads back to the same model).

    Raises:
        PuzzleError: the kind is not one of :data:`VARIANT_KINDS`.
    """
    kind = puzzle.kind
    if kind not in VARIANT_KINDS:
        raise PuzzleError(f"no text format for kind {kind!r}")
    lines = [f"kind: {kind}"]
    if kind == "kakuro":
        return "\n".join([*lines, "grid:", *_kakuro_lines(puzzle)]) + "\n"
    if kind == "kenken" or (kind == "killer" and not puzzle.givens):
        lines.append(f"size: {puzzle.max_value}")
    if puzzle.box is not None and kind != "jigsaw" and puzzle.box != _usual_box(puzzle.max_value):
        lines.append(f"box: {puzzle.box[0]}x{puzzle.box[1]}")
    if kind != "kenken" and (kind != "killer" or puzzle.givens):
        lines += ["grid:", *_grid_lines(puzzle, lambda cell: str(puzzle.givens.get(cell, ".")))]
    if kind == "jigsaw":
        region = {
            cell: unit.name.removeprefix("region ")
            for unit in puzzle.units
            if unit.role == "region"
            for cell in unit.cells
        }
        lines += ["regions:", *_grid_lines(puzzle, region.__getitem__)]
    if puzzle.cages:
        lines.append("cages:")
        for cage in puzzle.cages:
            op = "" if cage.op == "=" else cage.op
            lines.append(f"{cage.target}{op} " + " ".join(cell_name(c) for c in cage.cells))
    return "\n".join(lines) + "\n"


def _usual_box(n: int) -> tuple[int, int] | None:
    try:
        return default_box(n)
    except PuzzleError:
        return None


def _grid_lines(puzzle: Puzzle, text: Callable[[Cell], str]) -> list[str]:
    cells = [[text((r, c)) for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    width = max(len(t) for row in cells for t in row)
    if width == 1:
        return ["".join(row) for row in cells]
    return [" ".join(t.rjust(width) for t in row) for row in cells]


def _kakuro_lines(puzzle: Puzzle) -> list[str]:
    cells = set(puzzle.cells)

    def square(cell: Cell) -> str:
        return "_" if cell in cells else puzzle.labels.get(cell, "x")

    texts = [[square((r, c)) for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    width = max(len(t) for row in texts for t in row)
    return [" ".join(t.ljust(width) for t in row).rstrip() for row in texts]
