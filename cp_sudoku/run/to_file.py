"""``check FILE --output PATH``: a whole run, resumable, on any executor.

Cuts the input into slices, opens (or resumes) the spool beside ``PATH``,
counts what an earlier run left, runs the rest, joins the parts into
``PATH``; see :mod:`cp_sudoku.run.resume` for what survives an interruption.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from cp_sudoku.io import Alphabet
from cp_sudoku.model import UsageError
from cp_sudoku.run.cluster import runner
from cp_sudoku.run.output import kind_of, read_part
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.resume import Spool
from cp_sudoku.run.slices import cut, describe
from cp_sudoku.run.table import RowCounts, run_table

#: Lines of input per slice (a task): a few seconds of work for the fast back ends.
SLICE_LINES = 3000


def check_to_file(
    path: str,
    output: str,
    plan: Plan,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    resume: bool = False,
    slice_lines: int = SLICE_LINES,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | None = None,
    format: str | None = None,
    progress: Callable[[int], None] = lambda rows: None,
) -> RowCounts:
    """Check every puzzle of ``path`` into ``output``; the tally of every row in it.

    ``progress`` is called with the number of rows of each slice as it is
    done (those of an earlier run first).  With ``resume``, a complete
    ``output`` is left as it is and only counted.

    Raises:
        UsageError: an input that cannot be cut into slices, a spool of another
            run, a bad ``--cluster`` value, Dask or pyarrow missing.
        PuzzleError, OSError: an unreadable input.
    """
    if kind_of(output) == "parquet" and find_spec("pyarrow") is None:
        raise UsageError("Parquet output needs pyarrow: pip install 'cp-sudoku[parquet]'")
    tally = RowCounts()
    if resume and Spool.complete(output):
        tally.add(read_part(Path(output), kind_of(output), RowCounts.NAMES))
        progress(tally.total)
        return tally
    file = cut(path, slice_lines, format)
    run = describe(file) | {
        "slice_lines": slice_lines,
        "plan": _described(plan),
        "box": list(box) if box else None,
        "alphabet": alphabet.symbols if alphabet else None,
    }
    spool = Spool(output, run, plan.backends, resume=resume)
    for index in sorted(spool.done()):
        columns = spool.columns(index, RowCounts.NAMES)
        tally.add(columns)
        progress(len(columns["status"]))
    with runner(jobs, cluster) as chosen:
        for _, columns in run_table(
            file,
            plan,
            spool,
            chosen.executor,
            window=2 * chosen.workers + 1,
            box=box,
            alphabet=alphabet,
            submit=chosen.submit,
        ):
            tally.add(columns)
            progress(len(columns["status"]))
    return tally


def _described(plan: Plan) -> dict[str, Any]:
    return {
        "backends": list(plan.backends),
        "options": {name: dict(options) for name, options in plan.options.items()},
        "limit": plan.limit,
        "time_limit": plan.time_limit,
    }
