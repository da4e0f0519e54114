"""A command's loop over its puzzles: the input, the executor, the tally for interrupts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from typing import TypeVar

import click

from cp_sudoku.cli import exits, inputs
from cp_sudoku.cli.options import Reading
from cp_sudoku.cli.progress import Emit
from cp_sudoku.io.entry import Entry
from cp_sudoku.model import Puzzle
from cp_sudoku.run import Outcome, Plan, Work, run
from cp_sudoku.run.cluster import executor
from cp_sudoku.run.loop import capped

T = TypeVar("T")


@contextmanager
def outcomes(
    source: str | Iterable[Entry] | None,
    reading: Reading,
    work: Work[T],
    plan: Plan,
    *,
    jobs: int = 1,
    note: Emit | None = None,
) -> Iterator[Iterator[Outcome[T]]]:
    """The outcomes of ``work`` on the puzzles of ``source`` (a target as
    :func:`cp_sudoku.cli.inputs.entries` takes it, or entries), in input order.

    ``jobs`` > 1 runs a process pool, capped at the cores and the puzzles (the
    cap is said through ``note``).  Leaving the block, early or by an
    interrupt, ends the workers.  The caller counts each finished puzzle in
    the command's tally (:func:`cp_sudoku.cli.exits.tally`).
    """
    if isinstance(source, str | None):
        target = source
        exits.tally().total = lambda: inputs.total(target, reading)
        entries: Iterable[Entry] = inputs.entries(target, reading)
    else:
        entries = source
    count = 1
    if jobs > 1:
        entries, workers = capped(entries, jobs)
        count = workers.count
        if workers.note and note is not None:
            note(f"cp-sudoku: {workers.note}")
    with executor(count) as running, closing(run(entries, work, plan, running)) as found:
        yield found


def each_puzzle(
    source: str | Iterable[Entry] | None,
    reading: Reading,
    work: Work[T],
    plan: Plan,
    show: Callable[[Entry, Puzzle, T], int],
    *,
    jobs: int = 1,
) -> int:
    """Run ``work`` on every puzzle of ``source`` (as :func:`outcomes` does, on ``jobs``
    processes) and return the worst exit code.

    A puzzle that could not be read gets its one error line on stderr
    (:data:`~cp_sudoku.cli.exits.BAD_INPUT`); every other goes to
    ``show(entry, puzzle, value)``, which writes it, counts it in the tally and
    returns its exit code.
    """
    code = exits.OK
    with outcomes(source, reading, work, plan, jobs=jobs) as found:
        for outcome in found:
            entry, value = outcome.entry, outcome.value
            if value is None or entry.puzzle is None:
                click.echo(f"cp-sudoku: error: {entry.error}", err=True)
                code = max(code, exits.BAD_INPUT)
                continue
            code = max(code, show(entry, entry.puzzle, value))
    return code


def label(entry: Entry) -> str:
    """``file:line: `` before a one-line answer; nothing for a puzzle typed as the argument."""
    return "" if entry.source == "<argument>" else f"{entry.label}: "
