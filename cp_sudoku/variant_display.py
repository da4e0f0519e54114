r"""Readable text for variant puzzles and their solutions.

Every kind is drawn as a grid of squares, two text lines per square: a
label line and a value line (the value, ``.`` for a blank).  Thick outlines
become ``|`` and ``-`` between squares of different groups:

- ``kenken``, ``killer``: groups are the cages; the label line of a cage's
  first cell (row-major) shows its target and operation (``11+``, ``2/``;
  ``=`` cages and Killer sums show the number only);
- ``jigsaw``: groups are the regions;
- ``sudoku``, ``x-sudoku``, ``windoku``: groups are the boxes; the label
  line marks the extra units: ``\`` and ``/`` the diagonals (``X`` where they
  cross), ``#`` the Windoku windows;
- ``kakuro``: every square is its own group; clue squares show ``D\A`` on
  the label line, black squares are filled with ``#``.

Example, the 4x4 KenKen of issue 4 solved (``models/kenken-4x4-issue4.txt``)::

    +-------+-------+
    |2*     |7+     |
    | 2   1 | 4   3 |
    |   +---+---+---+
    |   |6*     |4  |
    | 1 | 3   2 | 4 |
    +---+---+---+---+
    |2-     |2- |2/ |
    | 4   2 | 3 | 1 |
    +-------+   |   |
    |1-     |   |   |
    | 3   4 | 1 | 2 |
    +-------+---+---+
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cp_sudoku.model import Cell, Puzzle


def render(puzzle: Puzzle, grid: Sequence[int] | None = None) -> str:
    """``puzzle`` drawn as text, with ``grid`` (``puzzle.cells`` order) filled in.

    Without ``grid``, givens are shown and other cells are ``.``.

    Raises:
        ValueError: ``grid`` does not hold one value per cell.
    """
    if grid is not None and len(grid) != len(puzzle.cells):
        raise ValueError(f"grid has {len(grid)} values, expected {len(puzzle.cells)}")
    values = dict(puzzle.givens)
    if grid is not None:
        values.update(zip(puzzle.cells, grid, strict=True))
    if puzzle.kind == "kakuro":
        return _kakuro(puzzle, values)
    if puzzle.kind in ("kenken", "killer"):
        groups, labels = _cage_groups(puzzle)
    elif puzzle.kind == "jigsaw":
        groups = _unit_groups(puzzle, "region ")
        labels = {}
    else:
        groups = _unit_groups(puzzle, "box ")
        labels = _marks(puzzle)
    texts = {cell: str(v) for cell, v in values.items()}
    return _draw(puzzle, groups, labels, texts, set())


def _cage_groups(puzzle: Puzzle) -> tuple[dict[Cell, int], dict[Cell, str]]:
    groups: dict[Cell, int] = {}
    labels: dict[Cell, str] = {}
    for k, cage in enumerate(puzzle.cages):
        for cell in cage.cells:
            groups.setdefault(cell, k)
        op = "" if cage.op == "=" or puzzle.kind == "killer" else cage.op
        labels[min(cage.cells)] = f"{cage.target}{op}"
    for k, cell in enumerate(puzzle.cells, start=len(puzzle.cages)):
        groups.setdefault(cell, k)  # a cell in no cage is a group of its own
    return groups, labels


def _unit_groups(puzzle: Puzzle, prefix: str) -> dict[Cell, int]:
    groups: dict[Cell, int] = {}
    for k, unit in enumerate(puzzle.units):
        if unit.role == prefix.strip():
            for cell in unit.cells:
                groups[cell] = k
    return groups


def _marks(puzzle: Puzzle) -> dict[Cell, str]:
    marks: dict[Cell, str] = {}
    for unit in puzzle.units:
        mark = {"diagonal": "\\", "anti-diagonal": "/", "window": "#"}.get(unit.role)
        for cell in unit.cells if mark else ():
            marks[cell] = "X" if cell in marks and mark != "#" else mark
    return marks


def _kakuro(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    cells = set(puzzle.cells)
    positions = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    groups = {cell: k for k, cell in enumerate(positions)}
    black = {p for p in positions if p not in cells and p not in puzzle.labels}
    texts = {cell: str(v) for cell, v in values.items()}
    return _draw(puzzle, groups, dict(puzzle.labels), texts, black)


def _draw(
    puzzle: Puzzle,
    groups: Mapping[Cell, int],
    labels: Mapping[Cell, str],
    texts: Mapping[Cell, str],
    filled: set[Cell],
) -> str:
    """Squares two lines high, outlines between different groups, ``#`` for ``filled``."""
    rows, cols, cells = puzzle.rows, puzzle.cols, set(puzzle.cells)
    width = max(3, *(len(t) + 2 for t in texts.values()), *(len(t) + 1 for t in labels.values()))

    def inside(cell: Cell) -> bool:
        return 0 <= cell[0] < rows and 0 <= cell[1] < cols

    def wall(a: Cell, b: Cell) -> bool:
        """An outline between squares a and b (the grid's edge included)."""
        if not inside(a) or not inside(b):
            return inside(a) or inside(b)
        return groups.get(a, (a,)) != groups.get(b, (b,))  # type: ignore[comparison-overlap]

    def corner(r: int, c: int) -> str:
        up = wall((r - 1, c - 1), (r - 1, c))
        down = wall((r, c - 1), (r, c))
        left = wall((r - 1, c - 1), (r, c - 1))
        right = wall((r - 1, c), (r, c))
        if up or down:
            return "+" if left or right else "|"
        return "-" if left or right else " "

    def square(cell: Cell, line: int) -> str:
        if cell in filled:
            return "#" * width
        label = labels.get(cell, "")
        if line == 0:
            if label == "#":
                return "#" * width
            return label.center(width) if label in ("\\", "/", "X") else label.ljust(width)
        return texts.get(cell, "." if cell in cells else "").center(width)

    out = []
    for r in range(rows + 1):
        border = ""
        for c in range(cols + 1):
            border += corner(r, c)
            if c < cols:
                border += ("-" if wall((r - 1, c), (r, c)) else " ") * width
        out.append(border.rstrip())
        if r == rows:
            break
        for line in (0, 1):
            text = ""
            for c in range(cols + 1):
                shaded = line == 0 and labels.get((r, c - 1)) == labels.get((r, c)) == "#"
                text += "|" if wall((r, c - 1), (r, c)) else "#" if shaded else " "
                if c < cols:
                    text += square((r, c), line)
            out.append(text.rstrip())
    return "\n".join(out) + "\n"
