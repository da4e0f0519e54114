"""``check``'s per-puzzle path against ``bench``'s solve calls, in one process, in alternated
blocks of the same file, in CPU time: a comparison that a moving load does not skew.

Per block of ``--block`` puzzles: first ``bench``'s way (CPU around each solve call of a
back end built for it), then ``check --json``'s per-puzzle path on the same lines (read,
:func:`cp_sudoku.run.check`, :func:`cp_sudoku.display.verdict_record`, ``json.dumps``, a
write to ``/dev/null``; no start-up, no click, no solve thread), with the solve calls inside
it timed too.  Prints each block's rates, the share, and the median share.

Usage::

    python bench/check_path.py ../shared/data/sudoku/royle-17clue.txt --backend sat \\
        --block 2000 --blocks 5
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from itertools import islice
from typing import Any

import click

from cp_sudoku.backends import Backend, get_backend
from cp_sudoku.display import verdict_record
from cp_sudoku.io import read_file
from cp_sudoku.run import Plan, check


def _timed(backend: Backend, spent: list[float]) -> Callable[..., Any]:
    """``backend.solve`` that adds its CPU seconds to ``spent[0]``."""
    solve = backend.solve

    def timed(*args: Any, **options: Any) -> Any:
        start = time.process_time()
        try:
            return solve(*args, **options)
        finally:
            spent[0] += time.process_time() - start

    return timed


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--backend", default="sat", show_default=True)
@click.option("--block", default=2000, show_default=True, type=click.IntRange(min=1))
@click.option("--blocks", default=5, show_default=True, type=click.IntRange(min=1))
def main(path: str, backend: str, block: int, blocks: int) -> None:
    """Print, per block, bench's and check's rates (CPU) and check's share of bench's."""
    clock = time.process_time
    with open(path) as handle:
        lines = list(islice((line for line in handle if line.strip()), block * blocks))
    plan = Plan((backend,))
    (checking,) = plan.built()
    benched = get_backend(backend)
    shares = []
    with open(os.devnull, "w") as out, tempfile.TemporaryDirectory() as folder:
        for number in range(blocks):
            part = os.path.join(folder, f"block{number}.txt")
            with open(part, "w") as handle:
                handle.writelines(lines[number * block : (number + 1) * block])
            puzzles = [entry.puzzle for entry in read_file(part) if entry.puzzle is not None]
            solving = [0.0]
            solve = _timed(benched, solving)
            for puzzle in puzzles:
                solve(puzzle, 2)
            inside = [0.0]
            checking.solve = _timed(checking, inside)  # type: ignore[method-assign]
            start = clock()
            for entry in read_file(part):
                done = check(entry, [checking], plan)
                record = verdict_record(entry, done.verdict, done.mismatch, done.grade)
                out.write(json.dumps(record) + "\n")
            whole = clock() - start
            del checking.solve  # the class's method again
            count = len(puzzles)
            shares.append(solving[0] / whole)
            click.echo(
                f"block {number + 1}: bench {count / solving[0]:,.0f}/CPU s, check's path "
                f"{count / whole:,.0f}/CPU s: {solving[0] / whole:.0%}; a puzzle: solve "
                f"{solving[0] / count * 1e6:.0f} us in bench, {inside[0] / count * 1e6:.0f} us "
                f"in check, the rest of check {(whole - inside[0]) / count * 1e6:.0f} us"
            )
    shares.sort()
    click.echo(f"median share {shares[len(shares) // 2]:.0%} over {blocks} blocks")


if __name__ == "__main__":
    main()
