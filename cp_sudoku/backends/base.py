"""What every back end shares: the result type, the solution limit, de-duplication, the clock.

A back end subclasses :class:`Backend` and writes only its compile and its
search: :meth:`Backend.search` hands each grid it finds to a :class:`Sink`
and says whether it exhausted the search space.  :meth:`Backend.solve` does
the rest, the same way for every back end: it checks the arguments, declines
a puzzle with constraint types the back end does not compile, keeps at most
``limit`` distinct grids, times the call, and builds the :class:`Result`.

:class:`Sink` and :class:`Clock` live in :mod:`cp_sudoku.backends.sink` (imported from here
too); a back end whose search grows with each grid declares :attr:`Backend.cube_grids` and
counts in cubes (:mod:`cp_sudoku.backends.cubes`).

Thread safety: a built back end holds compiled state, so :meth:`Backend.solve`
takes the back end's lock; threads sharing one back end take turns.  For
parallel solving give each thread (or process) its own back end.
"""

from __future__ import annotations

import math
import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from importlib import import_module
from types import ModuleType
from typing import Any, ClassVar, Literal

from cp_sudoku.backends.cubes import Search, count_in_cubes
from cp_sudoku.backends.sink import Clock as Clock
from cp_sudoku.backends.sink import Sink as Sink
from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.errors import PuzzleError, Unsupported, UsageError
from cp_sudoku.model import (
    Clash,
    Constraint,
    Grid,
    Puzzle,
    out_of_reach,
    repeated_givens,
)
from cp_sudoku.numbers import MAX_DIGITS, in_range

Status = Literal["unique", "multiple", "none", "unknown"]
STATUSES: tuple[Status, ...] = ("unique", "multiple", "none", "unknown")


@dataclass(frozen=True)
class Result:
    """What one back end found for one puzzle.

    - ``status``: ``unique`` (exactly one solution, proven), ``multiple``
      (two or more distinct solutions found), ``none`` (no solution, proven)
      or ``unknown`` (a limit, an interrupt or a declined puzzle: no proof).
    - ``solutions``: the distinct grids kept, at most the limit (fewer when the
      caller asked to keep fewer); each a tuple of values in ``Puzzle.cells``
      order (row-major).
    - ``count``: distinct solutions found (``>= len(solutions)``).
    - ``complete``: the whole search space was explored, so ``count`` is the
      exact number of solutions.
    - ``seconds``: wall-clock time of the call, compiling included.
    - ``stats``: the back end's own effort counts (:attr:`Backend.statistics`).
    - ``stopped``: what ended an incomplete search: ``solution limit``,
      ``time limit``, ``effort limit``, ``interrupted``, ``declined``; None
      when complete.  The time limit bounds compiling too.
    - ``reason``: why it declined (``not supported by dlx: Cage``, ``table for
      ... exceeds 200000 tuples``) or why compiling stopped, else None.
    """

    backend: str
    status: Status
    solutions: tuple[Grid, ...]
    complete: bool
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)
    count: int = -1
    stopped: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if self.count < 0:
            object.__setattr__(self, "count", len(self.solutions))


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


#: The last puzzle :func:`_repeated_givens` looked at, and what it found (one tuple: a
#: thread reads both or neither).
_LAST_GIVENS: tuple[object, list[Clash]] = (None, [])


def _repeated_givens(puzzle: Puzzle) -> list[Clash]:
    """:func:`repeated_givens`, once per puzzle object when several back ends solve it."""
    global _LAST_GIVENS
    last, found = _LAST_GIVENS
    if last is not puzzle:
        found = repeated_givens(puzzle)
        _LAST_GIVENS = (puzzle, found)
    return found


def _contradictions(puzzle: Puzzle) -> list[Clash]:
    """Givens that repeat in a unit, or a target past any sum or product: ``none``,
    whichever back end runs (no solver should see a contradiction in its givens, nor
    such a number).

    Raises:
        PuzzleError: a target some values reach, but too large for a 64-bit solver.
    """
    far = _repeated_givens(puzzle) or (out_of_reach(puzzle) if puzzle.cages else [])
    if not far:
        huge = next((cage for cage in puzzle.cages if not in_range(cage.target)), None)
        if huge is not None:
            raise PuzzleError(
                f"a cage target of {len(str(huge.target))} digits that its cells could "
                f"reach: no back end here takes targets over {MAX_DIGITS} digits",
                cells=huge.cells,
            )
    return far


def load_kernel() -> tuple[ModuleType | None, str | None]:
    """The compiled C extension ``cp_sudoku.backends._kernel`` (the ``kernel`` back end's
    search, the deduction engine's chain searches) and None, or None and why it is not
    used: the environment variable ``CP_SUDOKU_NO_KERNEL`` is set to a non-empty value
    (it also switches off the checker's C screen, :mod:`cp_sudoku.model.checker`), or the
    extension is not built (``pip install -e .`` builds it)."""
    if os.environ.get("CP_SUDOKU_NO_KERNEL"):
        return None, "CP_SUDOKU_NO_KERNEL is set"
    try:
        return import_module("cp_sudoku.backends._kernel"), None
    except ImportError as error:
        return None, f"the C extension is not built ({error}); run: pip install -e ."


def check_limits(limit: int, time_limit: float | None) -> float | None:
    """Validate a solution limit and a time limit; the time limit to use.

    ``limit`` must be an integer >= 1.  ``time_limit`` is seconds > 0, or
    None; ``inf`` and values too large for a timer mean no limit (None).

    Raises:
        UsageError: a limit that is not a positive integer, or a time limit
            that is NaN, zero, negative or not a number.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise UsageError(f"the solution limit must be an integer >= 1, got {limit!r}")
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise UsageError(f"the time limit must be a number of seconds, got {time_limit!r}")
    if math.isnan(time_limit) or time_limit <= 0:
        raise UsageError(f"the time limit must be a positive number of seconds, got {time_limit}")
    return None if time_limit >= MAX_TIMER_SECONDS else float(time_limit)


#: Time limits at or above this many seconds (about 31 years) mean no limit.
MAX_TIMER_SECONDS = 1e9


@dataclass(frozen=True)
class Option:
    """One option a back end accepts: its type, default and meaning."""

    type: type | tuple[type, ...]
    default: Any
    help: str
    choices: tuple[Any, ...] | Callable[[], list[str]] | None = None

    def check(self, backend: str, name: str, value: Any) -> None:
        """Raise :class:`UsageError` unless ``value`` fits this option."""
        if value is None and self.default is None:
            return
        if not isinstance(value, self.type) or (isinstance(value, bool) and self.type is not bool):
            raise UsageError(f"{backend} option {name}={value!r}: expected {self._type_name()}")
        choices = self.choices() if callable(self.choices) else self.choices
        if choices is not None and value not in choices:
            raise UsageError(
                f"{backend} option {name}={value!r}: choose one of {', '.join(map(str, choices))}"
            )

    def _type_name(self) -> str:
        kinds = self.type if isinstance(self.type, tuple) else (self.type,)
        return " or ".join(k.__name__ for k in kinds)


class Backend(ABC):
    """A back end: compiles a puzzle to its own paradigm and counts solutions.

    Subclasses set :attr:`name`, :attr:`supports`, :attr:`statistics` and
    :attr:`options`, and implement :meth:`search`.  Options are checked when
    the back end is built.

    Raises:
        UsageError: an unknown option, or a value of the wrong type or not
            among the option's choices.
    """

    #: The name it is registered under.
    name: str = ""
    #: A short description for listings.
    summary: ClassVar[str] = ""
    #: The constraint types it compiles (others are declined); None: every type.
    supports: ClassVar[frozenset[type[Constraint]] | None] = None
    #: The names of its effort counts in :attr:`Result.stats`.
    statistics: ClassVar[tuple[str, ...]] = ()
    #: Its search never hands the sink a grid twice (it partitions the space, or blocks
    #: each grid found): the sink then keeps no hash of each grid it counts, and a count
    #: of millions stays small (a hash a grid took about 80 bytes: dlx 112 MB at 750,000).
    distinct_grids: ClassVar[bool] = False
    #: The statistics that measure encoding size (not effort).
    size_statistics: ClassVar[tuple[str, ...]] = ()
    #: The effort statistics that are a largest value, not a sum (a largest gap).
    peak_statistics: ClassVar[tuple[str, ...]] = ()
    #: Its one search remembers every grid it finds (CP-SAT blocks each solution inside,
    #: a no-good row per grid, every solution read back at once), so a count past this
    #: many grids searches cubes of the puzzle, each stopped after this many new grids
    #: (:mod:`cp_sudoku.backends.cubes`): memory stays flat at any limit.  None: one
    #: search, whatever the limit (its memory does not grow with the grids).
    cube_grids: ClassVar[int | None] = None
    #: Option name -> :class:`Option`.
    options: ClassVar[Mapping[str, Option]] = {}

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise UsageError(f"{self.name} has no option {unknown[0]!r} (options: {known})")
        for key, value in options.items():
            self.options[key].check(self.name, key, value)
        self.settings: dict[str, Any] = {
            key: options.get(key, option.default) for key, option in self.options.items()
        }
        self._lock = threading.Lock()

    def declines(self, puzzle: Puzzle) -> str | None:
        """Why this back end does not solve ``puzzle`` (``not supported by dlx: Cage``), or None."""
        if self.supports is None:
            return None
        missing = {type(c) for c in puzzle.constraints} - self.supports
        if not missing:
            return None
        return f"not supported by {self.name}: {', '.join(sorted(t.__name__ for t in missing))}"

    def solve(
        self,
        puzzle: Puzzle,
        limit: int = 2,
        time_limit: float | None = None,
        *,
        keep: int | None = None,
    ) -> Result:
        """Find up to ``limit`` (>= 1) distinct grids of ``puzzle``.

        Args:
            limit: solutions to look for; 2 (the default) is the least that
                proves uniqueness.
            time_limit: seconds, or None; ``inf`` means None.
            keep: grids to keep in :attr:`Result.solutions` (default:
                ``limit``); the others are only counted, so that counting a
                million solutions takes little memory.

        Raises:
            UsageError: a limit that is not a positive integer, or a time limit
                that is NaN, zero or negative.
            PuzzleError: a cage target of more than 18 digits that its cells
                could reach (no 64-bit solver takes it; one out of reach is none).
        """
        time_limit = check_limits(limit, time_limit)
        declined = self.declines(puzzle)
        with self._lock:
            clock = Clock(time_limit)
            kept = limit if keep is None else min(keep, limit)
            search, plain = self._search_for(limit)
            sink = Sink(limit, kept, plain=plain)
            stats: dict[str, int] = {}
            far: list[Clash] = []
            reason = None
            try:
                with compile_deadline(clock.deadline):  # the whole work, given checks included
                    far = _contradictions(puzzle)  # clues that clash: none, even if declined
                    complete = not far and declined is None and search(puzzle, sink, clock, stats)
                stopped = None
            except Interrupted:
                complete, stopped = False, "interrupted"
            except OutOfTime as error:
                complete, stopped, reason = False, "time limit", str(error)
            except Unsupported as error:  # a type it cannot express, a table past the cap
                complete, stopped, reason = False, "declined", str(error)
            seconds = time.perf_counter() - clock.start
        if far:
            why = "; ".join(clash.message for clash in far)
            return Result(self.name, "none", (), True, seconds, {}, 0, None, why)
        if declined is not None:
            return Result(self.name, "unknown", (), False, 0.0, {}, 0, "declined", declined)
        complete = complete and not sink.full
        if not complete and stopped is None:
            stopped = self._stop_reason(sink, clock)
            if stopped == "effort limit":
                reason = self.effort_words(limit)
        return Result(
            backend=self.name,
            status=status_of(sink.count, complete),
            solutions=tuple(sink.kept),
            complete=complete,
            seconds=seconds,
            stats=stats,
            count=sink.count,
            stopped=stopped,
            reason=reason,
        )

    def _search_for(self, limit: int) -> tuple[Search, bool]:
        """The search for ``limit`` grids: :meth:`search`, or past :attr:`cube_grids` it
        over cubes; and whether it hands the sink each grid once (a plain sink)."""
        grids = self.cube_grids
        if grids is None or limit <= grids:
            return self.search, self.distinct_grids
        search = partial(
            count_in_cubes,
            self.search,
            grids=grids,
            sizes=self.size_statistics,
            maxima=self.peak_statistics,
        )
        return search, True

    def effort_words(self, limit: int) -> str | None:
        """What a stop by ``effort limit`` means for a search for ``limit`` solutions, as
        :attr:`Result.reason` (``effort limit (max_tries 5)``); None when the back end
        has no effort cap of its own."""
        return None

    @staticmethod
    def _stop_reason(sink: Sink, clock: Clock) -> str:
        if sink.full:
            return "solution limit"
        if clock.expired():
            return "time limit"
        return "effort limit"

    def solutions(
        self, puzzle: Puzzle, limit: int = 1000, time_limit: float | None = None
    ) -> Iterator[Grid]:
        """The distinct grids of ``puzzle``, at most ``limit`` (see :meth:`solve`)."""
        yield from self.solve(puzzle, limit, time_limit).solutions

    @abstractmethod
    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """Hand each grid found to ``sink`` until ``sink.add`` says stop; fill ``stats``.

        Return True when the search space was exhausted; False when it was
        stopped (by the sink, ``clock`` or an effort cap).  Raise
        :class:`Interrupted` when an interrupt stopped the solver.
        """

    def close(self) -> None:  # noqa: B027 (most back ends hold nothing native)
        """Free native memory held between calls (a later :meth:`solve` rebuilds it)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class Interrupted(Exception):
    """A solver stopped because the process was interrupted (Ctrl-C)."""
