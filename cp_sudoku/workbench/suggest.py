"""Which givens to add so that a multiple puzzle becomes unique.

Each proposal singles out one solution, the *target* (the first one the SAT
solver finds): a set H of its cells whose target values, added as givens,
leave no other solution.  H works exactly when it *hits* every other
solution t, that is, holds a cell where t differs from the target; the
fewest givens for that target is a minimum hitting set of those difference
sets.  It is found by *implicit hitting sets* (the scheme of MaxHS: Davies
and Bacchus, "Solving MAXSAT by Solving a Sequence of Simpler MaxSAT
Instances", CP 2011):

1. greedy: while the target's values on H, as assumptions, allow another
   solution t (one SAT call with the target blocked), add to H the cell of
   t's difference set that hits the most difference sets seen; then drop
   every cell of H that is not needed (one call each);
2. exact, within ``rounds``: a minimum hitting set of the difference sets
   seen so far (RC2 MaxSAT, ``pysat.examples.rc2``: Ignatiev, Morgado and
   Marques-Silva, JSAT 2019) is a lower bound; if it leaves no other
   solution it is optimal, else its counterexample joins the sets.  When the
   bound reaches the greedy size, the greedy set is proven minimum.

Every proposal is checked: the puzzle with the added givens goes through
the cross-check (:func:`cp_sudoku.crosscheck.crosscheck`), which must say
``unique``.  A time limit bounds the encoding, each SAT call (the sat back
end's :class:`~cp_sudoku.backends.sat.Stopper`) and each round; past it there
is no proposal (``stopped``), and what is left of it bounds each back end of
the cross-check.  The minimum is over proposals that single out this target; a
different solution may need fewer, so ``targets`` solutions are tried (the
first found, then others met) and the smallest proposal kept
(``docs/performance.md`` compares with brute force on small grids).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from pysat.solvers import Solver

from cp_sudoku.backends import Backend
from cp_sudoku.backends.base import Clock, check_limits
from cp_sudoku.backends.sat import Stopper
from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.model import Cell, Grid, Puzzle, UsageError, cell_name, violations

#: The incremental solver (python-sat name).
SOLVER = "minisat22"
#: Exact rounds after the greedy set: each is one MaxSAT and one SAT call.
ROUNDS = 30
#: Solutions tried as the target.
TARGETS = 4


@dataclass(frozen=True)
class Suggestion:
    """Givens to add, and the evidence.

    - ``givens``: ``(cell, value)`` pairs, row-major; empty when the puzzle
      is already unique or has no solution;
    - ``target``: the solution they single out (None when there is none);
    - ``optimal``: proven the fewest givens that single out ``target``;
      ``lower_bound``: the fewest any such set can have, as proven;
    - ``solutions_seen``: other solutions met (difference sets);
    - ``status``: the cross-check's verdict on the puzzle with the givens
      added (``unique`` for every proposal; ``none`` for a puzzle without
      solution; ``unknown`` if a back end stopped); ``agree`` its agreement;
    - ``seconds``: wall-clock time, the cross-check included;
    - ``stopped``: ``time limit`` when the time ran out before a proposal was
      checked (then ``givens`` is empty and ``status`` is ``unknown``), else None.
    """

    givens: tuple[tuple[Cell, int], ...]
    target: Grid | None
    optimal: bool
    lower_bound: int
    solutions_seen: int
    status: str
    agree: bool
    seconds: float
    stopped: str | None = None

    def record(self) -> dict[str, Any]:
        """JSON-ready: ``givens`` (``[{"cell": "r1c2", "value": 4}]``), ``added``, ``optimal``,
        ``lower_bound``, ``solutions_seen``, ``status`` (after adding), ``agree``,
        ``seconds``, ``stopped``."""
        return {
            "givens": [{"cell": cell_name(c), "value": v} for c, v in self.givens],
            "added": len(self.givens),
            "optimal": self.optimal,
            "lower_bound": self.lower_bound,
            "solutions_seen": self.solutions_seen,
            "status": self.status,
            "agree": self.agree,
            "seconds": round(self.seconds, 6),
            "stopped": self.stopped,
        }


def suggest(
    puzzle: Puzzle,
    backends: Iterable[str | Backend] | str | Backend | None = None,
    *,
    rounds: int = ROUNDS,
    targets: int = TARGETS,
    time_limit: float | None = None,
) -> Suggestion:
    """Givens that make ``puzzle`` unique (module docstring), checked by ``backends``
    (None: the default cross-check, :func:`cp_sudoku.crosscheck.crosscheck`).

    ``targets``: how many solutions to try as the target (the first found,
    then the other solutions met, in order); the smallest proposal wins.
    ``time_limit``: wall-clock seconds for the search (None: no limit); what is
    left of it bounds each back end of the cross-check (module docstring).

    Raises:
        UsageError: ``rounds`` negative or ``targets`` below 1, a bad back-end name,
            or a time limit that is not a positive number.
        RuntimeError: the solver returned a grid the checker rejects (a bug).
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise UsageError(f"rounds must be an integer >= 0, got {rounds!r}")
    if isinstance(targets, bool) or not isinstance(targets, int) or targets < 1:
        raise UsageError(f"targets must be an integer >= 1, got {targets!r}")
    clock = Clock(check_limits(1, time_limit))
    first: Grid | None = None
    met: dict[Grid, None] = {}
    try:
        with compile_deadline(clock.deadline):
            cnf = to_cnf(puzzle, "optimised")
        with Solver(name=SOLVER, bootstrap_with=cnf.clauses) as sat:
            search = _Search(puzzle, cnf, sat, clock)
            first = _checked(puzzle, cnf, sat) if search.solve([]) else None
        best: tuple[list[int], bool, int, Grid] | None = None
        queue = [first] if first is not None else []
        while queue and targets > 0:
            target = queue.pop(0)
            targets -= 1
            with Solver(name=SOLVER, bootstrap_with=cnf.clauses) as sat:
                search = _Search(puzzle, cnf, sat, clock, target)
                chosen, optimal, bound = search.run(rounds)
            queue.extend(grid for grid in search.others if grid not in met and grid != first)
            met.update(dict.fromkeys(search.others))
            if best is None or len(chosen) < len(best[0]):
                best = (chosen, optimal, bound, target)
            if len(best[0]) <= 1:
                break  # nothing can do better than one given (none when already unique)
        chosen, optimal, bound, kept = best or ([], True, 0, None)
        givens = tuple(sorted((puzzle.cells[i], kept[i]) for i in chosen)) if kept else ()
        left = clock.remaining()
        if left is not None and left <= 0:
            raise OutOfTime("the time limit passed before the cross-check")
        verdict = crosscheck(
            replace(puzzle, givens={**puzzle.givens, **dict(givens)}), backends, time_limit=left
        )
    except OutOfTime:
        seconds = time.perf_counter() - clock.start
        return Suggestion((), first, False, 0, len(met), "unknown", True, seconds, "time limit")
    return Suggestion(
        givens=givens,
        target=kept,
        optimal=optimal,
        lower_bound=bound,
        solutions_seen=len(met),
        status=verdict.status,
        agree=verdict.agree,
        seconds=time.perf_counter() - clock.start,
    )


def _checked(puzzle: Puzzle, cnf: Cnf, sat: Solver) -> Grid:
    """The solver's model as a grid, re-checked by the checker."""
    grid = cnf.decode(sat.get_model())
    broken = violations(puzzle, grid)
    if broken:
        raise RuntimeError(f"{SOLVER} returned a grid that is not a solution: {broken[0]}")
    return grid


class _Search:
    """One target, the other solutions met (with their difference sets), the SAT calls
    (each stopped by the clock: :class:`OutOfTime`); without a target, the calls alone."""

    def __init__(
        self, puzzle: Puzzle, cnf: Cnf, sat: Solver, clock: Clock, target: Grid = ()
    ) -> None:
        self.puzzle, self.cnf, self.sat, self.target = puzzle, cnf, sat, target
        self.clock = clock
        self.others: dict[Grid, frozenset[int]] = {}  # each other solution met, in order
        if target:
            sat.add_clause(cnf.blocking_clause(target))  # [] when every cell is given

    def solve(self, assumptions: list[int]) -> bool:
        """The solver's answer under ``assumptions``.

        Raises:
            OutOfTime: the time limit passed first.
        """
        stopper = Stopper(self.sat, self.clock)
        try:
            answer = stopper.solve(assumptions)
        finally:
            stopper.close()
        if answer is None:
            raise OutOfTime("the time limit passed")
        return answer

    def other(self, chosen: Iterable[int]) -> frozenset[int] | None:
        """The difference set of another solution agreeing with the target on
        ``chosen``, recorded; None when there is none (``chosen`` works)."""
        literal, target = self.cnf.literal, self.target
        if not self.solve([literal[i][target[i]] for i in chosen]):
            return None
        grid = _checked(self.puzzle, self.cnf, self.sat)
        diff = frozenset(i for i, v in enumerate(grid) if v != target[i])
        self.others[grid] = diff
        return diff

    def run(self, rounds: int) -> tuple[list[int], bool, int]:
        """(cells chosen, proven the fewest for the target, lower bound)."""
        chosen = self.greedy()
        if not chosen:
            return [], True, 0
        bound = 1
        for _ in range(rounds):
            if self.clock.expired():
                raise OutOfTime("the time limit passed")
            best = minimum_hitting_set(list(self.others.values()))
            bound = len(best)
            if bound >= len(chosen):
                return chosen, True, len(chosen)
            if self.other(best) is None:
                return sorted(best), True, bound
        return chosen, False, bound

    def greedy(self) -> list[int]:
        """Cells added one by one until the target is singled out, then pruned."""
        chosen: list[int] = []
        while (diff := self.other(chosen)) is not None:
            diffs = self.others.values()
            chosen.append(max(sorted(diff), key=lambda i: sum(i in d for d in diffs)))
        for i in list(reversed(chosen)):
            rest = [j for j in chosen if j != i]
            if self.other(rest) is None:
                chosen = rest
        return sorted(chosen)


def minimum_hitting_set(sets: list[frozenset[int]]) -> list[int]:
    """A smallest set of elements meeting every one of ``sets`` (RC2 MaxSAT; elements
    are non-negative integers)."""
    wcnf = WCNF()
    elements = sorted(set().union(*sets))
    for s in sets:
        wcnf.append([i + 1 for i in sorted(s)])
    for i in elements:
        wcnf.append([-(i + 1)], weight=1)
    with RC2(wcnf) as rc2:
        model = rc2.compute()
    return [i for i in elements if model[i] > 0] if model is not None else []
