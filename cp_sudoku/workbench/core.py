"""Why a puzzle has no solution: a minimal unsatisfiable core, and the deduction steps.

1. The **core**: a minimal set of givens and constraints that cannot all hold
   (an MUS: drop any one member and the rest has a solution).  The CNF with
   one selector per member (:mod:`.members`) goes to python-sat, with the
   selectors as soft unit clauses: by default to OptUx
   (``pysat.examples.optux``: a *smallest* MUS by implicit hitting sets over
   minimal correction sets, Ignatiev, Previti, Liffiton and Marques-Silva,
   "Smallest MUS Extraction with Minimal Hitting Set Dualization", CP 2015),
   or with ``smallest=False`` to MUSX (``pysat.examples.musx``: one MUS by
   deletion, Marques-Silva, "Minimal Unsatisfiability: Models, Algorithms
   and Applications", ISMVL 2010), which is bounded by one SAT call per
   member but may keep a larger core (13 givens and 6 units where the
   smallest has 5 and 4, on a serg puzzle; ``docs/performance.md``).
   OptUx has a time budget (checked between its hitting sets); past it,
   MUSX's core is given and ``Core.smallest`` says it is not proven smallest.
2. The **steps**: the deduction engine (:func:`cp_sudoku.deduction.explain`)
   run on the puzzle; when it reaches a contradiction, its steps to it.

The core's claims are checked by another back end (``check_backend``, the
backtracker by default; never the SAT solver that found it): the core alone
has no solution, and each subset with one member dropped has one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pysat.examples.musx import MUSX
from pysat.examples.optux import OptUx
from pysat.formula import WCNF
from pysat.solvers import Solver

from cp_sudoku.backends.base import Clock, check_limits
from cp_sudoku.crosscheck import resolve
from cp_sudoku.deduction import Explanation, explain
from cp_sudoku.model import Cell, Puzzle, cell_name, violations
from cp_sudoku.workbench.members import Member, only, selected

#: CPU seconds OptUx may search for a smallest core before MUSX's minimal one is taken
#: (CPU, not wall-clock, so that a loaded machine gives the same cores).
SMALLEST_BUDGET = 5.0


@dataclass(frozen=True)
class Core:
    """Why ``puzzle`` has no solution.

    - ``members``: a minimal unsatisfiable set of givens and constraints
      (empty when the puzzle has a solution);
    - ``total``: how many members the puzzle has (givens + constraints);
    - ``steps``: the deduction engine's run (its ``outcome`` is
      ``contradiction`` when it reaches one);
    - ``checked_by``: the back end that re-checked the core, or None;
    - ``checks``: what it found: ``core`` (the core alone)
      and ``dropped`` (per member, in order: the subset without it), each
      ``satisfiable``, ``unsatisfiable`` or ``unknown`` (:func:`check_core`);
      empty when not checked;
    - ``seconds``: wall-clock time of the extraction (the checks excluded);
    - ``smallest``: the core is a smallest one (OptUx finished within its budget).
    """

    members: tuple[Member, ...]
    total: int
    steps: Explanation
    seconds: float
    checked_by: str | None = None
    checks: dict[str, Any] = field(default_factory=dict)
    smallest: bool = False

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells the core covers, row-major, each once."""
        return tuple(sorted({cell for m in self.members for cell in m.cells}))

    @property
    def minimal(self) -> bool | None:
        """Whether the check confirmed it: unsatisfiable, and satisfiable without any one
        member (None when not checked)."""
        if not self.checks:
            return None
        return self.checks["core"] == "unsatisfiable" and all(
            status == "satisfiable" for status in self.checks["dropped"]
        )

    def sentence(self) -> str:
        """``these 4 givens and row 1 cannot all hold; drop any one of them and a
        solution exists``."""
        givens = [m for m in self.members if m.given is not None]
        rules = [m.text for m in self.members if m.given is None]
        parts = []
        if givens:
            shown = ", ".join(m.text.removeprefix("given ") for m in givens)
            parts.append(
                f"{'this given' if len(givens) == 1 else f'these {len(givens)} givens'} ({shown})"
            )
        if rules:
            parts.append(_join(rules))
        return f"{' and '.join(parts)} cannot all hold; drop any one of them and a solution exists"

    def record(self) -> dict[str, Any]:
        """JSON-ready: ``core`` (members: ``text``, ``cells``), ``cells``, ``sentence``,
        ``minimal``, ``checked_by``, ``checks``, ``steps`` (the engine's record),
        ``outcome`` and ``seconds``."""
        return {
            "core": [
                {"text": m.text, "cells": [cell_name(c) for c in m.cells]} for m in self.members
            ],
            "members_total": self.total,
            "cells": [cell_name(c) for c in self.cells],
            "sentence": self.sentence() if self.members else None,
            "minimal": self.minimal,
            "smallest": self.smallest,
            "checked_by": self.checked_by,
            "checks": self.checks,
            "deduction": self.steps.summary(),
            "outcome": self.steps.outcome,
            "steps": self.steps.record() if self.steps.outcome == "contradiction" else [],
            "seconds": round(self.seconds, 6),
        }


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def why_none(
    puzzle: Puzzle,
    *,
    check_backend: str | None = "backtrack",
    smallest: bool = True,
    budget: float = SMALLEST_BUDGET,
    time_limit: float | None = None,
) -> Core:
    """The core and the deduction steps of ``puzzle`` (module docstring).

    ``check_backend``: the back end that re-checks the core (None: no check);
    ``smallest``: OptUx's smallest core, else MUSX's first minimal one;
    ``budget``: CPU seconds OptUx may take (checked between its hitting sets) before
    MUSX's core is given instead (``Core.smallest`` False), at most ``time_limit``;
    ``time_limit``: seconds (None: none) for the deduction run (CPU, as
    :func:`~cp_sudoku.deduction.explain` reads it; past it the run ends ``timeout``)
    and for the checks of the core together (wall-clock; a check past it is
    ``unknown``), so that a command's ``--time-limit`` holds here too.
    A puzzle with a solution gets an empty core.

    Raises:
        UsageError: an unknown back-end name, or a time limit that is not a positive
            number.
    """
    check_limits(1, time_limit)
    start = time.perf_counter()
    formula = selected(puzzle)
    wcnf = WCNF()
    for clause in formula.clauses:
        wcnf.append(clause)
    for selector in formula.selectors:
        wcnf.append([selector], weight=1)
    with Solver(name="g4", bootstrap_with=formula.clauses) as sat:
        satisfiable = sat.solve(assumptions=list(formula.selectors))
    found: list[int] = []
    proven = False
    if not satisfiable:  # OptUx fails on a satisfiable formula: nothing to extract
        most = budget if time_limit is None else min(budget, time_limit)
        best = _smallest(wcnf, time.process_time() + most) if smallest else None
        proven = best is not None
        if best is None:
            with MUSX(wcnf, solver="g4", verbosity=0) as musx:
                best = musx.compute()
        found = best or []
    chosen = tuple(formula.members[k - 1] for k in sorted(found or ()))
    seconds = time.perf_counter() - start
    steps = explain(puzzle, time_limit=time_limit)
    checks = (
        check_core(puzzle, chosen, check_backend, time_limit) if chosen and check_backend else {}
    )
    return Core(
        chosen,
        len(formula.members),
        steps,
        seconds,
        check_backend if checks else None,
        checks,
        proven,
    )


class _OutOfTime(Exception):
    """OptUx ran past its budget."""


def _smallest(wcnf: WCNF, deadline: float) -> list[int] | None:
    """OptUx's smallest MUS (soft clause numbers, 1-based), or None past ``deadline``
    (``time.process_time``, looked at before each of its optimal hitting sets)."""
    with OptUx(wcnf, verbose=0) as optux:
        get = optux.hitman.get

        def guarded() -> list[int] | None:
            if time.process_time() > deadline:
                raise _OutOfTime
            return get()

        optux.hitman.get = guarded
        try:
            return optux.compute()
        except _OutOfTime:
            return None


def check_core(
    puzzle: Puzzle, core: tuple[Member, ...], backend: str, time_limit: float | None = None
) -> dict[str, Any]:
    """What ``backend`` says of the core alone (``core``) and of each subset with one
    member dropped (``dropped``, in order): ``satisfiable`` (a checked solution found),
    ``unsatisfiable`` (search exhausted) or ``unknown`` (also once ``time_limit``
    wall-clock seconds for all the checks have passed; None: no limit)."""
    (solver,) = resolve(backend)
    clock = Clock(time_limit)

    def status(kept: tuple[Member, ...]) -> str:
        left = clock.remaining()
        if left is not None and left <= 0:
            return "unknown"
        subset = only(puzzle, kept)
        result = solver.solve(subset, limit=1, time_limit=left)
        if any(not violations(subset, grid) for grid in result.solutions):
            return "satisfiable"
        return "unsatisfiable" if result.complete and not result.solutions else "unknown"

    return {
        "core": status(core),
        "dropped": [status(core[:k] + core[k + 1 :]) for k in range(len(core))],
    }
