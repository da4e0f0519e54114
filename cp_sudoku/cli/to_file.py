"""The options of ``check`` that add a table (``--output``, ``--resume``,
``--slice-lines``) or run it on Dask (``--cluster``).

The run is the same with or without them: :func:`cp_sudoku.run.batch.check_run`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

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
                default=None,
                help="Input lines per task with --output or --cluster (and per part kept for "
                "--resume); default: at least four tasks per worker, at most 3000 lines each.",
            ),
            click.option(
                "--cluster",
                help="Run on Dask: local, local:N (N worker processes) or a scheduler "
                "address tcp://HOST:8786 (the same lines as --jobs).",
            ),
        ]
    ):
        command = option(command)
    return command
