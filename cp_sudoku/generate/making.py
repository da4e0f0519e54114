"""Generate one puzzle: rules, a solution, givens added and dug, a grade, a cross-check.

The steps for puzzle ``index`` of a run with ``seed`` (its random generator
is seeded with ``"seed:index"``, so a puzzle does not depend on how many
processes made the others):

1. :meth:`~cp_sudoku.generate.rules.Maker.draw` the rules and a solution;
2. add givens (orbits of the symmetry) until that solution is the only one,
   then for Futoshiki and Skyscrapers drop signs or clues while it stays so;
3. dig givens (:func:`~cp_sudoku.generate.dig.dig`): minimal by default;
4. with a grade target, grade it (:mod:`cp_sudoku.deduction`) and start
   again from 1 when it falls outside the band;
5. cross-check the puzzle as ``check`` does by default (``sat`` and ``kernel``;
   ``cpsat``, ``sat`` and ``backtrack`` for rules the kernel declines:
   :func:`cp_sudoku.crosscheck.lineup`): it must be ``unique``
   with the drawn solution, else :class:`GenerationBug` is raised: never a
   wrong puzzle.  At least two back ends must prove it within
   ``check_seconds``; when they cannot, the same puzzle is checked again
   with three times the time, up to :data:`CHECK_ROUNDS` checks (a loaded
   machine slows the back ends' wall clock, and another draft of the same
   kind is no easier to prove), then the try ends.

With ``time_limit``, every step reads one wall-clock deadline per puzzle
(:func:`cp_sudoku.constraints.base.compile_deadline`): compiling rules, each
solver call of the oracles (interrupted at the deadline), grading and the
cross-check (given what is left); past it :class:`TimedOut` is raised.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.backends.base import check_limits
from cp_sudoku.constraints.base import OutOfTime, check_deadline, compile_deadline, remaining_time
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate.dig import Givens, add_until_unique, dig
from cp_sudoku.generate.grading import Target, check_reachable, grade_within
from cp_sudoku.generate.oracle import Oracle
from cp_sudoku.generate.rules import Draft, Maker, Rules
from cp_sudoku.generate.symmetry import check_symmetry, orbits
from cp_sudoku.model import Cell, CpSudokuError, Grid, Puzzle, UsageError

#: Cross-checks of one puzzle (``check_seconds``, then 3 and 9 times that) before giving up.
CHECK_ROUNDS = 3


class GenerationBug(RuntimeError):
    """A generated puzzle failed its cross-check (a bug: report it)."""


class OutOfTries(CpSudokuError):
    """No puzzle met the grade target within the tries allowed."""


class TimedOut(OutOfTries):
    """No puzzle was made within the request's time limit."""


@dataclass(frozen=True)
class Request(Rules):
    """What to generate: the rules (:class:`~cp_sudoku.generate.rules.Rules`: ``kind``,
    ``size``, ``box``, ``extras``, ``regions``, ``symmetry``) and

    - ``minimal``: dig until no orbit of givens can go (default True);
    - ``target``: a grade band or rating range (None: any grade);
    - ``max_tries``: drafts per puzzle before :class:`OutOfTries`;
    - ``backends``: the cross-check's back ends (None: the default
      cross-check's), each given ``check_seconds`` (a back end that runs out
      proves nothing; at least two must prove ``unique`` and none may
      disagree);
    - ``time_limit``: wall-clock seconds for each puzzle (None: no limit);
      past it :func:`make` raises :class:`TimedOut`.
    """

    minimal: bool = True
    target: Target | None = None
    max_tries: int = 2000
    backends: tuple[str, ...] | None = None
    check_seconds: float = 10.0
    time_limit: float | None = None

    def maker(self) -> Maker:
        """The rule maker, after checking the options and the symmetry.

        Raises:
            UsageError: options the kind does not take, a symmetry its shape
                cannot have, a grade for a kind without givens to dig, or a grade
                no puzzle of these rules reaches (:func:`~cp_sudoku.generate.grading.
                check_reachable`).
        """
        made = Maker(**vars(self.rules()))
        check_reachable(self)
        if self.symmetry != "none" and not made.has_givens:
            raise UsageError(f"a {self.kind} has no givens: its symmetry can only be none")
        check_symmetry(made.shape, self.symmetry)
        if self.max_tries < 1:
            raise UsageError(f"max_tries must be at least 1, got {self.max_tries}")
        check_limits(1, self.time_limit)  # positive seconds, or None
        return made


@dataclass(frozen=True)
class Generated:
    """One generated puzzle.

    ``puzzle`` (its givens dug), ``solution`` (its one grid, row-major over
    ``puzzle.cells``), ``seed`` and ``index`` (what reproduces it), ``grade``
    (a :class:`cp_sudoku.deduction.Grade`, or None when not asked), ``tries``
    (drafts made), ``seconds`` (CPU of this process), ``checked_by`` (the
    back ends whose cross-check agreed on ``unique``).
    """

    puzzle: Puzzle
    solution: Grid
    seed: int
    index: int
    grade: Any
    tries: int
    seconds: float
    checked_by: tuple[str, ...]

    def record(self) -> dict[str, Any]:
        """A JSON-ready summary (the puzzle as variant text and, for Sudoku, one line)."""
        from cp_sudoku.io import to_text
        from cp_sudoku.io.writers import puzzle_string

        return {
            "seed": self.seed,
            "index": self.index,
            "kind": self.puzzle.kind,
            "givens": len(self.puzzle.givens),
            "line": puzzle_string(self.puzzle) if is_line_kind(self.puzzle) else None,
            "text": to_text(self.puzzle),
            "solution": list(self.solution),
            "grade": None if self.grade is None else self.grade.record(),
            "tries": self.tries,
            "seconds": round(self.seconds, 6),
            "checked_by": list(self.checked_by),
        }


def is_line_kind(puzzle: Puzzle) -> bool:
    """Whether ``puzzle`` reads back from one line: a plain Sudoku (no extras)."""
    return puzzle.kind == "sudoku" and not puzzle.extras


def make(request: Request, seed: int, index: int, maker: Maker | None = None) -> Generated:
    """Puzzle ``index`` of the run seeded ``seed`` (see the module docstring).

    Raises:
        UsageError: as :meth:`Request.maker`.
        OutOfTries: no draft met the grade target in ``request.max_tries``.
        TimedOut: ``request.time_limit`` passed first.
        GenerationBug: the cross-check disagreed (never expected).
    """
    start = time.process_time()
    made = maker or request.maker()
    limit = check_limits(1, request.time_limit)
    deadline = None if limit is None else time.perf_counter() + limit
    try:
        with compile_deadline(deadline):
            return _make(request, seed, index, made, start)
    except OutOfTime:
        raise TimedOut(
            f"no {request.kind} made within the time limit of {limit:g} s (seed {seed}, "
            f"puzzle {index}): raise --time-limit or pick a smaller size"
        ) from None


def _make(request: Request, seed: int, index: int, made: Maker, start: float) -> Generated:
    """:func:`make` under its deadline (past it, :class:`OutOfTime` is raised)."""
    rng = random.Random(f"{seed}:{index}")
    mapping = check_symmetry(made.shape, request.symmetry)
    for tries in range(1, request.max_tries + 1):
        draft = made.draw(rng)
        puzzle = _dug(made, draft, orbits(draft.rules.cells, mapping), rng, request.minimal)
        puzzle = replace(puzzle, name=f"generated {request.kind} {seed}:{index}")
        grade = None
        if request.target is not None:
            grade = grade_within(puzzle, request.target)
            if grade is None:
                continue
        checked = _proved(puzzle, draft.solution, request)
        return Generated(
            puzzle, draft.solution, seed, index, grade, tries, time.process_time() - start, checked
        )
    raise OutOfTries(
        f"no {request.kind} of grade {request.target} in {request.max_tries} tries "
        f"(seed {seed}, puzzle {index}): raise --max-tries or widen the band"
    )


def _dug(
    maker: Maker,
    draft: Draft,
    cell_orbits: Sequence[tuple[Cell, ...]],
    rng: random.Random,
    minimal: bool,
) -> Puzzle:
    """The draft's rules with givens added until unique, rules dropped, givens dug."""
    rules, solution = draft.rules, draft.solution
    if not maker.has_givens:
        return rules
    oracle = draft.oracle or Oracle(rules)
    try:
        if draft.oracle is not None:  # fixed rules: from every cell given (no model read)
            givens = dict(zip(rules.cells, solution, strict=True))
        else:
            givens = add_until_unique(oracle, solution, {}, cell_orbits, rng)
        if draft.rebuild is not None:
            rules = _drop_rules(draft, givens, rng, minimal)
            oracle.close()
            oracle = Oracle(rules)
        givens = dig(oracle, solution, givens, cell_orbits, rng, minimal=minimal)
    finally:
        oracle.close()
    return replace(rules, givens=givens)


def _drop_rules(draft: Draft, givens: Givens, rng: random.Random, minimal: bool) -> Puzzle:
    """The draft's rules with items (signs, clues) dropped, in random order, while the
    puzzle with ``givens`` stays unique (all that can go, or up to the first that cannot)."""
    assert draft.rebuild is not None
    kept = list(draft.items)
    order = list(kept)
    rng.shuffle(order)
    for item in order:
        trial = [x for x in kept if x != item]
        with Oracle(draft.rebuild(trial)) as oracle:
            unique = oracle.other_solution(givens.items(), draft.solution) is None
        if unique:
            kept = trial
        elif not minimal:
            break
    return draft.rebuild(kept)


def _proved(puzzle: Puzzle, solution: Grid, request: Request) -> tuple[str, ...]:
    """The back ends that proved ``puzzle`` unique with ``solution``: at least two (or
    every one when fewer are asked for), over up to :data:`CHECK_ROUNDS` cross-checks.

    Raises:
        OutOfTries: still too few after the last round.
        OutOfTime: the deadline in force passed.
        GenerationBug: a back end contradicted the drawn solution.
    """
    need = min(2, len(request.backends or DEFAULT_BACKENDS))
    seconds = request.check_seconds
    for _ in range(CHECK_ROUNDS):
        checked = _crosscheck(puzzle, solution, request.backends, seconds)
        if len(checked) >= need:
            return checked
        check_deadline()  # the back ends ran out of the time left: not of their own
        seconds *= 3
    raise OutOfTries(
        f"{puzzle.name} was not cross-checked by {need} back ends within "
        f"{seconds / 3:g} s each: too hard to prove here; pick a smaller size"
    )


def time_left(most: float | None = None) -> float | None:
    """Seconds for the next cross-check: ``most`` or what is left before the deadline in
    force, whichever is less (None: no limit at all).

    Raises:
        OutOfTime: the deadline has passed.
    """
    check_deadline()
    left = remaining_time()
    if left is None:
        return most
    return max(left if most is None else min(most, left), 0.001)


def _crosscheck(
    puzzle: Puzzle, solution: Grid, backends: Sequence[str] | None, seconds: float
) -> tuple[str, ...]:
    """The back ends that proved ``puzzle`` unique with ``solution`` (those that ran out
    of ``seconds``, or of the time left before the deadline in force, prove nothing); a
    contrary answer raises :class:`GenerationBug`."""
    verdict = crosscheck(puzzle, backends, time_limit=time_left(seconds))
    proved = [name for name, r in verdict.results.items() if r.status == "unique"]
    if verdict.status != "unique" or verdict.solution != solution:
        raise GenerationBug(
            f"generated puzzle {puzzle.name} cross-checks as {verdict.status}"
            f"{'; ' + '; '.join(verdict.disagreements) if verdict.disagreements else ''}"
        )
    return tuple(proved)
