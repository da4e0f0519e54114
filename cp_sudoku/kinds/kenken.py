"""KenKen: an n x n Latin square (rows and columns, no boxes) with arithmetic cages.

Cages use ``+ - * /`` (``-`` and ``/`` on exactly two cells), ``=`` for a
one-cell cage, or ``?`` for a hidden operator (any of ``+ - * /`` may give
the target: Janko's Kendoku without signs).  Digits may repeat within a cage
when they are in different rows and columns.  The cages cover every cell.

Text keys: ``size: N`` (required), ``cages:`` (``11+ r1c1 r2c1``,
``12? r1c1 r1c2`` for a hidden operator, ``4 r2c4`` for a one-cell cage).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cp_sudoku.kinds.base import CageText, Kind
from cp_sudoku.kinds.drawing import draw_cages
from cp_sudoku.kinds.grid import check_cover, square_puzzle, sudoku_units
from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError

#: A KenKen cage as written: target, operation, cells.
CageSpec = tuple[int, str, Sequence[Cell]]


def kenken(n: int, cages: Sequence[CageSpec], *, distinct: bool = False, name: str = "") -> Puzzle:
    """A KenKen: an n x n Latin square (values 1..n) with arithmetic cages.

    Args:
        n: the grid size, >= 1.
        cages: ``(target, op, cells)``; ``op`` one of ``+ - * /``, ``=`` for a
            one-cell cage or ``?`` for a hidden operator.  ``-`` and ``/``
            take exactly two cells (the published rules; larger cages are
            refused, not generalised).  The cages must cover every cell
            exactly once.
        distinct: force the digits of every cage to differ (not a KenKen
            rule: digits may repeat in different rows and columns); for
            studying what the rule changes.

    Raises:
        PuzzleError: n < 1; overlapping cages or an uncovered cell; a one-cell
            cage whose op is not ``=`` or ``?``; ``-`` or ``/`` on other than
            two cells.  A target out of reach is valid (no solution).
    """
    if n < 1:
        raise PuzzleError(f"a KenKen needs n >= 1, got {n}")
    made = tuple(Cage(tuple(cells), op, target, distinct) for target, op, cells in cages)
    puzzle = square_puzzle(n, "kenken", constraints=(*sudoku_units(n, None), *made), name=name)
    check_cover(puzzle, "KenKen")
    return puzzle


def _spec(cage: CageText) -> CageSpec:
    if cage.op is not None:
        return cage.target, cage.op, cage.cells
    if len(cage.cells) != 1:
        raise PuzzleError(
            f"cage {cage.target} over {len(cage.cells)} cells needs an operation "
            "(+ - * /, or ? for a hidden one)",
            line=cage.line,
            cells=cage.cells,
        )
    return cage.target, "=", cage.cells


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    if "size" not in values:
        raise PuzzleError("a kenken needs 'size: N'")
    if "cages" not in values:
        raise PuzzleError("a kenken needs a 'cages:' section with at least one line")
    return kenken(values["size"], [_spec(cage) for cage in values["cages"]], name=name)


def _text(puzzle: Puzzle) -> dict[str, Any]:
    if any(cage.distinct for cage in puzzle.cages):
        raise PuzzleError("a KenKen with cage digits forced to differ has no text form")
    return {
        "size": puzzle.rows,
        "cages": [CageText(c.target, None if c.op == "=" else c.op, c.cells) for c in puzzle.cages],
    }


KIND = Kind(
    name="kenken",
    summary="n x n Latin square; cage values give the target under + - * / (? hidden)",
    keys={"size": "size", "cages": "cages"},
    build=_build,
    text=_text,
    draw=draw_cages,
)
