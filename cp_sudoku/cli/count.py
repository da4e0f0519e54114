"""``cp-sudoku count``: distinct solutions up to ``--limit``, and which back end proved it exact."""

from __future__ import annotations

import json
import sys

import click

from cp_sudoku.cli import exits
from cp_sudoku.cli.options import Reading, Solving, reading_options, solving_options
from cp_sudoku.cli.report import stopped
from cp_sudoku.cli.runs import each_puzzle, label
from cp_sudoku.crosscheck import Count
from cp_sudoku.display import count_record
from cp_sudoku.io.entry import Entry
from cp_sudoku.model import Puzzle
from cp_sudoku.run import count_solutions, of_status


@click.command()
@click.argument("puzzle")
@solving_options(limit=1000)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
def count(puzzle: str, solving: Solving, reading: Reading, as_json: bool) -> None:
    """Count the distinct solutions, up to --limit, and say whether the count is exact.

    A count below the limit is exact when a back end exhausted its search
    (the line names it); reaching the limit means "at least".  Each back end
    counts on its own and keeps only two grids, so memory stays flat however
    high the limit; every kept grid is re-checked, and when two back ends
    prove different exact counts the answer is unknown, with each figure.

    \b
    Examples:
      cp-sudoku count 34..12.....3....
      cp-sudoku count ................ --limit 1000 --backend sat
    """
    plan = solving.plan()

    def show(entry: Entry, puzzle: Puzzle, counted: Count) -> int:
        if as_json:
            exits.tally().finish(click.echo, json.dumps(count_record(entry, counted, plan.limit)))
        else:
            exits.tally().finish(click.echo, label(entry) + sentence(counted, plan.limit))
        if counted.disagreement:
            click.echo(
                f"cp-sudoku: DISAGREEMENT at {entry.label}: {counted.disagreement}", err=True
            )
        return _code(counted)

    sys.exit(each_puzzle(puzzle, reading, count_solutions, plan, show))


def sentence(counted: Count, limit: int) -> str:
    """``3 solutions (exact: sat finished the search)``, ``at least 1,000 solutions
    (stopped at the limit 1,000; raise --limit)``, or ``unknown: ...`` with each figure."""
    if counted.disagreement:
        figures = ", ".join(
            f"{name}: {value:,}{' exact' if exact else ''}"
            for name, (value, exact) in counted.figures.items()
        )
        return f"unknown: the back ends disagree ({figures})"
    noun = "solution" if counted.value == 1 else "solutions"
    if counted.exact:
        return f"{counted.value:,} {noun} (exact: {_names(counted.proved_by)} finished the search)"
    if counted.value >= limit:
        return f"at least {counted.value:,} {noun} (stopped at the limit {limit:,}; raise --limit)"
    return f"at least {counted.value:,} {noun} (stopped before the end: {stopped(counted.results)})"


def _names(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _code(counted: Count) -> int:
    if counted.disagreement:
        return exits.UNKNOWN
    if counted.exact:
        return of_status({0: "none", 1: "unique"}.get(counted.value, "multiple"))
    return exits.NOT_UNIQUE if counted.value >= 2 else exits.UNKNOWN
