"""A chunk of a run: the unit of work every executor runs.

A chunk holds the work function, the plan, and its puzzles: either entries
read by the caller, or a slice of a file (:class:`~cp_sudoku.run.slices.Part`)
that the worker reads itself, so that a cluster is sent byte offsets rather
than puzzles.  :func:`run_chunk` is what runs in the worker: in this process,
in a process pool, on a Dask worker, or in the service's workers.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Generic, TypeVar

from cp_sudoku.backends import Backend
from cp_sudoku.io.entry import Entry
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.progress import reporter
from cp_sudoku.run.slices import Part
from cp_sudoku.run.work import Outcome, Work, each

T = TypeVar("T")


@dataclass(frozen=True)
class Chunk(Generic[T]):
    """``work`` with ``plan`` over ``entries`` or over the slice ``part``; ``index`` is the
    chunk's place in its run (a slice's index).

    ``backends``: back ends already built to run with, in place of the
    plan's (only in this process: built back ends do not travel).
    """

    index: int
    work: Work[T]
    plan: Plan
    entries: tuple[Entry, ...] = ()
    part: Part | None = None
    backends: tuple[Backend, ...] | None = None


def run_chunk(chunk: Chunk[T]) -> list[Outcome[T]]:
    """The chunk's outcomes, in order: the work's value for every entry with a puzzle,
    none for an entry that could not be read.  The back ends come from the process's
    cache (:meth:`Plan.built`), so a worker builds them once.  The count of puzzles solved
    so far goes to the executor's channel, when it installed one
    (:func:`cp_sudoku.run.progress.reporter`).

    Raises:
        UsageError: the plan names an unknown back end or a bad option.
    """
    backends: Sequence[Backend] = chunk.backends or chunk.plan.built()
    entries = chunk.entries if chunk.part is None else tuple(chunk.part.entries())
    readable = [entry for entry in entries if entry.puzzle is not None]
    values = iter(each(chunk.work)(readable, backends, chunk.plan, reporter(chunk.index)))
    return [
        Outcome(entry, next(values)) if entry.puzzle is not None else Outcome(entry)
        for entry in entries
    ]


def chunked(
    entries: Iterable[Entry],
    size: int,
    work: Work[T],
    plan: Plan,
    backends: Sequence[Backend] | None = None,
    *,
    most: int | None = None,
    pace: float | None = None,
) -> Iterator[Chunk[T]]:
    """``entries`` in chunks, read lazily (an input of any length): the first of ``size``
    entries, each next one twice as large up to ``most`` (default: ``size``), so that a
    few puzzles still spread over the workers and many pay the hand-off once per chunk.
    With ``pace`` (seconds; for a caller that asks for a chunk once the one before is done
    and written, as the loop in this process does), each next chunk is sized to take about
    that long, from the time the caller spent on the one before (at most four times as many
    entries, at most ``most``): puzzles of a fraction of a millisecond pay the hand-off once
    per hundreds, and slow ones still stream a line every ``pace`` or so.  An error of the
    reader comes after the chunk of the entries read before it."""
    it = iter(entries)
    given = tuple(backends) if backends is not None else None
    index = 0
    while True:
        batch: list[Entry] = []
        try:
            batch.extend(islice(it, size))
        except Exception:
            if batch:  # the entries read before the error are checked
                yield Chunk(index, work, plan, entries=tuple(batch), backends=given)
            raise
        if not batch:
            return
        handed = time.perf_counter()
        yield Chunk(index, work, plan, entries=tuple(batch), backends=given)
        index += 1
        if pace is None:
            size = min(2 * size, max(size, most or size))
        else:  # the caller's time on this chunk: its work and its output
            spent = time.perf_counter() - handed
            paced = int(size * pace / spent) if spent > 0 else 4 * size
            size = max(1, min(4 * size, most or size, paced))
