"""The result type and the small interface every back end meets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from cp_sudoku.model import Grid, Puzzle

Status = Literal["unique", "multiple", "none", "unknown"]
STATUSES: tuple[Status, ...] = ("unique", "multiple", "none", "unknown")


@dataclass(frozen=True)
class Result:
    """What one back end found for one puzzle.

    - ``status``: ``unique`` (exactly one solution, proven), ``multiple``
      (two or more distinct solutions found), ``none`` (no solution, proven)
      or ``unknown`` (a limit stopped the search before a proof).
    - ``solutions``: the distinct grids found, at most ``limit``; each a tuple
      of values in ``Puzzle.cells`` order (row-major).
    - ``complete``: the whole search space was explored, so
      ``len(solutions)`` is the exact number of solutions.
    - ``seconds``: wall-clock time of the solve, building included.
    - ``stats``: the back end's own effort counts (names documented by each
      back end), all integers.
    """

    backend: str
    status: Status
    solutions: tuple[Grid, ...]
    complete: bool
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)


def status_of(found: int, complete: bool) -> Status:
    """The status for ``found`` distinct solutions.

    Two solutions prove ``multiple`` whether or not the search finished; fewer
    are a proof only when the search space was exhausted (``complete``).
    """
    if found >= 2:
        return "multiple"
    if not complete:
        return "unknown"
    return "unique" if found == 1 else "none"


class Backend(Protocol):
    """A back end: compiles a puzzle to its own paradigm and counts solutions.

    ``solve`` finds up to ``limit`` distinct solutions (``limit >= 1``; the
    default 2 is the least that proves uniqueness) and stops early when
    ``time_limit`` seconds have passed, returning status ``unknown`` unless
    what it found is already a proof.
    """

    name: str

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        """Solve ``puzzle``; see the class docstring."""
        ...
