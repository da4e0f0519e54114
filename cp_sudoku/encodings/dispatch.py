"""Compile a puzzle's constraints: a back end's native encodings by class, else the core.

A back end or exporter keeps ``NATIVE: dict[type[Constraint], Step]``, keyed by
class (a step is ``(writer, constraint) -> None``, usually a method of its
writer class).  :func:`compile_rules` sends each constraint to the step of its
own class when there is one, else decomposes it into the core primitives
(:meth:`~cp_sudoku.constraints.Constraint.decompose`: ``AllDifferent``,
``Linear``, ``Pair``, ``Table``) and sends each part to the step of the part's
class.  A part without a step is declined: :class:`~cp_sudoku.model.Unsupported`
with a reason, never a crash and never a constraint dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.model import Constraint, Puzzle, Unsupported

#: A native compile step: (the writer, the constraint) -> None.
Step = Callable[[Any, Any], None]


def compile_rules(
    puzzle: Puzzle,
    writer: object,
    native: Mapping[type[Constraint], Step],
    name: str,
    *,
    bound: Callable[[], None] | None = None,
) -> None:
    """Compile every constraint of ``puzzle`` (:attr:`Puzzle.constraints` order) into
    ``writer`` through ``native`` (see the module docstring); ``name`` is the back end's
    or format's, for the reason of a decline.  ``bound``, when given, is called after
    each constraint and each part of a decomposition (a writer's size check: it raises
    to stop), and so is the deadline's check: one rule may decompose into hundreds of
    tables (a between line over the 625 cells of a 25 x 25 grid: 623 tables, 20 s of
    compiling).

    Raises:
        Unsupported: a part ``native`` has no step for (``not supported by NAME: ...``);
            :class:`~cp_sudoku.constraints.TableTooLarge` past the table cap;
            :class:`~cp_sudoku.constraints.base.OutOfTime` past the compile deadline;
            whatever ``bound`` raises.
    """

    def bounded() -> None:
        check_deadline()
        if bound is not None:
            bound()

    check_deadline()
    for constraint in puzzle.constraints:
        step = native.get(type(constraint))
        if step is not None:
            step(writer, constraint)
        else:
            for part in constraint.decompose(puzzle):
                part_step = native.get(type(part))
                if part_step is None:
                    raise Unsupported(
                        f"not supported by {name}: {constraint.describe()} "
                        f"({type(part).__name__} has no {name} encoding)"
                    )
                part_step(writer, part)
                bounded()
        bounded()
