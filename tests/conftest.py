"""Shared fixtures: the data folder, the model files, one in-process service, a puzzle
parser, and the agreement check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cp_sudoku.backends import DEFAULT_BACKENDS, Result
from cp_sudoku.crosscheck import Verdict, crosscheck
from cp_sudoku.datasets import data_dir
from cp_sudoku.io import parse_line
from cp_sudoku.model import Puzzle, UsageError, is_solution

#: The repository's instance files, each with its source and expected count.
MODELS = Path(__file__).resolve().parents[1] / "models"


@pytest.fixture(scope="session")
def data() -> Path:
    """The shared data folder; tests that need it skip, with the reason, when it is absent."""
    try:
        return data_dir()
    except UsageError as error:
        pytest.skip(str(error))


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One in-process service (default limits, one worker, no tokens) as a TestClient,
    shared by the tests of endpoints that keep no state between requests (check,
    generate, the workbench): each start of its worker process costs about 0.75 s of
    CPU and a few seconds of wall."""
    pytest.importorskip("fastapi", reason='pip install -e ".[service]"')
    from fastapi.testclient import TestClient

    from cp_sudoku.service.app import Settings, create_app

    db = tmp_path_factory.mktemp("service") / "jobs.sqlite3"
    with TestClient(create_app(Settings(db=db, workers=1))) as client:
        yield client


def model_text(name: str) -> str:
    """The puzzle text of ``models/<name>``: the file without its comment lines."""
    text = (MODELS / name).read_text()
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))


def puzzle_file(folder: Path, *rows: str, name: str = "puzzles.txt") -> Path:
    """``folder/name`` holding ``rows``, one a line (each ended by a newline)."""
    path = folder / name
    path.write_text("".join(f"{row}\n" for row in rows))
    return path


def lines(path: Path, count: int | None = None, step: int = 1) -> list[str]:
    """Non-blank lines of a data file: every ``step``-th, at most ``count``."""
    with open(path) as handle:
        found = [line.strip() for line in handle if line.strip()]
    return found[::step][:count]


def every_backend() -> list[Any]:
    """Every registered back end as a test parameter; one that cannot run on this machine
    (minizinc without its executable) is skipped, naming the command that installs it."""
    from cp_sudoku.backends import available
    from cp_sudoku.backends.minizinc import missing

    why = missing()
    return [
        pytest.param(name, marks=pytest.mark.skip(reason=why))
        if name == "minizinc" and why
        else name
        for name in available()
    ]


def check_all(puzzle: Puzzle, limit: int = 2, backends=DEFAULT_BACKENDS) -> Verdict:
    """Cross-check with every back end; assert agreement and re-check every grid."""
    verdict = crosscheck(puzzle, backends, limit=limit, time_limit=120)
    assert verdict.agree, verdict.disagreements
    for result in answered(verdict):
        assert result.status == verdict.status, (result.backend, result.status, verdict.status)
        for grid in result.solutions:
            assert is_solution(puzzle, grid)
    return verdict


def answered(verdict: Verdict) -> list[Result]:
    """The results of the back ends that did not decline the puzzle (``kernel`` declines
    cages, relations and clues; ``backtrack`` stands in for it)."""
    return [result for result in verdict.results.values() if result.stopped != "declined"]


def grid_of(text: str) -> tuple[int, ...]:
    return tuple(int(ch) for ch in text)


def sample(puzzles: list[str]) -> Iterator[Puzzle]:
    for text in puzzles:
        yield parse_line(text)
