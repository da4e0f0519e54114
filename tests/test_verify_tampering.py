"""Every way of tampering with a certificate that the issue lists is caught by ``verify``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cp_sudoku.cli import main
from cp_sudoku.io import read_file
from cp_sudoku.verify.certificate import sha256
from cp_sudoku.verify.certify import certify
from cp_sudoku.verify.check import verify

MODELS = Path(__file__).resolve().parents[1] / "models"


def _certified(tmp_path: Path, model: str, number: int = 0) -> Path:
    entry = list(read_file(MODELS / model))[number]
    assert entry.puzzle is not None
    done = certify(entry.puzzle, tmp_path, "cert")
    assert not done.failures
    return tmp_path / "cert.cert.json"


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))


def _rejected(path: Path, *expected: str) -> str:
    report = verify(path)
    assert not report.holds
    message = "; ".join(report.failures)
    for words in expected:
        assert words in message, message
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.output.count("REJECTED") == 1
    return message


@pytest.fixture
def unique(tmp_path: Path) -> Path:
    return _certified(tmp_path, "sudoku-9x9-hard.txt", 1)  # not refuted by propagation alone


def test_the_untouched_certificate_holds(unique: Path) -> None:
    assert verify(unique).holds


def _proof_lines(cert: Path) -> tuple[Path, list[str]]:
    proof = cert.parent / json.loads(cert.read_text())["proof"]
    return proof, proof.read_text().splitlines()


def _rewrite_proof(cert: Path, lines: list[str], *, rehash: bool) -> None:
    proof, _ = _proof_lines(cert)
    text = "".join(line + "\n" for line in lines)
    proof.write_text(text)
    if rehash:
        _edit(cert, lambda r: r.update(proof_sha256=sha256(text)))


def test_a_proof_line_removed_is_caught_by_its_hash(unique: Path) -> None:
    _, lines = _proof_lines(unique)
    _rewrite_proof(unique, lines[:10] + lines[11:], rehash=False)
    _rejected(unique, "differs from proof_sha256")


def test_the_empty_clause_removed_is_caught_by_the_checker(unique: Path) -> None:
    _, lines = _proof_lines(unique)
    assert "0" in lines
    _rewrite_proof(unique, [line for line in lines if line != "0"], rehash=True)
    _rejected(unique, "dratify rejects the proof", "never derives the empty clause")


def test_a_proof_line_changed_is_caught_by_the_checker(unique: Path) -> None:
    # the first lemma becomes "cell r?c? is not its solution value", which does not follow
    record = json.loads(unique.read_text())
    cnf_lines = (unique.parent / record["cnf"]).read_text().splitlines()
    grid, cells = record["solutions"][0], _open_cells(record["puzzle"])
    cell = cells[0]
    name = f"r{cell[0] + 1}c{cell[1] + 1} = {grid[cell[0] * 9 + cell[1]]}"
    variable = next(line.split()[1] for line in cnf_lines if line.endswith(f" {name}"))
    _, lines = _proof_lines(unique)
    _rewrite_proof(unique, [f"-{variable} 0", *lines[1:]], rehash=True)
    _rejected(unique, "dratify rejects the proof", f"step 1: -{variable} 0")


def _open_cells(text: str) -> list[tuple[int, int]]:
    rows = text.splitlines()[2:]
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]


def _set_first_blank(record: dict[str, Any], value: str) -> None:
    """Write ``value`` into the first blank of row 1 of the puzzle's grid."""
    lines = record["puzzle"].splitlines()
    row = lines[2]
    column = row.index(".")
    lines[2] = row[:column] + value + row[column + 1 :]
    record["puzzle"] = "\n".join(lines) + "\n"


def test_a_given_changed_in_the_puzzle(unique: Path) -> None:
    # the first blank of row 1 gets a value that no given in its row, column or box has, and
    # that is not its solution value: the puzzle still reads, and the stated solution breaks it
    record = json.loads(unique.read_text())
    rows = record["puzzle"].splitlines()[2:]
    column = rows[0].index(".")
    solution = record["solutions"][0][column]
    box = {rows[r][c] for r in range(3) for c in range(column // 3 * 3, column // 3 * 3 + 3)}
    seen = set(rows[0]) | {row[column] for row in rows} | box | {str(solution)}
    value = next(str(v) for v in range(1, 10) if str(v) not in seen)
    _edit(unique, lambda r: _set_first_blank(r, value))
    _rejected(unique, "solution 1 breaks the rules", "but the given is")


def test_a_given_added_to_the_puzzle(unique: Path) -> None:
    # the first blank of row 1 gets its solution value: the solution still holds,
    # but the re-encoded CNF is no longer the one the proof refutes
    record = json.loads(unique.read_text())
    column = record["puzzle"].splitlines()[2].index(".")
    value = str(record["solutions"][0][column])
    _edit(unique, lambda r: _set_first_blank(r, value))
    _rejected(unique, "cnf_sha256 is not the hash of the puzzle's re-encoded CNF")


def test_a_clause_dropped_from_the_cnf(unique: Path) -> None:
    cnf = unique.parent / json.loads(unique.read_text())["cnf"]
    lines = cnf.read_text().splitlines()
    clause = next(i for i, line in enumerate(lines) if line.endswith(" 0"))
    cnf.write_text("\n".join(lines[:clause] + lines[clause + 1 :]) + "\n")
    _rejected(unique, "cert.cnf differs from cnf_sha256")
    # with the recorded hash updated to the edited file, the re-encoding still disagrees
    _edit(unique, lambda r: r.update(cnf_sha256=sha256(cnf.read_text())))
    _rejected(unique, "cnf_sha256 is not the hash of the puzzle's re-encoded CNF")


def test_a_solution_with_two_cells_swapped(unique: Path) -> None:
    def swap(record: dict[str, Any]) -> None:
        grid = record["solutions"][0]
        i = next(i for i in range(1, len(grid)) if grid[i] != grid[0])
        grid[0], grid[i] = grid[i], grid[0]

    _edit(unique, swap)
    _rejected(unique, "solution 1 breaks the rules")


def test_a_multiple_certificate_with_the_same_grid_twice(tmp_path: Path) -> None:
    cert = _certified(tmp_path, "sudoku-9x9-multiple.txt")
    assert verify(cert).holds
    _edit(cert, lambda r: r.update(solutions=[r["solutions"][0]] * 2))
    _rejected(cert, "not distinct")


def test_a_none_certificate_for_a_puzzle_with_a_solution(unique: Path) -> None:
    _edit(unique, lambda r: r.update(status="none", solutions=[]))
    message = _rejected(unique)
    assert "re-encoded CNF" in message  # the blocking clause is gone from the formula
    # with the CNF rewritten to match, the proof no longer refutes it
    record = json.loads(unique.read_text())
    cnf = unique.parent / record["cnf"]
    lines = [line for line in cnf.read_text().splitlines() if "blocking clause" not in line]
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    variables, clauses = lines[header].split()[2:]
    lines[header] = f"p cnf {variables} {int(clauses) - 1}"
    text = "\n".join(lines[:-1]) + "\n"
    cnf.write_text(text)
    _edit(unique, lambda r: r.update(cnf_sha256=sha256(text)))
    _rejected(unique, "dratify rejects the proof")


def test_an_encoding_the_encoder_test_does_not_cover(unique: Path) -> None:
    _edit(unique, lambda r: r.update(encoding="minimal"))
    _rejected(unique, "encoding 'minimal' is not one verify accepts")


def test_a_status_that_does_not_fit_the_solutions(unique: Path) -> None:
    _edit(unique, lambda r: r.update(status="multiple"))
    _rejected(unique, "a multiple certificate states at least two solution(s), this one 1")


def test_a_clash_that_is_not_one(tmp_path: Path) -> None:
    from cp_sudoku.kinds.sudoku import sudoku

    grid = [0] * 81
    grid[0] = grid[1] = 5
    certify(sudoku(grid), tmp_path, "clash")
    cert = tmp_path / "clash.cert.json"
    assert verify(cert).holds
    _edit(cert, lambda r: r["clash"].update(cells=["r1c1", "r2c5"]))
    _rejected(cert, "the clash at r1c1,r2c5 is not one")
    _edit(cert, lambda r: r["clash"].update(cells=["r1c1", "r1c2"], message="made up"))
    assert verify(cert).holds  # the message is words for people; the cells are what is checked


def test_a_clash_stated_for_a_puzzle_with_a_solution(unique: Path) -> None:
    clash = {"rule": "row", "cells": ["r1c2"], "message": "made up"}
    _edit(unique, lambda r: r.update(clash=clash))
    _rejected(unique, "a clash proves none, but the status is unique")
    _edit(unique, lambda r: r.update(status="none", solutions=[]))
    _rejected(unique, "the clash at r1c2 is not one")
