"""Skyscrapers: an n x n grid of building heights with clues outside the grid.

A clue is the number of buildings seen from its side: a building is seen
when it is taller than every building before it.  Every row and column holds
each height 1..K once (K = n by default); when K < n the other n - K cells
are empty (value 0), not counted and hiding nothing.  Givens are allowed.
Extra ``diagonals``: both long diagonals also hold each height once.

The model: rows and columns are :class:`~cp_sudoku.model.Unit` (K = n) or
:class:`~cp_sudoku.model.SparseUnit` with ``min_value`` 0 (K < n); each clue
a :class:`~cp_sudoku.model.Visibility`.

Text keys: ``size: N`` (required), ``heights: K`` (default N), ``top:``,
``bottom:``, ``left:``, ``right:`` (N clues each, left to right or top to
bottom, ``.`` or ``-`` for no clue), ``grid:`` (optional givens),
``extras: diagonals``::

    kind: skyscrapers
    size: 4
    heights: 3
    top: 2 2 1 2
    bottom: 1 2 3 1
    left: 2 2 3 1
    right: 2 2 1 3
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cp_sudoku.kinds.base import GridText, Kind
from cp_sudoku.kinds.extras import diagonals, extras_of
from cp_sudoku.kinds.grid import flat_grid, grid_of, grid_size, square_puzzle, sudoku_units
from cp_sudoku.model import Cell, Puzzle, PuzzleError, SparseUnit, Unit, Visibility

SIDES = ("top", "bottom", "left", "right")


def lines_of_sight(n: int, side: str, k: int) -> tuple[Cell, ...]:
    """The cells seen from clue ``k`` (0-based) of ``side``, nearest first."""
    near = range(n)
    far = range(n - 1, -1, -1)
    if side == "top":
        return tuple((r, k) for r in near)
    if side == "bottom":
        return tuple((r, k) for r in far)
    if side == "left":
        return tuple((k, c) for c in near)
    return tuple((k, c) for c in far)


def skyscrapers(
    n: int,
    clues: Mapping[str, Sequence[int | None]],
    grid: Any = None,
    *,
    heights: int | None = None,
    extras: Iterable[str] = (),
    name: str = "",
) -> Puzzle:
    """A Skyscrapers puzzle.

    Args:
        n: the grid size, >= 1.
        clues: side (``top``, ``bottom``, ``left``, ``right``) -> n clues (None
            for no clue), left to right or top to bottom.
        grid: optional givens, ``n * n`` heights row-major, 0 for a blank.
        heights: K, the tallest building, 1..n (default n).
        extras: ``diagonals`` only.

    Raises:
        PuzzleError: n < 1; an unknown side; a side without n clues; K
            outside 1..n; an extra other than ``diagonals``; a grid of
            another size.  Clues out of reach are valid (no solution).
    """
    if n < 1:
        raise PuzzleError(f"a Skyscrapers puzzle needs n >= 1, got {n}")
    top = n if heights is None else heights
    if not 1 <= top <= n:
        raise PuzzleError(f"heights must be 1..{n}, got {top}")
    named = extras_of(extras)
    if set(named) - {"diagonals"}:
        raise PuzzleError(f"a Skyscrapers puzzle takes only the diagonals extra, got {named}")
    values = flat_grid(grid) if grid is not None else [0] * (n * n)
    if grid_size(len(values)) != n:
        raise PuzzleError(f"a {n}x{n} Skyscrapers needs {n * n} grid values, got {len(values)}")
    lines: tuple[Unit, ...] = sudoku_units(n, None)
    if "diagonals" in named:
        lines += diagonals(n)
    seen = []
    for side, row in clues.items():
        if side not in SIDES:
            raise PuzzleError(f"unknown side {side!r}: expected one of {', '.join(SIDES)}")
        if len(row) != n:
            raise PuzzleError(f"'{side}:' needs {n} clues (. for none), got {len(row)}")
        seen += [
            Visibility(lines_of_sight(n, side, k), count, side)
            for k, count in enumerate(row)
            if count is not None
        ]
    sparse = top < n
    return square_puzzle(
        n,
        "skyscrapers",
        values,
        max_value=top,
        name=name,
        constraints=(
            *(() if sparse else lines),
            *(SparseUnit(u.name, u.cells, top, u.role) for u in (lines if sparse else ())),
            *seen,
        ),
        min_value=0 if sparse else 1,
        extras=named,
    )


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    if "size" not in values:
        raise PuzzleError("a skyscrapers needs 'size: N'")
    grid: GridText | None = values.get("grid")
    return skyscrapers(
        values["size"],
        {side: values[side] for side in SIDES if side in values},
        grid.values if grid else None,
        heights=values.get("heights"),
        extras=values.get("extras", ()),
        name=name,
    )


def clue_rows(puzzle: Puzzle) -> dict[str, list[int | None]]:
    """Side -> its n clues (None for no clue), for every side with a clue."""
    n = puzzle.rows
    rows: dict[str, list[int | None]] = {}
    for clue in puzzle.of_type(Visibility):
        first = clue.cells[0]
        k = first[1] if clue.side in ("top", "bottom") else first[0]
        rows.setdefault(clue.side, [None] * n)[k] = clue.count
    return {side: rows[side] for side in SIDES if side in rows}


def _text(puzzle: Puzzle) -> dict[str, Any]:
    keys: dict[str, Any] = {"size": puzzle.rows}
    if puzzle.min_value == 0:
        keys["heights"] = puzzle.max_value
    if puzzle.extras:
        keys["extras"] = puzzle.extras
    keys.update(clue_rows(puzzle))
    if puzzle.givens:
        keys["grid"] = GridText(grid_of(puzzle))
    return keys


def _draw(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    """The heights (``.`` blank, ``0`` empty) with the clues around them."""
    n = puzzle.rows
    rows = clue_rows(puzzle)

    def clue(side: str, k: int) -> str:
        found = rows.get(side, [None] * n)[k]
        return " " if found is None else str(found)

    width = max(len(str(puzzle.max_value)), *(len(clue(s, k)) for s in SIDES for k in range(n)))

    def line(texts: list[str], left: str, right: str) -> str:
        return " ".join(t.rjust(width) for t in [left, *texts, right]).rstrip()

    out = [line([clue("top", c) for c in range(n)], " ", " ")]
    for r in range(n):
        cells = [str(values[(r, c)]) if (r, c) in values else "." for c in range(n)]
        out.append(line(cells, clue("left", r), clue("right", r)))
    out.append(line([clue("bottom", c) for c in range(n)], " ", " "))
    return "\n".join(out) + "\n"


KIND = Kind(
    name="skyscrapers",
    summary="heights 1..K once per row and column; clues count the buildings seen",
    keys={
        "size": "size",
        "heights": "heights",
        "extras": "extras",
        **{side: "clues" for side in SIDES},
        "grid": "grid",
    },
    build=_build,
    text=_text,
    draw=_draw,
    extras=("diagonals",),
)
