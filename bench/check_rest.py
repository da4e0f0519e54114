"""``check``'s own work besides the solves, for an instruction count: ``cp-sudoku check
PATH --jobs 1 --backend sat`` run ``1 + TIMES`` times in one process, its stdout and stderr to
``/dev/null``, with the ``sat`` back end's solve calls answered from a cache after the first
run (keyed by the puzzle's name, ``file:line``), so that what the later runs execute is
reading, judging (every grid re-checked), the lines and the summary.

Run it under callgrind twice, with two values of ``TIMES``; the difference of the two totals
over the extra puzzles is the instructions a puzzle::

    for times in 1 3; do
        PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
            python bench/check_rest.py FILE $times 2>&1 | grep Collected
    done   # (second - first) / (2 * puzzles in FILE)

The per-command cost (start of the run core, the summary tables: about 8.8 million
instructions) is shared by the puzzles of a run: use a file of 1,000 lines or more.
"""

from __future__ import annotations

import os
import sys
from contextlib import redirect_stderr, redirect_stdout, suppress
from typing import Any

from cp_sudoku.backends.built import built
from cp_sudoku.cli import main as cli


def main(path: str, times: int) -> None:
    """Check ``path`` once with real solves, then ``times`` more with cached ones."""
    solver = built("sat")
    solve = solver.solve
    known: dict[str, Any] = {}

    def cached(puzzle: Any, *args: Any, **options: Any) -> Any:
        found = known.get(puzzle.name)
        if found is None:
            found = known[puzzle.name] = solve(puzzle, *args, **options)
        return found

    solver.solve = cached  # type: ignore[method-assign]
    for _ in range(1 + times):
        with (
            open(os.devnull, "w") as sink,
            redirect_stdout(sink),
            redirect_stderr(sink),
            suppress(SystemExit),  # the command's exit code
        ):
            cli(["check", path, "--jobs", "1", "--backend", "sat"])


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
