r"""Puzzles drawn as squares, two text lines per square, outlines between groups.

A label line (a cage target ``11+``, a Kakuro clue ``D\A``, marks of the
extra units: ``\`` and ``/`` diagonals, ``X`` where they cross, ``#``
windows) and a value line (the value, ``.`` for a blank).  Thick outlines
become ``|`` and ``-`` between squares of different groups (cages, regions,
boxes).  Groups and labels come from the marks each constraint gives
(:meth:`~cp_sudoku.constraints.Constraint.marks`: ``cage``, ``region``,
``shade``), never from a kind or type name; :func:`rule_lines` lists in words
the constraints whose marks the squares cannot show (lines, dots, arrows).
"""

from __future__ import annotations

from collections.abc import Mapping

from cp_sudoku.constraints import Mark
from cp_sudoku.model import Cell, Puzzle

#: Mark shapes a boxed drawing shows (region outlines, label-line shading); a cage
#: drawing shows its cages as well.
BOXED = frozenset({"region", "shade"})
CAGED = BOXED | {"cage"}
#: The label-line mark of each kind of shaded unit.
SHADES = {"diagonal": "\\", "anti-diagonal": "/", "window": "#"}


def all_marks(puzzle: Puzzle, shape: str) -> list[Mark]:
    """Every mark of ``shape`` the puzzle's constraints give, in constraint order."""
    return [m for c in puzzle.constraints for m in c.marks() if m.shape == shape]


def cage_groups(puzzle: Puzzle) -> tuple[dict[Cell, int], dict[Cell, str]]:
    """Cell -> its cage (a group), and each cage's label on its first cell (the ``cage``
    marks: ``11+`` in a KenKen, ``11`` for a Killer sum)."""
    groups: dict[Cell, int] = {}
    labels: dict[Cell, str] = {}
    cages = all_marks(puzzle, "cage")
    for k, cage in enumerate(cages):
        for cell in cage.cells:
            groups.setdefault(cell, k)
        labels[min(cage.cells)] = cage.label
    for k, cell in enumerate(puzzle.cells, start=len(cages)):
        groups.setdefault(cell, k)  # a cell in no cage is a group of its own
    return groups, labels


def draw_cages(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    """Cages outlined, each labelled as its mark says; the rules the squares cannot show
    listed below."""
    groups, labels = cage_groups(puzzle)
    return squares(puzzle, groups, labels, values) + rule_lines(puzzle, CAGED)


def unit_groups(puzzle: Puzzle, role: str) -> dict[Cell, int]:
    """Cell -> the ``region`` mark of ``role`` (``box``, ``region``) it is in."""
    groups: dict[Cell, int] = {}
    for k, region in enumerate(all_marks(puzzle, "region")):
        if region.style == role:
            for cell in region.cells:
                groups[cell] = k
    return groups


def marks(puzzle: Puzzle) -> dict[Cell, str]:
    """Label-line marks of the ``shade`` marks: ``\\`` and ``/`` diagonals (``X`` where
    they cross), ``#`` windows."""
    found: dict[Cell, str] = {}
    for shade in all_marks(puzzle, "shade"):
        mark = SHADES.get(shade.style)
        if mark is None:
            continue
        for cell in shade.cells:
            found[cell] = "X" if cell in found and mark != "#" else mark
    return found


def rule_lines(puzzle: Puzzle, drawn: frozenset[str] = BOXED) -> str:
    """One line per constraint with a mark whose shape is not in ``drawn`` (a thermometer,
    a dot, a sign): its own words, ``thermometer r2c3-r2c7``; empty when there is none."""
    listed = [
        c.describe() for c in puzzle.constraints if any(m.shape not in drawn for m in c.marks())
    ]
    return "".join(f"  {line}\n" for line in listed)


def kakuro_squares(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    """A Kakuro: every square its own group, clue labels, black squares filled with ``#``."""
    cells = set(puzzle.cells)
    positions = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    groups = {cell: k for k, cell in enumerate(positions)}
    black = {p for p in positions if p not in cells and p not in puzzle.labels}
    return squares(puzzle, groups, dict(puzzle.labels), values, black)


def squares(
    puzzle: Puzzle,
    groups: Mapping[Cell, int],
    labels: Mapping[Cell, str],
    values: Mapping[Cell, int],
    filled: set[Cell] | frozenset[Cell] = frozenset(),
) -> str:
    """Squares two lines high, outlines between different groups, ``#`` for ``filled``.

    ``values``: cell -> value (givens or a solution); other cells show ``.``.
    """
    rows, cols, cells = puzzle.rows, puzzle.cols, set(puzzle.cells)
    texts = {cell: str(v) for cell, v in values.items()}
    width = max([3, *(len(t) + 2 for t in texts.values()), *(len(t) + 1 for t in labels.values())])

    def inside(cell: Cell) -> bool:
        return 0 <= cell[0] < rows and 0 <= cell[1] < cols

    def wall(a: Cell, b: Cell) -> bool:
        """An outline between squares a and b (the grid's edge included)."""
        if not inside(a) or not inside(b):
            return inside(a) or inside(b)
        return groups.get(a, -1 - a[0] * cols - a[1]) != groups.get(b, -1 - b[0] * cols - b[1])

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
