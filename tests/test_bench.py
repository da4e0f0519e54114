"""The bench command on tiny samples: its JSON fields and its verdict counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import lines

from cp_sudoku.bench import load_dataset, run_bench
from cp_sudoku.cli import main

RECORD_FIELDS = {
    "dataset",
    "backend",
    "baseline",
    "puzzles",
    "solves",
    "seconds",
    "cpu_seconds",
    "per_second",
    "cpu_per_second",
    "read_cpu_seconds",
    "median_ms",
    "p95_ms",
    "max_ms",
    "peak_rss_mib",
    "start_rss_mib",
    "rss_scope",
    "verdicts",
    "rejected",
}
MULTI = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


@pytest.fixture
def sample(tmp_path: Path, data: Path) -> Path:
    """Three top95 puzzles (unique), one with several solutions, and one bad line."""
    path = tmp_path / "sample.txt"
    top = lines(data / "sudoku" / "norvig-top95.txt", 3)
    path.write_text("\n".join([*top, MULTI, "12x"]) + "\n")
    return path


def test_bench_command_writes_the_documented_json(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(
        main,
        [
            "bench",
            str(sample),
            "--backend",
            "sat",
            "--repeat",
            "2",
            "--baseline-puzzles",
            "2",
            "--json-out",
            str(out),
        ],
    )
    assert result.exit_code == 2, result.output  # a bad line: exit 2, after measuring the rest
    assert "sample.txt:5" in result.output
    report = json.loads(out.read_text())
    assert set(report) == {"machine", "settings", "records", "errors"}
    assert {"cpu", "cores", "python", "ortools", "python-sat"} <= set(report["machine"])
    assert report["settings"]["solution_limit"] == 2
    assert report["settings"]["repeat"] == 2
    assert len(report["errors"]) == 1
    records = {r["backend"]: r for r in report["records"]}
    assert list(records) == ["sat", "cpsat-naive", "sat-naive", "backtrack-plain"]
    for record in records.values():
        assert set(record) == RECORD_FIELDS
        assert record["dataset"] == "sample"
        assert record["rejected"] == 0
        assert 0 < record["median_ms"] <= record["p95_ms"] <= record["max_ms"]
        assert record["per_second"] > 0
        assert record["peak_rss_mib"] >= record["start_rss_mib"] > 0
        assert sum(record["verdicts"].values()) == record["solves"] == 2 * record["puzzles"]
    assert records["sat"]["puzzles"] == 4 and not records["sat"]["baseline"]
    assert records["sat"]["verdicts"] == {"unique": 6, "multiple": 2, "none": 0, "unknown": 0}
    assert records["sat-naive"]["puzzles"] == 2 and records["sat-naive"]["baseline"]
    assert records["sat-naive"]["verdicts"]["unique"] == 4


def test_bench_table_and_no_baselines(sample: Path) -> None:
    result = CliRunner().invoke(main, ["bench", str(sample), "--backend", "sat", "--no-baselines"])
    assert result.exit_code == 2, result.output  # the bad line of the sample
    assert "sat" in result.output and "3/1/0/0" in result.output
    assert "sat-naive" not in result.output


@pytest.mark.parametrize("baseline_puzzles", [["--baseline-puzzles", "2"], []])
def test_a_baseline_that_settles_nothing_shows_no_rate_and_its_cap(
    data: Path, baseline_puzzles: list[str]
) -> None:
    """backtrack-plain past its 10,000 tries on the first 17-clue puzzles: all unknown.  The
    footnote names the puzzles the baselines ran on, 2 also when --limit-puzzles held them
    below the default --baseline-puzzles of 300."""
    args = ["royle-17clue", "--limit-puzzles", "2", *baseline_puzzles, "--backend", "kernel"]
    result = CliRunner().invoke(main, ["bench", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    cells = [[c for c in line.split() if c != "*"] for line in result.stdout.splitlines()]
    rows = {row[1]: row for row in cells if row and row[0] == "royle-17clue"}
    assert rows["backtrack-plain"][-1] == "0/0/0/2"
    assert rows["backtrack-plain"][3:8] == ["-"] * 5  # /s, CPU /s, median, p95, max
    assert rows["kernel"][-1] == "2/0/0/0" and float(rows["kernel"][3].replace(",", "")) > 0
    assert (
        "* baseline, on the first 2 puzzles of each set; backtrack-plain capped at "
        "max_tries 10,000 (past it: unknown)"
    ) in result.stdout
    assert "- settled none of its puzzles (all unknown)" in result.stdout
    assert "backtrack-plain: 2 puzzles, none settled (all unknown)" in result.stderr


def test_one_puzzle_is_said_in_the_singular(data: Path) -> None:
    """It said "1 puzzles"."""
    args = ["royle-17clue", "--limit-puzzles", "1", "--backend", "kernel", "--no-baselines"]
    result = CliRunner().invoke(main, ["bench", *args])
    assert result.exit_code == 0, result.output
    assert "bench: royle-17clue / kernel: 1 puzzle, " in result.stderr


def test_bench_unknown_data_set_exits_2(data: Path) -> None:
    result = CliRunner().invoke(main, ["bench", "no-such-set", "--no-baselines"])
    assert result.exit_code == 2
    assert "no data set or file named 'no-such-set'" in result.output
    # a new-user finding: the list named the solution files too (norvig-top95.solutions, ...)
    assert "royle-17clue" in result.output and "norvig-top95," in result.output
    assert "kuso-SumasCruzadas_100," in result.output  # the puzzles, a CSV file
    assert ".solution" not in result.output


def test_a_mistyped_cp_sudoku_data_is_named_not_passed_over(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new user's finding: CP_SUDOKU_DATA=/nonexistent was ignored for ../shared/data."""
    monkeypatch.setenv("CP_SUDOKU_DATA", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(main, ["bench", "royle-17clue", "--no-baselines"])
    assert result.exit_code == 2
    assert f"CP_SUDOKU_DATA={tmp_path / 'nowhere'} holds no sudoku/ folder" in result.output
    monkeypatch.setenv("CP_SUDOKU_DATA", str(data))  # the right folder is taken as named
    result = CliRunner().invoke(
        main, ["bench", "norvig-top95", "--no-baselines", "--backend", "sat"]
    )
    assert result.exit_code == 0, result.output


def test_run_bench_generated_and_large(data: Path) -> None:
    report = run_bench(["generated:2x2:3", "sudoku16x16_easy"], ["sat", "cpsat"], baselines=False)
    records = report["records"]
    assert [(r["dataset"], r["backend"]) for r in records] == [
        ("generated-4x4-45%", "sat"),
        ("generated-4x4-45%", "cpsat"),
        ("sudoku16x16_easy", "sat"),
        ("sudoku16x16_easy", "cpsat"),
    ]
    assert records[0]["verdicts"] == records[1]["verdicts"]
    assert records[2]["verdicts"] == {"unique": 3, "multiple": 0, "none": 0, "unknown": 0}


def test_large_grids_are_read_in_their_stated_alphabets(data: Path) -> None:
    text = lines(data / "sudoku-large" / "sudoku16x16_hard.txt", 1)[0]
    (puzzle,) = load_dataset("sudoku16x16_hard", 1).puzzles
    assert puzzle.max_value == 16 and puzzle.box == (4, 4)
    assert puzzle.givens.get((0, 0), 0) == "0123456789ABCDEF".find(text[0]) + 1
    assert len(load_dataset("sudoku25x25_easy").puzzles) == 11
