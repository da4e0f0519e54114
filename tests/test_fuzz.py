"""Hypothesis fuzzing of every reader and of the command line (issue 13).

Inputs: random bytes; the model files and a few line/CSV/grid samples with
random edits (characters deleted, doubled or swapped, lines cut short, huge
numbers, odd Unicode); random variant files.  The promises: never a
traceback or an internal error; every entry is a puzzle or a located error
(its source and line set); the CLI's exit code is 0, 1, 2 or 3, and 2 only
for input faults (an ``invalid`` record or a one-line error naming the input).

300 examples per test by default; the slow group runs 10,000.  Findings (inputs
that failed, each kept as a plain test) are listed in docs/cli.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cp_sudoku.cli import main
from cp_sudoku.io import READERS, read_file
from cp_sudoku.model import CpSudokuError

MODELS = Path(__file__).resolve().parents[1] / "models"
SAMPLES = {
    "line.txt": "......122..4.4..\n34..12.....3....\n",
    "grid.txt": "1 . | . .\n. . | 3 .\n----+----\n. 4 | . .\n. . | . 2\n",
    "kaggle.csv": "quizzes,solutions\n......122..4.4..,4312124321343421\n",
    "sixteen.txt": "1 . . . . . . . . . . . . . . 16\n" * 16,
}
SEEDS = {**{p.name: p.read_text(encoding="utf-8") for p in sorted(MODELS.glob("*.txt"))}, **SAMPLES}
ODD = [
    "\u2212", "\u00d7", "\u00f7", "\u200b", "\ufeff", "\u0660", "\uff11", "\u0301", "\u202e",
    "\x00", "\r", "\t", "\u00a0", "\u2028", "é", "\U0001f600", "\\", "#", ";", ",", ":", "-",
]  # fmt: skip
HUGE = ["99999999999999999999", "1e400", "-0", "10**9", str(2**64)]
DEFAULT = settings(
    max_examples=int(os.environ.get("CP_SUDOKU_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = settings(DEFAULT, max_examples=10_000)


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """(file name, text): a seed file with a few random edits."""
    name = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[name]
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(["delete", "double", "swap", "cut", "huge", "odd"]))
        if edit == "delete":
            text = text[:at] + text[at + 1 :]
        elif edit == "double":
            text = text[:at] + text[at] + text[at:]
        elif edit == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2 :]
        elif edit == "cut":
            end = text.find("\n", at)
            text = text[:at] + (text[end:] if end >= 0 else "")
        elif edit == "huge":
            text = text[:at] + draw(st.sampled_from(HUGE)) + text[at:]
        else:
            text = text[:at] + draw(st.sampled_from(ODD)) + text[at:]
    return name, text


KINDS = ["sudoku", "killer", "kenken", "kakuro", "jigsaw", "x-sudoku", "windoku", "futoshiki"]


@st.composite
def variant(draw: st.DrawFn) -> tuple[str, str]:
    """(file name, text): a random variant file (kind, size, box, grid, cages lines)."""
    n = draw(st.sampled_from([1, 2, 3, 4, 6, 9]))
    lines = [f"kind: {draw(st.sampled_from(KINDS))}"]
    if draw(st.booleans()):
        lines.append(f"size: {draw(st.integers(0, 12))}")
    if draw(st.booleans()):
        lines.append(f"box: {draw(st.integers(0, 4))}x{draw(st.integers(0, 4))}")
    if draw(st.booleans()):
        symbols = st.sampled_from([".", "_", "x", *map(str, range(10)), "3\\4", "\\7", "12\\"])
        lines.append("grid:")
        for _ in range(draw(st.integers(0, n + 1))):
            lines.append(" ".join(draw(st.lists(symbols, min_size=0, max_size=n + 1))))
    if draw(st.booleans()):
        lines.append("cages:")
        cell = st.builds(lambda r, c: f"r{r}c{c}", st.integers(0, n + 1), st.integers(0, n + 1))
        for _ in range(draw(st.integers(0, 4))):
            target = draw(st.integers(0, 60))
            op = draw(st.sampled_from(["+", "-", "*", "/", "", "?", "x", "\u2212", ":"]))
            cells = draw(st.lists(cell, min_size=0, max_size=4))
            sep = draw(st.sampled_from([" ", ","]))
            lines.append(f"{target}{op} {sep.join(cells)}")
    return "fuzz.txt", "\n".join(lines) + "\n"


raw = st.tuples(st.just("random.txt"), st.binary(max_size=400))
texts = st.one_of(edited(), variant())


def _read_all(path: Path, format_: str | None) -> None:
    """Read every entry: each must be a puzzle or a located error."""
    try:
        for entry in read_file(path, format=format_):
            assert (entry.puzzle is None) != (entry.error is None), entry
            if entry.error is not None:
                assert entry.error.source and entry.error.line, entry.error
    except CpSudokuError as error:  # the whole input refused: says where
        assert str(path) in str(error) or "<" in str(error), error
    except (UnicodeDecodeError, OSError):
        pass  # the CLI turns these into one located line (see _check_cli)


def _check_cli(path: Path, *extra: str) -> None:
    result = CliRunner().invoke(
        main,
        ["check", str(path), "--json", "--jobs", "1", "--backend", "sat", "--time-limit", "5",
         *extra],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert "Traceback" not in result.output and "internal error" not in result.stderr, result.stderr
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.stderr)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    invalid = [r for r in records if r["status"] == "invalid"]
    errors = [line for line in result.stderr.splitlines() if line.startswith("cp-sudoku: error:")]
    if result.exit_code == 2:  # an input fault, said where
        assert invalid or (not records and len(errors) == 1), result.stderr
        assert all(str(path) in line for line in errors), errors
    else:
        assert not invalid and not errors, result.stderr


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


@DEFAULT
@given(case=st.one_of(raw, texts), format_=st.sampled_from([None, *sorted(READERS)]))
def test_readers_never_crash(
    tmp_path: Path, case: tuple[str, str | bytes], format_: str | None
) -> None:
    _read_all(_write(tmp_path, *case), format_)


@DEFAULT
@given(case=st.one_of(raw, texts))
def test_cli_never_crashes(tmp_path: Path, case: tuple[str, str | bytes]) -> None:
    _check_cli(_write(tmp_path, *case))


@pytest.mark.slow
@SLOW
@given(case=st.one_of(raw, texts), format_=st.sampled_from([None, *sorted(READERS)]))
def test_readers_never_crash_many(
    tmp_path: Path, case: tuple[str, str | bytes], format_: str | None
) -> None:
    _read_all(_write(tmp_path, *case), format_)


@pytest.mark.slow
@SLOW
@given(case=st.one_of(raw, texts))
def test_cli_never_crashes_many(tmp_path: Path, case: tuple[str, str | bytes]) -> None:
    _check_cli(_write(tmp_path, *case))
