"""``cp-sudoku check``: one line (or JSON object) per puzzle, in input order, and a summary."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from typing import Any

import click
from click.core import ParameterSource

from cp_sudoku.cli import exits, inputs
from cp_sudoku.cli.explained import explained, two_solutions, why_lines, with_core
from cp_sudoku.cli.options import Reading, Solving, jobs_option, reading_options, solving_options
from cp_sudoku.cli.progress import Console, Emit, streams
from cp_sudoku.cli.report import ms, plural, problems
from cp_sudoku.cli.to_file import table_options
from cp_sudoku.crosscheck import DECLINED
from cp_sudoku.display import error_record, verdict_record
from cp_sudoku.io import Entry, grid_string
from cp_sudoku.run import Checked, Outcome, Summary
from cp_sudoku.run.batch import Input, check_run
from cp_sudoku.run.cluster import parse_cluster
from cp_sudoku.run.summary import STATUSES
from cp_sudoku.workbench.core import why_none
from cp_sudoku.workbench.differ import count_words


@click.command()
@click.argument("puzzle_or_file")
@solving_options(limit=2)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle (JSON lines).")
@click.option(
    "--explain",
    is_flag=True,
    help="For multiple: two solutions side by side; for none: the core and the deduction steps.",
)
@click.option(
    "--grade",
    "with_grade",
    is_flag=True,
    help="Also grade each puzzle by logic: band, ER-like rating, hardest technique.",
)
@jobs_option
@table_options
def check(
    puzzle_or_file: str,
    solving: Solving,
    reading: Reading,
    as_json: bool,
    explain: bool,
    with_grade: bool,
    jobs: int,
    **table: Any,
) -> None:
    """Say for each puzzle whether it has no solution, exactly one, or several.

    PUZZLE_OR_FILE is a file (one puzzle per line, grid text, CSV with a
    header, or a variant format), '-' for stdin, or one puzzle written on the
    command line.  One line (or JSON object) per puzzle goes to stdout, in
    input order; a progress bar (on a terminal) and the summary table go to
    stderr.

    \b
    Examples:
      cp-sudoku check models/sudoku-9x9-tutorial.txt
      cp-sudoku check ......122..4.4..
      cp-sudoku check puzzles.csv --json --jobs 2 | jq .status
      cp-sudoku check 12.......3.4..4. --explain
      cp-sudoku check models/sudoku-9x9-hard.txt --grade
      cp-sudoku check big.csv --output big.parquet --cluster local:2 --resume
    """
    inputs.refuse_missing(puzzle_or_file, reading)  # before --output says it needs a file
    plan = replace(solving.plan(), grade=with_grade)
    if table["cluster"] is not None:
        jobs = parse_cluster(table["cluster"]).workers or jobs
    asked = click.get_current_context().get_parameter_source("jobs") != ParameterSource.DEFAULT
    console = Console(stderr=True, highlight=False)
    tally = exits.tally()
    tally.total = lambda: inputs.total(puzzle_or_file, reading)
    summary = Summary()
    if table["output"]:
        tally.spool, tally.kept = f"{table['output']}.parts", lambda: summary.kept
    source = Input(
        lambda: inputs.entries(puzzle_or_file, reading),
        inputs.path_of(puzzle_or_file),
        reading.box,
        reading.alphabet,
        reading.format,
    )
    with (
        streams(console, tally.total) as io,
        check_run(
            source,
            plan,
            summary,
            jobs=jobs,
            cluster=table["cluster"],
            output=table["output"],
            resume=table["resume"],
            lines=table["slice_lines"],
            note=io.err if asked else lambda text: None,
            advance=io.advance,
            stopped=lambda: tally.pending,
        ) as found,
    ):
        io.earlier(summary.earlier)  # the rows of an earlier run, when resumed (not printed)
        for outcomes in found:
            for outcome in outcomes:
                tally.finish(io.out, _line(outcome, as_json, io.err, explain, plan.time_limit))
                if explain:  # a line can take seconds: each is flushed at once
                    io.flush()
            io.flush()
    used = summary.workers or jobs
    where = f"--jobs {jobs} capped at {used}" if asked and used != jobs else f"--jobs {used}"
    print_summary(console, summary, table["cluster"] or where, table["output"])
    sys.exit(summary.code)


def _line(
    outcome: Outcome[Checked],
    as_json: bool,
    err: Emit,
    explain: bool = False,
    time_limit: float | None = None,
) -> str:
    """The stdout line of one puzzle (with ``explain``, the lines that follow it, the core
    of a puzzle without solution found within ``time_limit``); its diagnostics go to
    ``err``."""
    entry, checked = outcome.entry, outcome.value
    if checked is None:
        err(f"cp-sudoku: error: {entry.error}")
        # every input puzzle has its line on stdout, a bad one included
        return json.dumps(error_record(entry)) if as_json else f"{entry.label}  invalid"
    verdict, puzzle = checked.verdict, entry.puzzle
    if verdict.disagreements or checked.mismatch:
        for line in problems(entry.label, verdict, checked.mismatch):
            err(line)
    wanted = explain and puzzle and explained(verdict)
    core = why_none(puzzle, time_limit=time_limit) if wanted and puzzle is not None else None
    if as_json:
        record = verdict_record(entry, verdict, checked.mismatch, checked.grade)
        return json.dumps(with_core(record, core) if core else record)
    line = text_line(entry, checked)
    if explain and puzzle and len(verdict.solutions) >= 2 and verdict.status != "unique":
        line += "\n" + two_solutions(puzzle, verdict)
    if core:
        line += "\n" + "\n".join(why_lines(core))
    return line


def text_line(entry: Entry, checked: Checked) -> str:
    """``file:line  status  solution  times``, then the reason of a ``none`` and a
    contradicted stated solution, when there are."""
    verdict = checked.verdict
    times = "  ".join([f"{name} {ms(result.seconds)}" for name, result in verdict.results.items()])
    alphabet = entry.puzzle.alphabet if entry.puzzle else None
    solution = grid_string(verdict.solution, alphabet) if verdict.solution else "-"
    line = f"{entry.label}  {verdict.status:<8}  {solution}  {times}"
    if verdict.status == "multiple":  # which grids were found varies with --jobs: not shown
        line += f"  {count_words(verdict)}"
    if verdict.reason:  # an unknown's reason names each back end: no "reason:" before it
        line += f"  reason: {verdict.reason}" if verdict.status == "none" else f"  {verdict.reason}"
    for name, result in verdict.results.items():
        if result.stopped == DECLINED:
            line += f"  {name} declined: {result.reason}"
    if checked.mismatch:
        line += f"  MISMATCH: {checked.mismatch}"
    if checked.grade is not None:
        line += f"  grade {checked.grade}"
    return line


def print_summary(console: Console, summary: Summary, where: str, output: str | None) -> None:
    """The run's table by status (and, over several puzzles, the time per back end) and
    its rate, on ``console``."""
    from rich.table import Table

    total = summary.total
    checked = total - summary.statuses["invalid"]
    table = Table(title="Summary", title_justify="left")
    table.add_column("status")
    table.add_column("puzzles", justify="right")
    for status in STATUSES:
        if summary.statuses[status]:
            table.add_row(status, f"{summary.statuses[status]:,}")
    if summary.disagreements:
        table.add_row("of which disagreements", f"{summary.disagreements:,}")
    if summary.mismatches:
        table.add_row("stated solution contradicted", f"{summary.mismatches:,}")
    table.add_row("total", f"{total:,}", end_section=True)
    console.print(table)
    if checked > 1 and summary.seconds:  # one puzzle's times are on its line
        times = Table(title="Time per back end", title_justify="left")
        for heading in ("back end", "total s", "mean ms", "max ms"):
            times.add_column(heading, justify="left" if heading == "back end" else "right")
        for name, seconds in summary.seconds.items():
            times.add_row(
                name,
                f"{seconds:,.2f}",
                f"{seconds / checked * 1000:,.2f}",
                f"{summary.slowest[name] * 1000:,.1f}",
            )
        console.print(times)
    wall, now = summary.wall, summary.checked_now
    rate = f" ({now / wall:,.1f} puzzles/s)" if wall > 0 and now else ""
    to = f" to {output}" if output else ""
    if summary.earlier:
        console.print(
            f"{now:,} checked in {wall:,.2f} s{rate}, {where}{to}; "
            f"{summary.earlier:,} from an earlier run",
            soft_wrap=True,
        )
    else:
        console.print(f"{plural(total, 'puzzle')} in {wall:,.2f} s{rate}, {where}{to}")
