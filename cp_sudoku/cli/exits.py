"""Exit codes, and what every command does with an error or an interrupt.

==== ==========================================================================
code meaning
==== ==========================================================================
0    every puzzle is unique
1    some puzzle has no solution or several
2    bad input or usage (one line on stderr; in a file, the other puzzles still run)
3    ``unknown`` (a limit stopped the search), back ends that disagree, or a
     verdict that contradicts a stated solution
70   an internal error (a bug: one line asks for a report; ``CP_SUDOKU_DEBUG=1``
     shows the traceback)
130  interrupted (Ctrl-C): one line on stderr says how far the run got
143  terminated (SIGTERM, as ``kill``, ``timeout`` and ``docker stop`` send): the same,
     "terminated after ..."
141  the reader of the output went away (``| head``), as if stopped by SIGPIPE
==== ==========================================================================

When several apply, the highest wins.  The codes of verdicts (0 to 3) come
from the run summary, :mod:`cp_sudoku.run.summary`, the one place that maps
verdicts to codes.  The :class:`Tally` of the running command is made by the
command group (:mod:`cp_sudoku.cli.group`) and handed to the interrupt
handler; a command takes it with :func:`tally`.
"""

from __future__ import annotations

import contextlib
import multiprocessing.util
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NoReturn

import click

from cp_sudoku.model import CpSudokuError
from cp_sudoku.run.summary import BAD_INPUT, NOT_UNIQUE, OK, UNKNOWN

__all__ = ["BAD_INPUT", "INTERNAL", "INTERRUPTED", "NOT_UNIQUE", "OK", "UNKNOWN", "Tally"]

#: A bug, not a verdict: sysexits' EX_SOFTWARE, apart from every verdict and input code.
INTERNAL = 70
INTERRUPTED = 128 + signal.SIGINT
#: The signals that stop a command at once, each with the word of its line (the exit
#: code is 128 + the signal's number, as a shell reports a death by it).
STOPPING: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
BROKEN_PIPE = 128 + signal.SIGPIPE
#: Where to report an internal error.
REPORT = "please report it with the command that caused it"


@dataclass
class Tally:
    """How far a command got, for the line an interrupt prints.

    ``done`` counts the puzzles whose output is complete; ``total`` tells
    how many there are, when that is cheap to know (None otherwise).
    """

    done: int = 0
    total: Callable[[], int | None] = field(default=lambda: None)
    noun: str = "puzzle"
    writing: bool = False
    pending: bool = False
    #: The signal that stopped the command (one of :data:`STOPPING`).
    signum: int = signal.SIGINT
    #: With a table (``--output``): the spool its finished slices are kept in, and
    #: how many rows they hold (in any order, an earlier run's included).
    spool: str = ""
    kept: Callable[[], int] = field(default=lambda: 0)

    def describe(self) -> str:
        """``interrupted after 1,736 of 5,000 puzzles`` (or without the total); with a
        table, what its spool keeps: ``interrupted after 0 of 10,000 puzzles printed;
        1,250 kept in x.parquet.parts: add --resume to go on``."""
        try:
            total = self.total()
        except (CpSudokuError, OSError, UnicodeDecodeError):
            total = None
        noun = self.noun if (total if total is not None else self.done) == 1 else self.noun + "s"
        of = f" of {total:,}" if total is not None else ""
        counted = f"{STOPPING[self.signum]} after {self.done:,}{of} {noun}"
        if not self.spool:
            return counted
        kept = self.kept()
        printed = "" if kept == self.done else " printed"
        return f"{counted}{printed}; {kept:,} kept in {self.spool}: add --resume to go on"

    def finish(self, emit: Callable[[str], None], text: str) -> None:
        """Write one puzzle's output and count it, as one step an interrupt cannot split:
        a Ctrl-C meanwhile (see :func:`interrupts_held`) is raised once both are done, so
        the tally always equals the output written."""
        self.writing = True
        try:
            emit(text)
            self.done += 1
        finally:
            self.writing = False
        if self.pending:
            raise KeyboardInterrupt


def tally() -> Tally:
    """The running command's tally (made by the command group for each command)."""
    found = click.get_current_context().find_object(Tally)
    if found is None:  # a command invoked outside the group (tests)
        found = click.get_current_context().ensure_object(Tally)
    return found


@contextlib.contextmanager
def interrupts_held(tally: Tally) -> Iterator[None]:
    """SIGINT and SIGTERM routed through a handler that waits for :func:`finish` to end
    its step and takes only the first signal (a second one cannot cut the clean-up
    short); the handlers before are put back on leaving.

    Python runs signal handlers on the main thread, whichever thread the
    signal reached, so this holds for every thread (a signal mask would not).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, _frame: object) -> None:
        if tally.pending:  # already on its way out
            return
        tally.pending = True
        tally.signum = signum
        if not tally.writing:
            raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, on_signal) for signum in STOPPING}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def say(line: str) -> None:
    """Write ``line`` to stderr.  A stderr that cannot take it (closed, a full disk,
    ``/dev/full``) loses the line but not the exit code that follows it: the error is
    swallowed, and stderr is pointed at the null device so that the interpreter's exit
    does not fail on it again (exit 1 or 120 in place of the code meant).  Started with
    stderr closed (``2>&-``, ``sys.stderr`` None), it says nothing."""
    if sys.stderr is None:
        return
    try:
        click.echo(line, err=True)
        sys.stderr.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stderr.fileno())


def fail(message: str) -> NoReturn:
    """Bad input or usage: one line on stderr, exit 2."""
    say(f"cp-sudoku: error: {message}")
    sys.exit(BAD_INPUT)


def interrupted(tally: Tally) -> NoReturn:
    """Ctrl-C (or SIGTERM): say how far the run got, flush what was written, exit 130
    (143) at once.

    Worker processes have already been ended by the solve loop.  The
    process then ends with ``os._exit``: a solve abandoned on the solve
    thread may be inside a C solver, which must not run into the
    interpreter's shutdown, and the shutdown of the solver libraries alone
    can take half a second on a busy machine.  Before it, multiprocessing's
    own first exit step runs (its finalizers of priority 0 and up): it
    unlinks the named semaphores of a process pool whose manager thread is
    still alive, which the resource tracker would otherwise report as
    leaked on stderr after the last line.
    """
    for signum in STOPPING:  # a second Ctrl-C changes nothing
        signal.signal(signum, signal.SIG_IGN)
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    say(f"cp-sudoku: {tally.describe()}")
    with contextlib.suppress(Exception):
        # what the interpreter's exit runs first (private: typeshed does not declare it)
        multiprocessing.util._run_finalizers(0)  # type: ignore[attr-defined]
    os._exit(128 + tally.signum)


def broken_pipe() -> NoReturn:
    """The output's reader went away (stdout's or stderr's): stop quietly with 141.

    Both streams are pointed at the null device first, so that flushing them at the
    exit fails on neither (Python would print that failure and exit 120)."""
    null = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            os.dup2(null, stream.fileno())
    sys.exit(BROKEN_PIPE)


def internal(error: BaseException) -> NoReturn:
    """A bug: one line asking for a report (the traceback with ``CP_SUDOKU_DEBUG=1``), exit 70."""
    if os.environ.get("CP_SUDOKU_DEBUG"):
        traceback.print_exception(error)
    text = str(error).splitlines()[0] if str(error) else ""
    say(
        f"cp-sudoku: internal error: {type(error).__name__}{': ' + text if text else ''} "
        f"({REPORT}; CP_SUDOKU_DEBUG=1 shows the traceback)"
    )
    sys.exit(INTERNAL)


def handle(error: BaseException, tally: Tally | None = None) -> NoReturn:
    """Exit as this module's table says for ``error`` raised by a command (``tally``:
    how far it got).

    Once a Ctrl-C has come, whatever it broke (a C extension's import turns the
    interrupt into an ImportError) ends as the interrupt it is.
    """
    tally = tally or Tally()
    if isinstance(error, KeyboardInterrupt | click.Abort) or tally.pending:
        interrupted(tally)
    if isinstance(error, BrokenPipeError):
        broken_pipe()
    if isinstance(error, click.ClickException):
        fail(error.format_message())
    if isinstance(error, CpSudokuError):
        fail(str(error))
    if isinstance(error, UnicodeDecodeError):
        fail(f"not a UTF-8 text file ({error.reason} at byte {error.start})")
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        fail(f"{error.strerror or error}{where}")
    internal(error)
