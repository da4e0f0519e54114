"""What a search talks to: the :class:`Clock` of its call and the :class:`Sink` of its grids.

Split from :mod:`cp_sudoku.backends.base` so that :mod:`cp_sudoku.backends.cubes`, which
:class:`~cp_sudoku.backends.base.Backend` calls, can build sinks of its own; every back
end imports them from ``base``.
"""

from __future__ import annotations

import time

from cp_sudoku.model import Grid


class Clock:
    """The deadline of one call: ``expired()`` and ``remaining()`` seconds (None: no limit)."""

    def __init__(self, time_limit: float | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit

    def expired(self) -> bool:
        """Whether the time limit has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def remaining(self) -> float | None:
        """Seconds left (at least 0), or None without a limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())

    def end(self) -> None:
        """Take the time limit as passed now: a solver given :meth:`remaining` seconds as
        its own limit ended at it by its own clock, which may stop a moment before this
        one's deadline (CP-SAT stops when its next look would pass it: up to 8 ms early
        measured on a 0.3 s limit)."""
        if self.deadline is not None:
            self.deadline = min(self.deadline, time.perf_counter())


class Sink:
    """Takes the grids a search finds: de-duplicates, counts, keeps the first few.

    :meth:`add` returns True when the search should stop (the limit is
    reached).  Memory: the kept grids plus one hash per distinct grid, none after
    :meth:`recount`.
    """

    def __init__(self, limit: int, keep: int, *, plain: bool = False) -> None:
        """``plain``: the search never hands over a grid twice, so no hash is kept of
        the grids only counted (as after :meth:`recount`)."""
        self.limit = limit
        self.keep = keep
        self.kept: list[Grid] = []
        self.count = 0
        self._seen: set[int] = set()
        self._grids: set[Grid] = set()
        self._plain = plain

    @property
    def hashes(self) -> int:
        """The grids known by their hash only (counted, not kept)."""
        return len(self._seen)

    def recount(self) -> None:
        """Forget every grid: a search that finds each grid once (no restart) counts them
        again, and no hash is kept from now on, so memory stays flat at any limit."""
        self.count = 0
        self.kept.clear()
        self._grids.clear()
        self._seen.clear()
        self._plain = True

    def add(self, grid: Grid) -> bool:
        """Record ``grid``; True when ``limit`` distinct grids have been found.

        Kept grids are compared exactly; a grid only counted is known by its
        hash, so a repeat of it is not counted twice.
        """
        key = hash(grid)
        if grid in self._grids:
            return self.full
        if key in self._seen and len(self.kept) < self.count:
            return self.full  # the hash of a grid counted but not kept
        if not self._plain:
            self._seen.add(key)
        self.count += 1
        if len(self.kept) < self.keep:
            self.kept.append(grid)
            self._grids.add(grid)
        return self.full

    def count_more(self, extra: int) -> None:
        """Count ``extra`` more grids, not handed over, that the search guarantees distinct
        from each other and from those added (a search that splits the space on each guess
        finds every grid once)."""
        self.count += extra

    @property
    def full(self) -> bool:
        """Whether the limit is reached."""
        return self.count >= self.limit
