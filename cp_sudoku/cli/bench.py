"""``cp-sudoku bench``: throughput, latency, memory and verdicts of each back end
(the measuring is :mod:`cp_sudoku.bench`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.bench import Record, footnotes, run_bench, table
from cp_sudoku.cli import exits
from cp_sudoku.cli.options import backend_option, count_option, time_limit_option
from cp_sudoku.cli.progress import Console
from cp_sudoku.cli.report import plural


@click.command()
@click.argument("datasets", nargs=-1, required=True)
@backend_option("measure", ", ".join(DEFAULT_BACKENDS))
@count_option("--limit-puzzles", "Measure only the first N puzzles of each data set.")
@count_option(
    "--repeat", "Solve each data set R times (figures pool every solve).", metavar="R", default=1
)
@click.option("--no-baselines", is_flag=True, help="Skip the baselines.")
@count_option(
    "--baseline-puzzles", "Baselines run on the first N puzzles of each data set.", default=300
)
@time_limit_option("Seconds per solve")
@click.option(
    "--json-out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the report as JSON to this file.",
)
def bench(
    datasets: tuple[str, ...],
    backends: tuple[str, ...],
    limit_puzzles: int | None,
    repeat: int,
    no_baselines: bool,
    baseline_puzzles: int,
    time_limit: float | None,
    json_out: Path | None,
) -> None:
    """Measure back ends on puzzle collections, with uniqueness proven (limit 2).

    DATASETS are files, names of the shared collections (royle-17clue,
    magictour-top1465, forum-hardest-1106, norvig-top95, sudoku16x16_hard,
    sudoku25x25_easy, ...), or generated:RxC[:COUNT[:BLANK_FRACTION]].
    Baselines (cpsat-naive, sat-naive, backtrack-plain capped at 10,000
    tries) run beside the chosen back ends unless --no-baselines.  A puzzle
    that cannot be read is reported and the rest are measured; the exit code
    is then 2.

    \b
    Example:
      cp-sudoku bench royle-17clue forum-hardest-1106 --backend sat --json-out bench.json
      cp-sudoku bench sudoku16x16_hard generated:6x6:5 --backend cpsat --no-baselines
    """
    console = Console(stderr=True)
    shown: list[Record] = []
    tally = exits.tally()
    tally.noun = "measurement"

    def progress(record: Record) -> None:
        shown.append(record)
        tally.done += 1
        rate = f"{record.per_second:,.0f}/s" if record.settled else "none settled (all unknown)"
        measured = plural(record.puzzles, "puzzle")
        console.print(f"bench: {record.dataset} / {record.backend}: {measured}, {rate}")

    report = run_bench(
        datasets,
        backends or DEFAULT_BACKENDS,
        limit_puzzles=limit_puzzles,
        repeat=repeat,
        baselines=not no_baselines,
        baseline_puzzles=baseline_puzzles,
        time_limit=time_limit,
        on_record=progress,
    )
    errors: list[str] = report["errors"]  # type: ignore[assignment]
    for message in errors:
        click.echo(f"cp-sudoku: error: {message}", err=True)
    out = Console()
    if not out.is_terminal:
        out = Console(width=160)  # a file or pipe: the whole table, unwrapped
    out.print(table(shown))
    for note in footnotes(shown, baseline_puzzles):
        click.echo(note)
    code = exits.BAD_INPUT if errors else exits.OK
    for record in shown:
        if record.rejected:
            click.echo(
                f"cp-sudoku: error: {record.backend} returned {record.rejected} grids that fail "
                f"the checker on {record.dataset}",
                err=True,
            )
            code = max(code, exits.UNKNOWN)
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    sys.exit(code)
