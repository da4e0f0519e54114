"""Input that used to end as an internal error (exit 70) is one located line and exit 2,
and the rest of the file still runs: huge integers, non-ASCII digits, deep JSON, long CSV
fields, KenKen targets past 2**63, a certificate's clash naming a cell twice, a NUL byte."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import model_text

from cp_sudoku.backends import get_backend
from cp_sudoku.cli import main
from cp_sudoku.io import read_text
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.model import PuzzleError
from cp_sudoku.numbers import MAX_DIGITS, is_number, read_number

HUGE = "9" * 5000  # over Python's 4,300-digit limit on reading an integer
#: A KenKen that is unique, run after each bad puzzle: it must still be checked.
GOOD = model_text("kenken-4x4-issue4.txt")
KILLER = "kind: killer\nsize: 4\ncages:\n{target}: r1c1,r1c2\n"
CELL = "kind: killer\nsize: 4\ncages:\n3: r{row}c1,r1c2\n"
KAKURO = (
    "kind: kakuro\ngrid:\nx   x   x   6\\  3\\\nx   4\\  3\\3 _   _\n"
    "\\{clue} _   _   _   _\n\\3  _   _   x   x\n"
)
SKYSCRAPERS = "kind: skyscrapers\nsize: 5\nbottom: {clue} . . 2 2\nleft: . 3 . 2 .\n"
BOX = "kind: sudoku\nbox: {box}x2\ngrid:\n....\n....\n....\n....\n"
KENKEN = GOOD.replace("2* r1c2 r1c1 r2c1", "{target}* r1c2 r1c1 r2c1")
#: One digit 3 of several Unicode classes: str.isdigit is true for each, and int() reads
#: all but the superscript and the circled one; none is an ASCII digit.
DIGITS = {
    "superscript": "\u00b3",
    "arabic-indic": "\u0663",
    "extended arabic-indic": "\u06f3",
    "devanagari": "\u0969",
    "fullwidth": "\uff13",
    "mathematical bold": "\U0001d7d1",
    "circled": "\u2462",
}


def run_file(tmp_path: Path, text: str, *args: str, name: str = "puzzles.txt"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["check", str(path), "--jobs", "1", *args, "--json"])


def assert_bad_then_good(result, says: str) -> None:  # type: ignore[no-untyped-def]
    """Exit 2, one error line naming the problem, and the good puzzle after it unique."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("cp-sudoku: error")]
    assert len(errors) == 1, result.stderr
    assert says in errors[0], errors[0]
    assert len(errors[0]) < 400  # a huge number is cut, not printed whole
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [r["status"] for r in records] == ["invalid", "unique"]


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        (KILLER.format(target=HUGE), "a cage target has 5,000 digits, over the limit of 4,000"),
        (CELL.format(row=HUGE), "a number has 5,000 digits"),
        (KAKURO.format(clue=HUGE), "unexpected Kakuro square"),
        (SKYSCRAPERS.format(clue=HUGE), "expected a number of at most 18 digits"),
        (BOX.format(box=HUGE), "expected 'box: RxC'"),
        (f"kind: kenken\nsize: {HUGE}\ncages:\n1 r1c1\n", "expected 'size: N' with 1 <= N <= 100"),
    ],
    ids=["cage target", "cell", "kakuro clue", "skyscrapers clue", "box", "size"],
)
def test_integers_of_any_size_are_one_line(tmp_path: Path, bad: str, says: str) -> None:
    assert_bad_then_good(run_file(tmp_path, bad + GOOD), says)


@pytest.mark.parametrize("digit", DIGITS.values(), ids=DIGITS.keys())
@pytest.mark.parametrize(
    ("template", "says"),
    [
        (KILLER.format(target="{d}"), "expected a cage such as"),
        (CELL.format(row="{d}"), "expected a cell such as r1c2"),
        (KAKURO.format(clue="{d}"), "unexpected Kakuro square"),
        (SKYSCRAPERS.format(clue="{d}"), "unexpected clue"),
        (BOX.format(box="{d}"), "expected 'box: RxC'"),
        (KENKEN.format(target="{d}"), "expected a cage such as"),
    ],
    ids=["cage target", "cell", "kakuro clue", "skyscrapers clue", "box", "kenken target"],
)
def test_unicode_digits_are_never_numbers(
    tmp_path: Path, digit: str, template: str, says: str
) -> None:
    assert_bad_then_good(run_file(tmp_path, template.replace("{d}", digit) + GOOD), says)


@pytest.mark.parametrize("digit", DIGITS.values(), ids=DIGITS.keys())
def test_unicode_digits_in_a_grid_line_are_located(digit: str) -> None:
    (entry,) = read_text("." * 15 + digit)
    assert entry.puzzle is None
    assert entry.error is not None and entry.error.column == 16


def test_numbers_read_ascii_digits_only_and_at_most_18() -> None:
    assert read_number("0" * 40 + "1" * MAX_DIGITS) == int("1" * MAX_DIGITS)
    assert all(not is_number(d) for d in DIGITS.values())
    for text in ("1" * (MAX_DIGITS + 1), "\u0663", "", "-1", "1 2", HUGE):
        with pytest.raises(PuzzleError):
            read_number(text)


def test_a_target_of_more_than_4000_digits_from_python_is_a_puzzle_error() -> None:
    cells = [(0, 0), (0, 1)]
    with pytest.raises(PuzzleError, match="targets have at most 4,000 digits"):
        kenken(2, [(10**5000, "*", cells), (3, "+", [(1, 0), (1, 1)])])


@pytest.mark.parametrize("target", [2**63, 2**64, 10**3999])
def test_a_kenken_target_past_2_63_out_of_reach_is_none_on_every_back_end(
    tmp_path: Path, target: int
) -> None:
    result = run_file(tmp_path, KENKEN.format(target=target), "--backend", "cpsat",
                      "--backend", "mip", "--backend", "sat")  # fmt: skip
    (record,) = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert record["status"] == "none", result.output
    assert "no values 1..4 give" in record["reason"]


def test_a_reachable_target_past_2_63_is_one_line() -> None:
    n = 20
    wide = [(0, c) for c in range(15)]  # 20**15 > 2**63: the target is within reach
    cages = [(2**63, "*", wide)]
    cages += [(1, "=", [(r, c)]) for r in range(n) for c in range(n) if (r, c) not in wide]
    puzzle = kenken(n, cages)
    with pytest.raises(PuzzleError, match="no back end here takes targets over 18 digits"):
        get_backend("cpsat").solve(puzzle)


def test_a_target_that_fits_runs_on_every_back_end(tmp_path: Path) -> None:
    result = run_file(
        tmp_path,
        KENKEN.format(target=10**MAX_DIGITS - 1),
        *("--backend", "cpsat", "--backend", "sat", "--backend", "mip"),
    )
    (record,) = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert record["status"] == "none", result.output  # no cells multiply to 10**18 - 1


def test_a_csv_field_over_131072_characters_is_one_line(tmp_path: Path) -> None:
    text = "puzzle\n" + "." * 200_000 + "\n" + "......122..4.4..\n"
    result = run_file(tmp_path, text, name="puzzles.csv")
    assert result.exit_code == 2
    (error,) = [line for line in result.stderr.splitlines() if "error" in line]
    assert "puzzles.csv:2: not CSV this reader takes: field larger than field limit" in error
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(r["line"], r["status"]) for r in records] == [(2, "invalid"), (3, "unique")]


#: A CSV of 40 rows (lines 2-41) whose line 7 opens a quote in its note field (column 18)
#: that never closes: the csv module took lines 7-41 as one record, checked line 7's puzzle
#: and reported it at line 41, and lines 8-40 had no output line (exit 0).
UNCLOSED = "puzzle,note\n" + "".join(
    '......122..4.4..,"open\n' if line == 7 else "......122..4.4..,ok\n" for line in range(2, 42)
)
UNCLOSED_ERROR = (
    "puzzles.csv:7:18: not CSV this reader takes: a quoted field never closes (the input "
    "ends inside it; it would take this line and the 34 lines after it, which are read as rows)"
)


@pytest.mark.parametrize(
    "how", [(), ("--jobs", "2", "--slice-lines", "3", "--output", "{out}")], ids=["read", "sliced"]
)
def test_a_csv_quote_that_never_closes_is_reported_where_it_opens(
    tmp_path: Path, how: tuple[str, ...]
) -> None:
    out = tmp_path / "out.jsonl"
    result = run_file(tmp_path, UNCLOSED, *(a.format(out=out) for a in how), name="puzzles.csv")
    assert result.exit_code == 2, result.output
    (error,) = [line for line in result.stderr.splitlines() if "error" in line]
    assert error.endswith(UNCLOSED_ERROR), error
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(r["line"], r["status"]) for r in records] == [
        (line, "invalid" if line == 7 else "unique") for line in range(2, 42)
    ]


def test_a_csv_quote_refused_past_the_field_limit_is_reported_where_it_opens(
    tmp_path: Path,
) -> None:
    # 117 characters a line: the quoted field passes the csv module's 131,072 characters
    # about 1,120 lines on, before the input ends
    row = "......122..4.4..," + "n" * 100 + "\n"
    text = 'puzzle,note\n......122..4.4..,"open\n' + row * 1500
    result = run_file(tmp_path, text, name="x.csv")
    assert result.exit_code == 2, result.output
    (error,) = [line for line in result.stderr.splitlines() if "error" in line]
    assert "x.csv:2:18: not CSV this reader takes: a quoted field never closes (field " in error
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(r["line"], r["status"]) for r in records] == [(2, "invalid")] + [
        (line, "unique") for line in range(3, 1503)
    ]


def puzzlekit(entries: dict[str, str]) -> str:
    data = {key: {"problem": problem, "solution": None} for key, problem in entries.items()}
    return json.dumps({"count_sol": 1, "name": "KillerSudoku", "data": data}, indent=1)


KILLER_2 = "4 4\n3 - 7 -\n7 - 3 -\n3 - 7 -\n7 - 3 -\n1 1 2 2\n3 3 4 4\n5 5 6 6\n7 7 8 8"


def test_puzzlekit_json_bad_numbers_leave_the_other_entries(tmp_path: Path) -> None:
    bad = KILLER_2.replace("3 - 7 -", f"{HUGE} - 7 -", 1)
    arabic = KILLER_2.replace("3 - 7 -", "\u0663 - 7 -", 1)
    path = tmp_path / "killer.json"
    path.write_text(puzzlekit({"huge": bad, "arabic": arabic, "ok": KILLER_2}))
    result = CliRunner().invoke(main, ["check", str(path), "--jobs", "1", "--json"])
    assert result.exit_code in (1, 2), result.output
    assert "internal error" not in result.output
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [r["status"] for r in records][:2] == ["invalid", "invalid"]
    assert records[2]["status"] == "multiple"
    assert "over the limit of 18" in records[0]["error"]


@pytest.mark.parametrize(
    "text",
    [
        '{"count_sol": 1, "name": "KenKen", "data": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"count_sol": 1, "name": "KenKen", "data": {}, "x": ' + HUGE + "}",
    ],
    ids=["nested", "huge integer"],
)
def test_puzzlekit_json_too_deep_or_too_long_is_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "kenken.json"
    path.write_text(text)
    result = CliRunner().invoke(main, ["check", str(path), "--jobs", "1"])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()[:1]
    assert line.startswith(f"cp-sudoku: error: {path}")
    assert "not JSON this reader takes" in line


def test_a_nul_byte_in_a_file_name_is_one_line(tmp_path: Path) -> None:
    for args in (
        ["check", "a\x00b.txt"],
        ["verify", "a\x00b.cert.json"],
        ["prove", "......122..4.4..", "--out", str(tmp_path / "a\x00b")],
        ["check", "......122..4.4..", "--output", str(tmp_path / "a\x00b.parquet")],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, (args, result.output)
        assert (
            result.stderr.splitlines() == [result.stderr.splitlines()[0]]
            and "NUL byte" in result.stderr
        )


# --- Memory in proportion to the input --------------------------------------------------------

#: The address space the worst inputs run in (``ulimit -v``): 2 GiB.
ADDRESS_SPACE = 2 * 1024**3


def _check_limited(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``cp-sudoku check PATH --jobs 1 OPTIONS`` in a process limited to :data:`ADDRESS_SPACE`."""
    return _limited("check", str(path), "--jobs", "1", *options)


def _limited(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``cp-sudoku ARGUMENTS`` in a process limited to :data:`ADDRESS_SPACE`.

    ``RLIMIT_AS`` set in the child before it starts Python (what ``ulimit -v`` sets): the
    interpreter with every solver library loaded maps about 440 MiB of it.
    """

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.run(
        [sys.executable, "-m", "cp_sudoku.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=limit,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )


@pytest.mark.parametrize(
    ("first", "says"),
    [
        pytest.param(  # 5 s of CPU: slow
            "." * 10_000_000 + "\n",
            "a line of 10,000,000 characters, over the 131,072",
            marks=pytest.mark.slow,
        ),
        (
            "kind: kakuro\ngrid:\n" + ("x " + "_ " * 999 + "\n") * 1000,
            "a Kakuro has at most 100 rows of 100 squares",
        ),
        (  # the rule listed its 10**22 cells before the size was checked: all memory
            BOX.format(box=2) + "constraints:\nantiknight 99999999999 99999999999\n",
            "antiknight: a grid of 99999999999x99999999999 cells: expected 1 to 100",
        ),
    ],
    ids=["10 MB line", "1000x1000 kakuro", "antiknight of 10**22 cells"],
)
def test_the_worst_inputs_run_in_2_gib(tmp_path: Path, first: str, says: str) -> None:
    path = tmp_path / "big.txt"
    good = "......122..4.4..\n" if first.startswith(".") else GOOD
    path.write_text(first + good)
    result = _check_limited(path)
    assert result.returncode == 2, result.stderr[-2000:]
    assert says in result.stderr
    assert "unique" in result.stdout  # the puzzle after it still ran


#: A 100 x 100 Skyscrapers of 440 bytes: its pairwise CNF would hold 150 million clauses
#: (it reached 6 GB and a MemoryError before the bounds).
SKYSCRAPERS_100 = (
    "kind: skyscrapers\nsize: 100\ntop: 1"
    + " ." * 49
    + " 10"
    + " ." * 49
    + "\nleft:"
    + " ." * 5
    + " 3"
    + " ." * 94
)


def test_a_cnf_past_its_bound_is_declined_in_2_gib(tmp_path: Path) -> None:
    """The quick representative: the sat back end estimates the CNF before writing it."""
    path = tmp_path / "skyscrapers.txt"
    path.write_text(SKYSCRAPERS_100)
    result = _check_limited(path, "--backend", "sat", "--json")
    assert result.returncode == 3, result.stderr[-2000:]
    (sat,) = json.loads(result.stdout)["backends"].values()
    assert sat["stopped"] == "declined"
    assert "148,530,000 clauses, over the bound of 4,000,000" in sat["reason"]


#: A 7 x 7 Skyscrapers of puzzlekit (its entry 102), heights 1 to 5: one binary per allowed
#: tuple of its clues made a MIP of 18.6 million nonzeros (600 MB of rows in Python).
SKYSCRAPERS_7 = """kind: skyscrapers
size: 7
heights: 5
top: 2 1 2 3 3 1 2
bottom: 3 5 2 1 1 3 2
left: 2 1 3 3 2 3 3
right: 2 4 2 3 3 1 3
"""


def test_a_mip_past_a_lowered_nonzero_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default run's representative of the test below (two processes of 3 s of CPU
    each: the 7 x 7's first clue table alone is a million nonzeros): the same two commands
    in this process, on the 5 x 5 Skyscrapers model (1,910 nonzeros) with the bound
    lowered to 1,000, so the MIP stops on its way as the 7 x 7's does at 3 million."""
    import cp_sudoku.encodings.mip as mip_module

    monkeypatch.setattr(mip_module, "MAX_MIP_NONZEROS", 1000)
    path = tmp_path / "skyscrapers.txt"
    path.write_text(model_text("skyscrapers-5x5.txt"))
    says = "the MIP would hold at least"
    out = tmp_path / "x.mps"
    exported = CliRunner().invoke(main, ["export", str(path), "--to", "mps", "-o", str(out)])
    assert exported.exit_code == 2 and says in exported.stderr, exported.output
    assert "over the bound of 1,000 (docs/backends.md" in exported.stderr
    assert exported.stderr.count("\n") == 1 and not out.exists()
    checked = CliRunner().invoke(
        main, ["check", str(path), "--jobs", "1", "--backend", "mip", "--json"]
    )
    assert checked.exit_code == 3, checked.output
    (mip,) = json.loads(checked.stdout)["backends"].values()
    assert mip["stopped"] == "declined" and says in mip["reason"]


@pytest.mark.slow  # two processes of 3 s of CPU each; the test above is the default's
def test_a_mip_past_its_nonzeros_is_refused_in_2_gib(tmp_path: Path) -> None:
    """``export --to mps`` of 100 bytes ended in a ``MemoryError`` (exit 70) after 25 s, and
    the ``mip`` back end ran 55 s into SCIP's "insufficient memory"; now the MIP stops at
    its bound of nonzeros: exit 2 from the exporter, a decline from the back end."""
    path = tmp_path / "skyscrapers.txt"
    path.write_text(SKYSCRAPERS_7)
    exported = _limited("export", str(path), "--to", "mps", "-o", str(tmp_path / "x.mps"))
    says = "the MIP would hold at least"
    assert exported.returncode == 2 and says in exported.stderr, exported.stderr[-2000:]
    assert "over the bound of 3,000,000 (docs/backends.md" in exported.stderr
    result = _check_limited(path, "--backend", "mip", "--json")
    assert result.returncode == 3, result.stderr[-2000:]
    (mip,) = json.loads(result.stdout)["backends"].values()
    assert mip["stopped"] == "declined" and says in mip["reason"]


def _jigsaw_100() -> str:
    rows = [" ".join(str(c + 1) for c in range(100))] + [" ".join("0" * 100)] * 99
    regions = [" ".join(str(r // 10 * 10 + c // 10) for c in range(100)) for r in range(100)]
    return "\n".join(["kind: jigsaw", "alphabet: numbers", "grid:", *rows, "regions:", *regions])


def _kenken_100() -> str:
    cells = " ".join(f"r{r}c{c}" for r in range(1, 101) for c in range(1, 101))
    return f"kind: kenken\nsize: 100\ncages:\n{100 * 5050}? {cells}\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [SKYSCRAPERS_100, _jigsaw_100(), _kenken_100()],
    ids=["100x100 skyscrapers", "100x100 jigsaw", "100x100 kenken, one ? cage"],
)
def test_the_largest_grids_run_in_2_gib(tmp_path: Path, text: str) -> None:
    """Every default back end answers (here ``unknown``: declined past its bound, or out of
    time) in a 2 GiB address space, within twice the time limit plus start-up."""
    path = tmp_path / "big.txt"
    path.write_text(text + "\n")
    result = _check_limited(path, "--json", "--time-limit", "5")
    assert result.returncode == 3, result.stderr[-2000:]
    record = json.loads(result.stdout)
    assert record["status"] == "unknown"
    for name, backend in record["backends"].items():
        assert backend["stopped"] in ("declined", "time limit"), (name, backend)
        assert backend["seconds"] < 10, (name, backend)
