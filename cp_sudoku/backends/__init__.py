"""Back ends: a plain dict registry from name to a factory.

A factory takes keyword options and returns an object meeting
:class:`~cp_sudoku.backends.base.Backend`.  Each back end imports its solver
library only when it is built, so ``import cp_sudoku`` stays light.

=================  ==================================================
name               what it is
=================  ==================================================
``cpsat``          OR-Tools CP-SAT, domains reduced by the givens
``sat``            CNF (Kwon-Jain optimised encoding) + python-sat
``backtrack``      pure-Python backtracker, MRV with singles
``cpsat-naive``    baseline: the OR-Tools samples' plain model
``sat-naive``      baseline: extended encoding, fresh minisat22 per puzzle
``backtrack-plain`` the tutorial backtracker
=================  ==================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cp_sudoku.backends.base import Backend, Result, Status, status_of

#: The three independent back ends the cross-check runs by default.
DEFAULT_BACKENDS = ("cpsat", "sat", "backtrack")


def _cpsat(**options: Any) -> Backend:
    from cp_sudoku.backends.cpsat import CpSatBackend

    return CpSatBackend(**options)


def _cpsat_naive(**options: Any) -> Backend:
    from cp_sudoku.backends.cpsat import CpSatBackend

    return CpSatBackend(reduce_domains=False, parameters={}, name="cpsat-naive", **options)


def _sat(**options: Any) -> Backend:
    from cp_sudoku.backends.sat import SatBackend

    return SatBackend(**options)


def _sat_naive(**options: Any) -> Backend:
    from cp_sudoku.backends.sat import SatBackend

    options = {"solver": "minisat22", **options}
    return SatBackend(encoding="extended", incremental=False, name="sat-naive", **options)


def _backtrack(**options: Any) -> Backend:
    from cp_sudoku.backends.backtrack import BacktrackBackend

    return BacktrackBackend(**options)


def _backtrack_plain(**options: Any) -> Backend:
    from cp_sudoku.backends.backtrack import BacktrackBackend

    return BacktrackBackend(strategy="plain", **options)


REGISTRY: dict[str, Callable[..., Backend]] = {
    "cpsat": _cpsat,
    "sat": _sat,
    "backtrack": _backtrack,
    "cpsat-naive": _cpsat_naive,
    "sat-naive": _sat_naive,
    "backtrack-plain": _backtrack_plain,
}


def available() -> list[str]:
    """The registered back-end names."""
    return list(REGISTRY)


def get_backend(name: str, **options: Any) -> Backend:
    """Build the back end registered as ``name`` with its ``options``.

    Raises:
        ValueError: an unknown name, or an option the back end rejects.
    """
    try:
        factory = REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown back end {name!r}; choose one of {', '.join(REGISTRY)}"
        ) from None
    return factory(**options)


__all__ = [
    "DEFAULT_BACKENDS",
    "REGISTRY",
    "Backend",
    "Result",
    "Status",
    "available",
    "get_backend",
    "status_of",
]
