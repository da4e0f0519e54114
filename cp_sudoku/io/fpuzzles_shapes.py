"""The shapes the f-puzzles format allows, checked as a key is read.

Each function raises :class:`~cp_sudoku.model.PuzzleError` naming ``where``
(the key and item, ``arrow[2]``) and the cells as rXcY; cells are 0-based
``(row, column)``.  The rules come from ``../shared/data/fpuzzles/README.md``:

- a cell list (cage, extra region, quadruple, clone, indexer) names each cell once;
- a two-cell edge mark (``difference``, ``ratio``, ``xv``) joins orthogonally
  adjacent cells ("adjacent means orthogonally adjacent");
- a line has at least two cells, and each step goes to a neighbouring cell,
  sideways or diagonally, as f-puzzles draws lines through cell centres (a
  line through a cell twice is refused by its constraint type);
- an arrow's line starts in its circle or pill ("the first cell is where the
  line leaves the circle/pill") and does not come back into it;
- a quadruple's four cells form a 2x2 square, its digits 1..n.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from cp_sudoku.constraints.linebase import repeated
from cp_sudoku.model import Cell, PuzzleError, cell_name

#: What each two-cell edge key draws.
_EDGE_MARKS = {"difference": "a white dot", "ratio": "a black dot", "xv": "an X or V"}


def cells_words(cells: Sequence[Cell]) -> str:
    """``r1c1, r1c2``: cells as a message lists them."""
    return ", ".join(map(cell_name, cells))


def distinct(where: str, cells: Sequence[Cell]) -> None:
    """Refuse a cell listed twice."""
    cell = repeated(cells)
    if cell is not None:
        raise PuzzleError(f"{where}: {cell_name(cell)} is listed twice", cells=[cell])


def edge(where: str, key: str, cells: Sequence[Cell]) -> None:
    """Refuse two cells that do not share an edge (a dot or X/V sits on that edge)."""
    (r1, c1), (r2, c2) = cells
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        raise PuzzleError(
            f"{where}: {cell_name(cells[0])} and {cell_name(cells[1])} do not touch; "
            f"{_EDGE_MARKS.get(key, 'a ' + key + ' mark')} sits on the edge between two "
            "orthogonally adjacent cells",
            cells=cells,
        )


def line(where: str, key: str, cells: Sequence[Cell]) -> None:
    """Refuse a line of one cell, or a step between cells that do not touch."""
    if len(cells) < 2:
        raise PuzzleError(
            f"{where}: a {key} line of one cell ({cells_words(cells)}) sets no rule; "
            "a line needs at least two cells",
            cells=cells,
        )
    for a, b in pairwise(cells):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise PuzzleError(
                f"{where}: the line steps from {cell_name(a)} to {cell_name(b)}, which do not "
                "touch; each step of a line goes to a neighbouring cell (sideways or diagonally)",
                cells=[a, b],
            )


def arrow(where: str, circle: Sequence[Cell], cells: Sequence[Cell]) -> None:
    """Refuse an arrow line that does not start in its circle, re-enters it, or jumps."""
    if not circle or not cells:
        return  # the Arrow type says what is missing
    if cells[0] not in circle:
        raise PuzzleError(
            f"{where}: the line starts at {cell_name(cells[0])}, outside its circle "
            f"({cells_words(circle)}); an arrow's line starts in the circle it leaves",
            cells=[cells[0], *circle],
        )
    back = next((cell for cell in cells[1:] if cell in circle), None)
    if back is not None:
        raise PuzzleError(
            f"{where}: the line comes back into its circle at {cell_name(back)}; "
            "only its first cell is in the circle",
            cells=[back],
        )
    if len(cells) > 1:
        line(where, "arrow", cells)


def square(where: str, cells: Sequence[Cell]) -> None:
    """Refuse quadruple cells that are not the four cells of a 2x2 square."""
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    if (
        len(set(cells)) != 4
        or len(rows) != 2
        or len(cols) != 2
        or max(rows) - min(rows) != 1
        or max(cols) - min(cols) != 1
    ):
        raise PuzzleError(
            f"{where}: a quadruple sits on the four cells of a 2x2 square, got "
            f"{cells_words(cells) or 'no cell'}",
            cells=cells,
        )
