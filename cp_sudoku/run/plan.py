"""What every puzzle of a run is solved with: back-end names, their options, the limits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cp_sudoku.backends import DEFAULT_BACKENDS, Backend, get_backend
from cp_sudoku.backends.base import check_limits
from cp_sudoku.backends.built import built
from cp_sudoku.crosscheck import ALWAYS, lineup
from cp_sudoku.model import Puzzle


@dataclass(frozen=True)
class Plan:
    """How every puzzle of a run is solved.

    - ``backends``: registry names (:func:`cp_sudoku.backends.available`), each
      of which runs on every puzzle; None (the default): the default
      cross-check, whose back ends are chosen per puzzle
      (:func:`cp_sudoku.crosscheck.lineup`; :attr:`names` lists them all);
    - ``options``: back-end name -> the keyword options it is built with
      (``{"sat": {"solver": "cadical195"}}``);
    - ``limit``: solutions each back end looks for (>= 1; 2 proves uniqueness);
    - ``time_limit``: seconds per back end and puzzle, or None (``inf`` and
      values too large for a timer become None);
    - ``grade``: also grade each puzzle (:func:`cp_sudoku.deduction.grade`, within
      ``time_limit`` of CPU).

    A plan is plain data, so it can be sent to worker processes; each worker
    process takes its back ends for it from its one cache with :meth:`built`.

    Raises:
        UsageError: a limit that is not a positive integer, or a time limit
            that is NaN, zero or negative.
    """

    backends: tuple[str, ...] | None = None
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    limit: int = 2
    time_limit: float | None = None
    grade: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "time_limit", check_limits(self.limit, self.time_limit))

    @property
    def names(self) -> tuple[str, ...]:
        """Every back end the plan may run, in order (a table's columns)."""
        return DEFAULT_BACKENDS if self.backends is None else self.backends

    @property
    def always(self) -> tuple[str, ...]:
        """The back ends that run on every puzzle (:meth:`built` builds them)."""
        return ALWAYS if self.backends is None else self.backends

    def lineup(self, puzzle: Puzzle, built: Sequence[Backend]) -> Sequence[Backend]:
        """The back ends that run on ``puzzle``: ``built`` (those of :attr:`always`), and
        for the default cross-check, those that join on this puzzle
        (:func:`cp_sudoku.crosscheck.lineup`), built when a puzzle first needs them.

        Raises:
            UsageError: an option a joining back end rejects.
        """
        if self.backends is not None:
            return built
        have = {backend.name: backend for backend in built}
        return [have.get(name) or self.backend(name) for name in lineup(puzzle)]

    def backend(self, name: str) -> Backend:
        """Back end ``name`` with this plan's options, from this process's cache.

        Raises:
            UsageError: an unknown name or an option its back end rejects.
        """
        return built(name, self.options.get(name))

    def build(self) -> list[Backend]:
        """The back ends of :attr:`always`, built (one set per caller: not shared).

        Raises:
            UsageError: an unknown name or an option its back end rejects.
        """
        return [get_backend(name, **self.options.get(name, {})) for name in self.always]

    def built(self) -> list[Backend]:
        """The back ends of :attr:`always` from this process's cache
        (:mod:`cp_sudoku.backends.built`), built on first use and shared with every
        later caller in the process.

        Raises:
            UsageError: an unknown name or an option its back end rejects.
        """
        return [self.backend(name) for name in self.always]
