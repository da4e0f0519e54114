"""Run several back ends on one puzzle, re-check every grid, and agree on a verdict.

Thread safety: back ends named by string come from the process's one cache
(:func:`cp_sudoku.backends.built.built`), and a built back end passed in is
used as given; either way its :meth:`~cp_sudoku.backends.base.Backend.solve`
takes a lock, so calling :func:`crosscheck`, :func:`count` or
:func:`solutions` from several threads is safe (threads sharing a back end
take turns).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cp_sudoku.backends import (
    DEFAULT_BACKENDS,
    STAND_INS,
    UNLESS_KERNEL_TAKES,
    Backend,
    Result,
    Status,
)
from cp_sudoku.backends.base import check_limits
from cp_sudoku.backends.built import built as shared
from cp_sudoku.constraints.base import check_deadline, remaining_time
from cp_sudoku.model import Grid, Puzzle, UsageError, clashes, violations

#: Status of a back end that declined a puzzle it cannot compile.
DECLINED = "declined"


@dataclass(frozen=True)
class Verdict:
    """The agreed answer for one puzzle.

    - ``status``: ``unique``, ``multiple``, ``none``, or ``unknown`` when no
      back end could prove an answer *or* when the back ends disagree or
      returned a grid that fails the checker (then ``disagreements`` says
      what, and ``agree`` is False).
    - ``solution``: the grid (``Puzzle.cells`` order, row-major) when the
      status is ``unique``, else None.
    - ``solutions``: every distinct checked grid any back end found.
    - ``results``: back-end name -> its :class:`Result` (declined ones too).
    - ``reason``: for ``none``, the clues that clash (cells and rule), when
      the contradiction is visible without search; for ``unknown``, what
      stopped each back end (``sat stopped: time limit``) or ``the back ends
      disagree``; else None.
    """

    status: Status
    solution: Grid | None
    solutions: tuple[Grid, ...]
    results: dict[str, Result]
    disagreements: tuple[str, ...]
    reason: str | None = None

    @property
    def agree(self) -> bool:
        """No back end contradicted another and every grid passed the checker."""
        return not self.disagreements

    @property
    def declined(self) -> tuple[str, ...]:
        """The back ends that declined the puzzle (unsupported constraint types)."""
        return tuple(name for name, r in self.results.items() if r.stopped == DECLINED)


def resolve(backends: Iterable[str | Backend] | str | Backend) -> list[Backend]:
    """Back ends from names or built ones (a single name or back end is accepted).

    Raises:
        UsageError: no back end, an unknown name, or an item that is neither.
    """
    if isinstance(backends, str | Backend):
        backends = [backends]
    built = []
    for item in backends:
        if isinstance(item, str):
            built.append(shared(item))
        elif isinstance(item, Backend):
            built.append(item)
        else:
            raise UsageError(f"a back end is a name or a built Backend, got {item!r}")
    if not built:
        raise UsageError("no back end to run: name at least one")
    return built


#: The back ends of the default cross-check that run on every puzzle.
ALWAYS = tuple(name for name in DEFAULT_BACKENDS if name not in UNLESS_KERNEL_TAKES)


def lineup(puzzle: Puzzle) -> tuple[str, ...]:
    """The back ends of the default cross-check that run on ``puzzle``, by name.

    For a puzzle the kernel takes (units and givens only, at most 64 values):
    ``sat`` and ``kernel`` (:data:`ALWAYS`).  For one with any rule the kernel
    declines: ``cpsat`` too (:data:`~cp_sudoku.backends.UNLESS_KERNEL_TAKES`),
    and ``backtrack`` stands in for the kernel when it declines
    (:data:`~cp_sudoku.backends.STAND_INS`).  This is the one place that
    decides it: the CLI, the service, ``generate`` and :func:`crosscheck`
    without ``backends`` all come here.
    """
    return ALWAYS if shared("kernel").declines(puzzle) is None else DEFAULT_BACKENDS


Chosen = Iterable[str | Backend] | str | Backend | None
"""What a caller names as back ends: names, built ones, one of either, or None (default)."""


def _chosen(puzzle: Puzzle, backends: Chosen) -> list[Backend]:
    """The back ends named (all of them), or the default cross-check's for ``puzzle``."""
    return resolve(lineup(puzzle) if backends is None else backends)


def _puzzle(puzzle: object) -> Puzzle:
    if not isinstance(puzzle, Puzzle):
        raise UsageError(
            f"expected a Puzzle (read one with cp_sudoku.parse_line or read_file), "
            f"got {type(puzzle).__name__}"
        )
    return puzzle


def crosscheck(
    puzzle: Puzzle,
    backends: Chosen = None,
    *,
    limit: int = 2,
    time_limit: float | None = None,
) -> Verdict:
    """Solve ``puzzle`` with each back end and return one :class:`Verdict`.

    Args:
        backends: names from :func:`cp_sudoku.backends.available` or built
            back ends (one or several), each of which runs; None (the
            default): the default cross-check, ``sat`` and ``kernel`` for a
            puzzle of units and givens only, ``cpsat``, ``sat`` and
            ``backtrack`` (standing in for the declining ``kernel``) for one
            with cages, relations or clues (:func:`lineup`).
        limit: solutions each back end looks for (>= 1; 2 proves uniqueness).
        time_limit: seconds per back end, or None (``inf``: None).

    Every returned grid is re-verified with :func:`cp_sudoku.model.violations`.
    A back end whose status is ``unknown`` proves nothing, but the grids it
    found still count and are still checked; one that declined is ignored.

    Raises:
        UsageError: not a puzzle, ``limit < 1``, a time limit that is NaN,
            zero or negative, no back end, or an unknown back-end name.
    """
    puzzle = _puzzle(puzzle)
    time_limit = check_limits(limit, time_limit)
    results = solve_all(puzzle, _chosen(puzzle, backends), limit=limit, time_limit=time_limit)
    return judge(puzzle, results)


#: The reason of a back end a shared deadline left no time for (:func:`solve_all`).
NOT_REACHED = "not run: the time limit passed before its turn"


def solve_all(
    puzzle: Puzzle, built: Sequence[Backend], *, share: bool = False, **limits: Any
) -> dict[str, Result]:
    """Each back end's result on ``puzzle``, not judged yet (:func:`judge` does); one that
    declines is followed by its stand-in (:data:`~cp_sudoku.backends.STAND_INS`), unless
    that one runs anyway.  ``limits``: ``limit``, ``time_limit`` (already checked) and
    ``keep``, as :meth:`~cp_sudoku.backends.base.Backend.solve` takes them.

    Under a deadline in force (:func:`~cp_sudoku.constraints.base.compile_deadline`) the
    back ends run within it: each may take all that is left, and one whose turn comes
    after it raises ``OutOfTime``.  With ``share``, each takes at most an even share of
    what is left among those still to run (a slow first one leaves time to the others),
    and one whose turn comes after the deadline answers ``unknown``, stopped by the
    ``time limit`` (:data:`NOT_REACHED`), without running, so those before it are kept."""
    results: dict[str, Result] = {}

    def solve(backend: Backend, turns: int) -> Result:
        left = remaining_time()
        if left is None:  # no deadline in force
            return backend.solve(puzzle, **limits)
        if not share:
            return backend.solve(puzzle, **_within_deadline(limits))
        if left == 0.0:
            return Result(backend.name, "unknown", (), False, 0.0, {}, 0, "time limit", NOT_REACHED)
        own = limits.get("time_limit")
        even = max(left / turns, 0.001)
        return backend.solve(puzzle, **{**limits, "time_limit": min(own or even, even)})

    for turn, backend in enumerate(built):
        result = results[backend.name] = solve(backend, len(built) - turn)
        stand_in = STAND_INS.get(backend.name) if result.stopped == DECLINED else None
        if stand_in is not None and all(other.name != stand_in for other in built):
            results[stand_in] = solve(shared(stand_in), len(built) - turn)
    return results


def _within_deadline(limits: dict[str, Any]) -> dict[str, Any]:
    """``limits`` with the time limit cut to what is left of a deadline in force
    (:func:`~cp_sudoku.constraints.base.compile_deadline`: a caller's bound on its whole
    work, such as ``generate``'s per puzzle), so that the back ends run one after the
    other share it instead of each taking all of it.

    Raises:
        OutOfTime: that deadline has passed.
    """
    left = remaining_time()
    if left is None:
        return limits
    check_deadline()
    own = limits.get("time_limit")
    return {**limits, "time_limit": max(left if own is None else min(own, left), 0.001)}


def judge(puzzle: Puzzle, results: dict[str, Result]) -> Verdict:
    """The verdict on ``results`` already computed for ``puzzle``."""
    problems, solutions = _recheck(puzzle, results)
    found = len(solutions)
    proven: dict[str, Status] = {
        name: r.status for name, r in results.items() if r.status != "unknown"
    }
    if found:
        for name, said in proven.items():
            if said == "none":
                problems.append(f"{name} says none, but a solution was found")
            elif said == "unique" and found > 1:
                problems.append(f"{name} says unique, but {found} distinct solutions were found")
    if len(proven) > 1 and len(set(proven.values())) > 1:
        each = ", ".join(f"{name}: {said}" for name, said in proven.items())
        problems.append(f"back ends disagree ({each})")
    grids = tuple(solutions)
    if problems:
        status: Status = "unknown"
        reason: str | None = "the back ends disagree"
    else:
        status = next(iter(proven.values())) if proven else "multiple" if found >= 2 else "unknown"
        reason = (
            clash_reason(puzzle)
            if status == "none"
            else _stops(results)
            if status == "unknown"
            else None
        )
    solution = grids[0] if status == "unique" else None
    return Verdict(status, solution, grids, results, tuple(problems), reason)


def _stops(results: dict[str, Result]) -> str:
    """Why an ``unknown`` whose back ends agree is one: what stopped each (``sat stopped:
    time limit; backtrack stopped: effort limit (max_tries 5)``), or that every one
    declined."""
    stops = [
        f"{name} stopped: {result.reason or result.stopped}"
        for name, result in results.items()
        if result.stopped is not None and result.stopped != DECLINED
    ]
    return "; ".join(stops) if stops else "every back end declined"


def _recheck(puzzle: Puzzle, results: dict[str, Result]) -> tuple[list[str], list[Grid]]:
    """Every grid of ``results`` through the checker: the problems found (a grid that
    breaks a rule, one returned twice) and the distinct grids that passed, in order."""
    problems: list[str] = []
    seen: dict[Grid, list[str]] = {}  # every distinct grid, what it breaks (checked once)
    for name, result in results.items():
        grids = result.solutions
        for grid in grids:
            broken = seen.get(grid) if seen else None  # the first grid: no look-up (a hash)
            if broken is None:
                broken = seen[grid] = violations(puzzle, grid)
            if broken:
                problems.append(f"{name} returned a grid that is not a solution: {broken[0]}")
        if len(grids) > 1 and len(set(grids)) != len(grids):
            problems.append(f"{name} returned the same grid twice")
    return problems, [grid for grid, broken in seen.items() if not broken]


def clash_reason(puzzle: Puzzle) -> str | None:
    """The clashing clues of ``puzzle`` in words (``; ``-separated), or None."""
    found = clashes(puzzle)
    return "; ".join(clash.message for clash in found) if found else None


@dataclass(frozen=True)
class Count:
    """A solution count agreed by several back ends.

    - ``value``: distinct solutions, at most the limit;
    - ``exact``: ``value`` is the exact number (some back end exhausted its
      search below the limit, and no back end contradicts it);
    - ``proved_by``: the back ends whose search proved it exact;
    - ``figures``: back-end name -> its own count (and whether exact);
    - ``disagreement``: set when two back ends proved different exact
      counts, or a grid failed the checker; the count is then not to be
      trusted (``exact`` False).
    """

    value: int
    exact: bool
    proved_by: tuple[str, ...]
    figures: dict[str, tuple[int, bool]]
    results: dict[str, Result]
    disagreement: str | None = None


def count(
    puzzle: Puzzle,
    backends: Chosen = None,
    *,
    limit: int = 1000,
    time_limit: float | None = None,
    keep: int = 2,
) -> Count:
    """Count the solutions of ``puzzle`` up to ``limit`` with each back end.

    Each back end keeps only ``keep`` grids (re-checked by the checker) and
    counts the rest, so memory does not grow with the limit.  ``backends``
    as :func:`crosscheck` takes them (None: the default cross-check's).

    Raises:
        UsageError: as :func:`crosscheck`.
    """
    puzzle = _puzzle(puzzle)
    time_limit = check_limits(limit, time_limit)
    chosen = _chosen(puzzle, backends)
    results = solve_all(puzzle, chosen, limit=limit, time_limit=time_limit, keep=keep)
    figures = {name: (r.count, r.complete) for name, r in results.items() if r.stopped != DECLINED}
    bad, _ = _recheck(puzzle, results)
    exact = {name: value for name, (value, done) in figures.items() if done}
    if len(set(exact.values())) > 1:
        said = ", ".join(f"{name}: {value}" for name, value in exact.items())
        bad.append(f"back ends disagree on the exact count ({said})")
    if bad:
        return Count(0, False, (), figures, results, "; ".join(bad))
    if exact:
        value = next(iter(exact.values()))
        return Count(value, True, tuple(exact), figures, results)
    value = max((value for value, _ in figures.values()), default=0)
    return Count(min(value, limit), False, (), figures, results)


def solutions(
    puzzle: Puzzle,
    backend: str | Backend = "sat",
    *,
    limit: int = 1000,
    time_limit: float | None = None,
) -> Iterator[Grid]:
    """The distinct grids of ``puzzle`` found by one back end, at most ``limit``,
    each re-checked by the checker.

    Raises:
        UsageError: as :func:`crosscheck`.
        RuntimeError: the back end returned a grid that breaks a rule (a bug).
    """
    puzzle = _puzzle(puzzle)
    time_limit = check_limits(limit, time_limit)
    (built,) = resolve(backend)
    for grid in built.solve(puzzle, limit, time_limit).solutions:
        broken = violations(puzzle, grid)
        if broken:
            raise RuntimeError(f"{built.name} returned a grid that is not a solution: {broken[0]}")
        yield grid
