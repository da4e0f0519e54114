"""The command line: exit codes, every command's output, interactive entry."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import lines, puzzle_file
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku.cli import main
from cp_sudoku.cli.report import ms

MODELS = Path(__file__).resolve().parents[1] / "models"

TUTORIAL_4X4 = "......122..4.4.."
THREE_SOLUTIONS = "34..12.....3...."
ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
MULTIPLE = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
EASTER_SOLUTION = (
    "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
)
COMMANDS = ["solve", "check", "count", "compare", "export"]


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``cp-sudoku ARGS`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "cp_sudoku.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"},
    )


def invoke(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=stdin, env={"COLUMNS": "200"})


# --- Exit codes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((TUTORIAL_4X4,), 0),
        ((THREE_SOLUTIONS,), 1),
        (("..x.",), 2),
        (("no-such-file.txt",), 2),
        ((ANTI_BACKTRACK, "--backend", "backtrack-plain", "--max-tries", "10"), 3),
        ((ANTI_BACKTRACK, "--backend", "backtrack-plain", "--time-limit", "0.001"), 3),
    ],
)
def test_check_exit_codes(args: tuple[str, ...], code: int) -> None:
    # in-process: the code click exits with; the codes as the shell sees them are those of
    # the processes below and of the other process tests (0 and 1: the terminal and the
    # thousand puzzles below; 2: here; 3: the stopped solve below; 130: test_interrupts.py)
    done = invoke("check", *args, "--jobs", "1")
    assert done.exit_code == code, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert "Traceback" not in done.output


def test_bad_input_is_one_line_without_traceback() -> None:
    done = run("check", "..x.", "--jobs", "1")  # a process: what the shell sees
    assert done.returncode == 2
    assert done.stdout == "<argument>:1  invalid\n"  # every puzzle keeps its line on stdout
    assert done.stderr.splitlines()[0] == (
        "cp-sudoku: error: <argument>:1:3: unexpected symbol 'x': expected 1-2 or a blank (. 0 _)"
    )
    assert "Traceback" not in done.stderr
    solved = invoke("solve", "no-such-file.txt")
    assert solved.exit_code == 2
    assert solved.stderr == "cp-sudoku: error: no such file: no-such-file.txt\n"


def test_highest_exit_code_wins_and_other_puzzles_still_run(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path, EASTER, EASTER[:-1], MULTIPLE)
    done = run("check", str(path), "--jobs", "1")
    assert done.returncode == 2
    assert f"{path}:1  unique" in done.stdout
    assert f"{path}:3  multiple" in done.stdout
    assert f"{path}:2  invalid" in done.stdout
    assert f"cp-sudoku: error: {path}:2:81: expected n*n symbols" in done.stderr


# --- Help, version, options ----------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output and f"cp-sudoku {command}" in result.output


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0 and re.fullmatch(r"cp-sudoku, version \S+\n", result.output)


def test_option_for_a_back_end_that_is_not_chosen() -> None:
    result = invoke("check", TUTORIAL_4X4, "--backend", "cpsat", "--sat-solver", "cadical195")
    assert result.exit_code == 2
    assert "--sat-solver applies to the back ends with option 'solver' (sat, sat-naive)" in (
        result.output
    )


def test_unknown_sat_solver_is_bad_input() -> None:
    result = invoke("check", TUTORIAL_4X4, "--backend", "sat", "--sat-solver", "nosuch")
    assert result.exit_code == 2
    assert result.stderr.startswith("cp-sudoku: error: ") and "nosuch" in result.stderr


# --- solve ---------------------------------------------------------------------------------


def test_solve_example_reads_like_the_tutorial() -> None:
    result = invoke("solve", "--example", "--backend", "backtrack-plain")
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    assert out[0].split() == ["Puzzle", "Solution"]
    assert out[1] == "5 3 . | . 7 . | . . .    5 3 4 | 6 7 8 | 9 1 2"
    # the tutorial's figure, from the back end's own statistics (tries to the first solution)
    assert any(
        line.startswith("  backtrack-plain: unique") and "first tries 4,208" in line for line in out
    )
    assert "Unique: exactly one solution." in out


def test_solve_shows_time_and_effort_for_the_other_back_ends() -> None:
    result = invoke("solve", EASTER, "--backend", "sat", "--backend", "cpsat")
    assert result.exit_code == 0
    assert re.search(
        r"^  sat: unique in [\d.,]+ ms \(variables \d+, clauses [\d,]+", result.stdout, re.M
    )
    assert re.search(r"^  cpsat: unique in [\d.,]+ ms \(branches [\d,]+", result.stdout, re.M)


def test_solve_stopped_before_any_statistic_shows_no_empty_brackets() -> None:
    # a fresh process: sat has compiled nothing yet, so it stops while compiling, before
    # it has a variable to count (in this process an earlier test may have compiled it)
    result = run("solve", EASTER, "--backend", "sat", "--time-limit", "1e-9")
    assert result.returncode == 3, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("  sat: "))
    assert re.fullmatch(r"  sat: unknown in [\d.,]+ ms", line), line
    assert "Unknown: stopped (sat: " in result.stdout


def test_solve_large_grid_in_its_alphabet(data: Path) -> None:
    path = data / "sudoku-large" / "sudoku16x16_hard.txt"
    refused = invoke("solve", str(path), "--backend", "sat")
    assert refused.exit_code == 2 and "--alphabet" in refused.stderr
    result = invoke("solve", str(path), "--backend", "sat", "--alphabet", "0-9A-F")
    assert result.exit_code == 0
    assert result.stdout.count("Unique: exactly one solution.") == 3
    first_row = result.stdout.splitlines()[2]  # after the label and the headings
    assert first_row.startswith("A . . 0 | 5 . 9 2 | . . C . | D . . .")


def test_solve_multiple_and_none() -> None:
    multiple = invoke("solve", THREE_SOLUTIONS, "--backend", "sat")
    assert multiple.exit_code == 1
    assert (
        "Multiple: at least 2 solutions (search stopped at the limit); "
        "two are shown, differing cells in []." in multiple.stdout
    )
    # which two of the three solutions sat finds first may change; these two swap 1 and 2
    assert re.search(
        r"Differ at 4 cells: r1c3 \(([12]) \| ([12])\), r1c4 \(\2 \| \1\), "
        r"r4c3 \(\2 \| \1\), r4c4 \(\1 \| \2\)",
        multiple.stdout,
    )
    none = ".876543212........3........4........5........6........7........8........9........"
    result = invoke("solve", none, "--backend", "sat")
    assert result.exit_code == 1
    assert "None: the puzzle has no solution" in result.stdout  # then the clash, if seen


# --- count, compare, export ----------------------------------------------------------------


def test_count_exact_and_stopped_at_the_limit() -> None:
    exact = invoke("count", THREE_SOLUTIONS, "--limit", "10")
    assert exact.exit_code == 1
    assert exact.stdout == "3 solutions (exact: sat and kernel finished the search)\n"
    stopped = invoke("count", THREE_SOLUTIONS, "--limit", "2", "--backend", "sat")
    assert stopped.stdout == "at least 2 solutions (stopped at the limit 2; raise --limit)\n"
    unique = invoke("count", TUTORIAL_4X4)
    assert (unique.exit_code, unique.stdout) == (
        0,
        "1 solution (exact: sat and kernel finished the search)\n",
    )


def test_count_the_empty_4x4_as_json() -> None:
    result = invoke("count", "." * 16, "--limit", "1000", "--backend", "sat", "--json")
    record = json.loads(result.stdout)
    assert (record["count"], record["exact"], record["limit"]) == (288, True, 1000)
    assert record["backends"]["sat"]["complete"] is True


def test_compare_has_one_row_per_back_end() -> None:
    result = invoke("compare", EASTER)
    assert result.exit_code == 0
    rows = {line.split()[1]: line for line in result.stdout.splitlines() if "│ unique" in line}
    assert set(rows) == {"cpsat", "sat", "kernel"}
    assert "conflicts" in rows["sat"] and "clauses" in rows["sat"]
    assert "constraints" in rows["cpsat"]
    assert "tries" in rows["kernel"]


def test_compare_of_bad_input_is_one_line_without_an_empty_table() -> None:
    """It printed the table of every back end with no status and 0.00 s, then the error."""
    result = invoke("compare", "..x.")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("cp-sudoku: error: ") and len(result.stderr.splitlines()) == 1


def test_compare_sums_over_a_file(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path, EASTER, ANTI_BACKTRACK)
    result = invoke("compare", str(path), "--backend", "sat")
    assert result.exit_code == 0
    assert "2 unique" in result.stdout


def test_export_dimacs_with_variable_map(tmp_path: Path) -> None:
    out = tmp_path / "tutorial.cnf"
    result = invoke(
        "export", TUTORIAL_4X4, "--to", "dimacs", "--encoding", "extended", "-o", str(out)
    )
    assert result.exit_code == 0
    text = out.read_text().splitlines()
    assert text[0].startswith("c cp_sudoku direct encoding")
    assert "c 1 r1c1 = 1" in text
    header = next(line for line in text if line.startswith("p cnf"))
    variables, clauses = map(int, header.split()[2:])
    body = [line for line in text if not line.startswith(("c", "p"))]
    assert len(body) == clauses and all(line.endswith(" 0") for line in body)
    assert variables == 64


def test_export_cpsat_text_proto() -> None:
    result = invoke("export", TUTORIAL_4X4, "--to", "cpsat")
    assert result.exit_code == 0
    assert result.stdout.startswith("variables {")
    assert 'name: "r1c1"' in result.stdout


def test_export_needs_exactly_one_puzzle(tmp_path: Path) -> None:
    path = puzzle_file(tmp_path, EASTER, EASTER)
    result = invoke("export", str(path), "--to", "dimacs")
    assert result.exit_code == 2
    assert f"export takes one puzzle; {path} holds 2" in result.stderr


# --- check ---------------------------------------------------------------------------------


def test_check_json_lines_with_the_documented_keys() -> None:
    result = invoke("check", "-", "--json", "--jobs", "1", stdin=f"{EASTER}\n..x.\n")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["unique", "invalid"]
    first = records[0]
    assert first["solution"] == EASTER_SOLUTION and first["agree"] is True
    assert set(first["backends"]) == {"sat", "kernel"}  # the default on a classic puzzle
    assert all({"status", "seconds"} <= set(b) for b in first["backends"].values())
    assert result.exit_code == 2


def test_check_runs_cpsat_by_default_only_where_the_kernel_declines() -> None:
    killer = invoke("check", str(MODELS / "killer-9x9-wikipedia.txt"), "--json")
    record = json.loads(killer.stdout)
    assert record["status"] == "unique" and record["declined"] == ["kernel"]
    assert list(record["backends"]) == ["cpsat", "sat", "kernel", "backtrack"]
    named = invoke("check", EASTER, "--json", *("--backend", "cpsat", "--backend", "sat"))
    assert list(json.loads(named.stdout)["backends"]) == ["cpsat", "sat"]  # named: each runs


def test_matches_stated_for_multiple_says_the_stated_grid_is_one_of_the_solutions(
    tmp_path: Path,
) -> None:
    """A multiple puzzle with one of its solutions stated: true (no contradiction; the status
    says it is not the only one); with a grid that breaks a rule: false, with the mismatch."""
    one_of_three = "3412123421434321"  # r3c1=2: the first solution solve shows
    broken = "3412123421434312"  # r4c3 and r4c4 swapped: 2 twice in column 4
    rows = ["quizzes,solutions", *(f"{THREE_SOLUTIONS},{grid}" for grid in (one_of_three, broken))]
    result = invoke(
        "check", str(puzzle_file(tmp_path, *rows, name="m.csv")), "--json", "--jobs", "1"
    )
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in records] == ["multiple", "multiple"]
    assert [r["matches_stated"] for r in records] == [True, False]
    assert records[0]["mismatch"] is None
    assert records[1]["mismatch"].startswith("the stated solution is not a solution")
    assert result.exit_code == 3  # the contradicted one


def test_check_csv_reports_a_stated_solution_that_disagrees(tmp_path: Path) -> None:
    wrong = EASTER_SOLUTION[:-2] + EASTER_SOLUTION[-1] + EASTER_SOLUTION[-2]
    rows = ["quizzes,solutions", f"{EASTER},{EASTER_SOLUTION}", f"{EASTER},{wrong}"]
    path = puzzle_file(tmp_path, *rows, name="kaggle.csv")
    result = invoke("check", str(path), "--json", "--jobs", "1")
    assert result.exit_code == 3
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["matches_stated"] for r in records] == [True, False]
    assert f"cp-sudoku: MISMATCH at {path}:3: the stated solution is not a solution" in (
        result.stderr
    )


def test_jobs_2_output_is_in_input_order_and_equals_jobs_1(data: Path, tmp_path: Path) -> None:
    text = lines(data / "sudoku" / "magictour-top1465.txt", 30, step=41)
    text[7] = text[7] + "."
    path = puzzle_file(tmp_path, *text)

    def without_times(output: str) -> list[list[str]]:
        return [line.split()[:3] for line in output.splitlines()]

    one = invoke("check", str(path), "--jobs", "1")
    two = invoke("check", str(path), "--jobs", "2")
    assert one.exit_code == two.exit_code == 2
    assert without_times(one.stdout) == without_times(two.stdout)
    assert [row[0] for row in without_times(two.stdout)] == [f"{path}:{n}" for n in range(1, 31)]
    assert without_times(two.stdout)[7] == [f"{path}:8", "invalid"]


@pytest.mark.parametrize("unique", [190, pytest.param(990, marks=pytest.mark.slow)])
def test_a_thousand_puzzles_end_to_end(data: Path, tmp_path: Path, unique: int) -> None:
    text = lines(data / "sudoku" / "royle-17clue.txt", unique, step=47)
    text += lines(data / "sudoku" / "serg-benchmark-multi.txt", 10, step=997)
    total = unique + 10
    path = puzzle_file(tmp_path, f"# {unique} unique, then 10 with several solutions", *text)
    done = run("check", str(path), "--json", "--jobs", "2")
    assert done.returncode == 1, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["line"] for r in records] == list(range(2, total + 2))
    assert Counter(r["status"] for r in records) == {"unique": unique, "multiple": 10}
    assert all(r["agree"] for r in records)
    table = dict(re.findall(r"^\W*(unique|multiple|total)\W+([\d,]+)", done.stderr, re.M))
    assert table == {"unique": str(unique), "multiple": "10", "total": f"{total:,}"}
    assert f"{total:,} puzzles in" in done.stderr


# --- Interactive entry ---------------------------------------------------------------------


class Terminal:
    """``cp-sudoku ARGS`` on a pseudo-terminal: type lines, read until a marker."""

    def __init__(self, *args: str) -> None:
        self.fd, child = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cp_sudoku.cli", *args],
            stdin=child,
            stdout=child,
            stderr=child,
            close_fds=True,
        )
        # Kept open here too: once every slave fd is closed, Linux may drop unread output.
        self.child = child
        self.seen = ""

    def until(self, marker: str, timeout: float = 60) -> str:
        """Everything shown up to and including ``marker``."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.seen += os.read(self.fd, 4096).decode()
                except OSError:  # the program closed the terminal
                    break
        assert marker in self.seen, self.seen
        end = self.seen.index(marker) + len(marker)
        shown, self.seen = self.seen[:end], self.seen[end:]
        return shown

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.fd)
        os.close(self.child)


def test_interactive_entry_through_a_pseudo_terminal() -> None:
    terminal = Terminal("solve", "--box", "2x2", "--backend", "sat")
    try:
        terminal.until("Row 1: ")
        terminal.type("....")
        terminal.until("Row 2: ")
        terminal.type(". . 1 2 3")  # one symbol too many
        hint = terminal.until("Row 2: ")
        assert "That row does not fit: column 9: a row has 4 symbols, got 5." in hint
        terminal.type(". . | 1 2")
        terminal.until("Row 3: ")
        terminal.type("2..4")
        terminal.until("Row 4: ")
        terminal.type(".4..")
        shown = terminal.until("Unique: exactly one solution.")
        assert ". . | 1 2    4 3 | 1 2" in shown
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()


def test_interactive_entry_accepts_a_whole_puzzle_on_one_line() -> None:
    terminal = Terminal("solve", "--backend", "sat")
    try:
        terminal.until("Row 1: ")
        terminal.type(EASTER)
        shown = terminal.until("Unique: exactly one solution.")
        assert "1 . . | . . . | . . 2    1 7 4 | 3 8 5 | 9 6 2" in shown
        assert terminal.process.wait(timeout=30) == 0
    finally:
        terminal.close()


def test_targets_that_are_not_puzzle_files(tmp_path: Path) -> None:
    # in-process: the messages and exit codes (the subprocess tests above cover the process)
    done = invoke("check", str(tmp_path))
    assert done.exit_code == 2
    assert done.stderr.startswith(f"cp-sudoku: error: {tmp_path} is a directory")
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf......122..4.4..\n")
    done = invoke("check", str(bom), "--jobs", "1")
    assert done.exit_code == 0, done.output  # a UTF-8 BOM is skipped
    assert done.stdout.startswith(f"{bom}:1  unique")
    huge = tmp_path / "huge.txt"
    huge.write_text("." * 1_000_000 + "\n")
    done = invoke("check", str(huge), "--jobs", "1")
    assert done.exit_code == 2 and isinstance(done.exception, SystemExit), done.exception
    assert done.stderr.startswith("cp-sudoku: error: ") and "Traceback" not in done.stderr


def test_progress_lines_on_a_stderr_that_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from cp_sudoku.cli import progress

    monkeypatch.setattr(progress, "EVERY", 0.0)  # every advance is due
    said: list[str] = []
    ticker = progress.Ticker(said.append, lambda: 3)
    ticker.advance(1)
    ticker.advance(2)
    assert [line.split(",")[0] for line in said] == [
        "cp-sudoku: 1 of 3 puzzles",
        "cp-sudoku: 3 of 3 puzzles",
    ]
    assert all(line.endswith(" puzzles/s") for line in said)
    alone: list[str] = []
    progress.Ticker(alone.append, lambda: 1).advance(1)
    assert alone[0].startswith("cp-sudoku: 1 of 1 puzzle,")
    # resumed: an earlier run's puzzles count as done, but not in the rate
    resumed: list[str] = []
    ticker = progress.Ticker(resumed.append, lambda: 1465)
    ticker.earlier(184)
    ticker.start -= 2.0  # this run has gone on two seconds
    ticker.advance(10)
    count, rate = resumed[0].split(", ")
    assert count == "cp-sudoku: 194 of 1,465 puzzles"
    assert float(rate.removesuffix(" puzzles/s")) <= 5.0  # 10 in at least 2 s, not 194


def test_one_puzzle_has_one_summary_table_and_a_singular_noun() -> None:
    done = CliRunner().invoke(main, ["check", "..x.", "--jobs", "1"])
    assert done.exit_code == 2
    assert "Time per back end" not in done.stderr and done.stderr.count("Summary") == 1
    assert "1 puzzle in " in done.stderr
    good = CliRunner().invoke(main, ["check", "......122..4.4..", "--jobs", "1"])
    assert good.exit_code == 0 and "Time per back end" not in good.stderr
    assert "1 puzzle in " in good.stderr


@settings(max_examples=300, deadline=None)
@given(
    seconds=st.floats(min_value=0, max_value=20, allow_nan=False)
    | st.sampled_from([0.999, 0.9995, 0.99949, 1.0])
)
def test_ms_writes_a_time_as_the_grouped_format_does(seconds: float) -> None:
    """``ms`` skips the thousands grouping below 999 ms; its text is the grouped format's."""
    grouped = f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"
    assert ms(seconds) == grouped
