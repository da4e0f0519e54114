"""``cp-sudoku compare``: one table row per back end (verdicts, time, effort, encoding size)."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace

import click
from rich.table import Table

from cp_sudoku.backends import DEFAULT_BACKENDS, Result, backend_class
from cp_sudoku.cli import exits
from cp_sudoku.cli.options import Reading, Solving, reading_options, solving_options
from cp_sudoku.cli.progress import Console
from cp_sudoku.cli.report import ms, problems
from cp_sudoku.cli.runs import each_puzzle
from cp_sudoku.display import format_stats
from cp_sudoku.io import Entry
from cp_sudoku.model import Puzzle
from cp_sudoku.run import Checked, check, of_verdict


@click.command()
@click.argument("puzzle_or_file")
@solving_options(limit=2, default=", ".join(DEFAULT_BACKENDS))
@reading_options
def compare(puzzle_or_file: str, solving: Solving, reading: Reading) -> None:
    """One table row per back end: verdicts, time, search effort, encoding size.

    For a file the row sums the time and the effort over its puzzles and
    averages the encoding size.  Which statistics are effort and which are
    size each back end declares.  Where ``kernel`` declines a puzzle,
    ``backtrack`` stands in and gets its own row.

    \b
    Examples:
      cp-sudoku compare models/sudoku-9x9-tutorial.txt
      cp-sudoku compare models/sudoku-9x9-hard.txt --backend cpsat --backend cpsat-naive
    """
    plan = solving.plan()
    plan = replace(plan, backends=plan.names)  # a comparison runs each back end on each puzzle
    rows = {name: Row(backend_class(name).size_statistics) for name in plan.names}

    def add(entry: Entry, puzzle: Puzzle, checked: Checked) -> int:
        def into_rows(_: str) -> None:  # a puzzle's output is its part of the table
            for name, result in checked.verdict.results.items():  # a stand-in gets a row too
                rows.setdefault(name, Row(backend_class(name).size_statistics)).add(result)

        for line in problems(entry.label, checked.verdict, checked.mismatch):
            click.echo(line, err=True)
        exits.tally().finish(into_rows, "")  # counted with its rows: the table keeps what's counted
        return of_verdict(checked.verdict, checked.mismatch)

    title = puzzle_or_file if len(puzzle_or_file) < 60 else "the puzzle"
    try:
        code = each_puzzle(puzzle_or_file, reading, check, plan, add)
    except KeyboardInterrupt:  # a Ctrl-C or SIGTERM: the puzzles compared keep their table
        _print_table(rows, f"{title}, the puzzles compared before the interrupt")
        raise
    _print_table(rows, title)
    sys.exit(code)


def _print_table(rows: dict[str, Row], title: str) -> None:
    """The table of ``rows`` on stdout; nothing when no puzzle was read (the errors say why)."""
    if not any(row.statuses for row in rows.values()):
        return
    table = Table(title=f"Back ends on {title}", title_justify="left")
    for heading in ("back end", "status", "time", "effort", "encoding"):
        table.add_column(heading, justify="right" if heading == "time" else "left")
    for name, row in rows.items():
        table.add_row(name, *row.cells())
    Console(highlight=False).print(table)


class Row:
    """One back end's figures summed over the puzzles compared; ``size`` names the
    statistics that measure the encoding (averaged), the others are effort (summed)."""

    def __init__(self, size: tuple[str, ...]) -> None:
        self.size = size
        self.statuses: Counter[str] = Counter()
        self.seconds = 0.0
        self.effort: Counter[str] = Counter()
        self.encoding: Counter[str] = Counter()

    def add(self, result: Result) -> None:
        """Count one result."""
        self.statuses["declined" if result.stopped == "declined" else result.status] += 1
        self.seconds += result.seconds
        for name, value in result.stats.items():
            (self.encoding if name in self.size else self.effort)[name] += value

    def cells(self) -> tuple[str, str, str, str]:
        """Status, time, effort and encoding cells."""
        puzzles = sum(self.statuses.values())
        if puzzles == 1:
            status = next(iter(self.statuses))
            time_ = ms(self.seconds)
        else:
            status = ", ".join(f"{n:,} {s}" for s, n in self.statuses.most_common())
            time_ = f"{self.seconds:,.2f} s (mean {ms(self.seconds / max(puzzles, 1))})"
        mean = {name: round(total / max(puzzles, 1)) for name, total in self.encoding.items()}
        return status, time_, format_stats(self.effort) or "-", format_stats(mean) or "-"
