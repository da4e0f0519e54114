"""The reading layer: the README's format block, hostile and odd input
(comments, bytes, separators, signs), errors at the right line, the API boundary, and the
puzzlekit collections against their stated solutions."""

from __future__ import annotations

import pickle
import re
import warnings
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest
from conftest import check_all
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku import parse_line, read_file, sudoku
from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.io import READERS, parse_text, read_text, to_text
from cp_sudoku.kinds import KINDS
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.model import Puzzle, PuzzleError, UsageError, is_solution, violations

ROOT = Path(__file__).resolve().parents[1]
LINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
PUZZLEKIT = ("Skyscraper", "KenKen", "KillerSudoku", "JigsawSudoku", "Kakuro")


def test_readme_variant_format_block_reads_as_printed() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"### The variant text format.*?```\n(.*?)```", readme, re.DOTALL)
    assert block and "#" in block.group(1), "the block has trailing comments"
    puzzle = parse_text(block.group(1), "README.md")
    assert crosscheck(puzzle, limit=2).status in ("unique", "multiple")


# ---------------------------------------------------------------- comments, bytes, separators


def test_trailing_comments_after_puzzle_lines_and_keys_are_ignored(tmp_path: Path) -> None:
    (a, b) = read_text(f"{LINE}  # from the tutorial\n{LINE}#not a comment: no space\n")
    assert a.puzzle is not None and a.puzzle.givens == parse_line(LINE).givens
    assert b.error is not None and "expected n*n symbols" in str(b.error)
    text = (
        "kind: kenken   # KenKen\nsize: 2 # two\ncages:  # below\n"
        "3+ r1c1 r1c2 # row\n3+ r2c1 r2c2\n"
    )
    assert parse_text(text).max_value == 2
    boxed = parse_text("kind: sudoku # six\nbox: 3x2   # tall boxes\ngrid:\n" + "......\n" * 6)
    assert boxed.box == (3, 2)


def test_a_latin1_byte_in_a_comment_keeps_the_puzzles_around_it(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.txt"
    path.write_bytes(f"{LINE}\n# caf\xe9 puzzle\n{LINE}  # na\xefve\n".encode("latin-1"))
    entries = list(read_file(path))
    assert [e.line for e in entries] == [1, 3]
    assert all(e.puzzle is not None for e in entries)


def test_a_byte_that_is_not_utf8_in_a_puzzle_names_file_and_line(tmp_path: Path) -> None:
    """One puzzle a line: that puzzle is refused and the others read; a grid, whose puzzle
    spans lines, stops the file there."""
    path = tmp_path / "puzzles.txt"
    path.write_bytes(f"{LINE}\n{LINE[:5]}\xe9{LINE[6:]}\n{LINE}\n".encode("latin-1"))
    entries = list(read_file(path))
    assert [(e.line, e.puzzle is not None) for e in entries] == [(1, True), (2, False), (3, True)]
    assert str(entries[1].error) == f"{path}:2:6: byte 0xE9 is not UTF-8: save the file as UTF-8"
    grid = tmp_path / "grid.txt"
    rows = [LINE[i : i + 9] for i in range(0, 81, 9)]
    rows[3] = rows[3][:2] + "\xe9" + rows[3][3:]
    grid.write_bytes(("\n".join(rows) + "\n").encode("latin-1"))
    with pytest.raises(PuzzleError, match=r"grid.txt:4:3: byte 0xE9 is not UTF-8"):
        list(read_file(grid, format="grid"))


def test_semicolon_csv_is_read_as_csv(tmp_path: Path) -> None:
    solution = crosscheck(parse_line(LINE)).solution
    assert solution is not None
    path = tmp_path / "puzzles.csv"
    path.write_text(f"quizzes;solutions\n{LINE};{''.join(map(str, solution))}\n")
    (entry,) = read_file(path)
    assert entry.puzzle is not None and entry.solution == solution


def test_unicode_minus_times_and_divide_are_operations() -> None:
    signs = parse_text("kind: kenken\nsize: 2\ncages: 1\u2212 r1c1 r1c2; 2\u00f7 r2c1 r2c2\n")
    plain = parse_text("kind: kenken\nsize: 2\ncages: 1- r1c1 r1c2; 2/ r2c1 r2c2\n")
    assert signs == plain


# ---------------------------------------------------------------- errors at the cage's line


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (
            "kind: kenken\nsize: 3\ncages:\n3+ r1c1 r1c2 r1c3\n1- r2c1 r2c2 r2c3\n",
            "5",
            "'-' takes exactly two cells",
        ),
        (
            "kind: killer\nsize: 4\ncages:\n3 r1c1 r1c2; 7 r1c3 r1c4\n7 r2c1 r2c2 r1c1\n",
            "5",
            "r1c1 is in two cages",
        ),
        ("kind: killer\nsize: 4\ncages:\n3 r1c1 r1c2\n7 r2c1 r9c9\n", "5", "r9c9, which is not"),
        ("kind: kenken\nsize: 2\ncages:\n3+ r1c1 r1c2\n2/ r2c1\n", "5", "a one-cell cage gives"),
    ],
)
def test_model_errors_point_at_the_cage_line(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as error:
        parse_text(text, "f.txt")
    assert str(error.value).startswith(f"f.txt:{where}: ")
    assert error.value.cells


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("kind: kakuro\ngrid:\nx 19\\\n\\3 _\nx _\n", "cage 19+"),
        ("kind: kakuro\ngrid:\nx x 2\\\nx \\2 _\nx \\3 _\n", "cage 2+"),
        (
            "kind: kenken\nsize: 3\ncages:\n"
            "2* r1c1 r1c2 r1c3\n6+ r2c1 r2c2 r2c3\n6+ r3c1 r3c2 r3c3\n",
            "2*",
        ),
        ("kind: sudoku\ngrid:\n11..\n....\n....\n....\n", "1 repeats at r1c1 and r1c2"),
    ],
)
def test_contradictory_clues_are_read_and_are_none(text: str, reason: str) -> None:
    (entry,) = read_text(text)
    assert entry.error is None and entry.puzzle is not None
    verdict = check_all(entry.puzzle)
    assert verdict.status == "none" and reason in (verdict.reason or "")


# ---------------------------------------------------------------- the API boundary

SMALL = "......122..4.4.."
SMALL_ROWS = [[0, 0, 0, 0], [0, 0, 1, 2], [2, 0, 0, 4], [0, 4, 0, 0]]


def test_grids_as_a_string_a_flat_sequence_or_rows() -> None:
    flat = [v for row in SMALL_ROWS for v in row]
    assert sudoku(SMALL) == sudoku(flat) == sudoku(SMALL_ROWS) == sudoku(tuple(flat))
    assert sudoku(SMALL, box=[2, 2]) == sudoku(SMALL)


def test_numpy_integers_are_accepted() -> None:
    numpy = pytest.importorskip("numpy")
    assert sudoku(numpy.array(SMALL_ROWS)) == sudoku(SMALL)
    assert sudoku(SMALL, box=numpy.array([2, 2])) == sudoku(SMALL)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: parse_line(None),
            "expected the puzzle as a string of n\\*n symbols, got NoneType",
        ),
        (lambda: parse_line(42), "got int"),
        (lambda: sudoku(None), "expected a grid as a string, a flat sequence of ints or rows"),
        (lambda: sudoku([0.5] * 16), "grid values must be integers"),
        (lambda: sudoku("12ab" * 4), "a grid string holds digits and blanks"),
        (lambda: sudoku(SMALL, box=3), "box must be a pair of integers"),
        (lambda: sudoku(SMALL, box=(1, 3)), "box 1x3 does not fit a 4x4 grid"),
    ],
)
def test_wrong_types_get_a_clear_puzzle_error(call, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        call()


def test_an_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown format 'yaml'"):
        list(read_text(LINE, format="yaml"))
    assert "puzzlekit" in READERS


# ---------------------------------------------------------------- puzzlekit


def _puzzlekit(data: Path, kind: str) -> Path:
    path = data / "puzzlekit" / kind / f"{kind}_dataset.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return path


@pytest.mark.parametrize("kind", PUZZLEKIT)
def test_puzzlekit_is_detected_and_read_with_stated_solutions(data: Path, kind: str) -> None:
    entries = list(read_file(_puzzlekit(data, kind)))
    assert len(entries) == 60
    for entry in entries:
        assert entry.puzzle is not None, entry.error
        assert entry.solution is not None and not violations(entry.puzzle, entry.solution)
        assert parse_text(_round_trip(entry.puzzle)) == entry.puzzle
    for entry in entries[:2]:
        assert entry.puzzle is not None
        verdict = check_all(entry.puzzle)
        assert verdict.status == "unique" and verdict.solution == entry.solution


def _round_trip(puzzle):
    from cp_sudoku.io import to_text

    return to_text(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("kind", PUZZLEKIT)
def test_every_puzzlekit_puzzle_against_its_stated_solution(data: Path, kind: str) -> None:
    """Every back end agrees and every grid is re-checked; a back end stopped by the time
    limit (``unknown``, the backtracker on the sparse 7x7 Skyscrapers) is reported, not
    failed; a stated solution that breaks a rule fails, naming it."""
    broken, stopped = [], []
    for entry in read_file(_puzzlekit(data, kind)):
        assert entry.puzzle is not None, entry.error
        assert entry.solution is not None
        found = violations(entry.puzzle, entry.solution)
        if found:
            broken.append(f"{entry.text}: {found[0]}")
            continue
        verdict = crosscheck(entry.puzzle, DEFAULT_BACKENDS, limit=2, time_limit=120)
        assert verdict.agree, (entry.text, verdict.disagreements)
        assert verdict.status == "unique" and verdict.solution == entry.solution, entry.text
        for name, result in verdict.results.items():
            assert all(is_solution(entry.puzzle, grid) for grid in result.solutions)
            if result.status == "unknown":
                stopped.append(f"{entry.text} ({name})")
    assert not broken, "stated solutions that break a rule: " + "; ".join(broken)
    if stopped:
        warnings.warn(f"{kind}: stopped by the time limit: {', '.join(stopped)}", stacklevel=1)


def test_a_puzzlekit_entry_with_a_fault_is_reported_and_the_others_read(tmp_path: Path) -> None:
    good = "4 4\\n9 - 8 3\\n- 7 - -\\n4 - - 9\\n- - - -\\n2 2 4 1\\n2 3 4 1\\n6 3 4 5\\n6 3 5 5"
    text = (
        '{\n  "count": 2,\n  "count_sol": 2,\n  "name": "KillerSudoku",\n  "data": {\n'
        f'    "1_4x4": {{\n      "problem": "{good}",\n      "solution": "4 4\\n2 3 4 1\\n'
        '4 1 3 2\\n3 2 1 4\\n1 4 2 3"\n    },\n'
        '    "2_4x4": {\n      "problem": "4 4\\n9 - 8"\n    }\n  }\n}'
    )
    path = tmp_path / "Killer_dataset.json"
    path.write_text(text)
    first, second = read_file(path)
    assert first.puzzle is not None and first.solution is not None
    assert second.error is not None and second.line == 10
    assert "entry 2_4x4: expected 8 lines after the header" in str(second.error)


def test_the_kind_and_the_keys_it_takes_are_checked_before_the_lines_after_them() -> None:
    with pytest.raises(PuzzleError, match="f:1: unknown kind 'hexoku'"):
        parse_text("kind: hexoku\ngrid:\n12\n21\n", "f")
    with pytest.raises(PuzzleError, match="f:3: 'cages:' does not apply to a sudoku"):
        parse_text("kind: sudoku\ngrid: 1234\ncages:\n3 r1c1 r1c2\n", "f")


def test_the_examples_of_docs_formats_read_one_puzzle_per_kind() -> None:
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    block = re.search(r"One example of each kind:\n\n```\n(.*?)```", text, re.DOTALL)
    assert block
    entries = list(read_text(block.group(1), "docs/formats.md"))
    assert all(e.puzzle is not None for e in entries), [e.error for e in entries]
    assert [e.puzzle.kind for e in entries if e.puzzle] == list(KINDS)  # one of each, in order


def test_a_json_collection_that_is_not_utf8_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "KenKen_dataset.json"
    path.write_bytes(b'{\n  "count_sol": 1, "name": "KenKen",\n  "data": {"caf\xe9": {}}\n}\n')
    with pytest.raises(PuzzleError, match=r"KenKen_dataset.json:3:16: byte 0xE9 is not UTF-8"):
        list(read_file(path))


def test_a_plain_9x9_line_reads_as_the_general_grammar_reads_it() -> None:
    """The fast path for 81 digits and blanks gives the puzzle the general path gives."""
    for text in (
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079",
        "53__7____6__195____98____6_8___6___34__8_3__17___2___6_6____28____419__5____8__79",
        "55" + "." * 79,  # givens that clash: still a puzzle (its verdict is none)
    ):
        assert parse_line(text) == parse_line(text, alphabet="1-9")
        assert parse_line(text, box=(3, 3)) == parse_line(text, alphabet="1-9", box=(3, 3))
    with pytest.raises(PuzzleError, match=r"^<string>:1:81: unexpected symbol 'x'"):
        parse_line("." * 80 + "x")


def test_parse_line_errors_say_where_as_the_cli_does() -> None:
    with pytest.raises(PuzzleError) as error:
        parse_line("12.4x...........")
    said = error.value
    assert (said.source, said.line, said.column) == ("<string>", 1, 5)
    assert str(said) == "<string>:1:5: unexpected symbol 'x': expected 1-4 or a blank (. 0 _)"
    with pytest.raises(PuzzleError, match=r"^in.txt:3:5: unexpected symbol") as error:
        parse_line("12.4x...........", source="in.txt", line=3)


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="._0123456789", min_size=81, max_size=81),
    box=st.sampled_from([None, (3, 3), (1, 9), (9, 1), (2, 3), [3, 3]]),
    line=st.one_of(st.none(), st.integers(1, 10**6)),
)
def test_the_plain_9x9_path_gives_the_general_paths_puzzle_or_error(
    text: str, box: tuple[int, int] | None, line: int | None
) -> None:
    """A plain line is read as a blank 9x9 with its givens (``Puzzle.with_givens``): the
    same puzzle, name and fields as the general grammar builds, or the same error (a box
    that does not fit)."""

    def read(alphabet: str | None) -> Puzzle | str:
        try:
            return parse_line(text, box=box, alphabet=alphabet, source="f.txt", line=line)
        except PuzzleError as error:
            return str(error)

    fast, general = read(None), read("1-9")
    assert type(fast) is type(general)
    if isinstance(fast, str):
        assert fast == general
        return
    assert isinstance(general, Puzzle)
    fields = ("rows", "cols", "cells", "max_value", "constraints", "kind", "box", "alphabet")
    assert fast == general and fast.name == general.name
    assert all(getattr(fast, f) == getattr(general, f) for f in fields)
    assert dict(fast.givens) == dict(general.givens) and isinstance(fast.givens, MappingProxyType)
    assert fast.units == general.units and fast.readers == general.readers
    assert hash(fast) == hash(general) and pickle.loads(pickle.dumps(fast)) == general


def test_with_givens_checks_the_givens_as_building_does() -> None:
    blank = sudoku([0] * 81)
    assert blank.with_givens({(0, 0): 5}, "x") == sudoku([5] + [0] * 80)
    assert blank.with_givens({(0, 0): 5}, "x").name == "x" and not blank.givens
    for givens, message in (
        ({(0, 0): 10}, "given 10 at r1c1 is out of range 1..9"),
        ({(0, 0): True}, "given True at r1c1 is out of range 1..9"),
        ({(9, 0): 1}, "given at r10c1, which is not a cell"),
    ):
        with pytest.raises(PuzzleError, match=re.escape(message)):
            blank.with_givens(givens)
        with pytest.raises(PuzzleError, match=re.escape(message)):
            replace(blank, givens=givens)


def test_with_grid_gives_the_givens_of_its_bytes() -> None:
    blank = sudoku([0] * 81)
    line = parse_line(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    )
    grid = bytes(line.givens.get(cell, 0) for cell in blank.cells)
    assert blank.with_grid(grid, "x") == blank.with_givens(line.givens) == line
    assert blank.with_grid(grid, "x").name == "x"
    assert blank.with_grid(bytes(81)) == blank
    with pytest.raises(PuzzleError, match="a grid of 80 values for 81 cells"):
        blank.with_grid(bytes(80))
    with pytest.raises(PuzzleError, match=re.escape("given 10 at r1c2 is out of range 1..9")):
        blank.with_grid(bytes([0, 10] + [0] * 79))


def test_a_grid_past_9x9_without_an_alphabet_reads_back_as_written() -> None:
    """Grids given as numbers are written as numbers (``alphabet: numbers``): single
    symbols are ambiguous past 9 x 9 and impossible past 36 x 36."""
    n = 100
    regions = [r // 10 * 10 + c // 10 for r in range(n) for c in range(n)]
    for puzzle in (
        sudoku([0] * 256),
        sudoku([5] + [0] * 624),
        jigsaw([c + 1 for c in range(n)] + [0] * (n * n - n), regions),
    ):
        text = to_text(puzzle)
        assert text.splitlines()[1] == "alphabet: numbers"
        assert parse_text(text) == puzzle


@pytest.mark.parametrize(
    "text",
    [
        "..3......1..4..2",
        "kind: sudoku\ngrid:\n..3.\n....\n.1..\n4..2\n",
        '{"size": 4, "grid": [' + ", ".join(["[{}, {}, {}, {}]"] * 4) + "]}",
        "12,3",
    ],
)
def test_a_byte_order_mark_before_the_first_line_is_dropped(text: str) -> None:
    """stdin, the argument and the service's text are not opened ``utf-8-sig``: a BOM
    from a Windows tool made a 4x4 line 17 symbols and an f-puzzles JSON a 26x26."""

    def read(text: str) -> list[object]:
        try:
            return [(e.puzzle, str(e.error)) for e in read_text(text)]
        except PuzzleError as error:
            return [str(error)]

    assert read("\ufeff" + text) == read(text)
