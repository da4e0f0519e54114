"""``cp-sudoku solve``: each puzzle beside its solution, with the search statistics."""

from __future__ import annotations

import sys

import click

from cp_sudoku.cli import exits, prompt
from cp_sudoku.cli.explained import explained, two_solutions, why_lines
from cp_sudoku.cli.options import Reading, Solving, reading_options, solving_options
from cp_sudoku.cli.report import ms, problems, status_sentence
from cp_sudoku.cli.runs import each_puzzle
from cp_sudoku.crosscheck import Verdict
from cp_sudoku.display import format_stats, side_by_side
from cp_sudoku.io import Entry, read_text
from cp_sudoku.model import Puzzle
from cp_sudoku.run import Checked, check, of_verdict
from cp_sudoku.workbench.core import why_none

#: The built-in example: the Wikipedia "Sudoku" article's puzzle, the first
#: example of the classic backtracking tutorial (4,208 tries in ``backtrack-plain``).
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
_UNLABELLED = ("<argument>", "<example>", "<terminal>")


@click.command()
@click.argument("puzzle", required=False)
@click.option("--example", is_flag=True, help="Solve the built-in example (the tutorial's 9x9).")
@solving_options(limit=2)
@reading_options
def solve(puzzle: str | None, example: bool, solving: Solving, reading: Reading) -> None:
    """Solve puzzles and show each beside its solution, with the search statistics.

    PUZZLE is a puzzle written on the command line, a file, or '-' for
    stdin.  Without it, on a terminal, the puzzle is typed in row by row
    (--box 2x2 for a 4x4; --alphabet 1-9A-G for a 16x16).

    \b
    Examples:
      cp-sudoku solve --example --backend backtrack-plain
      cp-sudoku solve ......122..4.4..
      cp-sudoku solve models/sudoku-9x9-hard.txt --backend sat --sat-solver cadical195
    """
    plan = solving.plan()
    source: str | list[Entry] | None = puzzle
    if example:
        source = list(read_text(EXAMPLE, "<example>"))
    elif puzzle is None and sys.stdin.isatty():
        source = [Entry("<terminal>", 1, "", puzzle=prompt.ask(reading.box, reading.alphabet))]

    def show(entry: Entry, puzzle: Puzzle, checked: Checked) -> int:
        for line in problems(entry.label, checked.verdict, checked.mismatch):
            click.echo(line, err=True)
        text = _text(entry, puzzle, checked.verdict, checked.mismatch, plan.time_limit)
        exits.tally().finish(click.echo, ("\n" if exits.tally().done else "") + text)
        return of_verdict(checked.verdict, checked.mismatch)

    sys.exit(each_puzzle(source, reading, check, plan, show))


def _text(
    entry: Entry,
    puzzle: Puzzle,
    verdict: Verdict,
    mismatch: str | None,
    time_limit: float | None = None,
) -> str:
    """The side-by-side display and the statistics lines of one solved puzzle (the core
    of one without solution found within ``time_limit``)."""
    lines = [] if entry.source in _UNLABELLED else [entry.label]
    if verdict.solution:
        lines.append(side_by_side(puzzle, verdict.solution))
    elif len(verdict.solutions) >= 2:
        lines.append(two_solutions(puzzle, verdict))
    elif verdict.solutions:
        lines.append(side_by_side(puzzle, verdict.solutions[0], headings=("Puzzle", "Solution 1")))
    else:
        lines.append(side_by_side(puzzle, None))
    lines.append("")
    lines.append(status_sentence(verdict))
    if explained(verdict):
        lines.extend(why_lines(why_none(puzzle, time_limit=time_limit)))
    if mismatch:
        lines.append(f"Stated solution contradicted: {mismatch}.")
    for name, result in verdict.results.items():
        if result.stopped == "declined":
            lines.append(f"  {name}: declined, left out of the verdict ({result.reason})")
            continue
        stats = format_stats(result.stats)
        lines.append(
            f"  {name}: {result.status} in {ms(result.seconds)}" + (f" ({stats})" if stats else "")
        )
    return "\n".join(lines)
