"""The ``kernel`` back end: the reference backtracker's hot loop as a compiled C extension.

For puzzles of all-different units and givens (classic Sudoku of any box
size, jigsaw, X-Sudoku, windoku...) with at most 64 values (n x n up to
64 x 64).  The C kernel (``cp_sudoku/backends/_kernel.c``) keeps a cell's
candidates as one 64-bit mask and propagates naked singles, hidden singles
(in units of n cells) and locked candidates (for any two units sharing two
or more cells, both directions) to a fixpoint, then branches on the open
cell with the fewest candidates, values in ascending order, counting
solutions up to the limit.  Restarts guard against heavy tails as in
``backtrack``: past a budget of tries (2,000, doubling) the search starts
again, branching on the fewest candidates per conflict weight of the cell,
ties and values drawn by a seeded generator; grids are counted once across
runs.  The scheme is Norvig's, "Solving Every Sudoku
Puzzle" (2006); the once/twice bit scan of a unit follows tdoku
(github.com/t-dillon/tdoku).  Other constraint types (cages, relations,
clues) are declined, as is a puzzle with more than 64 values.

The extension is built by ``pip install -e .`` (``setup.py``, an optional
extension: without a C compiler the build says so and the install goes
on).  When it is missing, or the environment variable
``CP_SUDOKU_NO_KERNEL`` is set to a non-empty value, this back end runs the
pure-Python ``backtrack`` search (:class:`~cp_sudoku.backends.backtrack.MrvSearch`)
instead: same verdicts, about 10 to 50 times slower; :data:`KERNEL_MISSING`
says why.

Option ``max_tries``: stop with ``unknown`` after this many tries.
Statistics: ``tries`` (values guessed at a branch), ``backtracks``
(guesses refuted by propagation).  The time limit is checked every 256
tries, and so is Ctrl-C.  Measurements are in ``docs/performance.md``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from cp_sudoku.backends.backtrack import MrvSearch
from cp_sudoku.backends.backtrack_search import CACHED_STRUCTURES, BacktrackingBackend
from cp_sudoku.backends.base import Clock, Sink, load_kernel
from cp_sudoku.model import Puzzle, Unit

#: The most values a cell's candidate mask holds.
MAX_VALUES = 64


_kernel, KERNEL_MISSING = load_kernel()
#: Why the compiled kernel is not used (None when it is): the back end then runs
#: the pure-Python search.


def compiled() -> bool:
    """Whether the compiled kernel is loaded (else the pure-Python search runs)."""
    return _kernel is not None


def _shape_arguments(puzzle: Puzzle) -> tuple[Any, ...]:
    """The arguments of ``_kernel.shape``: cell count, n, units, peers, lock groups
    (cells, whether each unit is full, the two units)."""
    index = puzzle.index
    n = puzzle.max_value - puzzle.min_value + 1
    units = [[index[c] for c in unit.cells] for unit in puzzle.units]
    peers: list[set[int]] = [set() for _ in puzzle.cells]
    for unit in units:
        for i in unit:
            peers[i].update(unit)
    peer_lists = [sorted(p - {i}) for i, p in enumerate(peers)]
    locks: list[list[int]] = []
    lock_units: list[list[int]] = []
    full = bytearray()
    cells_of = [set(unit) for unit in units]
    for a, cells_a in enumerate(cells_of):
        for b in range(a + 1, len(units)):
            inside = cells_a & cells_of[b]
            if len(inside) < 2 or n not in (len(cells_a), len(cells_of[b])):
                continue
            locks += [sorted(inside), sorted(cells_a - inside), sorted(cells_of[b] - inside)]
            full += bytes([len(cells_a) == n, len(cells_of[b]) == n])
            lock_units.append([a, b])
    return len(puzzle.cells), n, units, peer_lists, locks, bytes(full), lock_units


class KernelBackend(BacktrackingBackend):
    """The compiled kernel (see the module docstring); option ``max_tries``."""

    name = "kernel"
    summary = "compiled C backtracker: units only, singles, locked candidates, fewest first" + (
        f" (now pure Python: {KERNEL_MISSING})" if KERNEL_MISSING else ""
    )
    supports = frozenset({Unit})
    statistics: ClassVar[tuple[str, ...]] = ("tries", "backtracks")
    strategy = MrvSearch

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._shapes: dict[tuple[object, ...], object] = {}
        self._last_shape: tuple[object, object, int, object] | None = None  # cells, units, n, shape

    def declines(self, puzzle: Puzzle) -> str | None:
        """Constraint types other than units, or more than 64 values: declined, with why."""
        reason = super().declines(puzzle)
        if reason is None and puzzle.max_value - puzzle.min_value + 1 > MAX_VALUES:
            reason = f"not supported by {self.name}: more than {MAX_VALUES} values"
        return reason

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """One kernel search; the pure-Python one when the kernel is not loaded."""
        kernel = _kernel
        if kernel is None:
            return super().search(puzzle, sink, clock, stats)
        shift = 1 - puzzle.min_value
        givens = bytearray(len(puzzle.cells))
        index = puzzle.index
        for cell, value in puzzle.givens.items():
            givens[index[cell]] = value + shift
        remaining = clock.remaining()
        count, complete, _, grids, tries, backtracks = kernel.search(
            self._shape(kernel, puzzle),
            givens,
            sink.limit,
            sink.keep,
            -1 if self.max_tries is None else self.max_tries,
            -1.0 if remaining is None else remaining,
        )
        for grid in grids:
            sink.add(tuple(grid) if not shift else tuple(v - shift for v in grid))
        sink.count_more(count - len(grids))
        stats.update(tries=tries, backtracks=backtracks)
        return bool(complete)

    def _shape(self, kernel: ModuleType, puzzle: Puzzle) -> object:
        """The compiled structure of ``puzzle``, kept for the last few structures."""
        n = puzzle.max_value - puzzle.min_value + 1
        last = self._last_shape
        if last and last[0] is puzzle.cells and last[1] is puzzle.units and last[2] == n:
            return last[3]  # the usual case: puzzles of one size share these tuples
        key = (n, puzzle.cells, puzzle.units)
        shape = self._shapes.get(key)
        if shape is None:
            if len(self._shapes) >= CACHED_STRUCTURES:
                self._shapes.pop(next(iter(self._shapes)))
            shape = self._shapes[key] = kernel.shape(*_shape_arguments(puzzle))
        self._last_shape = (puzzle.cells, puzzle.units, n, shape)
        return shape

    def close(self) -> None:
        """Forget the compiled structures."""
        self._shapes.clear()
        self._last_shape = None
