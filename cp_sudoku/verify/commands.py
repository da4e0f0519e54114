"""The ``prove`` and ``verify`` commands, registered in the ``cp-sudoku`` group.

Exit codes (:mod:`cp_sudoku.cli.exits`): ``prove`` as ``check``: 0 every
puzzle unique, 1 some has no solution or several, 2 bad input, 3 a time
limit left a puzzle ``unknown`` or a written certificate failed its own
verification.  ``verify``: 0 every certificate holds, 1 one is rejected (one
line each, naming what failed), 2 one cannot be read.  The highest applies.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import click

from cp_sudoku.backends import Backend
from cp_sudoku.cli import exits
from cp_sudoku.cli.options import Reading, jobs_option, reading_options, time_limit_option
from cp_sudoku.cli.report import ms
from cp_sudoku.cli.runs import each_puzzle
from cp_sudoku.io import Entry
from cp_sudoku.model import Puzzle, PuzzleError
from cp_sudoku.run import Plan, of_status
from cp_sudoku.verify.certificate import certificate_name, certificate_paths, taken
from cp_sudoku.verify.certify import Certified, certify
from cp_sudoku.verify.check import checker_version
from cp_sudoku.verify.check import verify as verify_certificate


def certify_entry(
    entry: Entry,
    _backends: Sequence[Backend],
    plan: Plan,
    *,
    out: Path,
    explain: bool,
    force: bool = False,
) -> Certified | PuzzleError:
    """The solve loop's work for ``prove``: certify one entry (a puzzle that cannot be
    certified, or whose certificate is there already and ``force`` is off, comes back
    as its error, so the other puzzles still run)."""
    assert entry.puzzle is not None  # the loop sends only puzzles that were read
    name = certificate_name(entry.source, entry.line, entry.text)
    refused = taken(out, name, force)
    if refused is not None:
        return refused.located(entry.source, entry.line)
    try:
        return certify(entry.puzzle, out, name, explain_steps=explain, time_limit=plan.time_limit)
    except PuzzleError as error:
        return error.located(entry.source, entry.line)


def _line(entry: Entry, done: Certified) -> str:
    if done.path is None:
        return f"{entry.label}: unknown (time limit): no certificate written"
    proof = f"proof {done.proof_lines} lines" if done.proof_lines else "no proof"
    if done.clash is not None:
        proof = f"clash: {done.clash}"
    text = (
        f"{entry.label}: {done.status}  {done.path}  {proof}  "
        f"prove {ms(done.prove_seconds)}  check {ms(done.check_seconds)}"
    )
    if done.failures:
        text += "  NOT CHECKED: " + "; ".join(done.failures)
    if done.explanation is not None:
        text += f"\n  {done.explanation.summary()}"
        if done.explanation.left:
            text += f"\n  candidates left: {done.explanation.candidates_text()}"
    return text


@click.command()
@click.argument("puzzle_or_file")
@reading_options
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("certificates"),
    show_default=True,
    help="Directory for NAME.cert.json, NAME.cnf and NAME.drat.",
)
@click.option("--explain", is_flag=True, help="Also solve by logic alone and record the steps.")
@click.option("--force", is_flag=True, help="Overwrite certificates already in --out.")
@jobs_option
@time_limit_option(
    "Seconds per puzzle for the SAT solver (and of CPU for --explain's deduction, which "
    "then ends 'timeout')"
)
def prove(
    puzzle_or_file: str,
    reading: Reading,
    out: Path,
    explain: bool,
    force: bool,
    jobs: int,
    time_limit: float | None,
) -> None:
    """Prove each puzzle's verdict and write a certificate anyone can check.

    For a unique puzzle: the solution and a DRAT refutation of "the rules,
    the givens and a clause excluding this solution"; for none: a refutation
    of the rules and givens, or the clues that clash; for multiple: two
    grids.  Each certificate is verified from scratch once written.  One
    line per puzzle: verdict, certificate, proof size, prove and check time.
    A certificate is named after the file and line (``top95-12``), or, for a
    puzzle typed as the argument, after its text (``argument-`` and 12 hex
    digits of its SHA-256); one already there is not overwritten without
    --force.

    \b
    Examples:
      cp-sudoku prove models/sudoku-9x9-hard.txt --explain
      cp-sudoku verify certificates
    """
    checker_version()  # the proof checker is installed, before any work starts
    work = partial(certify_entry, out=out, explain=explain, force=force)
    plan = Plan(backends=(), time_limit=time_limit)

    def show(entry: Entry, puzzle: Puzzle, done: Certified | PuzzleError) -> int:
        if isinstance(done, PuzzleError):
            click.echo(f"cp-sudoku: error: {done}", err=True)
            return exits.BAD_INPUT
        exits.tally().finish(click.echo, _line(entry, done))
        failed = done.path is None or done.failures
        return exits.UNKNOWN if failed else of_status(done.status)

    sys.exit(each_puzzle(puzzle_or_file, reading, work, plan, show, jobs=jobs))


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def verify(paths: tuple[Path, ...]) -> None:
    """Check certificates from scratch: files, or directories of *.cert.json.

    Re-reads each puzzle, re-checks every solution and clash with the rule
    checker, re-encodes the CNF and compares its hash, and runs the proof
    checker (dratify) on the CNF and the proof.  One line per certificate;
    a rejected one names what failed.  Exit 0 when every certificate is
    accepted, 1 when one is rejected, 2 when one cannot be read.

    \b
    Examples:
      cp-sudoku verify certificates
      cp-sudoku verify certificates/top95-12.cert.json
    """
    found = certificate_paths(list(paths))
    checker_version()
    code = exits.OK
    for path in found:
        try:
            report = verify_certificate(path)
        except PuzzleError as error:
            click.echo(f"cp-sudoku: error: {error}", err=True)
            code = max(code, exits.BAD_INPUT)
            continue
        if report.holds:
            checked = f"; proof checked in {ms(report.check_seconds)}"
            text = f"{path}: holds ({report.status}{checked if report.check_seconds else ''})"
        else:
            text = f"{path}: REJECTED: {'; '.join(report.failures)}"
            code = max(code, exits.NOT_UNIQUE)
        exits.tally().finish(click.echo, text)
    sys.exit(code)
