"""Killer Sudoku: Sudoku units plus sum cages with distinct digits covering every cell.

Text keys: ``size: N`` (when there is no grid), ``box: RxC``, ``alphabet:``,
``grid:`` (optional givens), ``cages:`` (a sum and cells per cage:
``11+ r1c1 r1c2``, ``3: A1,A2``; the ``+`` may be left out), ``extras:``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cp_sudoku.kinds.base import CageText, GridText, Kind
from cp_sudoku.kinds.drawing import draw_cages
from cp_sudoku.kinds.extras import EXTRAS
from cp_sudoku.kinds.grid import check_cover, grid_of
from cp_sudoku.kinds.sudoku import KIND as SUDOKU
from cp_sudoku.kinds.sudoku import box_key, extras_key, sudoku
from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError


def killer(
    cages: Sequence[tuple[int, Sequence[Cell]]],
    grid: Any = None,
    *,
    size: int = 9,
    **options: Any,
) -> Puzzle:
    """A Killer Sudoku: Sudoku units plus sum cages with distinct digits.

    Args:
        cages: ``(sum, cells)`` pairs; together they must cover every cell
            exactly once.  A one-cell cage gives its value (an ``=`` cage).
        grid: optional givens, ``n * n`` values row-major, 0 for a blank
            (as :func:`~cp_sudoku.kinds.sudoku.sudoku` takes them); without
            it the grid is ``size`` x ``size`` and empty.
        options: ``box``, ``name``, ``alphabet``, ``extras``, as
            :func:`~cp_sudoku.kinds.sudoku.sudoku` takes them.

    Raises:
        PuzzleError: a cage overlaps another or a cell is in no cage (naming
            the cell, ``cells`` the later cage); a bad grid or box.
    """
    base = sudoku(grid if grid is not None else [0] * (size * size), **options)
    made = tuple(
        Cage(tuple(cells), "+", target, True) if len(cells) > 1 else Cage(tuple(cells), "=", target)
        for target, cells in cages
    )
    puzzle = replace(base, kind="killer", constraints=base.constraints + made)
    check_cover(puzzle, "Killer Sudoku")
    return puzzle


def _sum(cage: CageText) -> tuple[int, tuple[Cell, ...]]:
    if cage.op not in (None, "+", "="):
        raise PuzzleError(
            f"a Killer cage is a sum: use '+' or no operation, got {cage.op!r}",
            line=cage.line,
            cells=cage.cells,
        )
    return cage.target, cage.cells


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    size: int | None = values.get("size")
    grid: GridText | None = values.get("grid")
    if grid is None and size is None:
        raise PuzzleError("a killer needs 'size: N' or a 'grid:'")
    if "cages" not in values:
        raise PuzzleError("a killer needs a 'cages:' section with at least one line")
    if grid is not None and size is not None and size * size != len(grid.values):
        raise PuzzleError(f"'size: {size}' but the grid has {len(grid.values)} cells")
    return killer(
        [_sum(cage) for cage in values["cages"]],
        grid.values if grid else None,
        size=size or 9,
        box=values.get("box"),
        name=name,
        alphabet=grid.alphabet if grid else None,
        extras=values.get("extras", ()),
    )


def _text(puzzle: Puzzle) -> dict[str, Any]:
    keys: dict[str, Any] = {**box_key(puzzle), **extras_key(puzzle)}
    if puzzle.givens or puzzle.alphabet:
        keys["grid"] = GridText(grid_of(puzzle), puzzle.alphabet)
    else:
        keys["size"] = puzzle.rows
    keys["cages"] = [CageText(c.target, "+", c.cells) for c in puzzle.cages]
    return keys


KIND = Kind(
    name="killer",
    summary="Sudoku plus cages whose distinct digits sum to the cage's target",
    keys={"size": "size", **SUDOKU.keys, "cages": "cages"},
    build=_build,
    text=_text,
    draw=draw_cages,
    extras=EXTRAS,
)
