"""The serve command's own defaults (the server itself is tested in test_service_*.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import click
from click.testing import CliRunner

from cp_sudoku.cli import main as cli
from cp_sudoku.run import cores
from cp_sudoku.service.command import serve


def test_workers_default_to_the_cores_the_cli_uses() -> None:
    (workers,) = [p for p in serve.params if p.name == "workers"]
    with click.Context(serve) as context:
        assert workers.get_default(context) == cores()


def test_a_port_in_use_is_refused_in_one_line_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = CliRunner().invoke(
            cli, ["serve", "--port", str(port), "--db", str(tmp_path / "db")]
        )
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"cp-sudoku: error: cannot listen on 127.0.0.1 port {port}: Address already in use "
        "(choose another with --port)"
    ]
    assert not (tmp_path / "db").exists()  # nothing started


def test_a_host_that_does_not_resolve_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "serve",
            "--host",
            "no-such-host.invalid",
            "--token",
            "t" * 32,
            "--db",
            str(tmp_path / "db"),
        ],
    )
    assert result.exit_code == 2
    (said,) = result.output.strip().splitlines()
    assert said.startswith("cp-sudoku: error: --host no-such-host.invalid: ")
