"""Hypothesis fuzzing of every reader and of the command line (issue 13).

Inputs: random bytes; the model files and a few line/CSV/grid samples with
random edits (characters deleted, doubled or swapped, lines cut short, huge
numbers, odd Unicode); random variant files.  The promises: never a
traceback or an internal error; every entry is a puzzle or a located error
(its source and line set); the CLI's exit code is 0, 1, 2 or 3, and 2 only
for input faults (an ``invalid`` record or a one-line error naming the input).

Numbers and nesting (issue 20): every place a number is written (cage target,
cell, Kakuro and Skyscrapers clue, ``box:``, ``size:``, puzzlekit JSON) gets
integers of every size (up to 6,000 digits), every Unicode character that
Python calls a digit or numeric, and mixtures; JSON nested up to 100,000
deep with integers of up to 6,000 digits; CSV fields past 131,072 characters.
The promise: a puzzle or a located error, and a non-ASCII digit is never a
number.

300 examples per test by default (100 for the command line, 30 for the long CSV
fields); the slow group runs 10,000 (100,000 for the in-process number fuzzer).
Findings (inputs that failed, each kept as a plain test) are listed in docs/cli.md.
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cp_sudoku.cli import main
from cp_sudoku.io import READERS, read_file, read_text
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
#: The in-process fuzzer of numbers (no solver runs) in the slow group.
MANY = settings(DEFAULT, max_examples=100_000)


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


@settings(DEFAULT, max_examples=min(DEFAULT.max_examples, 100))  # a solve each: 10 ms
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


# --- Numbers, Unicode digits, nesting, long fields (issue 20) ----------------------------------

#: Every character other than 0-9 that Python's str.isdigit, isdecimal or isnumeric accepts
#: (each Unicode decimal digit block, superscripts, circled and fraction numbers, ...).
#: (isdecimal and isdigit accept subsets of what isnumeric accepts.)
DIGIT_LIKE = [ch for ch in map(chr, range(128, sys.maxunicode + 1)) if ch.isnumeric()]
#: Where a variant file writes a number: ``{n}`` is replaced by the fuzzed text.
NUMBER_PLACES = [
    "kind: killer\nsize: 4\ncages:\n{n}: r1c1,r1c2\n",
    "kind: kenken\nsize: 4\ncages:\n{n}* r1c1 r1c2\n",
    "kind: killer\nsize: 4\ncages:\n3: r{n}c1,r1c2\n",
    "kind: killer\nsize: 4\ncages:\n3: r1c{n} r1c2\n",
    "kind: kakuro\ngrid:\nx {n}\\ 3\\\n\\{n} _ _\n\\3 _ _\n",
    "kind: skyscrapers\nsize: 4\ntop: {n} . . 2\n",
    "kind: sudoku\nbox: {n}x2\ngrid:\n....\n....\n....\n....\n",
    "kind: sudoku\nsize: {n}\n",
    "{n}{n}..",
]
ascii_numbers = st.one_of(
    st.integers(0, 100).map(str),
    st.integers(0, 2**64 + 10).map(str),
    st.integers(10**17, 10**19).map(str),
    st.integers(1, 6000).map(lambda k: "9" * k),  # past 4,300: Python's int() refuses
    st.integers(1, 40).map(lambda k: "0" * k + "7"),
)
unicode_digits = st.text(st.sampled_from(DIGIT_LIKE), min_size=1, max_size=30)
mixed_numbers = st.lists(
    st.one_of(st.sampled_from("0123456789"), st.sampled_from(DIGIT_LIKE)), min_size=1, max_size=25
).map("".join)
numbers = st.one_of(ascii_numbers, unicode_digits, mixed_numbers)


def _entries_of(text: str) -> list[object]:
    """Every entry of ``text``: each a puzzle or a located error, or the whole text refused."""
    try:
        entries = list(read_text(text, "<fuzz>"))
    except CpSudokuError as error:
        assert "<fuzz>" in str(error), error
        return []
    for entry in entries:
        assert (entry.puzzle is None) != (entry.error is None), entry
        if entry.error is not None:
            assert entry.error.source == "<fuzz>" and entry.error.line, entry.error
    return entries


def _numbers_case(place: str, number: str) -> None:
    entries = _entries_of(place.replace("{n}", number))
    if not number.isascii():  # a non-ASCII digit is never read as a number
        assert all(entry.puzzle is None for entry in entries), (place, number)  # type: ignore[attr-defined]


@st.composite
def nested_json(draw: st.DrawFn) -> str:
    """A puzzlekit-looking JSON text: nested arrays or objects (up to 100,000 deep), long
    integers (up to 6,000 digits) and long strings in its data."""
    depth = draw(st.one_of(st.integers(0, 50), st.integers(900, 1100), st.integers(0, 100_000)))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a": ', "}")]))
    leaf = draw(st.one_of(ascii_numbers, st.just('"' + "x" * 200_000 + '"'), st.just("null")))
    body = opener * depth + leaf + closer * depth
    kind = draw(st.sampled_from(["KenKen", "KillerSudoku", "Kakuro", "nothing"]))
    return f'{{"count_sol": 1, "name": "{kind}", "data": {{"e": {body}}}}}'


@st.composite
def long_csv(draw: st.DrawFn) -> str:
    """A CSV file with one field of 131,000 to 140,000 characters among good rows."""
    width = draw(st.integers(131_000, 140_000))
    rows = ["......122..4.4.."] * draw(st.integers(0, 3))
    rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(".1x\u0663")) * width)
    return "puzzle\n" + "\n".join(rows) + "\n"


def test_no_unicode_digit_is_a_number_anywhere() -> None:
    """Every Unicode decimal digit block (its digit 3) and every other digit-like
    character, in every place a number is written: an error, never a number."""
    threes = [ch for ch in DIGIT_LIKE if unicodedata.category(ch) == "Nd" and ch.isdecimal()]
    threes = [ch for ch in threes if unicodedata.decimal(ch) == 3]
    assert len(threes) > 60  # one per block: Arabic-Indic, Devanagari, fullwidth, ...
    for ch in threes + [ch for ch in DIGIT_LIKE if not ch.isdecimal()]:
        for place in NUMBER_PLACES:
            _numbers_case(place, ch)


@DEFAULT
@given(place=st.sampled_from(NUMBER_PLACES), number=numbers)
def test_numbers_of_every_size_and_script_are_read_or_refused(place: str, number: str) -> None:
    _numbers_case(place, number)


@DEFAULT
@given(text=nested_json())
def test_nested_json_is_read_or_refused(tmp_path: Path, text: str) -> None:
    _read_all(_write(tmp_path, "fuzz.json", text), None)


@settings(DEFAULT, max_examples=min(DEFAULT.max_examples, 30))  # 130 KB each
@given(text=long_csv())
def test_long_csv_fields_are_one_entry_each(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, "fuzz.csv", text)
    _read_all(path, None)
    assert len(list(read_file(path))) == text.count("\n") - 1  # one entry per row


@pytest.mark.slow
@MANY
@given(place=st.sampled_from(NUMBER_PLACES), number=numbers)
def test_numbers_of_every_size_and_script_many(place: str, number: str) -> None:
    _numbers_case(place, number)


@pytest.mark.slow
@SLOW
@given(text=nested_json())
def test_nested_json_many(tmp_path: Path, text: str) -> None:
    _read_all(_write(tmp_path, "fuzz.json", text), None)
