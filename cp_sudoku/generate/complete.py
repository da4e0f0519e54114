"""A setter's drawn rules completed with givens: ``cp-sudoku generate --from FILE``.

The setter draws the constraints (a variant file: cages, signs, clues,
regions, extras, and any digits already placed).  :func:`complete` answers
with the givens to add so that the puzzle is unique: a solution of the
rules is drawn, givens from it are added until it is the only one, then dug
(the setter's own givens are kept).  The result is *minimal* (no added
given can go) and cross-checked; of ``tries`` draws the one with the fewest
givens is kept (fewest found, not proven fewest possible).  Rules without a
solution answer ``none`` with the reason.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate.dig import add_until_unique, dig
from cp_sudoku.generate.making import GenerationBug
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


def complete(puzzle: Puzzle, *, seed: int = 0, tries: int = 8) -> Completed:
    """The fewest givens found over ``tries`` draws that make ``puzzle`` unique (see the module).

    Raises:
        UsageError: ``tries < 1``.
        GenerationBug: the completed puzzle failed its cross-check (never expected).
    """
    if tries < 1:
        raise UsageError(f"tries must be at least 1, got {tries}")
    if not takes_givens(puzzle.kind):
        raise UsageError(
            f"a {puzzle.kind} has no givens to add: --from completes kinds with a grid"
        )
    verdict = crosscheck(puzzle)
    if verdict.status == "none":
        return Completed("none", reason=verdict.reason or "no grid meets the rules")
    if verdict.status == "unknown":
        why = "; ".join(verdict.disagreements) or "the back ends could not decide the rules"
        return Completed("unknown", reason=why)
    setter = dict(puzzle.givens)
    cells = [(cell,) for cell in puzzle.cells]
    best: tuple[dict, Grid] | None = None
    with Oracle(puzzle) as oracle:
        for attempt in range(tries):
            rng = random.Random(f"{seed}:{attempt}")
            solution = oracle.random_solution(rng, list(setter.items()))
            assert solution is not None  # the cross-check found one
            givens = add_until_unique(oracle, solution, setter, cells, rng)
            givens = dig(oracle, solution, givens, cells, rng, keep=setter)
            if best is None or len(givens) < len(best[0]):
                best = (givens, solution)
    givens, solution = best
    done = replace(puzzle, givens=givens)
    check = crosscheck(done)
    if check.status != "unique" or check.solution != solution:
        raise GenerationBug(f"the completed {puzzle.kind} cross-checks as {check.status}")
    return Completed("unique", done, solution, len(givens) - len(setter))
