"""The f-puzzles format: read a puzzle from its JSON, compressed string or link.

A source holds one f-puzzles JSON object, or one string or link per line
(:mod:`cp_sudoku.io.fpuzzles_link` decodes the three forms).  The format is
described key by key in ``../shared/data/fpuzzles/README.md``; the rules
follow rangsk's SudokuSolver (``SolverFactory.cs``, ``CreateFromFPuzzles``).

- Shapes the format does not allow (dots between cells that do not touch, an
  arrow line that does not start in its circle, lines that jump, ...) are
  refused by :mod:`cp_sudoku.io.fpuzzles_shapes`.
- ``size`` 1..16; ``grid[r][c]`` cells: only ``"given": true`` values are
  givens; ``region`` overrides the default box (``null``: no region);
  ``givenPencilMarks`` restricts the cell's candidates
  (:class:`~cp_sudoku.constraints.cellrules.Candidates`).
- Each rule key becomes constraints of the type whose ``fpuzzles_key`` it is
  (the catalogue in :mod:`cp_sudoku.constraints`); diagonals, extra regions
  and sumless cages are :class:`~cp_sudoku.constraints.unit.Unit`, killer
  sums :class:`~cp_sudoku.constraints.cage.Cage`, skyscrapers
  :class:`~cp_sudoku.constraints.visibility.Visibility`.
- :data:`COSMETIC` keys carry no rule and are ignored; any other key is an
  error naming it: a skipped rule would be a wrong verdict.
- ``title`` and ``author`` name the puzzle (``Puzzle.name``); a complete
  ``solution`` is the entry's stated solution, compared with the verdict.

:func:`to_fpuzzles` writes the JSON of a puzzle f-puzzles can express (see
:mod:`cp_sudoku.io.fpuzzles_write`).
"""

from __future__ import annotations

import json
import re
import reprlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from math import isqrt
from typing import Any

from cp_sudoku.constraints import REGISTRY, Cage, Constraint, Unit, Visibility
from cp_sudoku.constraints.cellrules import Candidates, Clone
from cp_sudoku.constraints.globalpairs import NegativeRatio, NegativeXV, Nonconsecutive
from cp_sudoku.constraints.linebase import neighbours
from cp_sudoku.constraints.outside import LittleKiller
from cp_sudoku.constraints.residue import EntropicLine
from cp_sudoku.constraints.sumlines import Arrow, RegionSumLine
from cp_sudoku.constraints.whispers import Whispers
from cp_sudoku.io import fpuzzles_shapes as shapes
from cp_sudoku.io.entry import Entry
from cp_sudoku.io.fpuzzles_link import decode, looks_like_fpuzzles
from cp_sudoku.io.grammar import skipped
from cp_sudoku.io.options import ReadOptions
from cp_sudoku.kinds.grid import sudoku_units
from cp_sudoku.model import Cell, Grid, Puzzle, PuzzleError, cell_name
from cp_sudoku.model.puzzle import cells_of

#: The largest grid f-puzzles draws.
MAX_SIZE = 16
#: Keys with no rule for a solver (README "Cosmetic keys"): ignored.
COSMETIC = frozenset(
    {
        "line", "rectangle", "circle", "text", "cage", "highlightConflicts", "disabledlogic",
        "truecandidatesoptions", "fogofwar", "foglight", "title", "author", "ruleset",
        "solution", "size", "grid",
    }
)  # fmt: skip
#: Cell fields with no rule (notes, colours; ``parity`` is read by neither reference parser).
COSMETIC_CELL = frozenset({"centerPencilMarks", "cornerPencilMarks", "c", "cArray", "parity"})
#: Cell fields that carry the grid.
CELL_FIELDS = frozenset({"value", "given", "region", "givenPencilMarks"})
#: Region labels, in the order of each region's first cell.
LABELS = "ABCDEFGHIJKLMNOP"
#: The boolean keys and what they add.
BOOLEAN_KEYS = ("diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups")
_CELL = re.compile(r"R([0-9]{1,6})C([0-9]{1,6})", re.IGNORECASE)
#: What stands for an unknown cell in a stated ``solution`` (numeric strings are read first).
UNKNOWN = (".", "", 0)
_JSON_START = re.compile(r'\s*\{\s*"size"\s*:')
#: A key of a JSON object, as the sniffer looks for it.
_KEY = '"{}":'


def default_box(n: int) -> tuple[int, int]:
    """f-puzzles' box of an n x n grid: h = floor(sqrt(n)) lowered until it divides n; h x n/h."""
    h = max(1, isqrt(n))
    while n % h:
        h -= 1
    return h, n // h


class Reader:
    """One f-puzzles object read into a :class:`Puzzle` (see the module doc)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        size = data.get("size")
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
            raise PuzzleError(
                f"size: expected the grid's side, an integer from 1 to {MAX_SIZE} (the largest "
                f"f-puzzles grid), got {'nothing' if size is None else repr(size)}"
            )
        self.n = size
        unknown = sorted(k for k in data if k not in COSMETIC and k not in KEYS)
        if unknown:
            raise PuzzleError(
                f"{unknown[0]}: unknown f-puzzles key; a rule that is skipped makes a wrong "
                "verdict, so it is refused (cosmetic keys are ignored: see docs/formats.md)"
            )
        self.region: dict[Cell, int | None] = {}
        self.givens: dict[Cell, int] = {}
        self.constraints: list[Constraint] = []
        self._grid()

    # --- cells ---------------------------------------------------------------------------------

    def cell(self, text: Any, key: str, outside: bool = False) -> Cell:
        """``"R3C4"`` -> ``(2, 3)``; with ``outside``, row or column 0 or n+1 is allowed.

        Raises:
            PuzzleError: not ``R<r>C<c>``, or outside the grid, naming the key and the cell.
        """
        match = _CELL.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise PuzzleError(f"{key}: expected a cell 'R<row>C<column>', got {reprlib.repr(text)}")
        r, c = int(match.group(1)) - 1, int(match.group(2)) - 1
        n, low = self.n, -1 if outside else 0
        if not (low <= r < n + (1 if outside else 0) and low <= c < n + (1 if outside else 0)):
            raise PuzzleError(f"{key}: {cell_name((r, c))} is outside the {n}x{n} grid")
        return (r, c)

    def cells(self, items: Any, key: str, distinct: bool = True) -> list[Cell]:
        """A list of cell names, every one inside the grid and (with ``distinct``) once.

        Raises:
            PuzzleError: not a list of cells, a cell outside the grid, or listed twice.
        """
        if not isinstance(items, list):
            raise PuzzleError(f"{key}: expected a list of cells, got {items!r}")
        cells = [self.cell(item, key) for item in items]
        if distinct:
            shapes.distinct(key, cells)
        return cells

    def number(self, value: Any, key: str, default: int | None = None) -> int | None:
        """A number written as an integer or a decimal string; ``default`` when absent or blank."""
        if value is None or (isinstance(value, str) and not value.strip()):
            return default
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,9}\s*", value):
            return int(value)
        raise PuzzleError(f"{key}: expected a number, got {reprlib.repr(value)}")

    def items(self, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(key[i], item)`` for each object of a list key."""
        value = self.data.get(key)
        if value is None or value is False:
            return
        if not isinstance(value, list):
            raise PuzzleError(f"{key}: expected a list, got {type(value).__name__}")
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, dict):
                raise PuzzleError(f"{where}: expected an object, got {item!r}")
            yield where, item

    # --- grid ----------------------------------------------------------------------------------

    def _grid(self) -> None:
        n, grid = self.n, self.data.get("grid")
        if (
            not isinstance(grid, list)
            or len(grid) != n
            or any(not isinstance(row, list) or len(row) != n for row in grid)
        ):
            raise PuzzleError(f"grid: expected {n} rows of {n} cell objects")
        h, w = default_box(n)
        for r, row in enumerate(grid):
            for c, fields in enumerate(row):
                where = f"grid {cell_name((r, c))}"
                if not isinstance(fields, dict):
                    raise PuzzleError(f"{where}: expected an object, got {fields!r}")
                unknown = sorted(set(fields) - CELL_FIELDS - COSMETIC_CELL)
                if unknown:
                    raise PuzzleError(f"{where}: unknown cell field {unknown[0]!r}")
                region = fields.get("region", (r // h) * h + c // w)
                if region is not None and (isinstance(region, bool) or not isinstance(region, int)):
                    raise PuzzleError(f"{where}: region must be an integer or null, got {region!r}")
                self.region[(r, c)] = region
                value, given = fields.get("value"), fields.get("given")
                if given is not None and not isinstance(given, bool):  # never a dropped clue
                    raise PuzzleError(
                        f"{where}: 'given' must be true or false, got {reprlib.repr(given)}"
                    )
                if given:
                    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= n:
                        raise PuzzleError(f"{where}: a given must be a digit 1..{n}, got {value!r}")
                    self.givens[(r, c)] = value
                marks = fields.get("givenPencilMarks")
                if marks and (r, c) not in self.givens:
                    if not isinstance(marks, list) or not all(
                        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n
                        for v in marks
                    ):
                        raise PuzzleError(f"{where}: givenPencilMarks must be digits 1..{n}")
                    self.constraints.append(Candidates((r, c), marks))

    def regions(self) -> dict[int, list[Cell]]:
        """Region number -> its cells in reading order (cells of no region left out).

        Raises:
            PuzzleError: a region without n cells.
        """
        members: dict[int, list[Cell]] = {}
        for cell in sorted(self.region):
            region = self.region[cell]
            if region is not None:
                members.setdefault(region, []).append(cell)
        for number, cells in sorted(members.items()):
            if len(cells) != self.n:
                raise PuzzleError(
                    f"grid: region {number + 1} has {len(cells)} cells "
                    f"({cell_name(cells[0])} ...), expected {self.n}",
                    cells=cells,
                )
        return members

    def puzzle(self, name: str) -> Puzzle:
        """The puzzle: rows, columns, regions, then the rules in :data:`KEYS` order.

        Default boxes make a ``sudoku``; regions that cover the grid a ``jigsaw``
        (regions labelled A, B, ... in the order of their first cell); otherwise
        (some cell in no region) rows and columns make a Latin square (kind
        ``futoshiki``, with no relation) and the regions are added as units.
        """
        n = self.n
        regions = sorted(self.regions().values())
        self.region_cells = dict(sorted(self.regions().items()))
        h, w = default_box(n)
        default = all(self.region[(r, c)] == (r // h) * h + c // w for r, c in self.region)
        named = tuple(
            Unit(f"region {LABELS[k]}", cells, "region") for k, cells in enumerate(regions)
        )
        extra: tuple[Unit, ...] = ()
        if default and h > 1:
            kind, units = "sudoku", sudoku_units(n, (h, w))
        elif len(regions) == n:
            kind, units = "jigsaw", sudoku_units(n, None) + named
        else:
            kind, units, extra = "futoshiki", sudoku_units(n, None), named
        rules: list[Constraint] = []
        for key, read in KEYS.items():
            if key in self.data:
                rules.extend(read(self, key))
        return Puzzle(
            n,
            n,
            cells_of(n, n),
            n,
            constraints=(*units, *extra, *self.constraints, *rules),
            givens=self.givens,
            kind=kind,
            box=(h, w) if kind == "sudoku" else None,
            name=name,
        )


# --- the rule keys ----------------------------------------------------------------------------

KeyReader = Callable[[Reader, str], Iterable[Constraint]]


def _type_of(key: str) -> Callable[..., Constraint]:
    """The registered constraint type of f-puzzles key ``key`` (its constructor's
    arguments depend on the type)."""
    return next(cls for cls in REGISTRY.values() if cls.fpuzzles_key == key)


def _boolean(reader: Reader, key: str) -> Iterator[Constraint]:
    value = reader.data[key]
    if not isinstance(value, bool):
        raise PuzzleError(f"{key}: expected true or false, got {value!r}")
    if not value:
        return
    n = reader.n
    if key == "diagonal-":  # as the diagonals extra of the text format names them
        yield Unit(f"diagonal r1c1-r{n}c{n}", [(i, i) for i in range(n)], "diagonal")
    elif key == "diagonal+":
        yield Unit(
            f"anti-diagonal r1c{n}-r{n}c1", [(i, n - 1 - i) for i in range(n)], "anti-diagonal"
        )
    elif key == "disjointgroups":
        regions = [cells for _, cells in sorted(reader.region_cells.items())]
        for k in range(n):
            yield Unit(f"disjoint group {k + 1}", [cells[k] for cells in regions], "disjoint")
    else:
        yield _type_of(key)(n, n)


def dotted(reader: Reader, keys: Iterable[str]) -> set[tuple[Cell, Cell]]:
    """The cell pairs that carry a mark of one of ``keys`` (each pair in row-major order)."""
    found = set()
    for key in keys:
        for where, item in reader.items(key):
            cells = reader.cells(item.get("cells"), where)
            if len(cells) == 2:
                found.add((min(cells), max(cells)))
    return found


def _nonconsecutive(reader: Reader, key: str) -> Iterator[Constraint]:
    if reader.data[key] is True:
        yield Nonconsecutive(reader.n, reader.n, dotted(reader, ("difference", "ratio")))
    elif reader.data[key] is not False:
        raise PuzzleError(f"{key}: expected true or false, got {reader.data[key]!r}")


def _negative(reader: Reader, key: str) -> Iterator[Constraint]:
    value = reader.data[key]
    if not isinstance(value, list) or any(v not in ("ratio", "xv") for v in value):
        raise PuzzleError(f"{key}: expected a list of 'ratio' and 'xv', got {value!r}")
    n = reader.n
    if "ratio" in value:
        ratios = {
            reader.number(item.get("value"), where, 2) or 2 for where, item in reader.items("ratio")
        }
        yield NegativeRatio(n, n, dotted(reader, ("difference", "ratio")), ratios or {2})
    if "xv" in value:
        yield NegativeXV(n, n, dotted(reader, ("xv",)))


def _edge(reader: Reader, key: str) -> Iterator[Constraint]:
    cls = _type_of(key)
    default = getattr(cls, "default", None)  # a plain dot's value (EdgeMark.default)
    for where, item in reader.items(key):
        cells = reader.cells(item.get("cells"), where)
        if len(cells) != 2:
            raise PuzzleError(f"{where}: expected two cells, got {len(cells)}")
        shapes.edge(where, key, cells)
        raw = item.get("value")
        if key == "xv":
            letters = {"x": 10, "v": 5}
            if not isinstance(raw, str) or raw.strip().lower() not in letters:
                raise PuzzleError(f"{where}: expected value 'X' or 'V', got {raw!r}")
            value = letters[raw.strip().lower()]
        else:
            value = reader.number(raw, where, default) or 0
        yield cls(cells[0], cells[1], value)


def _single_cells(reader: Reader, key: str) -> Iterator[Constraint]:
    cls = _type_of(key)
    listed = [reader.cell(item.get("cell"), where) for where, item in reader.items(key)]
    for cell in listed:
        if key in ("odd", "even"):
            yield cls(cell)
        else:
            others = [c for c in neighbours(cell, reader.n, reader.n) if c not in listed]
            yield cls(cell, others)


def _killer(reader: Reader, key: str) -> Iterator[Constraint]:
    for where, item in reader.items(key):
        cells = reader.cells(item.get("cells"), where)
        if not cells:
            raise PuzzleError(f"{where}: a cage needs at least one cell")
        total = reader.number(item.get("value"), where)
        if total is None:
            yield Unit(f"cage {{{','.join(map(cell_name, cells))}}}", cells, "cage")
        else:
            yield Cage(
                cells, "+" if len(cells) > 1 else "=", _positive(total, where), distinct=True
            )


def _positive(total: int, where: str) -> int:
    """A sum clue, which must be positive: a zero or negative one is refused, never
    dropped (a blank ``value`` is the way to write no sum)."""
    if total <= 0:
        raise PuzzleError(
            f"{where}: a sum must be a positive integer (leave it blank for none), got {total}"
        )
    return total


def _extra_region(reader: Reader, key: str) -> Iterator[Constraint]:
    for k, (where, item) in enumerate(reader.items(key)):
        yield Unit(f"extra region {k + 1}", reader.cells(item.get("cells"), where), "extra region")


def _quadruple(reader: Reader, key: str) -> Iterator[Constraint]:
    cls = _type_of(key)
    for where, item in reader.items(key):
        values = item.get("values")
        if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values
        ):
            raise PuzzleError(f"{where}: 'values' must be a list of digits, got {values!r}")
        bad = next((v for v in values if not 1 <= v <= reader.n), None)
        if bad is not None:
            raise PuzzleError(f"{where}: 'values' must be digits 1..{reader.n}, got {bad}")
        cells = reader.cells(item.get("cells"), where, distinct=False)
        shapes.square(where, cells)
        yield cls(cells, values)


def _clone(reader: Reader, key: str) -> Iterator[Constraint]:
    for where, item in reader.items(key):
        first = reader.cells(item.get("cells"), where)
        second = reader.cells(item.get("cloneCells"), where)
        if len(first) != len(second):
            raise PuzzleError(f"{where}: {len(first)} cells but {len(second)} clone cells")
        pairs = [(a, b) for a, b in zip(first, second, strict=True) if a != b]
        if pairs and len({c for pair in pairs for c in pair}) == 2 * len(pairs):
            yield Clone([a for a, _ in pairs], [b for _, b in pairs])
        else:  # overlapping shapes: one clone per pair
            yield from (Clone([a], [b]) for a, b in pairs)


def _indexer(reader: Reader, key: str) -> Iterator[Constraint]:
    cls = _type_of(key)
    n = reader.n
    for where, item in reader.items(key):
        for r, c in reader.cells(item.get("cells"), where):
            if key == "rowindexer":
                yield cls([(i, c) for i in range(n)], r)
            elif key == "columnindexer":
                yield cls([(r, j) for j in range(n)], c)
            else:
                region = reader.region[(r, c)]
                if region is None:
                    raise PuzzleError(f"{where}: {cell_name((r, c))} is in no region")
                cells = reader.region_cells[region]
                yield cls(cells, cells.index((r, c)))


def _outside_cells(reader: Reader, where: str, clue: Cell, step: tuple[int, int]) -> list[Cell]:
    n = reader.n
    r, c = clue[0] + step[0], clue[1] + step[1]
    found = []
    while 0 <= r < n and 0 <= c < n:
        found.append((r, c))
        r, c = r + step[0], c + step[1]
    if not found:
        raise PuzzleError(f"{where}: the clue at {cell_name(clue)} points at no cell of the grid")
    return found


def _line_step(reader: Reader, where: str, clue: Cell) -> tuple[int, int]:
    """The step into the grid from a clue beside a row or column."""
    n, (r, c) = reader.n, clue
    inside_r, inside_c = 0 <= r < n, 0 <= c < n
    if inside_r and inside_c:
        raise PuzzleError(f"{where}: a clue must stand outside the grid, got {cell_name(clue)}")
    if not inside_r and inside_c:
        return (1, 0) if r < 0 else (-1, 0)
    if inside_r and not inside_c:
        return (0, 1) if c < 0 else (0, -1)
    raise PuzzleError(f"{where}: the clue at {cell_name(clue)} is on no row or column")


def _outside(reader: Reader, key: str) -> Iterator[Constraint]:
    for where, item in reader.items(key):
        clue = reader.cell(item.get("cell"), where, outside=True)
        total = reader.number(item.get("value"), where)
        if key == "littlekillersum":
            direction = item.get("direction")
            steps = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}
            if not isinstance(direction, str) or direction not in steps:
                raise PuzzleError(f"{where}: direction must be UR, UL, DR or DL, got {direction!r}")
            if all(0 <= x < reader.n for x in clue):
                raise PuzzleError(
                    f"{where}: a clue must stand outside the grid, got {cell_name(clue)}"
                )
            cells = _outside_cells(reader, where, clue, steps[direction])
            if total is not None:
                yield LittleKiller(cells, _positive(total, where))
            continue
        cells = _outside_cells(reader, where, clue, _line_step(reader, where, clue))
        if total is None or (key == "skyscraper" and total <= 0):
            continue  # a blank clue sets no rule
        if key == "skyscraper":
            side = {(1, 0): "top", (-1, 0): "bottom", (0, 1): "left", (0, -1): "right"}
            yield Visibility(cells, total, side[_line_step(reader, where, clue)])
        else:
            yield _type_of(key)(cells, total)


def _each_line(
    reader: Reader,
    key: str,
    build: Callable[[dict[str, Any], list[Cell]], Constraint],
    shape: Callable[[str, dict[str, Any], list[Cell]], None],
) -> Iterator[Constraint]:
    """``build(item, cells)`` for each line of each item of a ``lines`` key, after
    ``shape(where, item, cells)`` checks it; a fault in a line is reported under ``key[i]``."""
    for where, item in reader.items(key):
        lines = item.get("lines")
        if not isinstance(lines, list) or not lines:
            raise PuzzleError(f"{where}: expected 'lines', a list of lists of cells")
        for line in lines:
            cells = reader.cells(line, where, distinct=False)  # the type names a repeat
            shape(where, item, cells)
            try:
                yield build(item, cells)
            except PuzzleError as error:
                raise PuzzleError(f"{where}: {error.message}", cells=error.cells) from None


def _lines(reader: Reader, key: str) -> Iterator[Constraint]:
    cls = _type_of(key)

    def build(item: dict[str, Any], cells: list[Cell]) -> Constraint:
        if cls is Whispers:
            gap = reader.number(item.get("value"), f"{key}: value", (reader.n + 1) // 2)
            return Whispers(cells, gap or 0)
        if cls is EntropicLine:
            return EntropicLine(cells, reader.n)
        if cls is RegionSumLine:
            return RegionSumLine.cut(cells, reader.region)
        return cls(cells)

    def shape(where: str, item: dict[str, Any], cells: list[Cell]) -> None:
        shapes.line(where, key, cells)

    return _each_line(reader, key, build, shape)


def _arrow(reader: Reader, key: str) -> Iterator[Constraint]:
    def circle(where: str, item: dict[str, Any]) -> list[Cell]:
        return reader.cells(item.get("cells", []), f"{where} cells", distinct=False)

    def build(item: dict[str, Any], cells: list[Cell]) -> Constraint:
        return Arrow(circle(key, item), cells[1:])

    def shape(where: str, item: dict[str, Any], cells: list[Cell]) -> None:
        shapes.arrow(where, circle(where, item), cells)

    return _each_line(reader, key, build, shape)


#: Every rule key, in the order its constraints are added, and its reader.
KEYS: dict[str, KeyReader] = {
    **{key: _boolean for key in BOOLEAN_KEYS},
    "nonconsecutive": _nonconsecutive,
    "negative": _negative,
    "difference": _edge,
    "ratio": _edge,
    "xv": _edge,
    "odd": _single_cells,
    "even": _single_cells,
    "minimum": _single_cells,
    "maximum": _single_cells,
    "killercage": _killer,
    "extraregion": _extra_region,
    "quadruple": _quadruple,
    "clone": _clone,
    "rowindexer": _indexer,
    "columnindexer": _indexer,
    "boxindexer": _indexer,
    "littlekillersum": _outside,
    "sandwichsum": _outside,
    "xsum": _outside,
    "skyscraper": _outside,
    "arrow": _arrow,
    **{
        key: _lines
        for key in (
            "thermometer", "slowthermometer", "palindrome", "renban", "whispers", "betweenline",
            "regionsumline", "entropicline", "modularline", "zipperline", "nabner", "doublearrow",
        )
    },
}  # fmt: skip


def puzzle_name(data: dict[str, Any]) -> str:
    """``Title by Author`` (either part when the other is missing)."""
    title, author = data.get("title"), data.get("author")
    title = title.strip() if isinstance(title, str) else ""
    author = author.strip() if isinstance(author, str) else ""
    return f"{title} by {author}" if title and author else title or author


def stated_solution(data: dict[str, Any], n: int) -> Grid | None:
    """The ``solution`` key as a grid: n*n entries, row-major, each a digit 1..n (a number
    or a numeric string).  None when there is no ``solution`` (absent, null or empty) or
    when it has unknown cells (``"."``, ``0`` or ``""``, which the format allows): a grid
    with gaps is not compared with the verdict.

    Raises:
        PuzzleError: not a list of n*n entries, or an entry that is neither a digit 1..n
            nor an unknown mark, naming the cell.
    """
    raw = data.get("solution")
    if raw is None or raw == []:
        return None
    if not isinstance(raw, list) or len(raw) != n * n:
        got = f"{len(raw)} entries" if isinstance(raw, list) else type(raw).__name__
        raise PuzzleError(
            f"solution: expected a list of {n * n} digits for the {n}x{n} grid "
            f"(row-major, '.' or 0 for an unknown cell), got {got}"
        )
    values = []
    for k, v in enumerate(raw):
        if isinstance(v, str):
            v = int(v) if re.fullmatch(r"\s*[0-9]{1,2}\s*", v) else v.strip()
        if v in UNKNOWN and not isinstance(v, bool):
            values.append(0)
        elif isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
            cell = cell_name(divmod(k, n))
            raise PuzzleError(
                f"solution: {cell} holds {v!r}; expected a digit 1..{n}, or '.' or 0 for "
                "an unknown cell",
                cells=[divmod(k, n)],
            )
        else:
            values.append(v)
    return None if 0 in values else tuple(values)


def from_data(data: dict[str, Any]) -> tuple[Puzzle, Grid | None]:
    """The puzzle of an f-puzzles object (named ``Title by Author``) and its stated
    solution (or None).

    Raises:
        PuzzleError: an unknown key, a cell outside the grid, a size outside 1..16, a
            line through a cell twice, an arrow without a circle, a clue outside
            the grid on no row or column, a shape the format does not allow
            (:mod:`cp_sudoku.io.fpuzzles_shapes`), a malformed ``solution``, ...:
            the message names the key and the cell.
    """
    reader = Reader(data)
    puzzle = reader.puzzle(puzzle_name(data))
    return puzzle, stated_solution(data, reader.n)


def parse_fpuzzles(text: str) -> Puzzle:
    """The puzzle of f-puzzles ``text``: JSON, a compressed string or a link.

    Raises:
        PuzzleError: see :func:`from_data` and :func:`~cp_sudoku.io.fpuzzles_link.decode`.
    """
    return from_data(decode(text))[0]


def read_fpuzzles(
    lines: Iterable[str], source: str = "<input>", options: ReadOptions | None = None
) -> Iterator[Entry]:
    """Each puzzle of an f-puzzles source: one JSON object (over any number of lines), or
    one JSON object, string or link per line; ``#`` comment lines are skipped."""
    numbered = [
        (number, line.rstrip("\r\n"))
        for number, line in enumerate(lines, start=1)
        if not skipped(line)
    ]
    body = "\n".join(line for _, line in numbered)
    if numbered and len(numbered) > 1 and body.lstrip().startswith("{"):
        try:
            json.loads(body)
        except (ValueError, RecursionError):
            pass  # not one object (or not one this reader takes): one per line
        else:
            number, first = numbered[0]
            yield _entry(source, number, first.strip()[:80], body)
            return
    for number, line in numbered:
        yield _entry(source, number, line.strip()[:80], line)


def _entry(source: str, line: int, shown: str, text: str) -> Entry:
    try:
        puzzle, solution = from_data(decode(text))
    except PuzzleError as error:
        return Entry(source, line, shown, error=error.located(source, line))
    return Entry(source, line, shown, puzzle=puzzle, solution=solution)


def sniff_fpuzzles(head: Sequence[str], source: str) -> str | None:
    """``fpuzzles`` when the source starts with f-puzzles JSON (``{"size":``, as f-puzzles
    writes it, on one line or spread over several, as a pretty-printer writes it; or an
    object whose first lines name both ``"size"`` and ``"grid"``, as one with its keys
    reordered does), a compressed string or a link carrying one."""
    lines = [line for line in head if not skipped(line)]
    if not lines:
        return None
    text = "".join(lines)
    if _JSON_START.match(text) or (
        text.lstrip().startswith("{") and all(_KEY.format(key) in text for key in ("size", "grid"))
    ):
        return "fpuzzles"
    return "fpuzzles" if looks_like_fpuzzles(lines[0]) else None
