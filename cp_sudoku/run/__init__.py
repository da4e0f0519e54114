"""Running many puzzles: the plan, the work done to each, the loop, and where it runs.

``run(entries, check, Plan(...), executor)`` yields one :class:`Outcome` per
entry in input order; :func:`choose` picks the executor for ``--jobs``.
"""

from cp_sudoku.run.loop import Outcome, choose, run
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.pool import Executor, InProcess, ProcessPool, Workers, cores, workers
from cp_sudoku.run.work import (
    Checked,
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
    "Timed",
    "Work",
    "Workers",
    "check",
    "choose",
    "cores",
    "count_solutions",
    "run",
    "solve_each",
    "stated_mismatch",
    "workers",
]
