"""Helpers for the tests of cp_sudoku.run: input files written here, outputs compared."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cp_sudoku.backends import available
from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import grid_string
from cp_sudoku.run.output import table_format, varying

ROOT = Path(__file__).resolve().parent.parent
#: The 9x9 built to defeat naive backtracking: backtrack-plain under a time limit of 0.1 s
#: spends that 0.1 s on each copy, so a slice of n copies runs for about n/10 seconds.
ANTI_BACKTRACK = next(
    line
    for line in (ROOT / "models" / "sudoku-9x9-hard.txt").read_text().splitlines()
    if line and not line.startswith("#")
)


def write_puzzles(path: Path, count: int, *, csv: bool = False, bad: tuple[int, ...] = ()) -> Path:
    """``count`` generated 9x9 puzzles (half blank), one per line (or CSV with solutions).

    Lines numbered in ``bad`` (1-based among the puzzles) are not puzzles.
    """
    lines = ["puzzle,solution"] if csv else ["# generated 9x9 puzzles"]
    for i in range(count):
        puzzle, grid = generated_sudoku((3, 3), 0.5, seed=i)
        values = [puzzle.givens.get(cell, 0) for cell in puzzle.cells]
        text = "12345" if i + 1 in bad else grid_string(values)
        lines.append(f"{text},{grid_string(grid)}" if csv else text)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rows(path: Path) -> list[dict[str, Any]]:
    """The rows of an output file, the fields that vary between runs left out (times, and
    the counts that depend on a solver's history: :func:`cp_sudoku.run.output.varying`)."""
    if table_format(path) == "parquet":
        import pyarrow.parquet as pq

        found = pq.read_table(path).to_pylist()
    else:
        found = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    skip = varying(available())
    return [{k: v for k, v in row.items() if k not in skip} for row in found]


def cli(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    """``cp-sudoku ARGS`` started in a subprocess with this worktree's package first."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return subprocess.Popen(
        [sys.executable, "-m", "cp_sudoku.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def run_cli(*args: str, timeout: float = 300) -> tuple[int, str]:
    """Run ``cp-sudoku ARGS`` to the end: exit code and stderr."""
    process = cli(*args)
    _, err = process.communicate(timeout=timeout)
    return process.returncode, err


def run_here(*args: str) -> tuple[int, str]:
    """Run ``cp-sudoku ARGS`` in this process (click's CliRunner): exit code and stderr.
    For runs with ``--jobs 1`` whose subject is not the process (a reference table, a
    refusal): a subprocess costs about 1 s of CPU, nearly all imports."""
    from click.testing import CliRunner

    from cp_sudoku.cli import main

    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stderr


def write_slow(path: Path, copies: int) -> Path:
    """``copies`` lines of :data:`ANTI_BACKTRACK` (slow under :func:`check_with_progress`)."""
    path.write_text(f"{ANTI_BACKTRACK}\n" * copies)
    return path


def check_with_progress(
    monkeypatch: pytest.MonkeyPatch, source: Path, *how: str
) -> tuple[int, list[int], str]:
    """``check`` in this process on backtrack-plain with a time limit of 0.1 s a puzzle
    (stderr is not a terminal), a progress line due at every advance after 0.2 s: exit
    code, the counts of the progress lines (``cp-sudoku: N of M puzzles, ...``), stdout."""
    from click.testing import CliRunner

    from cp_sudoku.cli import main, progress

    monkeypatch.setattr(progress, "EVERY", 0.2)
    slow = ("--backend", "backtrack-plain", "--time-limit", "0.1")
    done = CliRunner().invoke(main, ["check", str(source), *slow, *how])
    found = re.findall(r"^cp-sudoku: ([\d,]+) of [\d,]+ puzzles?, ", done.stderr, re.MULTILINE)
    return done.exit_code, [int(count.replace(",", "")) for count in found], done.stdout
