r"""Kakuro: white cells take 1..9; each run sums to its clue with distinct digits.

A run is a maximal horizontal or vertical line of white cells; its clue
stands in the square before it.  Clue and black squares are not cells, only
``labels`` (``D\A``) for display.

Text keys: ``grid:`` (required), rows of squares separated by spaces: ``_``
a white cell, ``x`` a black square, ``D\A`` a clue (down sum D, across sum
A; ``6\``, ``\10``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cp_sudoku.kinds.base import Kind
from cp_sudoku.kinds.drawing import kakuro_squares
from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError, cell_name
from cp_sudoku.numbers import MAX_SIZE, is_number, read_number, shown


@dataclass(frozen=True)
class Clue:
    """A Kakuro square that is not a cell: the sums of the runs it starts.

    ``down`` is the sum of the run below it, ``across`` of the run to its
    right; None where no run starts.  ``Clue()`` (neither) is a black square.
    Written ``D\\A`` (``6\\``, ``\\10``, ``4\\3``); a black square ``x``.
    """

    down: int | None = None
    across: int | None = None

    @classmethod
    def parse(cls, text: str) -> Clue:
        """The clue written ``D\\A`` (either side may be empty; ``\\`` alone is black).

        Raises:
            PuzzleError: not of that form, or a side that is not a number.
        """
        down, slash, across = text.partition("\\")
        if not slash or not all(part == "" or is_number(part) for part in (down, across)):
            raise PuzzleError(
                f"expected a clue D\\A such as 6\\ or \\10 or 4\\3, got {shown(text)}"
            )
        return cls(
            read_number(down, "a clue") if down else None,
            read_number(across, "a clue") if across else None,
        )

    def text(self) -> str:
        """``D\\A`` with empty sides left out, or ``x`` for a black square."""
        if self.down is None and self.across is None:
            return "x"
        down = "" if self.down is None else str(self.down)
        across = "" if self.across is None else str(self.across)
        return f"{down}\\{across}"


#: A Kakuro square: a :class:`Clue` (or black square), or None for a white cell.
Square = Clue | None


def kakuro(layout: Sequence[Sequence[Square]], *, distinct: bool = True, name: str = "") -> Puzzle:
    """A Kakuro: white cells take 1..9, each run sums to its clue, digits distinct.

    Args:
        layout: rows of squares, all of one length: None for a white cell, a
            :class:`Clue` for a clue square (``Clue()`` for a black one).
        distinct: digits differ within a run (the published rule); False
            only to study what the rule adds.

    A run of two or more white cells must start right after a clue in its
    direction; a lone white cell may have no clue in one direction (it is
    then constrained by the other run only).  A one-cell run with a clue
    becomes an ``=`` cage.  Clue squares get ``labels`` (``D\\A``) for
    display; black squares are neither cells nor labelled.

    Raises:
        PuzzleError: more than 100 rows or columns; ragged rows; a clue whose
            run is empty; a run of two or more cells without a clue; a clue
            that is not positive; a sum out of reach for its run length; no
            white cell at all.
    """
    rows = len(layout)
    cols = len(layout[0]) if rows else 0
    if rows > MAX_SIZE or cols > MAX_SIZE:
        raise PuzzleError(f"a Kakuro of {rows} x {cols} squares: at most {MAX_SIZE} x {MAX_SIZE}")
    for r, row in enumerate(layout):
        if len(row) != cols:
            raise PuzzleError(f"Kakuro row {r + 1} has {len(row)} squares, expected {cols}")
    white = {(r, c) for r in range(rows) for c in range(cols) if layout[r][c] is None}
    if not white:
        raise PuzzleError("a Kakuro needs at least one white cell")
    cages: list[Cage] = []
    labels: dict[Cell, str] = {}
    for r in range(rows):
        for c in range(cols):
            square = layout[r][c]
            if square is None:
                continue
            if square.down is not None or square.across is not None:
                labels[(r, c)] = square.text()
            for total, step, way, where in (
                (square.down, (1, 0), "down", "below it"),
                (square.across, (0, 1), "across", "to its right"),
            ):
                if total is None:
                    continue
                run = _run(white, (r + step[0], c + step[1]), step)
                if not run:
                    raise PuzzleError(
                        f"clue at {cell_name((r, c))}: {way} sum {total}, but no white cell {where}"
                    )
                if total < 1:
                    raise PuzzleError(
                        f"clue at {cell_name((r, c))}: a {way} sum must be positive, got {total}"
                    )
                op = "+" if len(run) > 1 else "="
                cages.append(Cage(run, op, total, distinct and len(run) > 1))
    _check_runs_have_clues(layout, white)
    clued = {cell for cage in cages for cell in cage.cells}
    lonely = sorted(white - clued)
    if lonely:
        raise PuzzleError(f"white cell {cell_name(lonely[0])} is in no run with a clue")
    return Puzzle(
        rows=rows,
        cols=cols,
        cells=tuple(sorted(white)),
        max_value=9,
        constraints=tuple(cages),
        kind="kakuro",
        labels=labels,
        name=name,
    )


def _run(white: set[Cell], start: Cell, step: Cell) -> tuple[Cell, ...]:
    run = []
    cell = start
    while cell in white:
        run.append(cell)
        cell = (cell[0] + step[0], cell[1] + step[1])
    return tuple(run)


def _check_runs_have_clues(layout: Sequence[Sequence[Square]], white: set[Cell]) -> None:
    for cell in sorted(white):
        for step, way, attr in (((0, 1), "across", "across"), ((1, 0), "down", "down")):
            before = (cell[0] - step[0], cell[1] - step[1])
            if before in white:
                continue  # not the first cell of its run
            run = _run(white, cell, step)
            inside = 0 <= before[0] < len(layout) and 0 <= before[1] < len(layout[0])
            clue = layout[before[0]][before[1]] if inside else None
            if len(run) > 1 and (clue is None or getattr(clue, attr) is None):
                raise PuzzleError(
                    f"the {way} run {cell_name(run[0])}-{cell_name(run[-1])} has no clue: "
                    f"expected a clue with a {way} sum before it"
                )


def _build(values: Mapping[str, Any], name: str) -> Puzzle:
    if "grid" not in values:
        raise PuzzleError("a kakuro needs a 'grid:' section with at least one line")
    return kakuro(values["grid"], name=name)


def layout_of(puzzle: Puzzle) -> list[list[Square]]:
    """The squares of a Kakuro puzzle, rows of :data:`Square` (what :func:`kakuro` takes)."""
    cells = set(puzzle.cells)

    def square(cell: Cell) -> Square:
        if cell in cells:
            return None
        label = puzzle.labels.get(cell)
        return Clue.parse(label) if label else Clue()

    return [[square((r, c)) for c in range(puzzle.cols)] for r in range(puzzle.rows)]


def _text(puzzle: Puzzle) -> dict[str, Any]:
    if any(len(c.cells) > 1 and not c.distinct for c in puzzle.cages):
        raise PuzzleError("a Kakuro whose runs may repeat digits has no text form")
    return {"grid": layout_of(puzzle)}


KIND = Kind(
    name="kakuro",
    summary="white cells 1..9; each run sums to its clue with distinct digits",
    keys={"grid": "squares"},
    build=_build,
    text=_text,
    draw=kakuro_squares,
)
