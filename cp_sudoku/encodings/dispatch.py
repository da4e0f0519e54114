"""Compile a puzzle's constraints by one method of a compiler per constraint type."""

from __future__ import annotations

from collections.abc import Callable

from cp_sudoku.model import Cage, Constraint, Puzzle, Relation, SparseUnit, Unit, Visibility

#: The name of the compiler method that compiles each constraint type.
STEPS: dict[type[Constraint], str] = {
    Unit: "unit",
    SparseUnit: "sparse_unit",
    Cage: "cage",
    Relation: "relation",
    Visibility: "visibility",
}


def dispatch(puzzle: Puzzle, compiler: object, fallback: Callable[[Constraint], object]) -> None:
    """Compile every constraint of ``puzzle`` (in :attr:`Puzzle.constraints` order): by the
    method of ``compiler`` that :data:`STEPS` names for its type when ``compiler`` has one,
    else by ``fallback`` (an allowed-tuple table, or an error)."""
    for constraint in puzzle.constraints:
        step = getattr(compiler, STEPS.get(type(constraint), ""), None)
        (step or fallback)(constraint)
