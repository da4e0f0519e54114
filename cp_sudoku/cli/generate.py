"""``cp-sudoku generate``: unique, minimal puzzles of a kind, symmetry and grade; or a
setter's drawn rules completed with the fewest givens found (``--from``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from cp_sudoku.cli import exits
from cp_sudoku.cli.options import time_limit_option
from cp_sudoku.generate import KINDS, SYMMETRIES, Generated, OutOfTries, Request, TimedOut
from cp_sudoku.generate.complete import Completed, complete
from cp_sudoku.generate.grading import parse_target
from cp_sudoku.generate.making import is_line_kind
from cp_sudoku.generate.stream import generate as stream
from cp_sudoku.io import read_file, to_text
from cp_sudoku.io.writers import puzzle_string
from cp_sudoku.kinds.extras import EXTRAS
from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.model import Puzzle, UsageError


@click.command()
@click.option(
    "--kind",
    type=click.Choice(list(KINDS)),
    default="sudoku",
    show_default=True,
    metavar="KIND",
    help=", ".join(KINDS) + ".",
)
@click.option("--size", type=click.IntRange(2, 36), default=None, help="n (default 9; Kakuro 6).")
@click.option("--box", default=None, metavar="RxC", help="Box shape (default the squarest).")
@click.option(
    "--extras",
    multiple=True,
    type=click.Choice(EXTRAS),
    metavar="EXTRA",
    help="Sudoku extras: " + ", ".join(EXTRAS) + ".",
)
@click.option("--regions", default=None, metavar="LABELS", help="Jigsaw regions: n*n labels.")
@click.option("--symmetry", type=click.Choice(list(SYMMETRIES)), default="none", show_default=True)
@click.option("--no-minimal", is_flag=True, help="Stop digging at the first given that must stay.")
@click.option(
    "--grade", default=None, metavar="BAND", help="easy ... extreme; BAND+ for harder too."
)
@click.option("--rating", default=None, metavar="LOW-HIGH", help="ER-like range: 6.0-7.5, or 6-.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--count", type=click.IntRange(0), default=1, show_default=True)
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True)
@click.option(
    "--max-tries",
    type=click.IntRange(1),
    default=2000,
    show_default=True,
    help="Drafts per puzzle for a grade target.",
)
@time_limit_option(
    "Wall-clock seconds per puzzle", "the puzzle is reported in one line and not made (exit 3)"
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
@click.option(
    "--certify",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Prove each puzzle; certificates (verified) go to DIR.",
)
@click.option("--force", is_flag=True, help="Overwrite certificates already in --certify.")
@click.option(
    "--from",
    "source",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    metavar="FILE",
    help="Complete a setter's drawn rules with the fewest givens found.",
)
def generate(
    kind: str,
    size: int | None,
    box: str | None,
    extras: tuple[str, ...],
    regions: str | None,
    symmetry: str,
    no_minimal: bool,
    grade: str | None,
    rating: str | None,
    seed: int,
    count: int,
    jobs: int,
    max_tries: int,
    time_limit: float | None,
    as_json: bool,
    certify: Path | None,
    force: bool,
    source: str | None,
) -> None:
    """Generate puzzles that are unique (cross-checked by the default back ends),
    minimal (no given, or orbit of givens under --symmetry, can go), and reproducible:
    puzzle k depends only on --seed and k, whatever --jobs.  One puzzle per line
    (plain Sudoku) or variant-text block (other kinds), streamed in order, with a
    '#' comment giving its grade, givens and seed; --json gives one object per line.

    \b
    Examples:
      cp-sudoku generate --count 10 --seed 7
      cp-sudoku generate --symmetry rot180 --grade hard+ --count 5 --jobs 2
      cp-sudoku generate --rating 6.0-7.5 --json
      cp-sudoku generate --kind killer --count 3
      cp-sudoku generate --kind jigsaw --size 6 --symmetry none
      cp-sudoku generate --size 6 --box 2x3 --symmetry rot180 --certify certs/
      cp-sudoku generate --size 25 --time-limit 60
      cp-sudoku generate --from models/killer-9x9-wikipedia.txt

    \b
    Exit codes: 0 every puzzle made (--from: every file puzzle completed);
    1 a --from puzzle with no solution, or a grade not reached in --max-tries;
    2 bad options (a symmetry the shape cannot have, a grade no puzzle reaches);
    3 a puzzle not made within --time-limit, or a --from puzzle the back ends
    could not decide (in time); 70 a bug.  A certificate already in --certify is not
    overwritten without --force (the puzzle is printed; exit 2).
    """
    if source is not None:
        sys.exit(_complete_file(source, seed, as_json, certify, force, time_limit))
    n = size or (6 if kind == "kakuro" else 9)
    request = Request(
        kind=kind,
        size=n,
        box=parse_box(box) if box else None,
        extras=extras,
        regions=_regions(regions, n),
        symmetry=symmetry,
        minimal=not no_minimal,
        target=parse_target(grade, rating),
        max_tries=max_tries,
        time_limit=time_limit,
    )
    code = exits.OK
    tally = exits.tally()
    tally.total = lambda: count
    for made in stream(request, count, seed=seed, jobs=jobs):
        if isinstance(made, OutOfTries):
            click.echo(f"cp-sudoku: {made}", err=True)
            code = max(code, exits.UNKNOWN if isinstance(made, TimedOut) else exits.NOT_UNIQUE)
            continue
        record = made.record()
        if certify is not None:
            done = _certify(made.puzzle, certify, f"generated-{seed}-{made.index}", force)
            if done is None:
                code = max(code, exits.BAD_INPUT)
            else:
                record["certificate"] = done
                code = max(code, exits.OK if done["holds"] else exits.INTERNAL)
        tally.finish(click.echo, json.dumps(record) if as_json else _plain(made, record))
    sys.exit(code)


def _regions(text: str | None, n: int) -> tuple[str, ...] | None:
    if text is None:
        return None
    labels = tuple(ch for ch in text if not ch.isspace())
    if len(labels) != n * n:
        raise UsageError(f"--regions needs {n * n} labels for a {n}x{n} jigsaw, got {len(labels)}")
    return labels


def _plain(made: Generated, record: dict[str, Any]) -> str:
    grade = f"{made.grade}, " if made.grade is not None else ""
    note = f"# {grade}{len(made.puzzle.givens)} givens, seed {made.seed}:{made.index}"
    if "certificate" in record:
        note += f", certificate {record['certificate']['path']}"
    if is_line_kind(made.puzzle):
        return f"{puzzle_string(made.puzzle)}  {note}"
    return f"{note}\n{to_text(made.puzzle)}"


def _certify(
    puzzle: Puzzle, directory: Path, stem: str, force: bool
) -> dict[str, str | bool] | None:
    """Certify ``puzzle`` as ``STEM-HASH`` (the hash of its text: two runs of other sizes or
    files with the same seed or line named theirs alike, the second silently replacing the
    first); None, said on stderr, when that certificate is there already and ``force`` is
    off (a run again with the same seed replaced it silently)."""
    from cp_sudoku.verify.certificate import taken, text_name
    from cp_sudoku.verify.certify import certify

    name = text_name(stem, to_text(puzzle))
    refused = taken(directory, name, force)
    if refused is not None:
        click.echo(f"cp-sudoku: error: {refused}", err=True)
        return None
    directory.mkdir(parents=True, exist_ok=True)
    done = certify(puzzle, directory, name)
    return {"path": str(done.path), "status": done.status, "holds": not done.failures}


def _complete_file(
    source: str,
    seed: int,
    as_json: bool,
    certify: Path | None,
    force: bool,
    time_limit: float | None,
) -> int:
    code = exits.OK
    tally = exits.tally()
    for entry in read_file(source):
        if entry.puzzle is None:
            click.echo(f"cp-sudoku: error: {entry.error}", err=True)
            code = max(code, exits.BAD_INPUT)
            continue
        try:
            done = complete(entry.puzzle, seed=seed, time_limit=time_limit)
        except UsageError as error:
            click.echo(f"cp-sudoku: error: {entry.label}: {error}", err=True)
            code = max(code, exits.BAD_INPUT)
            continue
        record = _completed_record(entry.label, done)
        if certify is not None and done.puzzle is not None:
            certificate = _certify(done.puzzle, certify, f"completed-{entry.line}", force)
            if certificate is None:
                code = max(code, exits.BAD_INPUT)
            else:
                record["certificate"] = certificate
        code = max(
            code, {"unique": exits.OK, "none": exits.NOT_UNIQUE}.get(done.status, exits.UNKNOWN)
        )
        if as_json:
            tally.finish(click.echo, json.dumps(record))
        elif done.puzzle is None:
            tally.finish(click.echo, f"{entry.label}: {done.status}: {done.reason}")
        else:
            note = f"# {entry.label}: unique with {done.added} givens added"
            tally.finish(click.echo, f"{note}\n{to_text(done.puzzle)}")
    return code


def _completed_record(label: str, done: Completed) -> dict[str, Any]:
    return {
        "source": label,
        "status": done.status,
        "reason": done.reason,
        "added": done.added,
        "text": None if done.puzzle is None else to_text(done.puzzle),
        "solution": None if done.solution is None else list(done.solution),
    }
