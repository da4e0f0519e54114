"""A command's loop over its puzzles: the input, the executor, the tally for interrupts."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from typing import TypeVar

from cp_sudoku.cli import exits, inputs
from cp_sudoku.cli.options import Reading
from cp_sudoku.cli.progress import Emit
from cp_sudoku.io.entry import Entry
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
