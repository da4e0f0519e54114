"""Counting in cubes: a search that remembers every grid it finds, run over parts of the
puzzle so that its memory stays flat however many grids it counts.

Some back ends' one search grows with each grid: CP-SAT blocks each solution of an
enumeration inside the solver, the ``mip`` back end adds a no-good row per grid, and
``minizinc`` reads every solution of its run back at once.  They declare
:attr:`~cp_sudoku.backends.base.Backend.cube_grids`, and a count past that many grids runs
here (:func:`count_in_cubes`).

A *cube* is the puzzle with some cells fixed as extra givens; the first cube is the puzzle
itself.  A cube's search hands its grids to a :class:`CubeSink`, which passes each new one
on to the call's sink and remembers the cube's grids.  Once the cube has found
``grids`` new ones its search is stopped and the cube is split on a free cell, the one on
which its grids take the most distinct values: one child cube per candidate of that cell
(a value none of its given peers holds), each inheriting the grids found with its value,
so that meeting them again does not count them twice.  The children are searched depth
first.  The children of a split partition their parent's grids, so no grid is counted in
two cubes and the call's sink needs no hash of the grids it counts; a cube remembers its
own grids, which also counts once a grid that one search hands over twice.  The ``sat``
back end's :func:`~cp_sudoku.backends.sat.enumerate_models` splits the same way, with
assumptions for extra givens and blocking clauses for inherited grids (after
cube-and-conquer: Heule, Kullmann, Wieringa and Biere, *Cube and Conquer: Guiding CDCL SAT
Solvers by Lookaheads*, HVC 2011).

Memory: the grids of the cubes waiting on the stack, packed (:data:`Packed`), fewer than
the grids of the cube split at each level, and at most one level per cell (measured in
``docs/cli.md``, "count memory").  Time: each cube starts its back end's search again and
meets its inherited grids again.
"""

from __future__ import annotations

from collections.abc import Callable

from cp_sudoku.backends.sink import Clock, Sink
from cp_sudoku.model import Grid, Puzzle

#: A back end's search: puzzle, sink, clock, statistics -> whether it was exhausted.
Search = Callable[[Puzzle, Sink, Clock, dict[str, int]], bool]
#: A grid as a cube remembers it: its values as bytes when each fits one (a 9 x 9 grid in
#: 114 bytes, not the tuple's 700), else the grid; either way ``packed[i]`` is cell i's value.
Packed = bytes | Grid


def packer(puzzle: Puzzle) -> Callable[[Grid], Packed]:
    """How the cubes of ``puzzle`` remember a grid (:data:`Packed`)."""
    return bytes if puzzle.min_value >= 0 and puzzle.max_value < 256 else tuple


class CubeSink(Sink):
    """The sink of one cube's search: remembers the cube's grids (``found``, those
    inherited from its parent included, each packed by ``pack``) and passes each new one
    to ``outer``.

    ``count`` is the cube's distinct grids, ``limit`` the inherited ones plus ``grids``:
    the sink is full once the cube has found ``grids`` new grids, or ``outer`` is full.
    """

    def __init__(
        self, outer: Sink, grids: int, found: set[Packed], pack: Callable[[Grid], Packed]
    ) -> None:
        super().__init__(len(found) + grids, 0, plain=True)
        self.outer = outer
        self.found = found
        self.pack = pack
        self.count = len(found)

    def add(self, grid: Grid) -> bool:
        """Count ``grid`` once for this cube, and once in ``outer``; True when full."""
        if self.outer.full:
            return True
        packed = self.pack(grid)
        if packed not in self.found:
            self.found.add(packed)
            self.count += 1
            self.outer.add(grid)
        return self.full

    @property
    def full(self) -> bool:
        """Whether the cube has found its ``grids`` new grids or ``outer`` its limit."""
        return self.count >= self.limit or self.outer.full


def split(cube: Puzzle, found: set[Packed]) -> list[tuple[Puzzle, set[Packed]]]:
    """The child cubes of ``cube`` and the grids of ``found`` each holds: one per
    candidate of the free cell on which ``found`` takes the most distinct values (the
    first such cell in row-major order), that cell given that value.  ``found`` holds at
    least two grids, so that cell is free and takes two values or more."""
    columns = list(zip(*found, strict=True))
    free = [i for i, cell in enumerate(cube.cells) if cell not in cube.givens]
    position = max(free, key=lambda i: len(set(columns[i])))
    cell = cube.cells[position]
    taken = {cube.givens.get(peer) for peer in cube.peers[cell]}
    return [
        (
            cube.with_givens({**cube.givens, cell: value}),
            {grid for grid in found if grid[position] == value},
        )
        for value in reversed(cube.values)  # popped from a stack: the least value first
        if value not in taken
    ]


def count_in_cubes(
    search: Search,
    puzzle: Puzzle,
    sink: Sink,
    clock: Clock,
    stats: dict[str, int],
    *,
    grids: int,
    sizes: tuple[str, ...] = (),
    maxima: tuple[str, ...] = (),
) -> bool:
    """Run ``search`` over cubes of ``puzzle`` (module docstring), each stopped after
    ``grids`` (>= 2) new grids, into ``sink``; True when every cube's search was exhausted.

    ``sink`` is handed each grid once (it may be plain).  One ``clock`` for every cube.
    ``stats``: the cubes' effort counts summed, those named in ``maxima`` (a largest gap)
    their largest, those named in ``sizes`` (model size) the first cube's: the puzzle's.
    Stops, False, when ``sink`` is full or a cube's search stopped for any other reason
    than its ``grids`` (time or effort limit); raises what ``search`` raises, with the
    statistics so far in ``stats``.

    Raises:
        ValueError: ``grids`` below 2 (a cube of one grid has no cell to split on).
    """
    if grids < 2:
        raise ValueError(f"a cube must stop after 2 grids or more, got {grids}")
    pack = packer(puzzle)
    cubes: list[tuple[Puzzle, set[Packed]]] = [(puzzle, set())]
    while cubes:
        cube, found = cubes.pop()
        own = CubeSink(sink, grids, found, pack)
        figures: dict[str, int] = {}
        try:
            done = search(cube, own, clock, figures)
        finally:
            for key, value in figures.items():
                if key not in stats:
                    stats[key] = value
                elif key in sizes:
                    continue
                elif key in maxima:
                    stats[key] = max(stats[key], value)
                else:
                    stats[key] += value
        if sink.full:
            return False
        if done:
            continue
        if not own.full:  # a time or effort limit
            return False
        cubes.extend(split(cube, found))
    return True
