"""``check --output PATH``: rows to a Parquet or JSON-lines file, resumable, on a cluster.

The run itself is :func:`cp_sudoku.run.to_file.check_to_file`; here are its
options, the progress bar, the one-line summary and the exit code.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console

from cp_sudoku.cli import exits, inputs
from cp_sudoku.cli.options import Reading
from cp_sudoku.cli.progress import streams
from cp_sudoku.model import UsageError
from cp_sudoku.run import Plan

F = TypeVar("F", bound=Callable[..., Any])


def table_options(command: F) -> F:
    """``--output``, ``--resume``, ``--slice-lines`` and ``--cluster``."""
    for option in reversed(
        [
            click.option(
                "--output",
                type=click.Path(dir_okay=False, writable=True),
                help="Write one row per puzzle to this file: Parquet if it ends in .parquet, "
                "else JSON lines (the input must be one puzzle per line or CSV).",
            ),
            click.option("--resume", is_flag=True, help="Continue an interrupted --output run."),
            click.option(
                "--slice-lines",
                type=click.IntRange(min=1),
                default=3000,
                show_default=True,
                help="Input lines per task with --output (and per part kept for --resume).",
            ),
            click.option(
                "--cluster",
                help="Run on Dask (needs --output): local, local:N (N worker processes) or "
                "a scheduler address tcp://HOST:8786.",
            ),
        ]
    ):
        command = option(command)
    return command


def check_table(
    target: str,
    reading: Reading,
    plan: Plan,
    *,
    output: str | None,
    resume: bool,
    slice_lines: int,
    cluster: str | None,
    jobs: int,
) -> int:
    """Run ``check --output``; the exit code (:mod:`cp_sudoku.cli.exits`).

    Raises:
        UsageError: ``--resume`` or ``--cluster`` without ``--output``, and what
            :func:`~cp_sudoku.run.to_file.check_to_file` raises.
    """
    from cp_sudoku.run.to_file import check_to_file

    if output is None:
        raise UsageError(f"{'--resume' if resume else '--cluster'} needs --output PATH")
    console = Console(stderr=True, highlight=False)
    start = time.perf_counter()
    total = inputs.total(target, reading) if console.is_terminal else None
    with streams(console, total) as io:

        def progress(rows: int) -> None:
            exits.TALLY.done += rows
            for _ in range(rows):
                io.advance()

        counts = check_to_file(
            target,
            output,
            plan,
            jobs=jobs,
            cluster=cluster,
            resume=resume,
            slice_lines=slice_lines,
            box=reading.box,
            alphabet=reading.alphabet,
            format=reading.format,
            progress=progress,
        )
    wall = time.perf_counter() - start
    found = ", ".join(f"{n:,} {status}" for status, n in counts.statuses.most_common())
    console.print(f"{counts.total:,} puzzles in {wall:,.2f} s to {output}: {found}")
    if counts.disagreements or counts.mismatches:
        console.print(
            f"{counts.disagreements:,} disagreements, {counts.mismatches:,} stated solutions "
            f"contradicted (rows with agree or matches_stated false)"
        )
    code = max(
        (exits.of_status(status) for status in counts.statuses if status != "invalid"),
        default=exits.OK,
    )
    if counts.disagreements or counts.mismatches:
        code = max(code, exits.UNKNOWN)
    return max(code, exits.BAD_INPUT) if counts.statuses["invalid"] else code
