"""The ``cp-sudoku`` group, and :data:`COMMANDS`, the one place a command is registered."""

from __future__ import annotations

import click

from cp_sudoku import __version__
from cp_sudoku.cli.group import Group

#: Every command, by name: ``"module:attribute"`` of its click command, imported
#: when the command is used.  Register a new command here, and only here.
COMMANDS: dict[str, str] = {
    "solve": "cp_sudoku.cli.solve:solve",
    "check": "cp_sudoku.cli.check:check",
    "count": "cp_sudoku.cli.count:count",
    "candidates": "cp_sudoku.cli.candidates:candidates",
    "suggest": "cp_sudoku.cli.suggest:suggest_command",
    "compare": "cp_sudoku.cli.compare:compare",
    "export": "cp_sudoku.cli.export:export",
    "generate": "cp_sudoku.cli.generate:generate",
    "bench": "cp_sudoku.cli.bench:bench",
    "prove": "cp_sudoku.verify.commands:prove",
    "verify": "cp_sudoku.verify.commands:verify",
    "serve": "cp_sudoku.service.command:serve",
}


@click.group(cls=Group, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cp-sudoku")
def main() -> None:
    """Formulate and verify Sudoku-like puzzles with cross-checked back ends.

    \b
    Examples:
      cp-sudoku solve --example
      cp-sudoku check models/sudoku-9x9-tutorial.txt
      cp-sudoku check ../shared/data/sudoku/royle-17clue.txt --json --jobs 2 > results.jsonl

    Exit codes: 0 every puzzle is unique; 1 some puzzle has no solution or
    several; 2 bad input or usage; 3 unknown, back ends that disagree, a
    contradicted stated solution; 70 an internal error (a bug); 130 interrupted;
    143 terminated (SIGTERM).
    """


__all__ = ["COMMANDS", "main"]
