"""A puzzle's rule set as *members* (each given, each constraint) and its CNF with one
selector literal per member, the form a core (a minimal unsatisfiable subset) is taken from.

The clauses are the direct encoding (:mod:`cp_sudoku.encodings.cnf`, ``extended``,
no givens applied): the cell clauses (each cell takes exactly one value) are
hard; each constraint's own clauses, written by encoding a puzzle that holds
that constraint alone, carry ``-s`` for the constraint's selector ``s``; a
given is the clause ``[-s, x(cell, value)]``.  Assuming a set of selectors
switches exactly those members on.  This is the selector (assumption)
formulation of Liffiton and Sakallah, "Algorithms for Computing Minimal
Unsatisfiable Subsets of Constraints" (JAR 2008).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.model import Cell, Constraint, Puzzle, cell_name


@dataclass(frozen=True)
class Member:
    """One given or one constraint of a puzzle: what a core names.

    - ``text``: in words, cells as rXcY (``given r1c1=5``, ``row 1``,
      ``cage 11+ {r1c1,r2c1}``);
    - ``cells``: the cells it covers;
    - ``given``: ``(cell, value)`` for a given, else None;
    - ``constraint``: the constraint, else None.
    """

    text: str
    cells: tuple[Cell, ...]
    given: tuple[Cell, int] | None = None
    constraint: Constraint | None = None


def members(puzzle: Puzzle) -> tuple[Member, ...]:
    """The givens (row-major), then the constraints (``Puzzle.constraints`` order)."""
    givens = tuple(
        Member(f"given {cell_name(cell)}={value}", (cell,), given=(cell, value))
        for cell, value in sorted(puzzle.givens.items())
    )
    rules = tuple(Member(c.describe(), tuple(c.cells), constraint=c) for c in puzzle.constraints)
    return givens + rules


def only(puzzle: Puzzle, kept: tuple[Member, ...]) -> Puzzle:
    """``puzzle`` with only the givens and constraints of ``kept`` (same cells and values)."""
    chosen = {id(m.constraint) for m in kept if m.constraint is not None}
    givens = dict(m.given for m in kept if m.given is not None)
    grouped: dict[str, Any] = {  # field name -> its kept constraints (fields vary)
        f.name: tuple(c for c in getattr(puzzle, f.name) if id(c) in chosen)
        for f in fields(puzzle)
        if _holds_constraints(getattr(puzzle, f.name))
    }
    return replace(puzzle, givens=givens, **grouped)


def _holds_constraints(value: object) -> bool:
    """A field of the puzzle that is a tuple of constraints (its rule set, or part of it)."""
    return isinstance(value, tuple) and any(isinstance(v, Constraint) for v in value)


@dataclass(frozen=True)
class Selected:
    """The CNF with selectors: ``clauses`` (hard), ``selectors[k]`` switching
    ``members[k]`` on, ``cells`` (the cell variables: ``cells.literal[i][value]``)."""

    clauses: list[list[int]]
    selectors: tuple[int, ...]
    members: tuple[Member, ...]
    cells: Cnf
    num_vars: int


def selected(puzzle: Puzzle) -> Selected:
    """The puzzle's CNF with one selector per member (module docstring)."""
    everyone = members(puzzle)
    base = to_cnf(only(puzzle, ()), "extended")
    cell_clauses = len(base.clauses)
    clauses = [list(clause) for clause in base.clauses]
    top = base.num_vars
    selectors = []
    index = puzzle.index
    for member in everyone:
        check_deadline()  # a time limit in force (why_none's) stops the build here too
        top += 1
        selector = top
        selectors.append(selector)
        if member.given is not None:
            cell, value = member.given
            clauses.append([-selector, base.literal[index[cell]][value]])
            continue
        part = to_cnf(only(puzzle, (member,)), "extended")
        # the writer puts the cell clauses first, as in ``base``: the member's own follow
        assert part.clauses[cell_clauses - 1 : cell_clauses] == base.clauses[-1:]
        shift = top - base.num_vars
        for clause in part.clauses[cell_clauses:]:
            clauses.append(
                [
                    -selector,
                    *(
                        x if abs(x) <= base.num_vars else x + shift * (1 if x > 0 else -1)
                        for x in clause
                    ),
                ]
            )
        top += part.num_vars - base.num_vars
    return Selected(clauses, tuple(selectors), everyone, base, top)
