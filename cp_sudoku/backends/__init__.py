"""Back ends: one module each, registered here by name.

Each back end is a :class:`~cp_sudoku.backends.base.Backend` subclass that
declares its options, statistics and supported constraint types.  A back end
imports its solver library only when it is built, so ``import cp_sudoku``
stays light.

==================  ==================================================
name                what it is
==================  ==================================================
``cpsat``           OR-Tools CP-SAT, domains reduced by the givens
``sat``             CNF (Kwon-Jain optimised encoding) + python-sat
``backtrack``       pure-Python backtracker, MRV with singles
``kernel``          the backtracker's hot loop in C (units only; others declined)
``cpsat-naive``     baseline: the OR-Tools samples' plain model
``sat-naive``       baseline: extended encoding, fresh minisat22 per puzzle
``backtrack-plain`` baseline: the tutorial backtracker
``mip``             0-1 integer programming solved by SCIP (OR-Tools pywraplp)
``dlx``             exact cover, Algorithm X (units only; others declined)
``minizinc``        the model in MiniZinc, solved by Gecode (minizinc executable)
==================  ==================================================
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from cp_sudoku.backends.base import Backend, Result, Status, status_of
from cp_sudoku.model import UsageError

#: Every back end the default cross-check may run, in output order.  Which of them run
#: on a puzzle is decided in one place, :func:`cp_sudoku.crosscheck.lineup`: ``sat`` and
#: ``kernel`` (two paradigms: CDCL on the CNF encoding, compiled propagation search on
#: the units) for a puzzle of units and givens only; ``cpsat`` joins them for a puzzle
#: with any rule the kernel declines, where ``backtrack`` stands in for the kernel.
DEFAULT_BACKENDS = ("cpsat", "sat", "kernel")

#: The back ends of :data:`DEFAULT_BACKENDS` that run only on a puzzle ``kernel``
#: declines (CP-SAT's per-puzzle floor of about 3 ms would cap the classic cross-check
#: at a few hundred puzzles a second per core; docs/performance.md).
UNLESS_KERNEL_TAKES = ("cpsat",)

#: A back end that declines a puzzle in a cross-check is followed by its stand-in
#: (``kernel`` takes units only; the pure-Python ``backtrack`` takes every type).
STAND_INS: dict[str, str] = {"kernel": "backtrack"}

#: Name -> "module:class", imported when the back end is first built.
REGISTRY: dict[str, str] = {
    "cpsat": "cp_sudoku.backends.cpsat:CpSatBackend",
    "sat": "cp_sudoku.backends.sat:SatBackend",
    "backtrack": "cp_sudoku.backends.backtrack:BacktrackBackend",
    "kernel": "cp_sudoku.backends.kernel:KernelBackend",
    "cpsat-naive": "cp_sudoku.backends.cpsat:NaiveCpSatBackend",
    "sat-naive": "cp_sudoku.backends.sat:NaiveSatBackend",
    "backtrack-plain": "cp_sudoku.backends.backtrack_plain:PlainBacktrackBackend",
    "mip": "cp_sudoku.backends.mip:MipBackend",
    "dlx": "cp_sudoku.backends.dlx:DlxBackend",
    "minizinc": "cp_sudoku.backends.minizinc:MiniZincBackend",
}


def available() -> list[str]:
    """The registered back-end names."""
    return list(REGISTRY)


def backend_class(name: str) -> type[Backend]:
    """The class registered as ``name``.

    Raises:
        UsageError: an unknown name, or a name that is not a string.
    """
    if not isinstance(name, str) or name not in REGISTRY:
        raise UsageError(f"unknown back end {name!r}; choose one of {', '.join(REGISTRY)}")
    module, _, attribute = REGISTRY[name].partition(":")
    found: type[Backend] = getattr(import_module(module), attribute)
    return found


def get_backend(name: str, **options: Any) -> Backend:
    """Build the back end registered as ``name`` with its ``options``.

    Raises:
        UsageError: an unknown name, or an option the back end rejects.
    """
    return backend_class(name)(**options)


__all__ = [
    "DEFAULT_BACKENDS",
    "REGISTRY",
    "STAND_INS",
    "UNLESS_KERNEL_TAKES",
    "Backend",
    "Result",
    "Status",
    "available",
    "backend_class",
    "get_backend",
    "status_of",
]
