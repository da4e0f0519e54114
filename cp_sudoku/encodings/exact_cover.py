"""A puzzle of all-different units as an exact cover problem: pure, no solver involved.

Knuth's formulation ("Dancing Links", 2000, section on Sudoku-like puzzles):

- one *option* (row of the matrix) per cell and value: the cell holds it;
- one *column* per cell ("the cell holds a value") and one per unit and
  value ("the unit holds the value").  An option covers its cell's column
  and the (unit, value) column of every unit of its cell.

For an n x n Sudoku that is 4 n^2 columns (cells, row-values,
column-values, box-values) and n^3 options; jigsaw regions replace the
boxes, and the diagonals of X-Sudoku and the windows of Windoku add n
columns each.  A column is *primary* (covered exactly once) when its unit
has as many cells as there are values; otherwise *secondary* (covered at
most once), as Knuth's generalised exact cover allows.

Only :class:`~cp_sudoku.model.Unit` constraints are exact cover: a sum or an
arithmetic cage is not a statement about which options to choose but about
the values they carry, so puzzles with cages, relations or Skyscraper clues
are outside this encoding (:func:`to_exact_cover` raises
:class:`~cp_sudoku.model.Unsupported`).  Givens are not in the matrix: the
solver selects their options first.
"""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.encodings.size import MAX_CELL_VALUES, within
from cp_sudoku.model import Puzzle, Unit, Unsupported, cell_name


@dataclass(frozen=True)
class ExactCover:
    """The matrix, sparse: columns, and the options with the columns each covers.

    - ``columns``: column names (``r1c2`` for a cell, ``row 1=5`` for a
      unit and value);
    - ``primary[k]``: whether column ``k`` must be covered (else at most once);
    - ``options[j]``: ``(cell position, value)`` of option ``j``
      (``Puzzle.cells`` order);
    - ``covers[j]``: the columns option ``j`` covers, its cell's first.
    """

    columns: tuple[str, ...]
    primary: tuple[bool, ...]
    options: tuple[tuple[int, int], ...]
    covers: tuple[tuple[int, ...], ...]


def to_exact_cover(puzzle: Puzzle) -> ExactCover:
    """The exact cover matrix of ``puzzle``'s cells and units (see the module docstring).

    Raises:
        Unsupported: the puzzle has constraints other than all-different units.
        EncodingTooLarge: more than :data:`~cp_sudoku.encodings.size.MAX_CELL_VALUES` options.
    """
    other = sorted({type(c).__name__ for c in puzzle.constraints if not isinstance(c, Unit)})
    if other:
        raise Unsupported(f"exact cover holds all-different units only, not {', '.join(other)}")
    values = list(puzzle.values)
    within(len(puzzle.cells) * len(values), MAX_CELL_VALUES, "options", "exact cover matrix")
    columns = [cell_name(cell) for cell in puzzle.cells]
    primary = [True] * len(columns)
    unit_columns: list[dict[int, int]] = []
    for unit in puzzle.units:
        full = len(unit.cells) == len(values)
        unit_columns.append({v: len(columns) + k for k, v in enumerate(values)})
        columns += [f"{unit.name}={v}" for v in values]
        primary += [full] * len(values)
    units_of: list[list[int]] = [[] for _ in puzzle.cells]
    index = puzzle.index
    for u, unit in enumerate(puzzle.units):
        for cell in unit.cells:
            units_of[index[cell]].append(u)
    options = []
    covers = []
    for i in range(len(puzzle.cells)):
        for value in values:
            options.append((i, value))
            covers.append((i, *(unit_columns[u][value] for u in units_of[i])))
    return ExactCover(tuple(columns), tuple(primary), tuple(options), tuple(covers))
