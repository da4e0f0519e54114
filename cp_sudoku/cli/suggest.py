"""``cp-sudoku suggest``: givens to add so that a multiple puzzle becomes unique."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click

from cp_sudoku.backends import Backend
from cp_sudoku.cli import exits
from cp_sudoku.cli.options import Reading, Solving, reading_options, solving_options
from cp_sudoku.cli.report import ms
from cp_sudoku.cli.runs import each_puzzle, label
from cp_sudoku.io import Entry, alphabet_of
from cp_sudoku.model import Puzzle, cell_name
from cp_sudoku.run import Plan
from cp_sudoku.workbench.suggest import ROUNDS, Suggestion, suggest


@click.command("suggest")
@click.argument("puzzle")
@click.option(
    "--rounds",
    type=click.IntRange(min=0),
    default=ROUNDS,
    show_default=True,
    help="Exact (MaxSAT) rounds after the greedy proposal, to prove it the fewest or improve it.",
)
@solving_options(limit=2)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
def suggest_command(
    puzzle: str, rounds: int, solving: Solving, reading: Reading, as_json: bool
) -> None:
    """Propose givens (cell and value) that make a multiple puzzle unique.

    Every proposed value is that of one solution (the target), so the puzzle
    stays solvable; the proposal is the fewest givens that single out that
    solution when the line says "fewest" (proven by MaxSAT over the other
    solutions met), else a minimal set (no given can be dropped).  Each
    proposal is checked: the puzzle with the givens added goes through the
    cross-check of the --backend back ends, which must say unique.

    PUZZLE is a puzzle written on the command line, a file, or '-' for stdin.

    \b
    Examples:
      cp-sudoku suggest models/sudoku-9x9-multiple.txt
      cp-sudoku suggest ../shared/data/sudoku/serg-benchmark-multi.txt --json | jq .added
      cp-sudoku suggest killer.txt --backend cpsat --backend backtrack

    --time-limit bounds the search for the proposal; what is left of it
    bounds each back end of the cross-check.

    Exit codes: 0 the proposal (or the puzzle) is unique by the cross-check;
    1 the puzzle has no solution; 2 bad input; 3 the cross-check did not
    confirm the proposal (unknown or disagreement), or --time-limit stopped
    the search.
    """

    def show(entry: Entry, puzzle: Puzzle, result: Suggestion) -> int:
        if as_json:
            record = {"source": entry.source, "line": entry.line, **result.record()}
            exits.tally().finish(click.echo, json.dumps(record))
        else:
            exits.tally().finish(click.echo, sentence(entry, puzzle, result))
        return _code(result)

    sys.exit(each_puzzle(puzzle, reading, _Proposal(rounds), solving.plan(), show))


class _Proposal:
    """The work of one puzzle: a checked suggestion (a picklable callable)."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds

    def __call__(self, entry: Entry, backends: Sequence[Backend], plan: Plan) -> Suggestion:
        assert entry.puzzle is not None
        return suggest(
            entry.puzzle,
            plan.lineup(entry.puzzle, backends),
            rounds=self.rounds,
            time_limit=plan.time_limit,
        )


def sentence(entry: Entry, puzzle: Puzzle, result: Suggestion) -> str:
    """``add r3c8=2 r7c3=2 r8c4=9 (3 givens, the fewest for this solution): unique``."""
    prefix = label(entry)
    if result.stopped is not None:
        return (
            f"{prefix}stopped by the {result.stopped} after {result.solutions_seen} other "
            f"solution{'' if result.solutions_seen == 1 else 's'} met: no proposal, "
            f"{ms(result.seconds)}"
        )
    if result.target is None:
        return f"{prefix}no solution: no given can help"
    if not result.givens:
        return f"{prefix}already unique: nothing to add"
    alphabet = alphabet_of(puzzle)
    added = " ".join(f"{cell_name(c)}={alphabet.symbol(v)}" for c, v in result.givens)
    size = len(result.givens)
    how = (
        "the fewest for this solution"
        if result.optimal
        else f"minimal; at least {result.lower_bound} needed"
    )
    checked = (
        "unique by the cross-check"
        if result.status == "unique"
        else f"CROSS-CHECK SAYS {result.status}"
    )
    return (
        f"{prefix}add {added} ({size} given{'s' if size != 1 else ''}, {how}): {checked}, "
        f"{result.solutions_seen} other solution{'' if result.solutions_seen == 1 else 's'} met, "
        f"{ms(result.seconds)}"
    )


def _code(result: Suggestion) -> int:
    if result.target is None and result.stopped is None:
        return exits.NOT_UNIQUE
    return exits.OK if result.status == "unique" and result.agree else exits.UNKNOWN
