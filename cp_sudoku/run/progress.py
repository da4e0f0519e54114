"""Puzzles finished inside chunks still running: worker reports, and the run's count of them.

A worker running a chunk (:func:`cp_sudoku.run.chunks.run_chunk`) reports how
many of its puzzles are solved so far, at most once every :data:`REPORT_EVERY`
seconds, through the channel its executor installed in the worker
(:func:`reporting`): a queue of this process (:class:`~cp_sudoku.run.pool.InProcess`),
a multiprocessing queue handed to the pool's initializer
(:class:`~cp_sudoku.run.pool.ProcessPool`), or Dask's worker events
(:class:`~cp_sudoku.run.cluster.Dask`).  The run loop
(:func:`cp_sudoku.run.loop.ordered`) wakes every :data:`TICK` seconds while it
waits and hands what arrived to :class:`Finished`, which turns reports and
finished chunks into one count, each puzzle counted once: a progress bar or
the progress lines of a log move while a slice of thousands of puzzles runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: One report: (the chunk's index in its run, puzzles of it solved so far).
Report = tuple[int, int]
#: Where a worker sends its reports (None: nobody listens).
Send = Callable[[Report], None]

#: Least seconds between two reports of one chunk.
REPORT_EVERY = 0.5
#: Most seconds the run loop waits before it looks at the reports again.
TICK = 0.25

_channel: ContextVar[Send | None] = ContextVar("cp_sudoku_progress", default=None)


def listen(send: Send) -> None:
    """In a worker (its process or thread): send the reports of the chunks run here to
    ``send`` from now on."""
    _channel.set(send)


@contextmanager
def reporting(send: Send) -> Iterator[None]:
    """In a worker: reports go to ``send`` while the block runs (one task)."""
    token = _channel.set(send)
    try:
        yield
    finally:
        _channel.reset(token)


def reporter(index: int) -> Callable[[int], None] | None:
    """The worker-side report of chunk ``index``: ``done(count)`` with ``count`` puzzles
    solved so far, sent when :data:`REPORT_EVERY` seconds have passed since the chunk
    started or since the last report.  None when no channel is installed here."""
    send = _channel.get()
    if send is None:
        return None
    due = time.monotonic() + REPORT_EVERY

    def done(count: int) -> None:
        nonlocal due
        now = time.monotonic()
        if now >= due:
            due = now + REPORT_EVERY
            send((index, count))

    return done


class Finished:
    """Puzzles finished in a run, from workers' reports and finished chunks.

    ``advance(n)`` is called with each increase (n >= 1); over a run the
    increases add up to the puzzles of the finished chunks, each counted
    once, however the reports and the chunks' ends interleave (a report late
    or from a chunk run again after a worker died is counted at most up to
    what is already known).
    """

    def __init__(self, advance: Callable[[int], None]) -> None:
        self.advance = advance
        self._counts: dict[int, int] = {}
        self._ended: set[int] = set()

    def reported(self, reports: Iterable[Report]) -> None:
        """Count reports: chunk index and puzzles of it solved so far."""
        for index, count in reports:
            if index not in self._ended:
                self._raise(index, count)

    def ended(self, index: int, count: int) -> None:
        """Chunk ``index`` is done, with ``count`` puzzles (invalid lines included)."""
        self._ended.add(index)
        self._raise(index, count)
        self._counts.pop(index, None)

    def _raise(self, index: int, count: int) -> None:
        before = self._counts.get(index, 0)
        if count > before:
            self._counts[index] = count
            self.advance(count - before)
