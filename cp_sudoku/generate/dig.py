"""Givens from a known solution: add them until the puzzle is unique, remove them while it stays so.

Both work orbit by orbit (:mod:`cp_sudoku.generate.symmetry`), so a
symmetric pattern stays symmetric, and ask one :class:`~.oracle.Oracle`.

*Minimal* means that no orbit of givens can go without losing uniqueness
(with no symmetry, an orbit is one cell: no given can go).  One pass in
random order is enough: once removing an orbit breaks uniqueness, removing
it later, from fewer givens, breaks it too.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from cp_sudoku.generate.oracle import Oracle
from cp_sudoku.model import Cell, Grid

Givens = dict[Cell, int]


def add_until_unique(
    oracle: Oracle,
    solution: Grid,
    givens: Givens,
    orbits: Sequence[tuple[Cell, ...]],
    rng: random.Random,
) -> Givens:
    """``givens`` plus orbits of ``solution``'s values until ``solution`` is the only one.

    Each round asks for another solution and adds the orbit of a random cell
    where the two differ, so every orbit added rules that solution out.
    """
    index = oracle.index
    orbit_of = {cell: orbit for orbit in orbits for cell in orbit}
    givens = dict(givens)
    while True:
        other = oracle.other_solution(givens.items(), solution)
        if other is None:
            return givens
        differ = [cell for cell, i in index.items() if other[i] != solution[i]]
        for cell in orbit_of[rng.choice(differ)]:
            givens[cell] = solution[index[cell]]


def dig(
    oracle: Oracle,
    solution: Grid,
    givens: Givens,
    orbits: Sequence[tuple[Cell, ...]],
    rng: random.Random,
    *,
    minimal: bool = True,
    keep: Iterable[Cell] = (),
) -> Givens:
    """``givens`` (unique, values of ``solution``) with orbits removed while it stays unique.

    ``minimal``: try every orbit once (the result is minimal); otherwise stop
    at the first orbit that cannot go.  Cells in ``keep`` are never removed.
    """
    kept = set(keep)
    givens = dict(givens)
    order = list(orbits)
    rng.shuffle(order)
    for orbit in order:
        present = [cell for cell in orbit if cell in givens and cell not in kept]
        if not present:
            continue
        if oracle.removable(list(givens.items()), present, solution):
            for cell in present:
                del givens[cell]
        elif not minimal:
            break
    return givens
