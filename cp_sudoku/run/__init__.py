"""Running many puzzles: the plan, the work done to each, the loop, and where it runs.

- :class:`Plan`: back ends, options and limits (plain data, sent to workers);
- work functions (:mod:`.work`): :func:`check`, :func:`count_solutions`, :func:`solve_each`;
- executors (:mod:`.pool`, :mod:`.cluster`): one protocol, ``submit(fn, arg)`` -> a
  future, in this process, a process pool or Dask;
- the one ordered, windowed loop (:mod:`.loop`): ``run(entries, work, plan, executor)``
  yields one :class:`Outcome` per entry in input order;
- a whole ``check`` run, with its optional table and its :class:`Summary` (:mod:`.batch`).
"""

from cp_sudoku.run.loop import ordered, run
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.pool import Executor, InProcess, ProcessPool, Workers, cores, workers
from cp_sudoku.run.summary import Summary, of_status, of_verdict
from cp_sudoku.run.work import (
    Checked,
    Outcome,
    Timed,
    Work,
    check,
    count_solutions,
    solve_each,
    stated_mismatch,
)

__all__ = [
    "Checked",
    "Executor",
    "InProcess",
    "Outcome",
    "Plan",
    "ProcessPool",
    "Summary",
    "Timed",
    "Work",
    "Workers",
    "check",
    "cores",
    "count_solutions",
    "of_status",
    "of_verdict",
    "ordered",
    "run",
    "solve_each",
    "stated_mismatch",
    "workers",
]
