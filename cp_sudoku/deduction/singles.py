"""Solving by singles alone: the two simplest human techniques, with no search.

- **naked single**: a cell with one candidate left takes it, and the value
  leaves the candidates of its peers;
- **hidden single**: a value with one place left in a unit that holds every
  value (a row, column or box of a Sudoku) goes there.

Both are applied to a fixpoint.  This is puzzle logic, not a back end: it
never guesses, so it either solves a puzzle, gets stuck with cells left
undecided, or meets a contradiction (a cell with no candidate, a value with
no place in a full unit).  It is the yardstick for what unit propagation in a
CNF encoding achieves: Lynce and Ouaknine ("Sudoku as a SAT Problem", AIMATH
2006) show that unit propagation decides exactly what naked singles decide
under the minimal and efficient encodings, and what naked plus hidden singles
decide under the extended encoding.

Works on any :class:`~cp_sudoku.model.Puzzle`: all-different groups are those
of :mod:`cp_sudoku.deduction.groups`; a one-cell ``=`` cage counts as a given.
Arithmetic cages are not reasoned about, only checked at the end: a
grid that singles decide but that breaks a cage proves the puzzle has no
solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from cp_sudoku.deduction.groups import structure
from cp_sudoku.model import Grid, Puzzle, is_solution

DeductionStatus = Literal["solved", "open", "contradiction"]


@dataclass(frozen=True)
class Deduction:
    """What a deduction without search decided about a puzzle.

    - ``status``: ``solved`` (every cell decided and the grid passes the
      checker), ``open`` (some cell still undecided), or ``contradiction``
      (the deduction proved the puzzle has no solution).
    - ``grid``: one value per cell (``Puzzle.cells`` order, row-major),
      ``0`` where the cell is undecided.
    """

    status: DeductionStatus
    grid: Grid

    @property
    def decided(self) -> int:
        """Number of cells decided (givens included)."""
        return sum(1 for v in self.grid if v)


class _Contradiction(Exception):
    """A cell lost its last candidate, or a value its last place."""


def solve_singles(puzzle: Puzzle, *, hidden: bool = True) -> Deduction:
    """Apply naked singles (and hidden singles when ``hidden``) to a fixpoint.

    Args:
        puzzle: any puzzle; see the module docstring for what is used.
        hidden: also apply hidden singles, in units of exactly
            ``puzzle.max_value`` cells.

    Returns:
        A :class:`Deduction`; pure, the puzzle is not changed.
    """
    index = puzzle.index
    n = puzzle.max_value
    shape = structure(puzzle)
    peers = shape.peers
    full_units = [group.cells for group in shape.full]
    candidates = [set(range(1, n + 1)) for _ in puzzle.cells]
    starts = dict(puzzle.givens)
    starts.update({cage.cells[0]: cage.target for cage in puzzle.cages if cage.op == "="})
    try:
        for cell, value in starts.items():
            _place(candidates, index[cell], value)
        placed = [False] * len(puzzle.cells)
        while _eliminate(candidates, peers, placed) | (
            hidden and _hidden_singles(candidates, full_units, n)
        ):
            pass
    except _Contradiction:
        return Deduction("contradiction", _grid(candidates))
    grid = _grid(candidates)
    if 0 in grid:
        return Deduction("open", grid)
    return Deduction("solved" if is_solution(puzzle, grid) else "contradiction", grid)


def _place(candidates: list[set[int]], i: int, value: int) -> None:
    if value not in candidates[i]:
        raise _Contradiction
    candidates[i] = {value}


def _eliminate(
    candidates: list[set[int]], peers: Sequence[frozenset[int]], placed: list[bool]
) -> bool:
    """Naked singles: remove each decided value from its peers, to a fixpoint.

    ``placed[i]`` marks cells whose value was already removed from their
    peers.  True when some cell was newly decided.
    """
    queue = [i for i, c in enumerate(candidates) if len(c) == 1 and not placed[i]]
    progress = False
    while queue:
        i = queue.pop()
        if placed[i]:
            continue
        placed[i] = True
        progress = True
        (value,) = candidates[i]
        for p in peers[i]:
            if value in candidates[p]:
                candidates[p].discard(value)
                if not candidates[p]:
                    raise _Contradiction
                if len(candidates[p]) == 1:
                    queue.append(p)
    return progress


def _hidden_singles(
    candidates: list[set[int]], full_units: Sequence[Sequence[int]], n: int
) -> bool:
    """Place each value that has one place left in a full unit; True if any was placed."""
    progress = False
    for unit in full_units:
        for value in range(1, n + 1):
            places = [i for i in unit if value in candidates[i]]
            if not places:
                raise _Contradiction
            if len(places) == 1 and len(candidates[places[0]]) > 1:
                candidates[places[0]] = {value}
                progress = True
    return progress


def _grid(candidates: list[set[int]]) -> Grid:
    return tuple(next(iter(c)) if len(c) == 1 else 0 for c in candidates)
