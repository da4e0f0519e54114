"""The shared KenKen and Kakuro collections: stored solutions on every back end, bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import check_all

from cp_sudoku.io.collections import read_arithmatrix, read_kuso, read_xcsp3
from cp_sudoku.model import violations

SIZES = ("4x4", "5x5", "6x6")
SAMPLE_STEP = 20  # the default run checks every 20th puzzle: 50 per size (slow: all 1,000)


def check_kenken_file(path: Path, step: int) -> int:
    """Every ``step``-th puzzle: unique on all back ends, equal to the stored solution."""
    checked = 0
    for number, entry in enumerate(read_arithmatrix(path)):
        if number % step:
            continue
        assert entry.puzzle is not None, entry.error
        assert entry.solution is not None
        verdict = check_all(entry.puzzle)
        assert verdict.status == "unique", entry.label
        assert verdict.solution == entry.solution, entry.label
        checked += 1
    return checked


@pytest.mark.parametrize("size", SIZES)
def test_kenken_sample_unique_with_stored_solutions(data: Path, size: str) -> None:
    path = data / "kenken" / f"arithmatrix-{size}.jsonl"
    assert check_kenken_file(path, SAMPLE_STEP) == 1000 // SAMPLE_STEP


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_all_kenken_unique_with_stored_solutions(data: Path, size: str) -> None:
    assert check_kenken_file(data / "kenken" / f"arithmatrix-{size}.jsonl", 1) == 1000


def test_arithmatrix_cages_become_the_model(data: Path) -> None:
    entry = next(read_arithmatrix(data / "kenken" / "arithmatrix-4x4.jsonl"))
    assert entry.line == 1 and entry.puzzle is not None
    assert entry.solution == (4, 2, 1, 3, 1, 4, 3, 2, 2, 3, 4, 1, 3, 1, 2, 4)
    cages = {(c.cells, c.op, c.target) for c in entry.puzzle.cages}
    assert (((1, 1), (2, 0), (2, 1), (2, 2)), "+", 13) in cages
    assert (((0, 1),), "=", 2) in cages  # the empty operation: a one-cell cage
    assert (((0, 2), (0, 3)), "/", 3) in cages
    assert not any(c.distinct for c in entry.puzzle.cages)


def test_arithmatrix_bad_lines_are_reported_and_the_rest_read(tmp_path: Path, data: Path) -> None:
    good = (data / "kenken" / "arithmatrix-4x4.jsonl").read_text().splitlines()[:2]
    record = json.loads(good[0])
    bad_index = json.loads(good[0])
    bad_index["puzzle"]["cages"][0]["cells"] = [5, 99]
    bad_op = json.loads(good[0])
    bad_op["puzzle"]["cages"][0]["operation"] = "%"
    no_size = {"puzzle": {k: v for k, v in record["puzzle"].items() if k != "size"}}
    lines = [
        good[0],
        "{not json",
        json.dumps(bad_index),
        "",
        json.dumps(bad_op),
        json.dumps(no_size),
        good[1],
    ]
    path = tmp_path / "k.jsonl"
    path.write_text("\n".join(lines) + "\n")
    entries = list(read_arithmatrix(path))
    assert [e.line for e in entries] == [1, 2, 3, 5, 6, 7]
    assert entries[0].puzzle is not None and entries[-1].puzzle is not None
    messages = [str(e.error) for e in entries[1:-1]]
    assert messages[0].startswith(f"{path}:2:2: not JSON")
    assert messages[1] == f"{path}:3: cage 1: cell index 99 is not in 0..15"
    assert messages[2] == f"{path}:5: cage 1: operation '%' is not one of + - * / or empty"
    assert messages[3] == f"{path}:6: puzzle: missing 'size'"


def test_xcsp3_kakuro_is_unique(data: Path) -> None:
    (entry,) = read_xcsp3(data / "kakuro" / "xcsp3-easy-000.json")
    assert entry.puzzle is not None and entry.solution is None  # the file states none
    assert (entry.puzzle.rows, entry.puzzle.cols, len(entry.puzzle.cells)) == (6, 6, 18)
    assert entry.puzzle.labels[(1, 1)] == "17\\14"
    verdict = check_all(entry.puzzle, limit=10)
    assert verdict.status == "unique"
    assert verdict.solution == tuple(int(ch) for ch in "581869498317923986")


@pytest.mark.parametrize("number", [93, 94, 95, 100])
def test_kuso_kakuro_give_their_stored_solutions(data: Path, number: int) -> None:
    (entry,) = read_kuso(data / "kakuro" / f"kuso-SumasCruzadas_{number}.csv")
    assert entry.puzzle is not None, entry.error
    assert (entry.puzzle.rows, entry.puzzle.cols) == (20, 14)
    assert entry.solution is not None
    verdict = check_all(entry.puzzle)
    assert verdict.status == "unique"
    assert verdict.solution == entry.solution


def test_kuso_96_stored_solution_breaks_a_run_and_ours_is_unique(data: Path) -> None:
    """kakuro-kuso stores, for SumasCruzadas_96, a grid whose down run r3c5-r6c5
    (clue 14 at r2c5) reads 3, 5, 5, 1: the right sum but 5 twice.  The puzzle has
    exactly one solution, which differs from the stored grid in four cells."""
    (entry,) = read_kuso(data / "kakuro" / "kuso-SumasCruzadas_96.csv")
    assert entry.puzzle is not None and entry.solution is not None
    assert violations(entry.puzzle, entry.solution) == [
        "cage 14+ {r3c5,r4c5,r5c5,r6c5} does not hold"
    ]
    stored = dict(zip(entry.puzzle.cells, entry.solution, strict=True))
    assert [stored[(r, 4)] for r in range(2, 6)] == [3, 5, 5, 1]
    verdict = check_all(entry.puzzle)
    assert verdict.status == "unique"
    found = dict(zip(entry.puzzle.cells, verdict.solution or (), strict=True))
    assert {c for c in found if found[c] != stored[c]} == {(4, 3), (4, 4), (5, 3), (5, 4)}


def test_kuso_errors(tmp_path: Path, data: Path) -> None:
    source = data / "kakuro" / "kuso-SumasCruzadas_93.csv"
    rows = source.read_text().splitlines()
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([rows[0], rows[1].replace("24\\6", "24/6"), *rows[2:]]) + "\n")
    (entry,) = read_kuso(bad)
    assert str(entry.error).startswith(f"{bad}:2:3: unexpected '24/6'")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("\n".join([rows[0], rows[1] + ",", *rows[2:]]) + "\n")
    (entry,) = read_kuso(ragged)
    assert str(entry.error) == f"{ragged}:2: row has 15 fields, expected 14"
    copy = tmp_path / "copy.csv"
    shutil.copy(source, copy)
    solution = source.with_suffix("").with_suffix(".solution.txt").read_text().splitlines()
    (tmp_path / "copy.solution.txt").write_text(
        "\n".join([solution[0], solution[1].replace("\t2\t", "\t0\t", 1), *solution[2:]]) + "\n"
    )
    (entry,) = read_kuso(copy)
    assert (
        str(entry.error)
        == f"{tmp_path / 'copy.solution.txt'}:2: r2c3: expected a digit 1-9, got '0'"
    )
