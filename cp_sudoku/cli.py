"""The ``cp-sudoku`` command line: a thin shell over the package API.

Exit codes: 0 every puzzle is unique; 1 some puzzle has no solution or
several; 2 bad input; 3 ``unknown`` (a limit stopped the search) or a
disagreement between back ends.  When several apply, the highest wins.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import click

from cp_sudoku import __version__
from cp_sudoku.backends import DEFAULT_BACKENDS, available
from cp_sudoku.bench import bench
from cp_sudoku.crosscheck import Verdict, crosscheck
from cp_sudoku.formats import BLANKS, DIGITS, Entry, grid_string, read_file, read_lines
from cp_sudoku.model import PuzzleError

EXIT_OK, EXIT_NOT_UNIQUE, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
_EXIT_OF_STATUS = {"unique": EXIT_OK, "multiple": EXIT_NOT_UNIQUE, "none": EXIT_NOT_UNIQUE}


def _box(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"expected ROWSxCOLUMNS such as 2x3, got {text!r}") from None
    return rows, cols


def _entries(target: str, box: tuple[int, int] | None) -> Iterator[Entry]:
    """Puzzles from a file, from stdin (``-``), or from the argument itself."""
    if target == "-":
        return read_lines(sys.stdin, "<stdin>", box=box)
    if Path(target).is_file():
        return read_file(target, box=box)
    if set(target) <= set(DIGITS + BLANKS):
        return read_lines([target], "<argument>", box=box)
    raise PuzzleError(f"no such file, and not a puzzle line: {target}")


def _fail(message: str) -> None:
    click.echo(f"cp-sudoku: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cp-sudoku")
def main() -> None:
    """Formulate and verify Sudoku-like puzzles with three cross-checked back ends.

    \b
    Example:
      cp-sudoku check models/sudoku-9x9-tutorial.txt
    """


@main.command()
@click.argument("puzzle_or_file")
@click.option(
    "--backend",
    "backends",
    multiple=True,
    type=click.Choice(available()),
    help=f"Back end to run (repeatable; default: {', '.join(DEFAULT_BACKENDS)}).",
)
@click.option(
    "--limit",
    default=2,
    show_default=True,
    type=click.IntRange(min=1),
    help="Solutions to look for per back end (2 proves uniqueness).",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds per back end and puzzle; past it the verdict is unknown.",
)
@click.option("--box", help="Box shape ROWSxCOLUMNS, e.g. 2x3 (default: the squarest).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle (JSON lines).")
def check(
    puzzle_or_file: str,
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    box: str | None,
    as_json: bool,
) -> None:
    """Say for each puzzle whether it has no solution, exactly one, or several.

    PUZZLE_OR_FILE is a file with one puzzle per line, '-' for stdin, or one
    puzzle written on the command line.

    \b
    Example:
      cp-sudoku check models/sudoku-9x9-tutorial.txt --json
      cp-sudoku check ......122..4.4..
    """
    chosen = backends or DEFAULT_BACKENDS
    statuses: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    code = EXIT_OK
    try:
        for entry in _entries(puzzle_or_file, _box(box)):
            if entry.puzzle is None:
                click.echo(f"cp-sudoku: error: {entry.error}", err=True)
                statuses["bad input"] += 1
                code = max(code, EXIT_BAD_INPUT)
                continue
            verdict = crosscheck(entry.puzzle, chosen, limit=limit, time_limit=time_limit)
            statuses[verdict.status] += 1
            for name, result in verdict.results.items():
                seconds[name] += result.seconds
            code = max(code, _EXIT_OF_STATUS.get(verdict.status, EXIT_UNKNOWN))
            click.echo(_json_line(entry, verdict) if as_json else _text_line(entry, verdict))
            for problem in verdict.disagreements:
                click.echo(f"cp-sudoku: DISAGREEMENT at {entry.label}: {problem}", err=True)
    except (PuzzleError, OSError) as error:
        _fail(str(error))
    summary = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    timing = ", ".join(f"{name} {total:.2f} s" for name, total in seconds.items())
    click.echo(f"{sum(statuses.values())} puzzles: {summary}; time {timing}", err=as_json)
    sys.exit(code)


def _text_line(entry: Entry, verdict: Verdict) -> str:
    times = "  ".join(
        f"{name} {result.seconds * 1000:.1f} ms" for name, result in verdict.results.items()
    )
    solution = grid_string(verdict.solution) if verdict.solution else "-"
    return f"{entry.label}  {verdict.status:<8}  {solution}  {times}"


def _json_line(entry: Entry, verdict: Verdict) -> str:
    return json.dumps(
        {
            "source": entry.source,
            "line": entry.line,
            "status": verdict.status,
            "solution": grid_string(verdict.solution) if verdict.solution else None,
            "agree": verdict.agree,
            "disagreements": list(verdict.disagreements),
            "backends": {
                name: {
                    "status": r.status,
                    "seconds": round(r.seconds, 6),
                    "solutions": len(r.solutions),
                    **r.stats,
                }
                for name, r in verdict.results.items()
            },
        }
    )


main.add_command(bench)
