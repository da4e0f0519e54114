"""Jigsaw Sudoku: rows, columns and n irregular regions of n cells instead of boxes.

Text keys: ``alphabet:``, ``grid:`` (required), ``regions:`` (required: n
rows of n labels; cells with one label form a region), ``extras:``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from cp_sudoku.kinds.base import GridText, Kind
from cp_sudoku.kinds.drawing import marks, rule_lines, squares, unit_groups
from cp_sudoku.kinds.extras import EXTRAS, with_extras
from cp_sudoku.kinds.grid import flat_grid, grid_of, grid_size, square_puzzle, sudoku_units
from cp_sudoku.kinds.sudoku import extras_key
from cp_sudoku.model import Cell, Puzzle, PuzzleError, Unit, cell_name


def jigsaw(
    grid: Any,
    regions: Sequence[Hashable],
    *,
    name: str = "",
    alphabet: str | None = None,
    extras: Iterable[str] = (),
) -> Puzzle:
    """A jigsaw Sudoku: rows, columns and n irregular regions instead of boxes.

    Args:
        grid: ``n * n`` values, row-major, 0 for a blank (as
            :func:`~cp_sudoku.kinds.sudoku.sudoku` takes them).
        regions: ``n * n`` region labels, row-major (any hashable: letters,
            numbers); cells with one label form one region.  Regions are
            named by their label in messages.
        extras: names from :data:`~cp_sudoku.kinds.extras.EXTRAS` (windows
            need n to be a square).

    Raises:
        PuzzleError: the lengths differ or are not square; not exactly n
            regions; a region without exactly n cells (naming it and its
            first cell).
    """
    values = flat_grid(grid)
    n = grid_size(len(values))
    if len(regions) != len(values):
        raise PuzzleError(
            f"expected {len(values)} region labels for a {n}x{n} grid, got {len(regions)}"
        )
    members: dict[Hashable, list[Cell]] = {}
    for i, label in enumerate(regions):
        members.setdefault(label, []).append((i // n, i % n))
    if len(members) != n:
        raise PuzzleError(f"a {n}x{n} jigsaw needs {n} regions, got {len(members)}")
    for label, cells in members.items():
        if len(cells) != n:
            raise PuzzleError(
                f"region {label} (from {cell_name(cells[0])}) has {len(cells)} cells, expected {n}",
                cells=cells,
            )
    units = sudoku_units(n, None) + tuple(
        Unit(f"region {label}", tuple(cells), "region") for label, cells in members.items()
    )
    base = square_puzzle(n, "jigsaw", values, constraints=units, alphabet=alphabet, name=name)
    return with_extras(base, extras)


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    for key in ("grid", "regions"):
        if key not in values:
            raise PuzzleError(f"a jigsaw needs a '{key}:' section with at least one line")
    grid: GridText = values["grid"]
    return jigsaw(
        grid.values,
        values["regions"],
        name=name,
        alphabet=grid.alphabet,
        extras=values.get("extras", ()),
    )


def _text(puzzle: Puzzle) -> dict[str, Any]:
    region = {
        cell: unit.name.removeprefix("region ")
        for unit in puzzle.units
        if unit.role == "region"
        for cell in unit.cells
    }
    return {
        **extras_key(puzzle),
        "grid": GridText(grid_of(puzzle), puzzle.alphabet),
        "regions": [region[cell] for cell in puzzle.cells],
    }


def _draw(puzzle: Puzzle, values: Mapping[Cell, int]) -> str:
    drawn = squares(puzzle, unit_groups(puzzle, "region"), marks(puzzle), values)
    return drawn + rule_lines(puzzle)


KIND = Kind(
    name="jigsaw",
    summary="n x n, values 1..n once in every row, column and irregular region",
    keys={"extras": "extras", "grid": "grid", "regions": "labels"},
    build=_build,
    text=_text,
    draw=_draw,
    extras=EXTRAS,
)
