"""Why a puzzle has no solution: a minimal unsatisfiable core, and the deduction steps.

1. The **core**: a minimal set of givens and constraints that cannot all hold
   (an MUS: drop any one member and the rest has a solution).  The CNF with
   one selector per member (:mod:`.members`) is loaded in one python-sat
   solver; one call under all selectors says whether there is anything to
   explain, and its unsatisfiable core (the selectors the refutation used) is
   reduced by deletion with clause-set refinement (MUSX's algorithm,
   ``pysat.examples.musx``: Marques-Silva, "Minimal Unsatisfiability: Models,
   Algorithms and Applications", ISMVL 2010), one call per member, each
   interruptible at the deadline (MUSX's own calls cannot be).  With
   ``smallest`` (the default), OptUx (``pysat.examples.optux``: a *smallest*
   MUS by implicit hitting sets over minimal correction sets, Ignatiev,
   Previti, Liffiton and Marques-Silva, "Smallest MUS Extraction with Minimal
   Hitting Set Dualization", CP 2015) then searches in a forked child process,
   killed at its share of the time left, since its set-up (a copy of the
   formula, an enumeration of disjoint correction sets) cannot be stopped from
   inside; when it does not finish, the deletion's minimal core is given
   (``Core.smallest`` False), which may be larger (13 givens and 6 units where
   the smallest has 5 and 4, on a serg puzzle; ``docs/performance.md``).
2. The **check**: another back end (``check_backend``, the backtracker by
   default; never the SAT solver that found it) solves the core alone (it must
   have no solution) and each subset with one member dropped (each must have one).
3. The **steps**: the deduction engine (:func:`cp_sudoku.deduction.explain`)
   run on the puzzle; when it reaches a contradiction, its steps to it.

One wall-clock deadline (``time_limit``) covers all of it: building the
formula, each SAT call, OptUx, the checks and the deduction.  What the
deadline cuts is said, never guessed: ``Core.stopped`` is ``time limit``, a
core not yet reduced to a minimal one says so (``Core.reduced``), a check past
it is ``unknown``, and a deduction past it ends ``timeout``.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import resource
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from pysat.examples.optux import OptUx
from pysat.formula import WCNF
from pysat.solvers import Solver

from cp_sudoku.backends.base import Clock, check_limits
from cp_sudoku.backends.sat import Stopper
from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.crosscheck import resolve
from cp_sudoku.deduction import Explanation, explain
from cp_sudoku.model import Cell, Puzzle, cell_name, violations
from cp_sudoku.workbench.members import Member, Selected, members, only, selected

#: CPU seconds OptUx may search for a smallest core before the deletion's minimal one is
#: taken (CPU, not wall-clock, so that a loaded machine gives the same cores).
SMALLEST_BUDGET = 5.0
#: The share of the time left that OptUx may take under a time limit; the rest is for
#: the checks of the core and the deduction.
SMALLEST_SHARE = 0.5


@dataclass(frozen=True)
class Core:
    """Why ``puzzle`` has no solution.

    - ``members``: an unsatisfiable set of givens and constraints, minimal when
      ``reduced`` (empty when the puzzle has a solution, or when the time limit
      came before any was found: then ``stopped`` says so);
    - ``total``: how many members the puzzle has (givens + constraints);
    - ``steps``: the deduction engine's run (its ``outcome`` is
      ``contradiction`` when it reaches one, ``timeout`` when the deadline
      stopped it);
    - ``seconds``: wall-clock time of the extraction (the checks excluded);
    - ``checked_by``: the back end that re-checked the core, or None;
    - ``checks``: what it found: ``core`` (the core alone)
      and ``dropped`` (per member, in order: the subset without it), each
      ``satisfiable``, ``unsatisfiable`` or ``unknown`` (:func:`check_core`);
      empty when not checked;
    - ``smallest``: the core is a smallest one (OptUx finished within its budget);
    - ``reduced``: every member was shown needed (False: the time limit stopped
      the reduction; the set still has no solution, but may hold more than needed);
    - ``stopped``: ``time limit`` when the deadline cut any part of the work
      (the extraction, a check or the deduction), else None.
    """

    members: tuple[Member, ...]
    total: int
    steps: Explanation
    seconds: float
    checked_by: str | None = None
    checks: dict[str, Any] = field(default_factory=dict)
    smallest: bool = False
    reduced: bool = True
    stopped: str | None = None

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The cells the core covers, row-major, each once."""
        return tuple(sorted({cell for m in self.members for cell in m.cells}))

    @property
    def minimal(self) -> bool | None:
        """Whether the check confirmed it (unsatisfiable, and satisfiable without any
        one member): True, False when a check contradicts it, None when not checked or
        when a check was left ``unknown`` (by the time limit) and none contradicts it."""
        if not self.checks:
            return None
        statuses = [self.checks["core"], *self.checks["dropped"]]
        wanted = ["unsatisfiable"] + ["satisfiable"] * len(self.checks["dropped"])
        if statuses == wanted:
            return True
        pairs = zip(statuses, wanted, strict=True)
        return False if any(s not in (w, "unknown") for s, w in pairs) else None

    def sentence(self) -> str:
        """``these 4 givens and row 1 cannot all hold; drop any one of them and a
        solution exists`` (without the second half when not ``reduced``)."""
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
        if not self.reduced:
            return (
                f"{' and '.join(parts)} cannot all hold (not reduced to a minimal set: "
                "stopped by the time limit)"
            )
        return f"{' and '.join(parts)} cannot all hold; drop any one of them and a solution exists"

    def record(self) -> dict[str, Any]:
        """JSON-ready: ``core`` (members: ``text``, ``cells``), ``cells``, ``sentence``,
        ``minimal``, ``smallest``, ``reduced``, ``stopped``, ``checked_by``, ``checks``,
        ``steps`` (the engine's record), ``outcome`` and ``seconds``."""
        return {
            "core": [
                {"text": m.text, "cells": [cell_name(c) for c in m.cells]} for m in self.members
            ],
            "members_total": self.total,
            "cells": [cell_name(c) for c in self.cells],
            "sentence": self.sentence() if self.members else None,
            "minimal": self.minimal,
            "smallest": self.smallest,
            "reduced": self.reduced,
            "stopped": self.stopped,
            "checked_by": self.checked_by,
            "checks": self.checks,
            "deduction": self.steps.summary(),
            "outcome": self.steps.outcome,
            "steps": self.steps.record() if self.steps.outcome == "contradiction" else [],
            "seconds": round(self.seconds, 6),
        }


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass
class _Found:
    """What the extraction reached: selector numbers (1-based member numbers), whether
    they are reduced to a minimal set, a smallest one, and whether the deadline cut it."""

    found: list[int] = field(default_factory=list)
    reduced: bool = True
    smallest: bool = False
    stopped: bool = False


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
    ``smallest``: OptUx's smallest core, else the deletion's minimal one;
    ``budget``: CPU seconds OptUx may take (checked between its hitting sets) before
    the minimal core is given instead (``Core.smallest`` False);
    ``time_limit``: wall-clock seconds (None: none) for the whole call, one deadline
    shared by the formula, the SAT calls, OptUx (at most half of what is left), the
    checks of the core and the deduction; past it ``Core.stopped`` is ``time limit``
    and what was reached is given, marked as such.
    A puzzle with a solution gets an empty core.

    Raises:
        UsageError: an unknown back-end name, or a time limit that is not a positive
            number.
    """
    clock = Clock(check_limits(1, time_limit))
    with compile_deadline(clock.deadline):
        try:
            formula: Selected | None = selected(puzzle)
        except OutOfTime:
            formula = None
        reached = _Found(stopped=True)
        if formula is not None:
            reached = _extract(formula, smallest, budget, clock)
        everyone = members(puzzle) if formula is None else formula.members
        chosen = tuple(everyone[k - 1] for k in sorted(reached.found))
        seconds = time.perf_counter() - clock.start
        checks = {}
        if chosen and check_backend:
            checks = check_core(puzzle, chosen, check_backend, clock.remaining())
        steps = explain(puzzle)  # the deadline in force stops it (outcome ``timeout``)
    cut = reached.stopped or steps.outcome == "timeout" or clock.expired()
    return Core(
        chosen,
        len(everyone),
        steps,
        seconds,
        check_backend if checks else None,
        checks,
        reached.smallest,
        reached.reduced,
        "time limit" if cut and clock.deadline is not None else None,
    )


def _extract(formula: Selected, smallest: bool, budget: float, clock: Clock) -> _Found:
    """The core of ``formula`` within ``clock``'s deadline (module docstring, 1)."""
    number = {selector: k + 1 for k, selector in enumerate(formula.selectors)}
    with Solver(name="g4", bootstrap_with=formula.clauses) as sat:
        stopper = Stopper(sat, clock)
        try:
            answer = stopper.solve(list(formula.selectors))
            if answer is None:
                return _Found(stopped=True)
            if answer:  # a solution: nothing to explain
                return _Found()
            kept, reduced = _deleted(stopper, sat, sorted(sat.get_core() or ()))
        finally:
            stopper.close()
    reached = _Found(sorted(number[s] for s in kept), reduced, stopped=not reduced)
    if smallest and reduced:
        left = clock.remaining()
        finished, best = _forked(
            lambda: _smallest(formula, budget), None if left is None else left * SMALLEST_SHARE
        )
        if best is not None:
            reached.found, reached.smallest = best, True
        reached.stopped = not finished  # killed at its share of the time limit
    return reached


def _deleted(stopper: Stopper, sat: Solver, core: list[int]) -> tuple[list[int], bool]:
    """``core`` (selectors, unsatisfiable together) reduced by deletion: each selector
    left out in turn; when the rest still has no solution, the solver's new core of it
    is kept (clause-set refinement), else the selector is needed.  The selectors reached
    and whether the reduction finished (False: the deadline stopped a call)."""
    needed: list[int] = []
    left = list(core)
    while left:
        tried = left.pop()
        answer = stopper.solve(needed + left)
        if answer is None:
            return needed + left + [tried], False
        if answer:
            needed.append(tried)
        else:  # a subset of the rest holds every needed one (each one's drop has a solution)
            used = set(sat.get_core() or ())
            left = [s for s in left if s in used]
    return needed, True


class _OutOfTime(Exception):
    """OptUx ran past its budget."""


def _smallest(formula: Selected, budget: float) -> list[int] | None:
    """OptUx's smallest MUS (member numbers, 1-based), or None past ``budget`` CPU
    seconds (``time.process_time``, looked at before each of its optimal hitting sets;
    run in a child process, whose CPU limit, a second later, ends one long step)."""
    deadline = time.process_time() + budget
    # the kernel's backstop for one long hitting-set step (SIGXCPU ends the child)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(deadline) + 1
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    wcnf = WCNF()
    for clause in formula.clauses:
        wcnf.append(clause)
    for selector in formula.selectors:
        wcnf.append([selector], weight=1)
    with OptUx(wcnf, verbose=0) as optux:
        get: Callable[[], list[int] | None] = optux.hitman.get

        def guarded() -> list[int] | None:
            if time.process_time() > deadline:
                raise _OutOfTime
            return get()

        optux.hitman.get = guarded
        try:
            return cast("list[int] | None", optux.compute())
        except _OutOfTime:
            return None


def _forked(
    work: Callable[[], list[int] | None], seconds: float | None
) -> tuple[bool, list[int] | None]:
    """``work()`` run in a forked child process, which is killed after ``seconds`` of
    wall-clock time (None: no limit): whether it finished, and its answer (None also
    when it failed).  A child, not a thread, because only a process can be stopped in
    the middle of a library's set-up (OptUx copies the formula and enumerates disjoint
    correction sets in its constructor)."""
    read, write = os.pipe()
    try:
        child = os.fork()
    except OSError:  # no process to spare (EAGAIN, ENOMEM): no smallest core, none lost
        os.close(read)
        os.close(write)
        return True, None
    if child == 0:  # pragma: no cover (the child process; its answer is tested)
        os.close(read)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            with os.fdopen(write, "wb") as out:  # a buffered file writes it all
                out.write(pickle.dumps(work()))
        finally:
            os._exit(0)
    os.close(write)
    try:
        if not select.select([read], [], [], seconds)[0]:
            return False, None
        chunks = []
        while chunk := os.read(read, 1 << 16):
            chunks.append(chunk)
        answer = pickle.loads(b"".join(chunks)) if chunks else None
        return True, answer if isinstance(answer, list) else None
    finally:
        os.close(read)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)


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
