"""cp_sudoku: Sudoku-like puzzles as constraint problems, cross-checked by several back ends.

Quick start::

    from cp_sudoku import crosscheck, parse_line
    verdict = crosscheck(parse_line("53..7....6..195....98....6.8...6...3"
                                    "4..8.3..17...2...6.6....28....419..5....8..79"))
    verdict.status      # 'unique'
    verdict.solution    # the grid, a tuple of 81 values, row-major

Importing the package imports none of its modules: each name below is
imported from its module when first used (so that the command line,
:mod:`cp_sudoku.cli.start`, can set its Ctrl-C handling before the imports
that take a fraction of a second).  No back end's library (OR-Tools,
python-sat) is imported before that back end is built.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType

__version__ = "0.1.0"

#: Each public name, by the module it is imported from on first use.  Type checkers
#: read the names from ``__init__.pyi`` instead (tests/test_api.py holds the two equal).
EXPORTS: dict[str, str] = {
    **dict.fromkeys(["available", "get_backend"], "cp_sudoku.backends"),
    **dict.fromkeys(["Result", "Status"], "cp_sudoku.backends.base"),
    **dict.fromkeys(["Verdict", "count", "crosscheck", "solutions"], "cp_sudoku.crosscheck"),
    **dict.fromkeys(["parse_line", "parse_text", "read_file", "to_text"], "cp_sudoku.io"),
    "sudoku": "cp_sudoku.kinds.sudoku",
    **dict.fromkeys(
        [
            "Cage",
            "Cell",
            "CpSudokuError",
            "Grid",
            "Puzzle",
            "PuzzleError",
            "Unit",
            "UsageError",
            "is_solution",
            "violations",
        ],
        "cp_sudoku.model",
    ),
}

__all__ = [*EXPORTS, "__version__"]


def __getattr__(name: str) -> object:
    """A public name, imported from its module (:data:`EXPORTS`) when first asked for."""
    if name not in EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(EXPORTS[name]), name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """The package's module type: a name re-exported from a submodule of the same name
    (``crosscheck``) stays the function when that submodule is imported (the import
    system sets the submodule on its package; the eager imports this replaces bound the
    function after it)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in EXPORTS and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
