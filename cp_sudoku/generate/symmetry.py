"""Symmetries of a given pattern: cell maps, their orbits, and whether a puzzle's shape has one.

A symmetry maps cell ``(r, c)`` of an R x C grid to another cell; the
givens of a symmetric puzzle are a union of *orbits* (a cell and its
images).  A puzzle's shape has a symmetry when the map sends its cells onto
its cells and each of its units (rows, columns, boxes, regions, diagonals,
windows) onto one of its units, so the rotated or mirrored puzzle is again
a puzzle of the same shape: 90° rotation fits a 9x9 Sudoku but not a 6x6
one with 2x3 boxes (they would become 3x2).
"""

from __future__ import annotations

from collections.abc import Callable

from cp_sudoku.model import Cell, Puzzle, UsageError

#: A symmetry: (rows, columns) of the grid -> the cell map.
CellMap = Callable[[Cell], Cell]

#: Every symmetry by name, with the words used in messages.
SYMMETRIES: dict[str, str] = {
    "none": "no symmetry",
    "rot180": "180° rotation",
    "rot90": "90° rotation",
    "mirror": "left-right mirror",
    "diagonal": "main-diagonal reflection",
}


def cell_map(name: str, rows: int, cols: int) -> CellMap:
    """The map of symmetry ``name`` on a ``rows`` x ``cols`` grid.

    Raises:
        UsageError: an unknown name.
    """
    if name == "none":
        return lambda cell: cell
    if name == "rot180":
        return lambda cell: (rows - 1 - cell[0], cols - 1 - cell[1])
    if name == "rot90":
        return lambda cell: (cell[1], rows - 1 - cell[0])
    if name == "mirror":
        return lambda cell: (cell[0], cols - 1 - cell[1])
    if name == "diagonal":
        return lambda cell: (cell[1], cell[0])
    raise UsageError(f"unknown symmetry {name!r}: expected one of {', '.join(SYMMETRIES)}")


def check_symmetry(puzzle: Puzzle, name: str) -> CellMap:
    """The map of ``name``, after checking that ``puzzle``'s shape has it.

    Raises:
        UsageError: an unknown name, or a shape without that symmetry (one line
            naming the unit or cell that breaks it).
    """
    mapping = cell_map(name, puzzle.rows, puzzle.cols)
    if name == "none":
        return mapping
    words = SYMMETRIES[name]
    shape = f"a {puzzle.rows}x{puzzle.cols} {puzzle.kind}"
    if name in ("rot90", "diagonal") and puzzle.rows != puzzle.cols:
        raise UsageError(f"{shape} cannot have {words}: the grid is not square")
    cells = set(puzzle.cells)
    if any(mapping(cell) not in cells for cell in cells):
        raise UsageError(f"{shape} cannot have {words}: its cells are not symmetric")
    units = {frozenset(unit.cells) for unit in puzzle.units}
    for unit in puzzle.units:
        if frozenset(map(mapping, unit.cells)) not in units:
            raise UsageError(
                f"{shape} cannot have {words}: its {unit.name} maps onto no unit"
                + (f" (the {puzzle.box[0]}x{puzzle.box[1]} boxes)" if puzzle.box else "")
            )
    return mapping


def orbits(cells: tuple[Cell, ...], mapping: CellMap) -> list[tuple[Cell, ...]]:
    """The orbits of ``mapping`` on ``cells`` (each sorted; in the order of their first cell)."""
    seen: set[Cell] = set()
    found = []
    for cell in cells:
        if cell in seen:
            continue
        orbit = {cell}
        image = mapping(cell)
        while image not in orbit:
            orbit.add(image)
            image = mapping(image)
        seen |= orbit
        found.append(tuple(sorted(orbit)))
    return found


def is_symmetric(givens: set[Cell], mapping: CellMap) -> bool:
    """Whether the given cells are a union of orbits of ``mapping``."""
    return all(mapping(cell) in givens for cell in givens)
