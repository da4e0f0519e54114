"""Run several back ends on one puzzle, re-check every grid, and agree on a verdict."""

from __future__ import annotations

import atexit
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from cp_sudoku.backends import DEFAULT_BACKENDS, Backend, Result, Status, get_backend
from cp_sudoku.model import Grid, Puzzle, violations


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
    - ``results``: back-end name -> its :class:`Result`.
    """

    status: Status
    solution: Grid | None
    solutions: tuple[Grid, ...]
    results: dict[str, Result]
    disagreements: tuple[str, ...]

    @property
    def agree(self) -> bool:
        """No back end contradicted another and every grid passed the checker."""
        return not self.disagreements


def crosscheck(
    puzzle: Puzzle,
    backends: Iterable[str | Backend] = DEFAULT_BACKENDS,
    *,
    limit: int = 2,
    time_limit: float | None = None,
) -> Verdict:
    """Solve ``puzzle`` with each back end and return one :class:`Verdict`.

    Args:
        backends: names from :func:`cp_sudoku.backends.available` or built
            back ends; by default ``cpsat``, ``sat`` and ``backtrack``.
        limit: solutions each back end looks for (>= 1; 2 proves uniqueness).
        time_limit: seconds per back end, or None for no limit.

    A back end named by a string is built once per process and reused.
    Every returned grid is re-verified with :func:`cp_sudoku.model.violations`.
    A back end whose status is ``unknown`` proves nothing, but the grids it
    found still count and are still checked.

    Raises:
        ValueError: ``limit < 1``, ``time_limit <= 0``, no back end, or an
            unknown back-end name.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if time_limit is not None and time_limit <= 0:
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit}")
    built = [_named(b) if isinstance(b, str) else b for b in backends]
    if not built:
        raise ValueError("no back end to run: name at least one")
    results = {b.name: b.solve(puzzle, limit=limit, time_limit=time_limit) for b in built}
    return judge(puzzle, results)


@cache
def _named(name: str) -> Backend:
    """A back end named by a string: built once per process, then reused, so the
    ``sat`` and ``cpsat`` back ends keep their compiled shapes between puzzles.
    One that holds native memory is closed when the interpreter exits."""
    backend = get_backend(name)
    close = getattr(backend, "close", None)
    if close is not None:
        atexit.register(close)
    return backend


def judge(puzzle: Puzzle, results: dict[str, Result]) -> Verdict:
    """The verdict on ``results`` already computed for ``puzzle``."""
    problems: list[str] = []
    solutions: dict[Grid, None] = {}
    for name, result in results.items():
        for grid in result.solutions:
            broken = violations(puzzle, grid)
            if broken:
                problems.append(f"{name} returned a grid that is not a solution: {broken[0]}")
            else:
                solutions[grid] = None
        if len(set(result.solutions)) != len(result.solutions):
            problems.append(f"{name} returned the same grid twice")
    found = len(solutions)
    proven = {name: r.status for name, r in results.items() if r.status != "unknown"}
    for name, status in proven.items():
        if status == "none" and found:
            problems.append(f"{name} says none, but a solution was found")
        if status == "unique" and found > 1:
            problems.append(f"{name} says unique, but {found} distinct solutions were found")
    if len(set(proven.values())) > 1:
        said = ", ".join(f"{name}: {status}" for name, status in proven.items())
        problems.append(f"back ends disagree ({said})")
    status = _agreed(proven, found) if not problems else "unknown"
    grids = tuple(solutions)
    return Verdict(
        status=status,
        solution=grids[0] if status == "unique" else None,
        solutions=grids,
        results=results,
        disagreements=tuple(problems),
    )


def _agreed(proven: dict[str, Status], found: int) -> Status:
    if proven:
        return next(iter(proven.values()))
    return "multiple" if found >= 2 else "unknown"
