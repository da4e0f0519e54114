"""``cp-sudoku serve``: start the HTTP API and the page under uvicorn.

A standalone click command; the CLI group registers it.  Run alone with
``python -m cp_sudoku.service.command``.
"""

from __future__ import annotations

import click

from cp_sudoku.service.limits import KIB, MIB, Limits

_DEFAULTS = Limits()


def _workers() -> int:
    from cp_sudoku.run import cores  # the CLI's "all cores"

    return cores()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=_workers,
    show_default="all cores",
    help="Worker processes that solve.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="cp-sudoku-jobs.sqlite3",
    show_default=True,
    help="SQLite file of the job store (created when missing).",
)
@click.option(
    "--max-body",
    type=click.IntRange(min=1),
    default=_DEFAULTS.body_bytes // KIB,
    show_default=True,
    help="KiB a single-puzzle request body may hold (413 past it).",
)
@click.option(
    "--max-upload",
    type=click.IntRange(min=1),
    default=_DEFAULTS.upload_bytes // MIB,
    show_default=True,
    help="MiB a job's upload may hold (413 past it).",
)
@click.option(
    "--max-puzzles",
    type=click.IntRange(min=1),
    default=_DEFAULTS.puzzles_per_job,
    show_default=True,
    help="Puzzles a job may hold (413 past it).",
)
@click.option(
    "--max-limit",
    type=click.IntRange(min=1),
    default=_DEFAULTS.max_limit,
    show_default=True,
    help="Largest solution limit a request may ask (422 past it).",
)
@click.option(
    "--max-time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=_DEFAULTS.max_time_limit,
    show_default=True,
    help="Largest time_limit in seconds per back end and puzzle, and the default (422 past it).",
)
@click.option(
    "--max-jobs",
    type=click.IntRange(min=1),
    default=_DEFAULTS.queued_jobs,
    show_default=True,
    help="Jobs that may be queued or running (503 with Retry-After past it).",
)
@click.option(
    "--queue",
    type=click.IntRange(min=0),
    default=_DEFAULTS.queue,
    show_default=True,
    help="Single requests that may wait for a worker (503 with Retry-After past it).",
)
def serve(
    host: str,
    port: int,
    workers: int,
    db: str,
    max_body: int,
    max_upload: int,
    max_puzzles: int,
    max_limit: int,
    max_time_limit: float,
    max_jobs: int,
    queue: int,
) -> None:
    """Serve the HTTP API (JSON under /v1, OpenAPI at /docs) and the web page at /.

    Binds to 127.0.0.1 unless --host says otherwise.  Jobs and their results
    are kept in the SQLite file --db; a job the server was stopped in resumes
    when it starts again on the same file.

    \b
    Examples:
      cp-sudoku serve
      cp-sudoku serve --port 8080 --workers 2 --db /var/lib/cp-sudoku/jobs.sqlite3
    """
    from importlib.util import find_spec
    from pathlib import Path

    from cp_sudoku.model import UsageError

    if find_spec("uvicorn") is None or find_spec("fastapi") is None:
        raise UsageError("serve needs the web stack: pip install 'cp-sudoku[service]'")
    import uvicorn

    from cp_sudoku.service.app import Settings, create_app

    limits = Limits(
        body_bytes=max_body * KIB,
        upload_bytes=max_upload * MIB,
        puzzles_per_job=max_puzzles,
        max_limit=max_limit,
        max_time_limit=max_time_limit,
        queued_jobs=max_jobs,
        queue=queue,
    )
    app = create_app(Settings(db=Path(db), workers=workers, limits=limits))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"cp-sudoku serve: the page at http://{shown}:{port}/", err=True)
    click.echo(f"cp-sudoku serve: the API docs at http://{shown}:{port}/docs", err=True)
    click.echo(f"cp-sudoku serve: {workers} worker(s), jobs in {db}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


if __name__ == "__main__":
    serve()
