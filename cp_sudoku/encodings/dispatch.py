"""Compile a puzzle's constraints through a table of one function per constraint type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cp_sudoku.model import Constraint, Puzzle


def dispatch(
    puzzle: Puzzle,
    table: Mapping[type[Constraint], Callable[[Any], object]],
    fallback: Callable[[Constraint], object],
) -> None:
    """Compile every constraint of ``puzzle`` (in :attr:`Puzzle.constraints` order):
    by its type's entry in ``table``, or by ``fallback`` (an allowed-tuple table)."""
    for constraint in puzzle.constraints:
        table.get(type(constraint), fallback)(constraint)
