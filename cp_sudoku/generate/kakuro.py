"""Kakuro whose sums alone have one solution: a layout, a filling, and a local search.

A random layout (:func:`kakuro_layout`) is filled with digits; the runs' sums
read off the filling are the clues.  The filling prefers, for every run it
can, a digit set that is the only one of its sum (``{1,2}`` for 3, ``{1,2,4}``
for 7; every set of 8 digits): a SAT call assumes that of every run, and
the runs of an unsatisfiable core are let go one by one.  While the sums
allow another filling, a cell where the two differ is refilled (with about a
fifth of the other cells) or, one time in twenty, turned black; a new layout
is drawn after ``rounds`` steps, when fewer than half of the white cells
remain, or when the puzzle found has white cells in under a third of the
squares inside the clue row and column.

All of one layout's steps ask **one** incremental SAT solver (an
:class:`~cp_sudoku.generate.oracle.Oracle` of the runs' all-different rule),
with the sums as *assumptions*, so no formula is rebuilt when the filling
changes.  Each run ``r`` gets a selector per digit set ``D`` of its length
(``y(r, D)``: every cell of ``r`` takes a digit of ``D``, which with distinct
digits means exactly ``D``), one per sum ``s`` (``z(r, s)``: some ``D``
summing to ``s`` is selected) and one for "the only set of its sum"
(``u(r)``).  Assuming ``z(r, s)`` for every run states the clues; another
solution under them is one SAT call.  This replaced a search that compiled
two new formulas per step and refilled without preference (38 s CPU for one
7x7, rarely a result at 8x8 and 9x9; now about 0.5 s CPU for a 9x9, see
docs/performance.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from cp_sudoku.generate.oracle import Oracle
from cp_sudoku.kinds.kakuro import Clue, Square, kakuro
from cp_sudoku.model import Cell, Grid, Puzzle, Unit

#: The largest generated Kakuro (its side, clue squares included): runs of at most 8.
MAX_SIZE = 9


def kakuro_layout(n: int, rng: random.Random) -> list[list[bool]]:
    """An n x n Kakuro layout, True for a white cell: row and column 0 black, about a
    quarter of the rest black at random, then every white cell in a run of 2..9 both ways
    or at least one way (cells alone both ways turn black), and at least one white cell."""
    while True:
        white = [[r > 0 and c > 0 and rng.random() > 0.28 for c in range(n)] for r in range(n)]
        _prune(white)
        if sum(map(sum, white)) >= 2:
            return white


def generate_kakuro(n: int, rng: random.Random, rounds: int = 200) -> tuple[Puzzle, Grid]:
    """A Kakuro of side ``n`` (4..:data:`MAX_SIZE`) whose sums have one solution, and
    that solution (see the module docstring)."""
    while True:
        white = kakuro_layout(n, rng)
        found = _search(white, rng, rounds)
        if found is not None and 3 * len(found[0].cells) >= (n - 1) ** 2:
            return found


def _search(white: list[list[bool]], rng: random.Random, rounds: int) -> tuple[Puzzle, Grid] | None:
    """The local search on one layout (changed in place when cells turn black); None
    after ``rounds`` steps or when under half of its white cells remain."""
    n = len(white)
    start = sum(map(sum, white))
    values: dict[Cell, int] = {}
    model = _Sums(white)
    try:
        for _ in range(rounds):
            keep = [(c, v) for c, v in values.items() if c in model.index and rng.random() < 0.8]
            solution = model.fill(rng, keep)
            values = dict(zip(model.cells, solution, strict=True))
            other = model.other(solution)
            if other is None:
                puzzle = kakuro(_squares(n, white, model.runs, values))
                return puzzle, tuple(values[c] for c in puzzle.cells)
            differ = [c for i, c in enumerate(model.cells) if other[i] != solution[i]]
            r, c = rng.choice(differ)
            if rng.random() < 1 / 20:
                white[r][c] = False
                _prune(white)
                if 2 * sum(map(sum, white)) < start:
                    return None
                model.close()
                model = _Sums(white)
            else:
                del values[(r, c)]
    finally:
        model.close()
    return None


class _Sums:
    """One layout's runs as an incremental SAT model with the sums as assumptions."""

    def __init__(self, white: list[list[bool]]) -> None:
        n = len(white)
        self.runs = _runs(white)
        self.cells = [(r, c) for r in range(n) for c in range(n) if white[r][c]]
        self.index = {cell: i for i, cell in enumerate(self.cells)}
        rules = Puzzle(
            rows=n,
            cols=n,
            cells=tuple(self.cells),
            max_value=9,
            kind="kakuro",
            constraints=tuple(Unit("run", run, "run") for run in self.runs),
        )
        self.oracle = Oracle(rules)
        self.sum_of: list[dict[int, int]] = []  # per run: sum -> its selector z(r, s)
        self.rare: list[int] = []  # per run: its selector u(r)
        for run in self.runs:
            by_sum: dict[int, list[int]] = {}
            for digits in combinations(range(1, 10), len(run)):
                chosen = self.oracle.fresh()  # y(run, digits)
                for cell in run:
                    self.oracle.sat.add_clause(
                        [-chosen, *(self.oracle.literal(cell, d) for d in digits)]
                    )
                by_sum.setdefault(sum(digits), []).append(chosen)
            selectors = {}
            for total, sets in by_sum.items():
                selectors[total] = self.oracle.fresh()  # z(run, total)
                self.oracle.sat.add_clause([-selectors[total], *sets])
            self.sum_of.append(selectors)
            # u(run): the run's digits are the only set of their sum
            self.rare.append(self.oracle.fresh())
            only = [sets[0] for sets in by_sum.values() if len(sets) == 1]
            self.oracle.sat.add_clause([-self.rare[-1], *only])

    def fill(self, rng: random.Random, keep: Sequence[tuple[Cell, int]]) -> Grid:
        """A random filling with the values ``keep`` where it can, and with as many runs
        as it can whose digits are the only set of their sum (runs in an unsatisfiable
        core are let go one at a time)."""
        rare = list(self.rare)
        for given in (keep, ()):
            while True:
                found = self.oracle.random_solution(rng, given, extra=rare)
                if found is not None:
                    return found
                core = set(self.oracle.sat.get_core() or ())
                blamed = [u for u in rare if u in core]
                if not blamed:
                    break
                rare.remove(rng.choice(blamed))
        raise AssertionError("distinct digits in runs of at most 8 cells always fit")

    def other(self, solution: Grid) -> Grid | None:
        """Another filling with the sums of ``solution`` (row-major over the white
        cells), or None when it is the only one."""
        index = self.index
        clues = [
            self.sum_of[k][sum(solution[index[cell]] for cell in run)]
            for k, run in enumerate(self.runs)
        ]
        return self.oracle.other_solution((), solution, extra=clues)

    def close(self) -> None:
        """Free the solver."""
        self.oracle.close()


def _prune(white: list[list[bool]]) -> None:
    """Turn black every white cell alone both ways (no run of 2 or more), until none is."""
    n = len(white)
    changed = True
    while changed:
        changed = False
        for r in range(1, n):
            for c in range(1, n):
                if (
                    white[r][c]
                    and max(_run_length(white, r, c, 0, 1), _run_length(white, r, c, 1, 0)) < 2
                ):
                    white[r][c] = False
                    changed = True


def _run_length(white: list[list[bool]], r: int, c: int, dr: int, dc: int) -> int:
    length = 1
    for sign in (1, -1):
        i, j = r + sign * dr, c + sign * dc
        while 0 <= i < len(white) and 0 <= j < len(white) and white[i][j]:
            length += 1
            i, j = i + sign * dr, j + sign * dc
    return length


def _runs(white: list[list[bool]]) -> list[tuple[Cell, ...]]:
    n = len(white)
    runs = []
    for dr, dc in ((0, 1), (1, 0)):
        for r in range(n):
            for c in range(n):
                if white[r][c] and not white[r - dr][c - dc]:
                    run = []
                    i, j = r, c
                    while i < n and j < n and white[i][j]:
                        run.append((i, j))
                        i, j = i + dr, j + dc
                    if len(run) >= 2:
                        runs.append(tuple(run))
    return runs


def _squares(
    n: int, white: list[list[bool]], runs: Sequence[tuple[Cell, ...]], values: dict[Cell, int]
) -> list[list[Square]]:
    down: dict[Cell, int] = {}
    across: dict[Cell, int] = {}
    for run in runs:
        (r, c), (r2, _) = run[0], run[-1]
        total = sum(values[x] for x in run)
        if r2 != r:
            down[(r - 1, c)] = total
        else:
            across[(r, c - 1)] = total
    return [
        [None if white[r][c] else Clue(down.get((r, c)), across.get((r, c))) for c in range(n)]
        for r in range(n)
    ]
