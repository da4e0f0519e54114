"""Many puzzles: ``count`` of one :class:`~.make.Request`, across processes, streamed in order.

Puzzle ``k`` depends only on ``(seed, k)``, so ``--jobs`` changes the speed,
never the puzzles.  Results come in index order as soon as the next one is
done (the run core's :func:`cp_sudoku.run.loop.ordered`, on the executor of
:func:`cp_sudoku.run.cluster.executor`).
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import closing
from functools import partial

from cp_sudoku.generate.making import Generated, OutOfTries, Request, make
from cp_sudoku.generate.rules import Maker
from cp_sudoku.run.cluster import executor
from cp_sudoku.run.loop import ordered, window

#: Per process: the maker of the latest request (it keeps the CNF of its rules).
_MAKERS: dict[Request, Maker] = {}


def one(request: Request, seed: int, index: int) -> Generated | OutOfTries:
    """Puzzle ``index``, or the :class:`OutOfTries` that stopped it (other errors raise)."""
    maker = _MAKERS.get(request)
    if maker is None:
        _MAKERS.clear()
        maker = _MAKERS[request] = request.maker()
    try:
        return make(request, seed, index, maker)
    except OutOfTries as error:
        return error


def generate(
    request: Request, count: int = 1, *, seed: int = 0, jobs: int = 1
) -> Generator[Generated | OutOfTries, None, None]:
    """``count`` puzzles (indexes ``0..count-1``) in index order, each as soon as it is
    ready; ``jobs`` worker processes (1: this process).

    Raises:
        UsageError: a bad request (checked before any work starts), ``count < 0``
            or ``jobs < 1``.
    """
    from cp_sudoku.model import UsageError

    if count < 0:
        raise UsageError(f"count must be 0 or more, got {count}")
    if jobs < 1:
        raise UsageError(f"jobs must be 1 or more, got {jobs}")
    request.maker()  # bad options fail here, in this process
    with executor(min(jobs, max(count, 1))) as chosen:
        work = partial(one, request, seed)
        with closing(ordered(range(count), chosen, work, window=window(chosen))) as results:
            for _, result in results:
                yield result
