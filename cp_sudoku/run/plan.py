"""What every puzzle of a run is solved with: back-end names, their options, the limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cp_sudoku.backends import DEFAULT_BACKENDS, Backend, get_backend
from cp_sudoku.backends.base import check_limits
from cp_sudoku.backends.built import built


@dataclass(frozen=True)
class Plan:
    """How every puzzle of a run is solved.

    - ``backends``: registry names (:func:`cp_sudoku.backends.available`);
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

    backends: tuple[str, ...] = DEFAULT_BACKENDS
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    limit: int = 2
    time_limit: float | None = None
    grade: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "time_limit", check_limits(self.limit, self.time_limit))

    def build(self) -> list[Backend]:
        """The back ends, built (one set per caller: built back ends are not shared).

        Raises:
            UsageError: an unknown name or an option its back end rejects.
        """
        return [get_backend(name, **self.options.get(name, {})) for name in self.backends]

    def built(self) -> list[Backend]:
        """The back ends of this process's cache (:mod:`cp_sudoku.backends.built`), built
        on first use and shared with every later caller in the process.

        Raises:
            UsageError: an unknown name or an option its back end rejects.
        """
        return [built(name, self.options.get(name)) for name in self.backends]
