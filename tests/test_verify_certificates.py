"""``prove`` writes certificates that ``verify`` accepts, with the expected status, per model."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from verify_grids import checker_solutions

from cp_sudoku.cli import main
from cp_sudoku.io import read_file
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import is_solution
from cp_sudoku.verify.certificate import KEYS, certificate_name
from cp_sudoku.verify.certify import certify
from cp_sudoku.verify.check import verify

MODELS = Path(__file__).resolve().parents[1] / "models"
STATED = re.compile(r"^# solutions: (\d+)(\+?)", re.MULTILINE)
#: 4x4, no solution, though every cell keeps a candidate (found by search; 0 of 288 grids fit).
NO_SOLUTION_4X4 = "31.....2..1..3.."


def _grids_4x4() -> list[tuple[int, ...]]:
    return sorted(checker_solutions(sudoku([0] * 16)))


def _expected(path: Path) -> str:
    found = STATED.search(path.read_text("utf-8"))
    assert found
    count, or_more = int(found.group(1)), bool(found.group(2))
    return "multiple" if or_more or count > 1 else {0: "none", 1: "unique"}[count]


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.txt")), ids=lambda p: p.name)
def test_every_model_proves_and_verifies(path: Path, tmp_path: Path) -> None:
    expected = _expected(path)
    runner = CliRunner()
    proved = runner.invoke(main, ["prove", str(path), "--out", str(tmp_path), "--jobs", "1"])
    assert proved.exit_code == (0 if expected == "unique" else 1), proved.output
    entries = list(read_file(path))
    lines = proved.output.strip().splitlines()
    assert len(lines) == len(entries)
    for entry, line in zip(entries, lines, strict=True):
        assert line.startswith(f"{entry.label}: {expected}  "), line
        name = certificate_name(entry.source, entry.line)
        record = json.loads((tmp_path / f"{name}.cert.json").read_text())
        assert list(record) == list(KEYS)
        assert record["status"] == expected and record["checked"] is True
        assert record["checker"] == "dratify" and record["solver"] == "cadical195"
        assert entry.puzzle is not None
        for grid in record["solutions"]:
            assert is_solution(entry.puzzle, grid)
        if entry.solution is not None:
            assert record["solutions"] == [list(entry.solution)]
        assert (record["proof"] is None) == (expected == "multiple")
    verified = runner.invoke(main, ["verify", str(tmp_path)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count(": holds (") == len(entries)


def test_a_puzzle_without_solution_has_a_refutation(tmp_path: Path) -> None:
    puzzle = sudoku([int(c) if c != "." else 0 for c in NO_SOLUTION_4X4])
    assert not any(is_solution(puzzle, grid) for grid in _grids_4x4())
    done = certify(puzzle, tmp_path, "none-4x4")
    assert done.status == "none" and not done.failures and done.proof_lines > 0
    record = json.loads((tmp_path / "none-4x4.cert.json").read_text())
    assert record["solutions"] == [] and record["proof"] == "none-4x4.drat"
    assert verify(tmp_path / "none-4x4.cert.json").holds


def test_a_full_grid_is_unique_by_its_empty_blocking_clause(tmp_path: Path) -> None:
    grid = _grids_4x4()[0]
    done = certify(sudoku(list(grid)), tmp_path, "full")
    assert done.status == "unique" and not done.failures
    record = json.loads((tmp_path / "full.cert.json").read_text())
    assert record["solutions"] == [list(grid)]
    assert verify(tmp_path / "full.cert.json").holds


def test_explain_is_recorded_with_its_closing_entry(tmp_path: Path) -> None:
    path = MODELS / "sudoku-4x4-tutorial.txt"
    result = CliRunner().invoke(main, ["prove", str(path), "--out", str(tmp_path), "--explain"])
    assert result.exit_code == 0
    assert "a proof that the solution is unique" in result.output
    (cert,) = tmp_path.glob("*.cert.json")
    steps = json.loads(cert.read_text())["explanation"]
    assert steps[-1]["outcome"] == "solved"
    assert all(step["technique"] for step in steps[:-1])


def test_prove_with_jobs_gives_the_same_lines(tmp_path: Path) -> None:
    path = MODELS / "sudoku-9x9-hard.txt"
    runner = CliRunner()
    one = runner.invoke(main, ["prove", str(path), "--out", str(tmp_path / "a"), "--jobs", "1"])
    two = runner.invoke(main, ["prove", str(path), "--out", str(tmp_path / "b"), "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0
    statuses = [line.split("  ")[0] for line in one.output.splitlines()]
    assert statuses == [line.split("  ")[0] for line in two.output.splitlines()]


def test_bad_input_and_unreadable_certificates_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["prove", "12345", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "error" in bad.output
    (tmp_path / "x.cert.json").write_text('{"status": "unique",\n  not json')
    unreadable = runner.invoke(main, ["verify", str(tmp_path / "x.cert.json")])
    assert unreadable.exit_code == 2
    assert "x.cert.json:2:3: not a JSON certificate: not JSON: " in unreadable.output
    (tmp_path / "y.cert.json").write_text('{"status": "unique"}')
    partial = runner.invoke(main, ["verify", str(tmp_path / "y.cert.json")])
    assert partial.exit_code == 2 and "no puzzle" in partial.output
    missing = runner.invoke(main, ["verify", str(tmp_path / "nothing-here")])
    assert missing.exit_code == 2


def test_a_time_limit_too_short_writes_nothing_and_exits_3(tmp_path: Path) -> None:
    path = MODELS / "sudoku-16x16.txt"
    result = CliRunner().invoke(
        main, ["prove", str(path), "--out", str(tmp_path), "--time-limit", "1e-9"]
    )
    assert result.exit_code == 3
    assert "unknown" in result.output
    assert not list(tmp_path.glob("*.cert.json"))


@pytest.mark.parametrize(
    ("values", "rule"),
    [
        ({(0, 0): 5, (0, 1): 5}, "row"),  # a value twice in a unit
        ({(0, c): c + 1 for c in range(1, 9)} | {(1, 0): 1}, "candidates"),  # r1c1 has none
    ],
    ids=["repeat", "no-candidate"],
)
def test_clashing_givens_are_their_own_certificate(
    values: dict[tuple[int, int], int], rule: str, tmp_path: Path
) -> None:
    grid = [values.get((r, c), 0) for r in range(9) for c in range(9)]
    result = CliRunner().invoke(main, ["prove", _line_of(grid), "--out", str(tmp_path)])
    assert result.exit_code == 1 and ": none  " in result.output and "clash: " in result.output
    (cert,) = tmp_path.glob("*.cert.json")
    record = json.loads(cert.read_text())
    assert record["clash"]["rule"] == rule and record["proof"] is None and record["solver"] is None
    assert verify(cert).holds


def test_a_cage_no_candidates_can_meet_is_a_clash(tmp_path: Path) -> None:
    from cp_sudoku.kinds.killer import killer

    cages = [(3, [(0, 0), (0, 1)])] + [(v, [(r, c)]) for r, c, v in _rest_of_4x4()]
    puzzle = killer(cages, [0, 0, 1, 0] + [0] * 12, size=4)  # 3 = 1 + 2, but 1 is in row 1
    done = certify(puzzle, tmp_path, "cage")
    assert done.status == "none" and done.clash is not None and not done.failures
    record = json.loads((tmp_path / "cage.cert.json").read_text())
    assert record["clash"]["cells"] == ["r1c1", "r1c2"]


def _rest_of_4x4() -> list[tuple[int, int, int]]:
    grid = _grids_4x4()[0]
    return [(r, c, grid[r * 4 + c]) for r in range(4) for c in range(4) if r or c > 1]


def _line_of(grid: list[int]) -> str:
    return "".join(str(v) if v else "." for v in grid)


@pytest.mark.parametrize("name", ["forum-hardest-1106.txt", "magictour-top1465.txt"])
def test_hard_puzzles_from_the_data_prove_and_verify(name: str, data: Path, tmp_path: Path) -> None:
    path = data / "sudoku" / name
    for entry in list(read_file(path))[:5]:
        assert entry.puzzle is not None
        done = certify(entry.puzzle, tmp_path, f"p{entry.line}")
        assert done.status == "unique" and not done.failures and done.proof_lines
        assert done.path is not None and verify(done.path).holds


@pytest.mark.slow
def test_every_forum_hardest_puzzle_proves_and_verifies(data: Path, tmp_path: Path) -> None:
    path = data / "sudoku" / "forum-hardest-1106.txt"
    for entry in read_file(path):
        assert entry.puzzle is not None
        done = certify(entry.puzzle, tmp_path, "p")
        assert done.status == "unique" and not done.failures


@pytest.mark.parametrize(
    "budget",
    [
        0.5,  # the explain budget cut to 0.5 s: the timeout path without twice 10 s of CPU
        pytest.param(None, id="documented-budget", marks=pytest.mark.slow),
    ],
)
def test_records_give_one_row_per_puzzle_for_notebooks(
    budget: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cp_sudoku.verify.rows as module
    from cp_sudoku.deduction import LEVEL
    from cp_sudoku.verify import records

    if budget is not None:
        monkeypatch.setattr(module, "EXPLAIN_SECONDS", budget)
    found = records(read_file(MODELS / "sudoku-9x9-hard.txt"))
    assert [row["line"] for row in found] == [7, 8, 9]
    for row in found:
        assert row["status"] == "unique" and row["holds"] is True
        assert row["proof_lines"] > 0 and row["cnf_clauses"] > 0
        assert row["check_seconds"] > 0 and row["verify_seconds"] > 0
    assert found[0]["outcome"] == "solved" and found[0]["hardest"] == "naked single"
    assert found[0]["level"] == LEVEL["naked single"] and found[0]["rating"] == 2.3
    assert found[0]["techniques"]["hidden single"] > 0
    # this puzzle needs the twice-nested forcing net (rating 10.2, about 10 s of CPU here):
    # within the records' explain budget it times out, on a fast machine it may finish
    assert found[1]["outcome"] in ("timeout", "solved")
    if found[1]["outcome"] == "solved":
        assert found[1]["rating"] >= 9.5
    else:
        assert found[1]["level"] is None


def test_help_and_usage_through_the_command_group() -> None:
    runner = CliRunner()
    helped = runner.invoke(main, ["prove", "--help"])
    assert helped.exit_code == 0
    assert all(flag in helped.output for flag in ("--out", "--explain", "--jobs", "--time-limit"))
    assert runner.invoke(main, ["verify"]).exit_code == 2  # no path: a usage error
    assert runner.invoke(main, ["prove", "x.txt", "--time-limit", "-1"]).exit_code == 2


def test_typed_puzzles_get_distinct_names_and_nothing_is_overwritten_without_force(
    tmp_path: Path,
) -> None:
    pytest.importorskip("dratify")
    runner = CliRunner()
    first, second = "1.3.....2.......", "12.......3......"
    for puzzle in (first, second):
        done = runner.invoke(main, ["prove", puzzle, "--out", str(tmp_path)])
        assert done.exit_code == 1, done.output  # both have several solutions
    names = sorted(path.name for path in tmp_path.glob("*.cert.json"))
    assert len(names) == 2 and all(name.startswith("argument-") for name in names)
    again = runner.invoke(main, ["prove", first, "--out", str(tmp_path)])
    assert again.exit_code == 2
    assert "exists: add --force to overwrite it" in again.stderr
    forced = runner.invoke(main, ["prove", first, "--out", str(tmp_path), "--force"])
    assert forced.exit_code == 1, forced.output
    assert sorted(path.name for path in tmp_path.glob("*.cert.json")) == names


def test_a_certificate_forced_over_another_leaves_no_proof_of_the_old_one(
    tmp_path: Path,
) -> None:
    """A file's line 1 proved unique (with a DRAT proof), then changed to a puzzle with
    several solutions and proved again with ``--force``: the old ``f-1.drat`` stayed beside
    the new certificate, which has no proof."""
    pytest.importorskip("dratify")
    path = tmp_path / "f.txt"
    out = tmp_path / "certificates"
    for puzzle, code in (("......122..4.4..", 0), ("1...............", 1)):
        path.write_text(puzzle + "\n")
        done = CliRunner().invoke(main, ["prove", str(path), "--out", str(out), "--force"])
        assert done.exit_code == code, done.output
    assert sorted(p.name for p in out.iterdir()) == ["f-1.cert.json", "f-1.cnf"]
    assert verify(out / "f-1.cert.json").holds
