"""Digit sets of sum cages with distinct values (Killer cages, Kakuro runs)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from cp_sudoku.model import Cage


def is_distinct_sum(cage: Cage) -> bool:
    """A sum cage whose values differ: compiled through digit sets."""
    return cage.op == "+" and cage.distinct


@cache
def digit_sets(size: int, target: int, max_value: int) -> tuple[frozenset[int], ...]:
    """All sets of ``size`` distinct values in ``1..max_value`` summing to ``target``.

    Few per (size, sum) pair: at most 12 for 9 values (size 4 or 5, sum 20).
    """
    return tuple(
        frozenset(combo)
        for combo in combinations(range(1, max_value + 1), size)
        if sum(combo) == target
    )
