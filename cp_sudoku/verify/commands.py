"""The ``prove`` and ``verify`` commands (click), to be registered in the ``cp-sudoku`` group.

Exit codes, as ``check``: ``prove`` 0 when every puzzle is unique, 1 when
some has no solution or several, 2 bad input, 3 when a time limit left a
puzzle ``unknown`` or a written certificate failed its own verification.
``verify`` 0 when every certificate holds, 1 when one is rejected (one line
each, naming what failed), 2 when one cannot be read.  The highest applies.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NoReturn

import click

from cp_sudoku.formats import Entry, read_file, read_text
from cp_sudoku.model import PuzzleError, UsageError
from cp_sudoku.verify.certificate import certificate_name, certificate_paths
from cp_sudoku.verify.certify import Certified, certify
from cp_sudoku.verify.check import checker_version
from cp_sudoku.verify.check import verify as verify_certificate

EXIT_OK, EXIT_NOT_UNIQUE, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
_EXIT_OF_STATUS = {"unique": EXIT_OK, "none": EXIT_NOT_UNIQUE, "multiple": EXIT_NOT_UNIQUE}


def _entries(target: str) -> Iterator[Entry]:
    """The puzzles of a file, or of the argument itself."""
    if Path(target).is_file():
        return read_file(target)
    if Path(target).is_dir():
        raise PuzzleError(f"{target} is a directory: expected a puzzle file or a puzzle")
    return read_text(target, "<argument>")


_Task = tuple[Entry, Path, bool, float | None]


def _certify(task: _Task) -> Certified | PuzzleError:
    entry, out, explain, time_limit = task
    assert entry.puzzle is not None
    name = certificate_name(entry.source, entry.line)
    try:
        return certify(entry.puzzle, out, name, explain_steps=explain, time_limit=time_limit)
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
        f"prove {done.prove_seconds * 1000:.1f} ms  check {done.check_seconds * 1000:.1f} ms"
    )
    if done.failures:
        text += "  NOT CHECKED: " + "; ".join(done.failures)
    if done.explanation is not None:
        text += f"\n  {done.explanation.summary()}"
    return text


@click.command()
@click.argument("puzzle_or_file")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("certificates"),
    show_default=True,
    help="Directory for NAME.cert.json, NAME.cnf and NAME.drat.",
)
@click.option("--explain", is_flag=True, help="Also solve by logic alone and record the steps.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes proving puzzles in parallel.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Seconds per puzzle for the SAT solver (default: none).",
)
def prove(
    puzzle_or_file: str, out: Path, explain: bool, jobs: int, time_limit: float | None
) -> None:
    """Prove each puzzle's verdict and write a certificate anyone can check.

    For a unique puzzle: the solution and a DRAT refutation of "the rules,
    the givens and a clause excluding this solution"; for none: a refutation
    of the rules and givens; for multiple: two grids.  Each certificate is
    verified from scratch once written.  One line per puzzle: verdict,
    certificate, proof size, prove and check time.

    \b
    Example:
      cp-sudoku prove models/sudoku-9x9-hard.txt --explain
      cp-sudoku verify certificates
    """
    code = EXIT_OK
    try:
        entries = list(_entries(puzzle_or_file))
    except PuzzleError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"{error.strerror or error}: {error.filename}")
    try:
        checker_version()  # the checker is there before any work starts
    except UsageError as error:
        _fail(str(error))
    readable = [e for e in entries if e.puzzle is not None]
    for entry in entries:
        if entry.error is not None:
            click.echo(f"cp-sudoku: error: {entry.error}", err=True)
            code = EXIT_BAD_INPUT
    tasks = [(entry, out, explain, time_limit) for entry in readable]
    for entry, done in zip(readable, _run(tasks, jobs), strict=True):
        if isinstance(done, PuzzleError):
            click.echo(f"cp-sudoku: error: {done}", err=True)
            code = max(code, EXIT_BAD_INPUT)
            continue
        click.echo(_line(entry, done))
        if done.path is None or done.failures:
            code = max(code, EXIT_UNKNOWN)
        else:
            code = max(code, _EXIT_OF_STATUS[done.status])
    sys.exit(code)


def _run(tasks: list[_Task], jobs: int) -> Iterator[Certified | PuzzleError]:
    if jobs == 1 or len(tasks) < 2:
        return map(_certify, tasks)
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
    return _pooled(pool, tasks)


def _pooled(pool: ProcessPoolExecutor, tasks: list[_Task]) -> Iterator[Certified | PuzzleError]:
    with pool:
        yield from pool.map(_certify, tasks, chunksize=8)


def _fail(message: str) -> NoReturn:
    click.echo(f"cp-sudoku: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def verify(paths: tuple[Path, ...]) -> None:
    """Check certificates from scratch: files, or directories of *.cert.json.

    Re-reads each puzzle, re-checks every solution and clash with the rule
    checker, re-encodes the CNF and compares its hash, and runs the proof
    checker (dratify) on the CNF and the proof.  One line per certificate;
    a rejected one names what failed.
    """
    try:
        found = certificate_paths(list(paths))
        checker_version()
    except (PuzzleError, UsageError) as error:
        _fail(str(error))
    code = EXIT_OK
    for path in found:
        try:
            report = verify_certificate(path)
        except PuzzleError as error:
            click.echo(f"cp-sudoku: error: {error}", err=True)
            code = EXIT_BAD_INPUT
            continue
        if report.holds:
            seconds = f"; proof checked in {report.check_seconds * 1000:.1f} ms"
            click.echo(f"{path}: holds ({report.status}{seconds if report.check_seconds else ''})")
        else:
            click.echo(f"{path}: REJECTED: {'; '.join(report.failures)}")
            code = max(code, EXIT_NOT_UNIQUE)
    sys.exit(code)


if __name__ == "__main__":  # python -m cp_sudoku.verify.commands prove|verify ...
    click.Group(commands=[prove, verify])()
