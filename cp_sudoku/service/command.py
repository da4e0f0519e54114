"""``cp-sudoku serve``: start the HTTP API and the page under uvicorn.

A standalone click command; the CLI group registers it.  Run alone with
``python -m cp_sudoku.service.command``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cp_sudoku.cli.options import processes_option
from cp_sudoku.model import UsageError
from cp_sudoku.service.limits import KIB, MIB, Limits
from cp_sudoku.service.tokens import MAKE_ONE, TOKEN_VARIABLE, check_tokens, is_loopback

F = TypeVar("F", bound=Callable[..., Any])
_DEFAULTS = Limits()
#: Seconds requests in flight get to finish on SIGTERM or Ctrl-C before they are dropped;
#: then the workers stop (:meth:`Pool.close <cp_sudoku.service.pool.Pool.close>`).  A
#: running job keeps what it stored and resumes at the next start.
GRACE = 1.0
_COUNT = click.IntRange(min=1)
#: One flag per field of :class:`Limits`: flag, field, unit of the flag's number, type, help.
_LIMIT_FLAGS: tuple[tuple[str, str, int, click.ParamType[float], str], ...] = (
    (
        "--max-body",
        "body_bytes",
        KIB,
        _COUNT,
        "KiB a single-puzzle request body may hold (413 past it).",
    ),
    ("--max-upload", "upload_bytes", MIB, _COUNT, "MiB a job's upload may hold (413 past it)."),
    ("--max-puzzles", "puzzles_per_job", 1, _COUNT, "Puzzles a job may hold (413 past it)."),
    (
        "--max-limit",
        "max_limit",
        1,
        _COUNT,
        "Largest solution limit a request may ask (422 past it).",
    ),
    (
        "--max-time-limit",
        "max_time_limit",
        1,
        click.FloatRange(min=0, min_open=True),
        "Largest time_limit in seconds per back end and puzzle, and the default (422 past it).",
    ),
    (
        "--max-jobs",
        "queued_jobs",
        1,
        _COUNT,
        "Jobs that may be queued or running (503 with Retry-After past it).",
    ),
    (
        "--queue",
        "queue",
        1,
        click.IntRange(min=0),
        "Single requests that may wait for a worker (503 with Retry-After past it).",
    ),
)


def check_port(host: str, port: int) -> None:
    """Raise :class:`UsageError` when ``host`` does not resolve or ``port`` cannot be bound
    there (another server holds it, or it needs privileges), before anything starts: uvicorn
    would print its own error and exit 3 only after the start-up lines had named the page."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise UsageError(f"--host {host}: {error.strerror}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as error:
            raise UsageError(
                f"cannot listen on {host} port {port}: {error.strerror} "
                "(choose another with --port)"
            ) from None


def _limit_options(command: F) -> F:
    """The flags of :data:`_LIMIT_FLAGS`, each defaulting to :class:`Limits`' value in its unit;
    the command receives them under the field names."""
    for flag, field, unit, kind, text in reversed(_LIMIT_FLAGS):
        default = getattr(_DEFAULTS, field)
        command = click.option(
            flag,
            field,
            type=kind,
            default=default // unit if unit > 1 else default,
            show_default=True,
            help=text,
        )(command)
    return command


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@processes_option("--workers", "Worker processes that solve.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="cp-sudoku-jobs.sqlite3",
    show_default=True,
    help="SQLite file of the job store (created when missing).",
)
@click.option(
    "--token",
    "tokens",
    multiple=True,
    envvar=TOKEN_VARIABLE,
    metavar="TOKEN",
    help=(
        f"Every request must show this token, and sees only the jobs its token made "
        f"(repeat for several; or set {TOKEN_VARIABLE}, several separated by spaces, "
        "which keeps it out of the process list).  Needed to bind beyond loopback."
    ),
)
@_limit_options
def serve(
    host: str,
    port: int,
    workers: int,
    db: str,
    tokens: tuple[str, ...],
    **limit_flags: Any,
) -> None:
    """Serve the HTTP API (JSON under /v1, OpenAPI at /docs) and the web page at /.

    Binds to 127.0.0.1 unless --host says otherwise.  Jobs and their results
    are kept in the SQLite file --db; a job the server was stopped in resumes
    when it starts again on the same file.

    With --token (or CP_SUDOKU_TOKEN) every request needs the token, sent
    as 'Authorization: Bearer TOKEN' (a browser opens /?token=TOKEN once), and
    a job is visible only to the token that made it.  Binding to an address
    other than loopback without a token is refused.

    \b
    Examples:
      cp-sudoku serve
      cp-sudoku serve --port 8080 --workers 2 --db /var/lib/cp-sudoku/jobs.sqlite3
      CP_SUDOKU_TOKEN=$(cat token.txt) cp-sudoku serve --host 0.0.0.0
    """
    from importlib.util import find_spec
    from pathlib import Path

    checked = check_tokens(tokens)
    if not checked and not is_loopback(host):
        raise UsageError(
            f"--host {host} accepts connections from other machines, and without a token "
            "anyone who reaches the port can read and cancel every job: set one with "
            f"--token TOKEN or the environment variable {TOKEN_VARIABLE}=TOKEN (make one "
            f"with: {MAKE_ONE})"
        )
    if find_spec("uvicorn") is None or find_spec("fastapi") is None:
        raise UsageError(
            'serve needs the web stack: pip install -e ".[service]" in the project folder'
        )
    check_port(host, port)
    import uvicorn

    from cp_sudoku.service.app import Settings, create_app

    limits = Limits(**{field: limit_flags[field] * unit for _, field, unit, _, _ in _LIMIT_FLAGS})
    app = create_app(Settings(db=Path(db), workers=workers, limits=limits, tokens=checked))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"cp-sudoku serve: the page at http://{shown}:{port}/", err=True)
    if checked:
        click.echo(
            f"cp-sudoku serve: {len(checked)} token(s); a browser opens "
            f"http://{shown}:{port}/?token=TOKEN once",
            err=True,
        )
    click.echo(f"cp-sudoku serve: the API docs at http://{shown}:{port}/docs", err=True)
    click.echo(f"cp-sudoku serve: {workers} worker(s), jobs in {db}", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        # uvicorn annotates int, but hands it to asyncio.wait_for, which takes seconds as float
        timeout_graceful_shutdown=GRACE,  # type: ignore[arg-type]
    )


if __name__ == "__main__":
    serve()
