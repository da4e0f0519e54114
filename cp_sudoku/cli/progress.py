"""Output streams of a loop over puzzles: results, diagnostics, and a progress bar (rich)."""

from __future__ import annotations

import errno
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

import rich.console

Emit = Callable[[str], None]


class Console(rich.console.Console):
    """rich's console, whose broken pipe is left to the command's error handling.

    rich ends the process with exit 1 when its reader goes away (``2>&1 | head``),
    the code of "no solution or several"; here it raises the ``BrokenPipeError`` that
    :func:`cp_sudoku.cli.exits.handle` ends with 141, as for stdout.
    """

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")


def writer(stream: TextIO, *, flush: bool) -> Emit:
    """Write whole lines to ``stream``, one write call per line, each flushed when
    ``flush`` (otherwise the caller flushes: results are flushed once per chunk of
    puzzles, a flush per line cost a tenth of ``check --backend sat``'s CPU time
    besides the solves: docs/performance.md)."""

    def emit(line: str) -> None:
        stream.write(line + "\n")
        if flush:
            stream.flush()

    return emit


@dataclass(frozen=True)
class Streams:
    """``out`` (results, stdout), ``err`` (diagnostics, stderr), ``flush()`` (the results
    written so far), ``advance(n)`` (n more puzzles done, as the workers report them),
    ``earlier(n)`` (n puzzles done by an earlier run: counted as done, not in the rate)."""

    out: Emit
    err: Emit
    advance: Callable[[int], None]
    earlier: Callable[[int], None]

    @staticmethod
    def flush() -> None:
        """Flush the results written so far to stdout."""
        sys.stdout.flush()


#: Seconds between two progress lines when stderr is not a terminal.
EVERY = 5.0


class Ticker:
    """Progress as a line on stderr every :data:`EVERY` seconds (for a log, not a terminal):
    ``cp-sudoku: 1,200 of 5,000 puzzles, 240.0 puzzles/s``.  The total is asked for
    only when the first line is due, so a short run pays nothing for it."""

    def __init__(self, err: Emit, total: Callable[[], int | None]) -> None:
        self.err, self.total = err, total
        self.done = 0
        self.before = 0
        self.start = time.monotonic()
        self.due = self.start + EVERY
        self._known: tuple[int | None] | None = None

    def earlier(self, count: int) -> None:
        """Count ``count`` puzzles done by an earlier run (not in the rate)."""
        self.done += count
        self.before += count

    def advance(self, count: int) -> None:
        """Count ``count`` more puzzles done; print a line when one is due."""
        self.done += count
        now = time.monotonic()
        if now < self.due:
            return
        self.due = now + EVERY
        if self._known is None:
            self._known = (self.total(),)
        total = self._known[0]
        of = f" of {total:,}" if total is not None else ""
        noun = "puzzle" if (total if total is not None else self.done) == 1 else "puzzles"
        rate = (self.done - self.before) / (now - self.start)
        self.err(f"cp-sudoku: {self.done:,}{of} {noun}, {rate:,.1f} puzzles/s")


@contextmanager
def streams(console: Console, total: Callable[[], int | None]) -> Iterator[Streams]:
    """The streams of a loop, with progress on stderr.

    On a terminal, a bar shows done/total, rate and time left; diagnostics
    scroll above it, and so do results printed to a terminal stdout (through
    the bar's console, so the bar stays whole); results to a file or pipe go
    straight to stdout.  Elsewhere, a :class:`Ticker` line every few seconds.
    """
    if not console.is_terminal:
        err = writer(sys.stderr, flush=True)
        ticker = Ticker(err, total)
        yield Streams(writer(sys.stdout, flush=False), err, ticker.advance, ticker.earlier)
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.1f} puzzles/s" if speed else "", style="progress.data.speed")

    progress = Progress(
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        redirect_stdout=False,
        redirect_stderr=False,
    )

    def show(line: str) -> None:
        progress.console.print(line, markup=False, highlight=False, soft_wrap=True)

    with progress:
        task = progress.add_task("check", total=total())
        out = show if sys.stdout.isatty() else writer(sys.stdout, flush=False)
        yield Streams(
            out,
            show,
            lambda count: progress.advance(task, count),
            # the first sample, whose count rich leaves out of the rate
            lambda count: progress.update(task, completed=count) if count else None,
        )
