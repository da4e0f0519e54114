"""``cp-sudoku export``: one puzzle written in another tool's format (a registry of exporters)."""

from __future__ import annotations

from pathlib import Path

import click

from cp_sudoku.cli import inputs
from cp_sudoku.cli.options import Reading, reading_options
from cp_sudoku.encodings.cnf import ENCODINGS
from cp_sudoku.encodings.exporters import EXPORTERS
from cp_sudoku.encodings.exporters import export as write
from cp_sudoku.io import same_file
from cp_sudoku.model import PuzzleError, UsageError


@click.command()
@click.argument("puzzle")
@click.option(
    "--to",
    "target",
    type=click.Choice(list(EXPORTERS)),
    required=True,
    help="Format to write: "
    + "; ".join(f"{name}: {e.summary}" for name, e in EXPORTERS.items())
    + ".",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="File to write (default: stdout).",
)
@click.option(
    "--encoding",
    metavar="NAME",
    type=click.Choice(ENCODINGS),
    help="CNF encoding, for the formats that take one (dimacs; default optimised).",
)
@reading_options
def export(
    puzzle: str, target: str, output: str | None, encoding: str | None, reading: Reading
) -> None:
    """Write one puzzle in another tool's format: CNF as DIMACS, a CP-SAT text proto, ...

    The DIMACS file starts with comments that map each variable to (row,
    column, value), 1-based.

    \b
    Examples:
      cp-sudoku export ......122..4.4.. --to dimacs -o tutorial.cnf
      cp-sudoku export models/sudoku-4x4-tutorial.txt --to cpsat
      cp-sudoku export models/kenken-4x4-issue4.txt --to minizinc -o kenken.mzn
    """
    if output is not None and same_file(output, puzzle):
        raise UsageError(f"--output {output} is the input file: name another file")
    entries = list(inputs.entries(puzzle, reading))
    if len(entries) != 1:
        raise UsageError(f"export takes one puzzle; {puzzle} holds {len(entries)}")
    entry = entries[0]
    if entry.puzzle is None:
        raise entry.error or PuzzleError("unreadable puzzle")
    text = write(entry.puzzle, target, **({"encoding": encoding} if encoding else {}))
    if output is None:
        click.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"wrote {target} to {output}", err=True)
