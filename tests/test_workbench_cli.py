"""The workbench commands: candidates, suggest, check --explain, and solve on none."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from cp_sudoku.cli import main
from cp_sudoku.io import parse_line
from cp_sudoku.workbench import suggest

THREE_SOLUTIONS = "34..12.....3...."
TUTORIAL_4X4 = "......122..4.4.."
#: A 9x9 whose added given r1c4=6 has no solution, with no clash of clues
#: (serg-benchmark-multi.txt line 1 plus that given).
HIDDEN_NONE = "8..6......95.......76.........426798...571243...893165......916....3.487....1.532"


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def test_candidates_text_and_json() -> None:
    text = invoke("candidates", THREE_SOLUTIONS)
    assert text.exit_code == 1
    assert text.stdout.splitlines()[:5] == [
        "  3   4 |  12  12",
        "  1   2 |   3   4",
        "--------+--------",
        " 24   1 |  24   3",
        " 24   3 | 124  12",
    ]
    assert "multiple: " in text.stdout and "refuted" in text.stdout
    record = json.loads(
        invoke("candidates", THREE_SOLUTIONS, "--json", "--per-candidate", "5").stdout
    )
    assert record["status"] == "multiple" and record["candidates"]["r1c3"] == [1, 2]
    assert (
        record["counts"]["r1c3"] == {"1": 2, "2": 1} or sum(record["counts"]["r1c3"].values()) == 3
    )
    assert record["cap"] == 5
    unique = invoke("candidates", TUTORIAL_4X4, "--json")
    assert unique.exit_code == 0 and json.loads(unique.stdout)["status"] == "unique"


def test_suggest_text_and_json() -> None:
    text = invoke("suggest", THREE_SOLUTIONS)
    assert text.exit_code == 0
    assert text.stdout.startswith("add r") and "unique by the cross-check" in text.stdout
    record = json.loads(invoke("suggest", THREE_SOLUTIONS, "--json").stdout)
    assert record["status"] == "unique" and record["added"] == len(record["givens"]) == 1
    assert invoke("suggest", TUTORIAL_4X4).stdout == "already unique: nothing to add\n"
    none = invoke("suggest", "12.......3.4..4.")
    assert none.exit_code == 1 and "no solution" in none.stdout


@pytest.mark.parametrize("command", ["candidates", "suggest"])
def test_bad_input_is_one_line_and_exit_2(command: str) -> None:
    result = invoke(command, "12x")
    checked = invoke("check", "12x")
    assert result.exit_code == checked.exit_code == 2
    assert result.stderr.strip().splitlines() == checked.stderr.strip().splitlines()[:1]
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["candidates", "suggest"])
def test_help_has_examples_and_exit_codes(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "Exit codes:" in result.stdout


def test_check_explain_json_has_core_and_differ() -> None:
    none = json.loads(invoke("check", HIDDEN_NONE, "--json", "--explain").stdout)
    assert none["status"] == "none" and "cannot all hold" in none["reason"]
    assert none["core"]["minimal"] is True and none["core"]["checked_by"] == "backtrack"
    assert "column 5" in [m["text"] for m in none["core"]["core"]]
    multiple = json.loads(invoke("check", THREE_SOLUTIONS, "--json").stdout)
    assert multiple["count"] == "at least 2 solutions (search stopped at the limit)"
    assert multiple["differ"] and all(set(d) == {"cell", "values"} for d in multiple["differ"])


def test_check_explain_text_and_solve_on_none() -> None:
    check = invoke("check", HIDDEN_NONE, "--explain")
    assert "Core: these 5 givens" in check.stdout and "Deduction: " in check.stdout
    solve = invoke("solve", HIDDEN_NONE, "--backend", "sat")
    assert "None: the puzzle has no solution." in solve.stdout
    assert "Core: " in solve.stdout and "(confirmed by backtrack)" in solve.stdout
    two = invoke("check", THREE_SOLUTIONS, "--explain")
    assert "Solution 1" in two.stdout and "Differ at " in two.stdout


def test_candidates_certify_then_verify(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("dratify", reason='pip install -e ".[proof]"')
    made = invoke("candidates", THREE_SOLUTIONS, "--certify", str(tmp_path))
    assert made.exit_code == 1  # multiple
    assert "verified, 4 removed candidates refuted by a" in made.stdout
    checked = invoke("verify", str(tmp_path))
    assert checked.exit_code == 0 and "holds (candidates; proof checked in" in checked.stdout


def test_candidates_certify_typed_puzzles_get_distinct_names_and_never_overwrite(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """Every typed puzzle's certificate was named ``argument-e3b0c44298fc`` (the hash of no
    text), so a second one silently overwrote the first."""
    pytest.importorskip("dratify", reason='pip install -e ".[proof]"')
    first, second = "......122..4.4..", "1..............."
    assert invoke("candidates", first, "--certify", str(tmp_path)).exit_code == 0
    assert invoke("candidates", second, "--certify", str(tmp_path)).exit_code == 1
    names = sorted(path.name for path in tmp_path.glob("*.cert.json"))
    assert len(names) == 2 and all(name.startswith("argument-") for name in names)
    again = invoke("candidates", first, "--certify", str(tmp_path))
    assert again.exit_code == 2 and "exists: add --force to overwrite it" in again.stderr
    forced = invoke("candidates", first, "--certify", str(tmp_path), "--force")
    assert forced.exit_code == 0, forced.output
    assert sorted(path.name for path in tmp_path.glob("*.cert.json")) == names
    assert invoke("verify", str(tmp_path)).exit_code == 0


def test_candidates_time_limit_answers_unknown(data) -> None:  # type: ignore[no-untyped-def]
    import time

    sandwich = str(data / "fpuzzles" / "rangsk-sandwich-sudoku.json")
    started = time.perf_counter()
    stopped = invoke("candidates", sandwich, "--time-limit", "0.05", "--json")
    assert stopped.exit_code == 3, stopped.output
    record = json.loads(stopped.stdout)
    assert record["status"] == "unknown" and record["stopped"] == "time limit"
    assert time.perf_counter() - started < 60  # a hang bound, not a speed target
    text = invoke("candidates", sandwich, "--time-limit", "0.05")
    assert text.exit_code == 3 and "unknown (stopped at the time limit)" in text.stdout
    bad = invoke("candidates", THREE_SOLUTIONS, "--time-limit", "0")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    full = json.loads(invoke("candidates", THREE_SOLUTIONS, "--time-limit", "60", "--json").stdout)
    assert full["status"] == "multiple" and full["stopped"] is None


def test_suggest_holds_its_time_limit_in_the_cli_and_the_api() -> None:
    """An empty 25x25 needs hundreds of givens, each found by a SAT call: the time limit
    stops the search (it used to be ignored: a 16x16 whispers puzzle ran past 120 s)."""
    started = time.perf_counter()
    result = invoke("suggest", "." * 625, "--alphabet", "1-9A-P", "--time-limit", "0.2")
    assert time.perf_counter() - started < 60  # a hang bound, not a speed target
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("stopped by the time limit after ")
    assert result.stdout.rstrip().endswith(" ms") and "no proposal" in result.stdout
    found = suggest(parse_line("." * 625, alphabet="1-9A-P"), time_limit=0.2)
    assert (found.stopped, found.status, found.givens) == ("time limit", "unknown", ())
    assert found.record()["stopped"] == "time limit"


@pytest.mark.parametrize("command", ["check", "solve"])
def test_the_core_of_explain_takes_the_time_limit(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cp_sudoku.cli.check
    import cp_sudoku.cli.solve

    module = cp_sudoku.cli.check if command == "check" else cp_sudoku.cli.solve
    limits: list[float | None] = []
    why_none = module.why_none

    def spy(puzzle, **options):  # type: ignore[no-untyped-def]
        limits.append(options.get("time_limit"))
        return why_none(puzzle, **options)

    monkeypatch.setattr(module, "why_none", spy)
    extra = ["--explain", "--jobs", "1"] if command == "check" else []
    result = invoke(command, *extra, "--time-limit", "7", HIDDEN_NONE)
    assert result.exit_code == 1, result.output
    assert limits == [7]
