"""The ``dlx`` back end: exact cover (:mod:`cp_sudoku.encodings.exact_cover`) by Algorithm X.

Knuth's Algorithm X ("Dancing Links", 2000): choose a primary column that
is not yet covered, with the fewest options left (Knuth's S heuristic); try
each of its options in turn: select it, which removes every option that
shares a column with it; recurse; undo.  A selection that leaves an
uncovered primary column without options fails at once.  A full cover is a
grid; the search goes on until the space is exhausted or the sink is full,
so counting is exact up to any limit.

The data structure is ours, not Knuth's doubly linked lists: the options
alive are a byte array, each column keeps its count of live options, and a
selection pushes the options it removes onto a trail that undo pops (the
same updates the dancing links make, as list indexing, which is what is
cheap in Python).  Columns whose count falls to 1 are queued, so that a
forced choice (Sudoku's naked and hidden singles) is found without scanning
every column; when the queue is empty the uncovered primary columns are
scanned for the smallest.  The matrix of a shape (cells, units, values) is
built once and reused; a puzzle's givens are selected before the search.

Why not a library: ``exact-cover`` (PyPI, C) returns one cover or the total
count, with no limit and no secondary columns, and is GPL-2.0 while this
package is MIT; Algorithm X is this paradigm's core, so it is written here.

Supported: puzzles of all-different units only (Sudoku of any box shape,
jigsaw, X-Sudoku, Windoku).  Cages, relations and Skyscraper clues are
declined (``not supported by dlx``): a sum is not a choice of options.
"""

from __future__ import annotations

import sys
from typing import ClassVar

from cp_sudoku.backends.base import Backend, Clock, Interrupted, Sink
from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.encodings.exact_cover import to_exact_cover
from cp_sudoku.encodings.shapes import Shape, shape_of
from cp_sudoku.encodings.size import within
from cp_sudoku.model import Puzzle, Unit

#: The most entries the conflict lists may hold (about 140 bytes each): an empty 36 x 36
#: Latin square has 4.9 million.
MAX_CONFLICTS = 5_000_000
#: Nodes between two looks at the clock (a node of a 16 x 16 killer takes up to a
#: millisecond: every 2,048 nodes let a 0.5 s limit run to 1.8 s).
CLOCK_NODES = 64
#: Added to the count of a column that needs no watching (covered, or secondary), so that
#: the count of a watched column alone can fall to 0 or 1 (one comparison per update).
UNWATCHED = 1 << 40


class _Stop(Exception):
    """The time limit passed, or the sink is full."""


class Matrix:
    """The static part of one shape's exact cover: who covers what, who conflicts with whom."""

    def __init__(self, puzzle: Puzzle) -> None:
        cover = self.cover = to_exact_cover(puzzle)
        self.covers = cover.covers
        self.column_options: list[list[int]] = [[] for _ in cover.columns]
        for option, columns in enumerate(cover.covers):
            for column in columns:
                self.column_options[column].append(option)
        # the conflict lists below hold, per option, the others of each of its columns
        entries = sum(len(self.column_options[c]) - 1 for columns in cover.covers for c in columns)
        within(entries, MAX_CONFLICTS, "conflict entries", "dlx matrix")
        # per option: each option sharing a column with it, and that option's other columns
        # (the shared ones are covered by the choice, so their counts need no update: Knuth's
        # cover() likewise leaves the covered column's own count alone)
        self.conflicts: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
        for option, columns in enumerate(cover.covers):
            check_deadline()  # a 16 x 16's 4,096 options take a second in all
            others = {o for column in columns for o in self.column_options[column]}
            others.discard(option)
            self.conflicts.append(
                tuple(
                    (other, tuple(c for c in cover.covers[other] if c not in columns))
                    for other in sorted(others)
                )
            )
        self.sizes = [
            len(options) + (0 if primary else UNWATCHED)
            for options, primary in zip(self.column_options, cover.primary, strict=True)
        ]
        #: per option, the primary columns it covers (secondary ones are never watched)
        self.primary_covers = [
            tuple(c for c in columns if cover.primary[c]) for columns in cover.covers
        ]
        self.option_of = {option: j for j, option in enumerate(cover.options)}


class _Search:
    """One puzzle's search over a :class:`Matrix`."""

    def __init__(self, matrix: Matrix, sink: Sink, clock: Clock, cells: int) -> None:
        cover = matrix.cover
        self.matrix = matrix
        self.sink = sink
        self.clock = clock
        self.alive = bytearray(b"\x01") * len(cover.options)
        self.size = list(matrix.sizes)
        self.uncovered = {k for k, primary in enumerate(cover.primary) if primary}
        self.trail: list[tuple[int, tuple[int, ...]]] = []
        self.singles: list[int] = []
        self.grid = [0] * cells
        self.nodes = self.removals = 0

    def select(self, option: int) -> bool:
        """Choose ``option``: cover its columns, remove its conflicts; False on a dead end.

        It stops at the first uncovered primary column left without options; the
        removals made are on the trail, so :meth:`undo` always applies.
        """
        alive, size = self.alive, self.size
        trail, singles = self.trail, self.singles
        for column in self.matrix.primary_covers[option]:  # all uncovered: the option is alive
            size[column] += UNWATCHED
            self.uncovered.discard(column)
        cell, value = self.matrix.cover.options[option]
        self.grid[cell] = value
        for entry in self.matrix.conflicts[option]:
            other, columns = entry
            if alive[other]:
                alive[other] = 0
                trail.append(entry)
                dead = False
                for column in columns:  # every count of the entry, so undo can restore it
                    left = size[column] - 1
                    size[column] = left
                    if left < 2:  # a watched column: uncovered and primary
                        if left == 0:
                            dead = True
                        else:
                            singles.append(column)
                if dead:
                    return False
        return True

    def undo(self, option: int, mark: int) -> None:
        """Undo :meth:`select` of ``option``: restore the removals past ``mark``, reopen."""
        alive, size, trail = self.alive, self.size, self.trail
        self.removals += len(trail) - mark
        while len(trail) > mark:
            other, columns = trail.pop()
            alive[other] = 1
            for column in columns:
                size[column] += 1
        for column in self.matrix.primary_covers[option]:
            size[column] -= UNWATCHED
            self.uncovered.add(column)

    def choose(self) -> int:
        """An uncovered primary column with the fewest live options."""
        singles, size = self.singles, self.size
        while singles:
            column = singles.pop()
            if size[column] == 1:
                return column
        return min(self.uncovered, key=size.__getitem__)

    def search(self) -> None:
        """Every cover below the current selection into the sink; raises :class:`_Stop`."""
        if not self.uncovered:
            if self.sink.add(tuple(self.grid)):
                raise _Stop
            return
        column = self.choose()
        alive = self.alive
        singles = len(self.singles)
        for option in [o for o in self.matrix.column_options[column] if alive[o]]:
            self.nodes += 1
            if self.nodes % CLOCK_NODES == 0 and self.clock.expired():
                raise _Stop
            mark = len(self.trail)
            if self.select(option):
                self.search()
            self.undo(option, mark)
            del self.singles[singles:]


class DlxBackend(Backend):
    """Exact cover by Algorithm X; see the module docstring.

    Options: none.

    Statistics: ``nodes`` (options tried), ``removals`` (options removed by
    selections: each is one update of its columns' counts, and one more to restore it), ``columns``
    (primary and secondary), ``options`` (rows of the matrix).
    """

    name = "dlx"
    summary = "exact cover by Algorithm X (units only: Sudoku, jigsaw, X, Windoku)"
    supports = frozenset({Unit})
    statistics: ClassVar[tuple[str, ...]] = ("nodes", "removals", "columns", "options")
    distinct_grids: ClassVar[bool] = True  # exact cover: each grid is one leaf
    size_statistics: ClassVar[tuple[str, ...]] = ("columns", "options")

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._shape: Shape | None = None
        self._matrix: Matrix | None = None

    def matrix(self, puzzle: Puzzle) -> Matrix:
        """The matrix of ``puzzle``'s shape, built once per shape."""
        shape = shape_of(puzzle)
        if self._matrix is None or shape != self._shape:
            self._matrix, self._shape = Matrix(puzzle), shape
        return self._matrix

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """Select the givens' options, then Algorithm X over the rest."""
        matrix = self.matrix(puzzle)
        run = _Search(matrix, sink, clock, len(puzzle.cells))
        stats.update(
            nodes=0, removals=0, columns=len(matrix.cover.columns), options=len(matrix.covers)
        )
        index = puzzle.index
        for cell, value in puzzle.givens.items():
            option = matrix.option_of[(index[cell], value)]
            if not run.alive[option] or not run.select(option):
                return True  # a given clashes with another: no cover
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, len(puzzle.cells) + 200))
        try:
            run.search()
            complete = True
        except _Stop:
            complete = False
        except KeyboardInterrupt:
            raise Interrupted from None
        finally:
            sys.setrecursionlimit(limit)
            stats.update(nodes=run.nodes, removals=run.removals + len(run.trail))
        return complete
