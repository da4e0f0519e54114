"""``verify`` bounds what it reads (no FIFO, no device, no path elsewhere, a size cap) and
how long it searches a clash; certificates with huge or deep JSON, or a clash naming a cell
twice, are one line, never an internal error."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cp_sudoku.cli import main
from cp_sudoku.io import parse_line
from cp_sudoku.verify import certificate as certificate_module
from cp_sudoku.verify import check
from cp_sudoku.verify.certify import certify
from cp_sudoku.verify.check import confirm_clash, verify

#: Anti-hang bound for a bounded search, in seconds (not a timing test).
PATIENCE = 120


def certified(folder: Path, puzzle: str, name: str = "cert") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    done = certify(parse_line(puzzle), folder, name)
    assert not done.failures
    assert done.path is not None
    return done.path


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))


@pytest.fixture
def unique(tmp_path: Path) -> Path:
    return certified(tmp_path / "unique", "......122..4.4..")


@pytest.fixture
def clash(tmp_path: Path) -> Path:
    path = certified(tmp_path / "clash", "11..............")
    assert json.loads(path.read_text())["clash"] is not None
    return path


def verify_cli(*paths: Path):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["verify", *map(str, paths)])


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"status": ' + "9" * 5000 + "}"],
    ids=["nested", "huge integer"],
)
def test_an_unreadable_certificate_is_one_line_and_the_others_are_verified(
    tmp_path: Path, unique: Path, text: str
) -> None:
    bad = tmp_path / "bad.cert.json"
    bad.write_text(text)
    result = verify_cli(bad, unique)
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output
    (error,) = [line for line in result.stderr.splitlines() if "error" in line]
    assert error.startswith(f"cp-sudoku: error: {bad}")
    assert "not JSON this reader takes" in error
    assert f"{unique}: holds" in result.stdout


def test_a_clash_naming_a_cell_twice_is_rejected(clash: Path) -> None:
    edit(clash, lambda r: r["clash"].update(cells=["r1c1", "r1c2", "r1c1"]))
    report = verify(clash)
    assert "clash: r1c1 is named twice" in report.failures
    assert verify_cli(clash).exit_code == 1


@pytest.mark.parametrize(
    ("cells", "says"),
    [
        (["r" + "9" * 5000 + "c1"], "a row has 5,000 digits"),
        (["r\u0661c1", "r1c2"], "expected a cell rXcY"),
        (["r1c1"] * 2000, "over the 1,000 verify examines"),
    ],
)
def test_a_clash_with_bad_cell_names_is_rejected(clash: Path, cells: list[str], says: str) -> None:
    edit(clash, lambda r: r["clash"].update(cells=cells))
    assert any(says in failure for failure in verify(clash).failures), verify(clash).failures


def test_a_clash_over_64_empty_cells_is_refused_within_its_budget(
    clash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # r9c9 has no candidate (its peers hold 1..9), but the clash lists the 64 empty cells
    # of r1..r8 x c1..c8 first: confirming it would try every assignment of them.
    monkeypatch.setattr(check, "MAX_CLASH_NODES", 20_000)  # the default takes seconds
    grid = "\n".join(["........9", *["........."] * 7, "12345678."])
    forged = [f"r{r + 1}c{c + 1}" for r in range(8) for c in range(8)] + ["r9c9"]

    def forge(record: dict[str, Any]) -> None:
        record["puzzle"] = f"kind: sudoku\ngrid:\n{grid}\n"
        record["clash"] = {"rule": "unit", "cells": forged, "message": "forged"}

    edit(clash, forge)
    started = time.perf_counter()
    report = verify(clash)
    assert time.perf_counter() - started < PATIENCE
    assert any("not confirmed within 20,000 assignments" in f for f in report.failures), report


def test_the_clash_budget_counts_assignments() -> None:
    puzzle = parse_line("." * 16)
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert confirm_clash(puzzle, cells, budget=3) is None
    assert confirm_clash(puzzle, cells) is False  # the rules allow values there
    assert confirm_clash(parse_line("11" + "." * 14), [(0, 0), (0, 1)]) is True


@pytest.mark.parametrize("name", ["/dev/zero", "../cert.cnf", "a\x00b.cnf", "", ".", 7])
def test_a_file_name_pointing_elsewhere_is_refused(unique: Path, name: object) -> None:
    edit(unique, lambda r: r.update(cnf=name, proof=name))
    report = verify(unique)
    assert any("expected a file name beside the certificate" in f for f in report.failures)
    assert verify_cli(unique).exit_code == 1


def test_a_fifo_is_refused_not_read(unique: Path) -> None:
    record = json.loads(unique.read_text())
    proof = unique.parent / record["proof"]
    proof.unlink()
    os.mkfifo(proof)  # nobody writes: reading it would block forever
    started = time.perf_counter()
    report = verify(unique)
    assert time.perf_counter() - started < PATIENCE
    assert any("not a regular file" in f for f in report.failures), report.failures


def test_a_device_as_the_certificate_is_refused(tmp_path: Path) -> None:
    result = verify_cli(Path("/dev/zero"))
    assert result.exit_code == 2
    assert "not a regular file" in result.stderr


def test_reads_stop_at_their_cap(unique: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads(unique.read_text())
    cnf = unique.parent / record["cnf"]
    with cnf.open("a") as handle:  # one byte more than the re-encoded CNF: not read whole
        handle.write("c" * 10_000_000)
    assert any("over" in f and "bytes" in f for f in verify(unique).failures)
    monkeypatch.setattr(certificate_module, "MAX_CERTIFICATE_BYTES", 100)
    result = verify_cli(unique)
    assert result.exit_code == 2
    assert "over 100 bytes: not read" in result.stderr


def test_a_directory_is_verified_in_the_order_of_its_numbers(tmp_path: Path) -> None:
    for name in ("p-10", "p-2", "p-1", "q-1", "p-9-3", "p-9-20"):
        (tmp_path / f"{name}{certificate_module.SUFFIX}").write_text("{}")
    found = [path.name for path in certificate_module.certificate_paths([tmp_path])]
    order = ["p-1", "p-2", "p-9-3", "p-9-20", "p-10", "q-1"]
    assert found == [f"{name}{certificate_module.SUFFIX}" for name in order]
