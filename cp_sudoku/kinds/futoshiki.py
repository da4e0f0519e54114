"""Futoshiki: an n x n Latin square with givens and ``<`` signs between adjacent cells.

The model: rows and columns all-different (values 1..n), each sign a
:class:`~cp_sudoku.model.Relation` ``<`` (``a > b`` is kept as ``b < a``).

Text keys: ``size: N`` (when there is no grid), ``grid:`` (optional
givens), ``relations:`` one per line or ``;``-separated::

    kind: futoshiki
    size: 5
    relations:
    r1c1 < r1c2
    r2c4 > r3c4; r5c1 < r5c2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cp_sudoku.kinds.base import GridText, Kind, RelationText
from cp_sudoku.kinds.grid import flat_grid, grid_of, grid_size, square_puzzle, sudoku_units
from cp_sudoku.model import Cell, Puzzle, PuzzleError, Relation, cell_name

#: A sign as written: first cell, ``<`` or ``>``, second cell.
Sign = tuple[Cell, str, Cell]


def futoshiki(n: int, signs: Sequence[Sign], grid: Any = None, *, name: str = "") -> Puzzle:
    """A Futoshiki: n x n Latin square (values 1..n) with inequality signs.

    Args:
        n: the grid size, >= 1.
        signs: ``(first, "<" or ">", second)`` between orthogonally adjacent cells.
        grid: optional givens, ``n * n`` values row-major, 0 for a blank.

    Raises:
        PuzzleError: n < 1; a sign that is not ``<`` or ``>``; a sign between
            cells that are not adjacent or outside the grid; a grid of
            another size.  Signs that contradict each other are valid (no
            solution).
    """
    if n < 1:
        raise PuzzleError(f"a Futoshiki needs n >= 1, got {n}")
    values = flat_grid(grid) if grid is not None else [0] * (n * n)
    if grid_size(len(values)) != n:
        raise PuzzleError(f"a {n}x{n} Futoshiki needs {n * n} grid values, got {len(values)}")
    relations = tuple(_relation(*sign) for sign in signs)
    rules = (*sudoku_units(n, None), *relations)
    return square_puzzle(n, "futoshiki", values, name=name, constraints=rules)


def _relation(first: Cell, op: str, second: Cell) -> Relation:
    if op not in ("<", ">"):
        raise PuzzleError(f"a Futoshiki sign is < or >, got {op!r}", cells=(first, second))
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
        raise PuzzleError(
            f"{cell_name(first)} {op} {cell_name(second)}: a sign stands between two "
            "orthogonally adjacent cells",
            cells=(first, second),
        )
    return Relation(first, second, "<") if op == "<" else Relation(second, first, "<")


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    grid: GridText | None = values.get("grid")
    size = values.get("size") or (grid_size(len(grid.values)) if grid else None)
    if size is None:
        raise PuzzleError("a futoshiki needs 'size: N' or a 'grid:'")
    signs: list[RelationText] = values.get("relations", [])
    return futoshiki(
        size, [(s.first, s.op, s.second) for s in signs], grid.values if grid else None, name=name
    )


def _text(puzzle: Puzzle) -> dict[str, Any]:
    keys: dict[str, Any] = (
        {"grid": GridText(grid_of(puzzle))} if puzzle.givens else {"size": puzzle.rows}
    )
    keys["relations"] = [
        RelationText(r.cells[0], "<", r.cells[1]) for r in puzzle.of_type(Relation)
    ]
    return keys


def _draw(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    """Values with the signs between them: ``<`` ``>`` in a row, ``^`` ``v`` in a column."""
    sign: dict[tuple[Cell, Cell], str] = {}
    for relation in puzzle.of_type(Relation):
        low, high = relation.cells
        a, b = sorted((low, high))
        if a[0] == b[0]:
            sign[(a, b)] = "<" if a == low else ">"
        else:
            sign[(a, b)] = "^" if a == low else "v"
    lines = []
    for r in range(puzzle.rows):
        row = ""
        for c in range(puzzle.cols):
            row += str(values.get((r, c), "."))
            if c + 1 < puzzle.cols:
                row += f" {sign.get(((r, c), (r, c + 1)), ' ')} "
        lines.append(row.rstrip())
        if r + 1 < puzzle.rows:
            between = [sign.get(((r, c), (r + 1, c)), " ") for c in range(puzzle.cols)]
            lines.append("   ".join(between).rstrip())
    return "\n".join(lines) + "\n"


KIND = Kind(
    name="futoshiki",
    summary="n x n Latin square; < and > signs between adjacent cells",
    keys={"size": "size", "grid": "grid", "relations": "relations"},
    build=_build,
    text=_text,
    draw=_draw,
)
