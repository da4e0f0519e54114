"""The run that writes a table: slices out to an executor, rows back into the spool.

:func:`run_table` sends the slices of a file that the spool does not hold yet
to an executor (in this process, a process pool, or a Dask client: anything
with ``submit(fn, arg)`` returning a future with ``result()``), at most
``window`` at a time, takes the results back in input order, puts each in
the spool as it comes, and finally joins the spool into the output file.
Memory: at most ``window`` slices of rows are in flight.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any, Protocol

from cp_sudoku.io import Alphabet
from cp_sudoku.run.output import Columns
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.resume import Spool
from cp_sudoku.run.slices import SlicedFile, Task, check_slice


class Submitter(Protocol):
    """What runs the slices: ``submit(fn, arg)`` -> a future with ``result()`` (a
    ``concurrent.futures`` executor or a Dask client)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(*args, **kwargs)`` somewhere; a future of its result."""
        ...


class Inline:
    """An executor that runs each task in this process when it is submitted."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args)`` now; a future already done."""
        future: Future[Any] = Future()
        future.set_result(fn(*args))
        return future


def run_table(
    file: SlicedFile,
    plan: Plan,
    spool: Spool,
    executor: Submitter,
    *,
    window: int,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | None = None,
    submit: Callable[[Submitter, Task], Any] | None = None,
) -> Iterator[tuple[int, Columns]]:
    """Check the slices the spool lacks; yield ``(slice index, rows)`` as each is put.

    ``submit`` sends one task (default: ``executor.submit(check_slice, task)``).
    When the last slice is in, the spool is joined into the output file.
    """
    send = submit or _submit
    done = spool.done()
    todo = iter([part for part in file.slices if part.index not in done])
    pending: deque[Any] = deque()
    while True:
        while len(pending) < window:
            part = next(todo, None)
            if part is None:
                break
            pending.append(send(executor, Task(file.source, part, plan, box, alphabet)))
        if not pending:
            break
        index, columns = pending.popleft().result()
        spool.put(index, columns)
        yield index, columns
    spool.finish(len(file.slices))


def _submit(executor: Submitter, task: Task) -> Any:
    return executor.submit(check_slice, task)


class RowCounts:
    """Rows counted by status, with disagreements and contradicted stated solutions."""

    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.disagreements = 0
        self.mismatches = 0

    #: The columns :meth:`add` reads.
    NAMES = ("status", "agree", "matches_stated")

    def add(self, columns: Columns) -> None:
        """Count the rows of one chunk."""
        self.statuses.update(columns["status"])
        self.disagreements += sum(agree is False for agree in columns["agree"])
        self.mismatches += sum(match is False for match in columns["matches_stated"])

    @property
    def total(self) -> int:
        """Rows counted."""
        return sum(self.statuses.values())
