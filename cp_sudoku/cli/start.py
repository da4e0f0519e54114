"""The ``cp-sudoku`` console script (and ``python -m cp_sudoku.cli``): Ctrl-C handling
first, then the command line.

Importing the command line takes a fraction of a second (more on a busy
machine).  A Ctrl-C meanwhile would stop whichever import it hit with a
``KeyboardInterrupt`` traceback; :func:`main` therefore sets SIGINT to
:func:`stop_early` before importing anything of the package beyond its
light ``__init__`` modules.  The command group replaces that handler with
its own while a command runs (:func:`cp_sudoku.cli.exits.interrupts_held`).
"""

from __future__ import annotations

import contextlib
import os
import signal

#: The line :func:`cp_sudoku.cli.exits.interrupted` prints when nothing was done yet.
EARLY_LINE = "cp-sudoku: interrupted after 0 puzzles"
#: :data:`cp_sudoku.cli.exits.INTERRUPTED`, without importing it.
INTERRUPTED = 128 + signal.SIGINT


def stop_early(_signum: int, _frame: object) -> None:
    """A Ctrl-C before the command runs: the interrupt line, exit 130 at once (nothing
    is written or open yet, so there is nothing to flush or finish)."""
    with contextlib.suppress(OSError):
        os.write(2, (EARLY_LINE + "\n").encode())
    os._exit(INTERRUPTED)


def main() -> None:
    """Run ``cp-sudoku`` with the arguments of the process; never returns."""
    signal.signal(signal.SIGINT, stop_early)
    from cp_sudoku.cli.app import main as group

    try:
        group()
    finally:  # the command is over: a Ctrl-C during the interpreter's exit changes nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)
