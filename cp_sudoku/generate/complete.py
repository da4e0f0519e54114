"""A setter's drawn rules completed with givens: ``cp-sudoku generate --from FILE``.

The setter draws the constraints (a variant file: cages, signs, clues,
regions, extras, and any digits already placed).  :func:`complete` answers
with the givens to add so that the puzzle is unique: a solution of the
rules is drawn, givens from it are added until it is the only one, then dug
(the setter's own givens are kept).  The result is *minimal* (no added
given can go) and cross-checked; of ``tries`` draws the one with the fewest
givens is kept (fewest found, not proven fewest possible).  Rules without a
solution answer ``none`` with the reason: the clues that clash, or else a
minimal set of givens and constraints that cannot all hold.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from cp_sudoku.backends.base import check_limits
from cp_sudoku.constraints.base import OutOfTime, check_deadline, compile_deadline, remaining_time
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate.dig import Givens, add_until_unique, dig
from cp_sudoku.generate.making import GenerationBug, time_left
from cp_sudoku.generate.oracle import Oracle
from cp_sudoku.generate.rules import takes_givens
from cp_sudoku.model import Grid, Puzzle, UsageError


@dataclass(frozen=True)
class Completed:
    """What :func:`complete` found.

    ``status``: ``unique`` (``puzzle`` is the completed puzzle, ``solution``
    its grid, ``added`` how many givens were added), ``none`` (the rules
    have no solution; ``reason`` says why) or ``unknown`` (the back ends could
    not decide the drawn rules; ``reason`` says what stopped them).
    """

    status: str
    puzzle: Puzzle | None = None
    solution: Grid | None = None
    added: int = 0
    reason: str | None = None


def complete(
    puzzle: Puzzle, *, seed: int = 0, tries: int = 8, time_limit: float | None = None
) -> Completed:
    """The fewest givens found over ``tries`` draws that make ``puzzle`` unique (see the module).

    ``time_limit``: wall-clock seconds for the whole completion (None: none); past it
    the answer is ``unknown`` with the reason (the draws made so far are dropped).

    Raises:
        UsageError: ``tries < 1``, a time limit that is not a positive number.
        GenerationBug: the completed puzzle failed its cross-check (never expected).
    """
    if tries < 1:
        raise UsageError(f"tries must be at least 1, got {tries}")
    if not takes_givens(puzzle.kind):
        raise UsageError(
            f"a {puzzle.kind} has no givens to add: --from completes kinds with a grid"
        )
    limit = check_limits(1, time_limit)
    try:
        with compile_deadline(None if limit is None else time.perf_counter() + limit):
            return _complete(puzzle, seed, tries)
    except OutOfTime:
        return Completed("unknown", reason=f"not completed within the time limit of {limit:g} s")


def _complete(puzzle: Puzzle, seed: int, tries: int) -> Completed:
    """:func:`complete` under the deadline in force (past it, :class:`OutOfTime`)."""
    verdict = crosscheck(puzzle, time_limit=time_left())
    if verdict.status == "none":
        return Completed("none", reason=verdict.reason or _core(puzzle))
    if verdict.status == "unknown":
        check_deadline()
        why = "; ".join(verdict.disagreements) or "the back ends could not decide the rules"
        return Completed("unknown", reason=why)
    setter = dict(puzzle.givens)
    cells = [(cell,) for cell in puzzle.cells]
    best: tuple[Givens, Grid] | None = None
    with Oracle(puzzle) as oracle:
        for attempt in range(tries):
            rng = random.Random(f"{seed}:{attempt}")
            solution = oracle.random_solution(rng, list(setter.items()))
            assert solution is not None  # the cross-check found one
            givens = add_until_unique(oracle, solution, setter, cells, rng)
            givens = dig(oracle, solution, givens, cells, rng, keep=setter)
            if best is None or len(givens) < len(best[0]):
                best = (givens, solution)
    assert best is not None
    givens, solution = best
    done = replace(puzzle, givens=givens)
    check = crosscheck(done, time_limit=time_left())
    if check.status == "unknown" and not check.disagreements and remaining_time() is not None:
        raise OutOfTime("the cross-check of the completed puzzle ran out of time")
    if check.status != "unique" or check.solution != solution:
        raise GenerationBug(f"the completed {puzzle.kind} cross-checks as {check.status}")
    return Completed("unique", done, solution, len(givens) - len(setter))


def _core(puzzle: Puzzle) -> str:
    """Why ``puzzle`` has no solution though no two clues clash: a minimal core of its
    givens and constraints in words (:func:`cp_sudoku.workbench.core.why_none`, MUSX)."""
    from cp_sudoku.workbench.core import why_none

    core = why_none(puzzle, check_backend=None, smallest=False)
    return core.sentence() if core.members else "no grid meets the rules"
