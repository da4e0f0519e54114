"""Builders for the variants: each one only emits a :class:`~cp_sudoku.model.Puzzle`.

=============  ==============================================================
kind           the model it emits
=============  ==============================================================
``killer``     Sudoku units; sum cages (``+``), digits distinct within a
               cage; the cages cover every cell exactly once
``kenken``     n x n Latin square (rows and columns, no boxes); cages with
               ``+ - * /`` (``-`` and ``/`` on exactly two cells) or ``=``
               for a one-cell cage; digits may repeat within a cage when
               they are in different rows and columns; cages cover every
               cell exactly once
``kakuro``     white cells take 1..9; each run (a maximal horizontal or
               vertical line of white cells) is a distinct-digit sum cage;
               clue and black squares are not cells, only ``labels``
``jigsaw``     rows, columns and n irregular regions of n cells
``x-sudoku``   Sudoku units plus both long diagonals
``windoku``    Sudoku units plus the (b - 1)**2 extra windows of a b x b box
               grid (the four shaded windows of a 9x9)
=============  ==============================================================

No builder knows a back end or a file format.  Grids are flat row-major
sequences of ``n * n`` values with ``0`` for a blank, as in
:func:`cp_sudoku.puzzles.sudoku`.  Cells are ``(row, column)``, 0-based;
messages write them rXcY, 1-based.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError, Unit, cell_name, cells_of
from cp_sudoku.puzzles import default_box, givens_of, grid_size, sudoku, sudoku_units

#: Kinds the builders emit (``Puzzle.kind``), plus ``sudoku`` from :mod:`cp_sudoku.puzzles`.
KINDS = ("sudoku", "killer", "kenken", "kakuro", "jigsaw", "x-sudoku", "windoku")

#: A KenKen cage as written: target, operation, cells.
CageSpec = tuple[int, str, Sequence[Cell]]


def killer(
    cages: Sequence[tuple[int, Sequence[Cell]]],
    grid: Sequence[int] | None = None,
    *,
    size: int = 9,
    box: tuple[int, int] | None = None,
    name: str = "",
) -> Puzzle:
    """A Killer Sudoku: Sudoku units plus sum cages with distinct digits.

    Args:
        cages: ``(sum, cells)`` pairs; together they must cover every cell
            exactly once.  A one-cell cage gives its value (an ``=`` cage).
        grid: optional givens, ``n * n`` values row-major, 0 for a blank;
            without it the grid is ``size`` x ``size`` and empty.
        box: (rows, columns) of a box; default :func:`~cp_sudoku.puzzles.default_box`.

    Raises:
        PuzzleError: a cage overlaps another or a cell is in no cage (naming
            the cell); a sum out of reach for its cage size; a bad grid or box.
    """
    base = sudoku(grid if grid is not None else [0] * (size * size), box, name=name)
    made = tuple(
        Cage(tuple(cells), "+", target, True) if len(cells) > 1 else Cage(tuple(cells), "=", target)
        for target, cells in cages
    )
    puzzle = _extend(base, kind="killer", cages=made)
    _check_cover(puzzle, "Killer Sudoku")
    return puzzle


def kenken(n: int, cages: Sequence[CageSpec], *, distinct: bool = False, name: str = "") -> Puzzle:
    """A KenKen: an n x n Latin square (values 1..n) with arithmetic cages.

    Args:
        n: the grid size, >= 1.
        cages: ``(target, op, cells)``; ``op`` one of ``+ - * /`` or ``=`` for a
            one-cell cage.  ``-`` and ``/`` take exactly two cells (the
            published rules; larger cages are refused, not generalised).
            Together the cages must cover every cell exactly once.
        distinct: force the digits of every cage to differ (not a KenKen
            rule: digits may repeat in different rows and columns); for
            studying what the rule changes.

    Raises:
        PuzzleError: n < 1; overlapping cages or an uncovered cell; a one-cell
            cage whose op is not ``=``; ``-`` or ``/`` on other than two
            cells; a target out of reach.
    """
    if n < 1:
        raise PuzzleError(f"a KenKen needs n >= 1, got {n}")
    made = tuple(Cage(tuple(cells), op, target, distinct) for target, op, cells in cages)
    puzzle = Puzzle(
        rows=n,
        cols=n,
        cells=cells_of(n, n),
        max_value=n,
        units=sudoku_units(n, None),
        cages=made,
        kind="kenken",
        name=name,
    )
    _check_cover(puzzle, "KenKen")
    return puzzle


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
        if not slash or not all(part == "" or part.isdigit() for part in (down, across)):
            raise PuzzleError(f"expected a clue D\\A such as 6\\ or \\10 or 4\\3, got {text!r}")
        return cls(int(down) if down else None, int(across) if across else None)

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
        PuzzleError: ragged rows; a clue whose run is empty; a run of two or
            more cells without a clue; a clue that is not positive; a sum out
            of reach for its run length; no white cell at all.
    """
    rows = len(layout)
    cols = len(layout[0]) if rows else 0
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
        cages=tuple(cages),
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


def jigsaw(grid: Sequence[int], regions: Sequence[Hashable], *, name: str = "") -> Puzzle:
    """A jigsaw Sudoku: rows, columns and n irregular regions instead of boxes.

    Args:
        grid: ``n * n`` values, row-major, 0 for a blank.
        regions: ``n * n`` region labels, row-major (any hashable: letters,
            numbers); cells with one label form one region.  Regions are
            named by their label in messages.

    Raises:
        PuzzleError: the lengths differ or are not square; not exactly n
            regions; a region without exactly n cells (naming it and its
            first cell); givens that clash.
    """
    n = grid_size(len(grid))
    if len(regions) != len(grid):
        raise PuzzleError(
            f"expected {len(grid)} region labels for a {n}x{n} grid, got {len(regions)}"
        )
    members: dict[Hashable, list[Cell]] = {}
    for i, label in enumerate(regions):
        members.setdefault(label, []).append((i // n, i % n))
    if len(members) != n:
        raise PuzzleError(f"a {n}x{n} jigsaw needs {n} regions, got {len(members)}")
    for label, cells in members.items():
        if len(cells) != n:
            raise PuzzleError(
                f"region {label} (from {cell_name(cells[0])}) has {len(cells)} cells, expected {n}"
            )
    units = sudoku_units(n, None) + tuple(
        Unit(f"region {label}", tuple(cells), "region") for label, cells in members.items()
    )
    return Puzzle(
        rows=n,
        cols=n,
        cells=cells_of(n, n),
        max_value=n,
        units=units,
        givens=givens_of(grid, n),
        kind="jigsaw",
        name=name,
    )


def x_sudoku(grid: Sequence[int], box: tuple[int, int] | None = None, *, name: str = "") -> Puzzle:
    """An X-Sudoku (diagonal Sudoku): Sudoku units plus both long diagonals.

    Raises:
        PuzzleError: as :func:`cp_sudoku.puzzles.sudoku`.
    """
    base = sudoku(grid, box, name=name)
    n = base.max_value
    diagonals = (
        Unit(
            "diagonal r1c1-" + cell_name((n - 1, n - 1)),
            tuple((i, i) for i in range(n)),
            "diagonal",
        ),
        Unit(
            f"anti-diagonal r1c{n}-" + cell_name((n - 1, 0)),
            tuple((i, n - 1 - i) for i in range(n)),
            "anti-diagonal",
        ),
    )
    return _extend(base, kind="x-sudoku", units=diagonals)


def windoku(grid: Sequence[int], box: tuple[int, int] | None = None, *, name: str = "") -> Puzzle:
    """A Windoku (hyper Sudoku): Sudoku units plus the extra windows.

    For square b x b boxes, the windows are the b x b squares whose top-left
    corners are at rows and columns ``1 + k * (b + 1)`` (0-based), k in
    0..b-2: the four shaded windows r2-4/r6-8 x c2-4/c6-8 of a 9x9.

    Raises:
        PuzzleError: the boxes are not square (no window layout is standard
            then); as :func:`cp_sudoku.puzzles.sudoku`.
    """
    b, other = box or default_box(grid_size(len(grid)))
    if b != other or b < 2:
        raise PuzzleError(f"Windoku needs square boxes of at least 2x2, got {b}x{other}")
    base = sudoku(grid, (b, b), name=name)
    starts = [1 + k * (b + 1) for k in range(b - 1)]
    windows = tuple(
        Unit(
            f"window {number}",
            tuple((top + r, left + c) for r in range(b) for c in range(b)),
            "window",
        )
        for number, (top, left) in enumerate(((t, s) for t in starts for s in starts), start=1)
    )
    return _extend(base, kind="windoku", units=windows)


def _extend(
    base: Puzzle, *, kind: str, units: Iterable[Unit] = (), cages: Iterable[Cage] = ()
) -> Puzzle:
    """``base`` with more units or cages and a new kind (validated again)."""
    return Puzzle(
        rows=base.rows,
        cols=base.cols,
        cells=base.cells,
        max_value=base.max_value,
        units=base.units + tuple(units),
        cages=base.cages + tuple(cages),
        givens=base.givens,
        kind=kind,
        box=base.box,
        alphabet=base.alphabet,
        name=base.name,
    )


def _check_cover(puzzle: Puzzle, variant: str) -> None:
    """Every cell of a built ``puzzle`` in exactly one of its cages."""
    owner: dict[Cell, Cage] = {}
    for cage in puzzle.cages:
        for cell in cage.cells:
            if cell in owner:
                raise PuzzleError(
                    f"{cell_name(cell)} is in two cages, {owner[cell].describe()} and "
                    f"{cage.describe()}: in a {variant} cages must not overlap"
                )
            owner[cell] = cage
    missing = [cell for cell in puzzle.cells if cell not in owner]
    if missing:
        raise PuzzleError(
            f"{cell_name(missing[0])} is in no cage ({len(missing)} cell(s) uncovered): "
            f"in a {variant} every cell belongs to one cage"
        )
