"""The ``cp-sudoku`` command line: a thin shell over the package API.

One module per command; the group and its registry of commands
(:mod:`.app`), the shared options (:mod:`.options`), input resolution
(:mod:`.inputs`), the interactive prompt (:mod:`.prompt`), progress bars
(:mod:`.progress`) and the exit-code policy (:mod:`.exits`) are small
modules of their own; :mod:`.start` is the console script.  Every command
runs its puzzles through the one solve loop, :mod:`cp_sudoku.run`.  Results
go to stdout; progress, summaries and diagnostics to stderr.  Exit codes:
:mod:`cp_sudoku.cli.exits`.

Importing this package imports nothing else (``main`` and ``COMMANDS`` come
from :mod:`.app` on first use), so that :mod:`.start` can set the Ctrl-C
handling before the imports that take a fraction of a second.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (a few ms)
if TYPE_CHECKING:
    from typing import Any

    from cp_sudoku.cli.app import COMMANDS, main

__all__ = ["COMMANDS", "main"]


def __getattr__(name: str) -> Any:
    """``main`` and ``COMMANDS``, from :mod:`cp_sudoku.cli.app` when first asked for."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from cp_sudoku.cli import app

    return getattr(app, name)
