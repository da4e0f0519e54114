"""Output streams of a loop over puzzles: results, diagnostics, and a progress bar (rich)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console

Emit = Callable[[str], None]


def writer(stream: TextIO) -> Emit:
    """Write whole lines to ``stream`` (one write call per line, then a flush)."""

    def emit(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return emit


@dataclass(frozen=True)
class Streams:
    """``out`` (results, stdout), ``err`` (diagnostics, stderr), ``advance`` (one puzzle done)."""

    out: Emit
    err: Emit
    advance: Callable[[], None]


@contextmanager
def streams(console: Console, total: int | None) -> Iterator[Streams]:
    """The streams of a loop; on a terminal, with a progress bar on stderr.

    The bar shows done/total, rate and time left; diagnostics scroll above
    it, and so do results printed to a terminal stdout (through the bar's
    console, so the bar stays whole); results to a file or pipe go straight
    to stdout.  Elsewhere there is no bar.
    """
    if not console.is_terminal:
        yield Streams(writer(sys.stdout), writer(sys.stderr), lambda: None)
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
        task = progress.add_task("check", total=total)
        out = show if sys.stdout.isatty() else writer(sys.stdout)
        yield Streams(out, show, lambda: progress.advance(task))
