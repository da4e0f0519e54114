"""Every file in models/ gives the number of solutions its header states, on every back end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import answered, check_all

from cp_sudoku.io import read_file

MODELS = Path(__file__).resolve().parents[1] / "models"
STATED = re.compile(r"^# solutions: (\d+)(\+?)", re.MULTILINE)


def test_there_are_model_files() -> None:
    assert len(list(MODELS.glob("*.txt"))) >= 14


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.txt")), ids=lambda p: p.name)
def test_model_file_has_its_stated_count(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert re.search(r"^# source:|^# origin:|^# Source", text, re.MULTILINE | re.IGNORECASE), (
        "every model file names its source"
    )
    found = STATED.search(text)
    assert found, "every model file states its number of solutions"
    count, or_more = int(found.group(1)), bool(found.group(2))
    entries = list(read_file(path))
    assert entries
    for entry in entries:
        assert entry.puzzle is not None, entry.error
        verdict = check_all(entry.puzzle, limit=count + 1)
        if or_more:
            assert verdict.status == "multiple"
            assert len(verdict.solutions) >= count
        else:
            assert len(verdict.solutions) == count
            assert all(r.complete for r in answered(verdict))
