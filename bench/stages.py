"""What one ``check`` puzzle costs, stage by stage, in CPU microseconds.

Reads every puzzle of FILE (reading and ``Puzzle`` construction), solves each with one back
end (what ``cp-sudoku bench`` times), judges each result (the checker re-verifies every
grid), builds each JSON record and encodes it; each stage is timed over all puzzles with
``time.process_time``.

Usage::

    python bench/stages.py ../shared/data/sudoku/royle-17clue.txt --backend sat --count 5000
"""

from __future__ import annotations

import json
import time
from itertools import islice

import click

from cp_sudoku.backends import get_backend
from cp_sudoku.crosscheck import judge
from cp_sudoku.display import verdict_record
from cp_sudoku.io import read_file
from cp_sudoku.model import violations


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--backend", default="sat", show_default=True)
@click.option("--count", default=5000, show_default=True, type=click.IntRange(min=1))
def main(path: str, backend: str, count: int) -> None:
    """Print each stage's CPU microseconds per puzzle."""
    clock = time.process_time
    start = clock()
    entries = [e for e in islice(read_file(path), count) if e.puzzle is not None]
    reading = clock() - start
    puzzles = [e.puzzle for e in entries if e.puzzle is not None]
    solver = get_backend(backend)
    start = clock()
    results = [solver.solve(p, 2) for p in puzzles]
    solving = clock() - start
    start = clock()
    verdicts = [judge(p, {backend: r}) for p, r in zip(puzzles, results, strict=True)]
    judging = clock() - start
    start = clock()
    for p, r in zip(puzzles, results, strict=True):
        for grid in r.solutions:
            violations(p, grid)
    checking = clock() - start
    start = clock()
    records = [verdict_record(e, v) for e, v in zip(entries, verdicts, strict=True)]
    recording = clock() - start
    start = clock()
    for record in records:
        json.dumps(record)
    encoding = clock() - start
    for name, seconds in (
        ("reading + Puzzle", reading),
        (f"{backend} solve", solving),
        ("judge", judging),
        ("  of which the checker", checking),
        ("JSON record", recording),
        ("json.dumps", encoding),
    ):
        click.echo(f"{name:24} {seconds / len(entries) * 1e6:8.1f} us/puzzle")


if __name__ == "__main__":
    main()
