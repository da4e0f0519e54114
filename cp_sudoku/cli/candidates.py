"""``cp-sudoku candidates``: every cell's true candidates (values of at least one solution)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from cp_sudoku.backends import Backend
from cp_sudoku.cli import exits
from cp_sudoku.cli.options import Reading, reading_options, time_limit_option
from cp_sudoku.cli.report import ms
from cp_sudoku.cli.runs import each_puzzle
from cp_sudoku.display import layout
from cp_sudoku.io import Entry, alphabet_of
from cp_sudoku.model import Puzzle, PuzzleError, cell_name
from cp_sudoku.run import Plan, of_status
from cp_sudoku.verify.candidates import CertifiedCandidates, certify_candidates
from cp_sudoku.verify.certificate import certificate_name, taken
from cp_sudoku.workbench.candidates import TrueCandidates, true_candidates


@click.command()
@click.argument("puzzle")
@click.option(
    "--per-candidate",
    type=click.IntRange(min=0),
    default=0,
    metavar="K",
    help="Also count the solutions using each candidate, up to K (0: do not count).",
)
@click.option(
    "--certify",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="DIRECTORY",
    help="Write a certificate per puzzle (witness solutions, one DRAT refutation of the "
    "removed candidates) and verify it, as prove does.",
)
@click.option("--force", is_flag=True, help="Overwrite certificates already in --certify.")
@time_limit_option(
    "Wall-clock seconds per puzzle",
    "the status is unknown (the candidates shown are true; the others not all refuted)",
)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
def candidates(
    puzzle: str,
    per_candidate: int,
    certify: Path | None,
    force: bool,
    time_limit: float | None,
    reading: Reading,
    as_json: bool,
) -> None:
    """Show each cell's true candidates: the values it takes in at least one solution.

    Exact, not a deduction: every candidate shown is used by a solution that
    the rule checker re-checked, and every value not shown was refuted by a
    SAT call under an assumption (or by a given peer).  One cell with one
    candidate each means unique; no candidate anywhere means no solution.

    PUZZLE is a puzzle written on the command line, a file, or '-' for stdin.

    \b
    Examples:
      cp-sudoku candidates models/sudoku-9x9-multiple.txt
      cp-sudoku candidates models/sudoku-9x9-tutorial.txt --json | jq .candidates.r1c3
      cp-sudoku candidates 12.......3...... --per-candidate 10
      cp-sudoku candidates models/sudoku-9x9-multiple.txt --certify certs && cp-sudoku verify certs

    Exit codes: 0 unique, 1 no solution or several, 2 bad input, 3 stopped by
    --time-limit, or a certificate that does not verify.
    """

    def show(entry: Entry, puzzle: Puzzle, result: Found | PuzzleError) -> int:
        if isinstance(result, PuzzleError):  # its certificate is there already
            click.echo(f"cp-sudoku: error: {result}", err=True)
            return exits.BAD_INPUT
        found, certified = result
        if as_json:
            record = {"source": entry.source, "line": entry.line, **found.record()}
            if certified is not None:
                record["certificate"] = str(certified.path)
                record["certificate_failures"] = list(certified.failures)
            exits.tally().finish(click.echo, json.dumps(record))
        else:
            exits.tally().finish(click.echo, text(entry, puzzle, found, certified))
        failed = certified is not None and certified.failures
        return exits.UNKNOWN if failed else of_status(found.status)

    work = _PerCandidate(per_candidate, certify, time_limit, force)
    sys.exit(each_puzzle(puzzle, reading, work, Plan(backends=("sat",)), show))


#: What :class:`_PerCandidate` makes of one puzzle.
Found = tuple[TrueCandidates, CertifiedCandidates | None]


class _PerCandidate:
    """The work of one puzzle: its true candidates, and its certificate when asked
    (a picklable callable)."""

    def __init__(
        self, cap: int, certify: Path | None, time_limit: float | None, force: bool = False
    ) -> None:
        self.cap = cap
        self.certify = certify
        self.time_limit = time_limit
        self.force = force

    def __call__(
        self, entry: Entry, backends: Sequence[Backend], plan: Plan
    ) -> Found | PuzzleError:
        """The candidates and the certificate; a certificate of that name already there
        (and no ``--force``) comes back as the puzzle's error, before any work."""
        assert entry.puzzle is not None
        name = certificate_name(entry.source, entry.line, entry.text)
        if self.certify is not None and (refused := taken(self.certify, name, self.force)):
            return refused.located(entry.source, entry.line)
        found = true_candidates(entry.puzzle, per_candidate=self.cap, time_limit=self.time_limit)
        if self.certify is None or found.stopped is not None:
            return found, None
        return found, certify_candidates(entry.puzzle, self.certify, name)


def text(
    entry: Entry,
    puzzle: Puzzle,
    result: TrueCandidates,
    certified: CertifiedCandidates | None = None,
) -> str:
    """The candidate grid, the counts when asked, one line of evidence, the certificate."""
    alphabet = alphabet_of(puzzle)
    join = "," if len(alphabet.symbol(puzzle.max_value)) > 1 else ""
    texts = {
        (r, c): puzzle.labels.get((r, c), "#")
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
    }
    for cell, values in result.values.items():
        texts[cell] = join.join(alphabet.symbol(v) for v in values) or (
            "?" if result.stopped else "-"
        )
    lines = [] if entry.source == "<argument>" else [entry.label]
    lines.extend(layout(puzzle, texts))
    if result.cap:
        for cell, values in result.values.items():
            if cell in puzzle.givens:
                continue
            counts = " ".join(
                f"{alphabet.symbol(v)}:{_capped(result.counts[(cell, v)], result.cap)}"
                for v in values
            )
            lines.append(f"  {cell_name(cell)}  {counts}")
    stopped = "" if result.stopped is None else f" (stopped at the {result.stopped})"
    lines.append(
        f"{result.status}{stopped}: {sum(map(len, result.values.values())):,} true candidates, "
        f"{len(result.grids):,} solutions seen, {result.refuted:,} refuted, "
        f"{result.calls:,} SAT calls, {ms(result.seconds)}"
    )
    if certified is not None:
        if certified.failures:
            verdict = f"REJECTED: {'; '.join(certified.failures)}"
        elif certified.refuted:
            verdict = (
                f"verified, {certified.refuted:,} removed candidates refuted by a "
                f"{certified.proof_lines:,}-line DRAT proof checked in "
                f"{ms(certified.check_seconds)}"
            )
        else:
            verdict = "verified (every value the encoding keeps is used by a solution)"
        lines.append(f"certificate {certified.path}: {verdict}")
    return "\n".join(lines)


def _capped(count: int, cap: int) -> str:
    return f"{count}+" if count >= cap else str(count)
