"""The ``cp-sudoku`` console script (and ``python -m cp_sudoku.cli``): Ctrl-C handling
first, then the command line.

Importing the command line takes a fraction of a second (more on a busy
machine).  A Ctrl-C meanwhile would stop whichever import it hit with a
``KeyboardInterrupt`` traceback; :func:`main` therefore sets SIGINT (and
SIGTERM) to :func:`stop_early` before importing anything of the package
beyond its light ``__init__`` modules.  The command group replaces that
handler with its own while a command runs
(:func:`cp_sudoku.cli.exits.interrupts_held`).
"""

from __future__ import annotations

import contextlib
import os
import signal

#: The line :func:`cp_sudoku.cli.exits.interrupted` prints when nothing was done yet.
EARLY_LINE = "cp-sudoku: interrupted after 0 puzzles"
#: :data:`cp_sudoku.cli.exits.INTERRUPTED`, without importing it.
INTERRUPTED = 128 + signal.SIGINT
#: :data:`cp_sudoku.cli.exits.STOPPING`, without importing it.
STOPPING: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def stop_early(signum: int, _frame: object) -> None:
    """A Ctrl-C (or SIGTERM) before the command runs: the interrupt line, exit 130
    (143) at once (nothing is written or open yet, so there is nothing to flush or
    finish)."""
    line = EARLY_LINE.replace("interrupted", STOPPING[signum])
    with contextlib.suppress(OSError):
        os.write(2, (line + "\n").encode())
    os._exit(128 + signum)


def main() -> None:
    """Run ``cp-sudoku`` with the arguments of the process; never returns."""
    for signum in STOPPING:
        signal.signal(signum, stop_early)
    from cp_sudoku.cli.app import main as group

    try:
        group()
    finally:  # the command is over: a signal during the interpreter's exit changes nothing
        for signum in STOPPING:
            signal.signal(signum, signal.SIG_IGN)
