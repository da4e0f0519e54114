"""The serve command's own defaults (the server itself is tested in test_service_*.py)."""

from __future__ import annotations

import click

from cp_sudoku.run import cores
from cp_sudoku.service.command import serve


def test_workers_default_to_the_cores_the_cli_uses() -> None:
    (workers,) = [p for p in serve.params if p.name == "workers"]
    with click.Context(serve) as context:
        assert workers.get_default(context) == cores()
