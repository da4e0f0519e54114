"""Dump the full step records of a fixed sample, to check that a speed change keeps every
step identical (technique, rating, cells, values, placements, removals, text; then rating,
band, outcome), and time each puzzle in CPU seconds.

Usage::

    python bench/grade_steps.py dump before.jsonl          # on the code before the change
    python bench/grade_steps.py dump after.jsonl           # after it
    python bench/grade_steps.py compare before.jsonl after.jsonl

The sample (default): every 7th puzzle of magictour-top1465 and all of norvig-top95.
``dump`` writes one JSON line per puzzle: set, line index, the explanation's record (every
step, then the closing entry), the grade's rating, band and outcome, and the CPU
milliseconds of the grading (``time.process_time``).  ``compare`` reports the first puzzle
whose record differs (or that every one is identical) and the CPU medians and totals side by
side.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path

import click

from cp_sudoku.deduction import band_of, explain
from cp_sudoku.io import parse_line

DATA = Path(
    os.environ.get("CP_SUDOKU_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
SAMPLE = "magictour-top1465:7,norvig-top95:1"


@click.group()
def main() -> None:
    """Step records of a sample, for identity checks of speed changes."""


@main.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--sample", default=SAMPLE, show_default=True, help="set:every,set:every ...")
def dump(out: Path, sample: str) -> None:
    """Grade the sample and write each puzzle's full record to OUT."""
    with out.open("w") as sink:
        for part in sample.split(","):
            name, every = part.split(":")
            lines = (DATA / "sudoku" / f"{name}.txt").read_text().split()
            for index in range(0, len(lines), int(every)):
                puzzle = parse_line(lines[index])
                start = time.process_time()
                explanation = explain(puzzle)
                rating = explanation.rating
                band = band_of(rating) if explanation.outcome == "solved" else "unsolved"
                cpu = time.process_time() - start
                row = {
                    "set": name,
                    "index": index,
                    "steps": explanation.record(),
                    "rating": rating,
                    "band": band,
                    "outcome": explanation.outcome,
                    "cpu_ms": round(cpu * 1000, 2),
                }
                sink.write(json.dumps(row) + "\n")


@main.command()
@click.argument("before", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("after", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def compare(before: Path, after: Path) -> None:
    """Whether every record of AFTER equals BEFORE's, and the CPU times of both."""
    old = [json.loads(line) for line in before.read_text().splitlines()]
    new = [json.loads(line) for line in after.read_text().splitlines()]
    if len(old) != len(new):
        raise click.ClickException(f"{len(old)} puzzles before, {len(new)} after")
    steps = 0
    for a, b in zip(old, new, strict=True):
        keys = ("set", "index", "steps", "rating", "band", "outcome")
        if any(a[k] != b[k] for k in keys):
            raise click.ClickException(f"{a['set']} line {a['index'] + 1} differs")
        steps += len(a["steps"]) - 1
    click.echo(f"identical: {len(old)} puzzles, {steps} steps")
    for name in dict.fromkeys(r["set"] for r in old):
        for label, rows in (("before", old), ("after", new)):
            ms = [r["cpu_ms"] for r in rows if r["set"] == name]
            click.echo(
                f"{name} {label}: CPU ms median {statistics.median(ms):.1f}, "
                f"mean {statistics.mean(ms):.1f}, total {sum(ms) / 1000:.1f} s"
            )


if __name__ == "__main__":
    main()
