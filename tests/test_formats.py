"""Reading puzzles: every format, every alphabet, and every bad input with its location."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import check_all
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.display import render_grid
from cp_sudoku.generate.blanked import generated_sudoku, solved_grid
from cp_sudoku.io import (
    READERS,
    SNIFFERS,
    Alphabet,
    Entry,
    detect_format,
    grid_string,
    parse_alphabet,
    parse_line,
    puzzle_string,
    read_file,
    read_text,
)
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle, PuzzleError, is_solution

TUTORIAL_4X4 = "......122..4.4.."
TUTORIAL_9X9 = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
EASTER_SOLUTION = (
    "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
)

#: (box, alphabet spelling or None for the default) for every size the round trip covers.
SHAPES = [
    ((2, 2), None),
    ((2, 3), None),
    ((3, 3), None),
    ((4, 4), "0-9A-F"),
    ((4, 4), "1-9A-G"),
    ((4, 4), "numbers"),
    ((5, 5), "1-9A-P"),
    ((5, 5), "numbers"),
]


def same_puzzle(a: Puzzle, b: Puzzle) -> bool:
    return (a.rows, a.cols, dict(a.givens), a.box, a.alphabet) == (
        b.rows,
        b.cols,
        dict(b.givens),
        b.box,
        b.alphabet,
    )


def entries(text: str, **options: object) -> list[Entry]:
    return list(read_text(text, "f.txt", **options))  # type: ignore[arg-type]


def only_error(text: str, **options: object) -> PuzzleError:
    [entry] = entries(text, **options)
    assert entry.error is not None, entry
    return entry.error


def written(box: tuple[int, int], spec: str | None, seed: int, blanks: float) -> Puzzle:
    """A generated puzzle carrying the alphabet ``spec``."""
    generated, _ = generated_sudoku(box, blanks, seed)
    alphabet = parse_alphabet(spec) if spec else None
    index = generated.index
    values = [0] * len(generated.cells)
    for cell, value in generated.givens.items():
        values[index[cell]] = value
    return sudoku(values, box, alphabet=alphabet.stored if alphabet else None)


shapes = st.sampled_from(SHAPES)
seeds = st.integers(0, 10_000)
fractions = st.floats(0.0, 1.0)


# --- Round trips ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, fractions)
def test_line_round_trip(shape: tuple, seed: int, blanks: float) -> None:
    box, spec = shape
    puzzle = written(box, spec, seed, blanks)
    back = parse_line(puzzle_string(puzzle), box=box, alphabet=spec)
    assert same_puzzle(back, puzzle)


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, fractions)
def test_grid_round_trip(shape: tuple, seed: int, blanks: float) -> None:
    box, spec = shape
    puzzle = written(box, spec, seed, blanks)
    text = render_grid(puzzle)
    [entry] = entries(text, box=box, alphabet=spec)
    assert entry.puzzle is not None, entry.error
    assert same_puzzle(entry.puzzle, puzzle)


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, fractions)
def test_csv_round_trip_keeps_the_stated_solution(shape: tuple, seed: int, blanks: float) -> None:
    box, spec = shape
    puzzle = written(box, spec, seed, blanks)
    solution = solved_grid(box, seed)
    text = f"puzzle,solution\n{puzzle_string(puzzle)},{grid_string(solution, puzzle.alphabet)}\n"
    [entry] = entries(text, box=box, alphabet=spec)
    assert entry.puzzle is not None, entry.error
    assert same_puzzle(entry.puzzle, puzzle)
    assert entry.solution == solution


@settings(max_examples=60, deadline=None)
@given(shapes, seeds, fractions)
def test_inference_reads_right_or_asks_for_the_alphabet(
    shape: tuple, seed: int, blanks: float
) -> None:
    """Without --alphabet a puzzle is read exactly as written, or refused naming --alphabet."""
    box, spec = shape
    puzzle = written(box, spec, seed, blanks)
    for text in (puzzle_string(puzzle), render_grid(puzzle)):
        [entry] = entries(text, box=box)
        if entry.puzzle is None:
            assert entry.error is not None and "--alphabet" in str(entry.error)
        else:
            assert dict(entry.puzzle.givens) == dict(puzzle.givens)


def test_full_grids_of_each_alphabet_are_inferred_when_certain() -> None:
    grid = solved_grid((4, 4), seed=1)
    one_based = grid_string(grid, parse_alphabet("1-9A-G").symbols)
    assert parse_line(one_based).alphabet == "123456789ABCDEFG"
    zero_based = grid_string(grid, parse_alphabet("0-9A-F").symbols)
    with pytest.raises(PuzzleError, match="--alphabet 0-9A-F"):
        parse_line(zero_based)
    assert dict(parse_line(zero_based, alphabet="0-9A-F").givens) == dict(
        parse_line(one_based).givens
    )


# --- Alphabets -----------------------------------------------------------------------------


def test_alphabet_spellings() -> None:
    assert parse_alphabet("0-9A-F").symbols == "0123456789ABCDEF"
    assert parse_alphabet("1-9a-g").symbols == "123456789ABCDEFG"
    assert parse_alphabet("1-9A-P").name == "1-9A-P"
    assert parse_alphabet("numbers").numbers
    assert Alphabet("0123456789ABCDEF").blanks == "._"
    assert Alphabet("123456789ABCDEFG").blanks == ".0_"
    for bad in ("1-9A-GG", "9-1", "1-9.", ""):
        with pytest.raises(PuzzleError, match="--alphabet"):
            parse_alphabet(bad)


def test_numbers_with_dot_or_zero_blanks() -> None:
    grid = solved_grid((4, 4), seed=7)
    tokens = [str(v) if i % 3 else ("." if i % 2 else "0") for i, v in enumerate(grid)]
    puzzle = parse_line(" ".join(tokens))
    assert puzzle.rows == 16 and puzzle.alphabet is None
    assert all(grid[i] == v for i, v in enumerate(_values(puzzle)) if v)
    assert sum(1 for v in _values(puzzle) if v) == sum(1 for i in range(256) if i % 3)


def test_9x9_as_numbers() -> None:
    text = " ".join("0" if ch == "." else ch for ch in EASTER)
    assert same_puzzle(parse_line(text), parse_line(EASTER))
    assert same_puzzle(parse_line(text, alphabet="numbers"), parse_line(EASTER))


def _values(puzzle: Puzzle) -> list[int]:
    index = puzzle.index
    values = [0] * len(puzzle.cells)
    for cell, value in puzzle.givens.items():
        values[index[cell]] = value
    return values


def test_wrong_alphabet_size_is_refused() -> None:
    error = only_error(TUTORIAL_9X9, alphabet="1-9A-G")
    assert "--alphabet 1-9A-G has 16 symbols, but the puzzle is 9x9" in str(error)


def test_ambiguous_16x16_asks_for_alphabet(data: Path) -> None:
    path = data / "sudoku-large" / "sudoku16x16_easy.txt"
    found = list(read_file(path))
    assert len(found) == 3
    for entry in found:
        assert entry.puzzle is None
        message = str(entry.error)
        assert message.startswith(f"{path}:{entry.line}: ambiguous symbols for a 16x16 grid")
        assert "--alphabet 0-9A-F" in message and "--alphabet 1-9A-G" in message


# --- The shared large collections ----------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_shared_16x16_read_and_solve_uniquely(data: Path, level: str) -> None:
    found = list(read_file(data / "sudoku-large" / f"sudoku16x16_{level}.txt", alphabet="0-9A-F"))
    assert [e.line for e in found] == [1, 2, 3]
    for entry in found:
        assert entry.puzzle is not None, entry.error
        assert entry.puzzle.alphabet == "0123456789ABCDEF"
        assert puzzle_string(entry.puzzle) == entry.text  # read exactly, 0 as a value
        assert check_all(entry.puzzle).status == "unique"


def test_shared_25x25_read_with_inferred_alphabet_and_solve_uniquely(data: Path) -> None:
    found = list(read_file(data / "sudoku-large" / "sudoku25x25_easy.txt"))
    assert len(found) == 11
    for entry in found:
        assert entry.puzzle is not None, entry.error
        assert entry.puzzle.alphabet == "123456789ABCDEFGHIJKLMNOP"
        assert entry.puzzle.box == (5, 5)
        assert puzzle_string(entry.puzzle) == entry.text
        verdict = check_all(entry.puzzle)
        assert verdict.status == "unique"
        assert verdict.solution is not None and is_solution(entry.puzzle, verdict.solution)


# --- Layouts and detection -----------------------------------------------------------------


def test_grid_text_with_spaces_bars_and_separators() -> None:
    text = """
    5 3 . | . 7 . | . . .
    6 . . | 1 9 5 | . . .
    . 9 8 | . . . | . 6 .
    ------+-------+------
    8 . . | . 6 . | . . 3
    4 . . | 8 . 3 | . . 1
    7 . . | . 2 . | . . 6
    ------+-------+------
    . 6 . | . . . | 2 8 .
    . . . | 4 1 9 | . . 5
    . . . | . 8 . | . 7 9
    """
    [entry] = entries(text)
    assert entry.line == 2
    assert entry.puzzle is not None
    assert same_puzzle(entry.puzzle, parse_line(TUTORIAL_9X9))


def test_hand_typed_grids_without_separators() -> None:
    [four] = entries("....\n..12\n2..4\n.4..\n")
    assert four.puzzle is not None and same_puzzle(four.puzzle, parse_line(TUTORIAL_4X4))
    rows = [TUTORIAL_9X9[i : i + 9] for i in range(0, 81, 9)]
    two = entries("\n".join(rows) + "\n\n" + "\n".join(rows))
    assert [e.line for e in two] == [1, 11]
    assert all(e.puzzle is not None for e in two)


def test_detection() -> None:
    assert detect_format([TUTORIAL_9X9, EASTER]) == "line"
    assert detect_format(["quizzes,solutions", f"{EASTER},{EASTER_SOLUTION}"]) == "csv"
    assert detect_format(["5 3 . | . 7 .", "------+------"]) == "grid"
    assert detect_format(["# comment", "....", "..12", "2..4", ".4.."]) == "grid"


def test_layout_that_reads_both_ways_asks_for_format() -> None:
    lines = ["1234123412341234"] * 16  # sixteen 4x4 puzzles, or one 16x16 grid
    with pytest.raises(PuzzleError, match="--format grid or --format line"):
        detect_format(lines, "f.txt")
    read = list(read_text("\n".join(lines), format="line"))
    assert len(read) == 16  # each line is a 4x4 puzzle (with clashes: errors, but read as lines)


def test_registry_takes_new_formats() -> None:
    def read_upper(lines, source, options):  # type: ignore[no-untyped-def]
        for number, line in enumerate(lines, start=1):
            yield Entry(source, number, line, puzzle=parse_line(line.replace("X", ".")))

    READERS["x-blanks"] = read_upper
    SNIFFERS.insert(0, lambda head, source: "x-blanks" if head[0].startswith("X") else None)
    try:
        [entry] = read_text("XXXXXX122XX4X4XX")
        assert entry.puzzle is not None and same_puzzle(entry.puzzle, parse_line(TUTORIAL_4X4))
    finally:
        del READERS["x-blanks"]
        SNIFFERS.pop(0)


def test_csv_kaggle_style_keeps_line_numbers_and_solutions() -> None:
    text = f"quizzes,solutions\n{TUTORIAL_9X9},\n# a comment\n\n{EASTER},{EASTER_SOLUTION}\n"
    first, second = entries(text)
    assert (first.line, first.solution) == (2, None)
    assert second.line == 5
    assert second.solution == tuple(int(ch) for ch in EASTER_SOLUTION)


def test_csv_with_extra_columns() -> None:
    text = f"id,puzzle,solution,clues,difficulty\n7,{EASTER},{EASTER_SOLUTION},21,9.0\n"
    [entry] = entries(text)
    assert entry.puzzle is not None and len(entry.puzzle.givens) == 21
    assert entry.solution is not None


# --- Bad input: the message says where and what -------------------------------------------


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# only a comment\n\n")
    with pytest.raises(PuzzleError) as error:
        list(read_file(path))
    assert str(error.value) == f"{path}: no puzzle found: the input is empty or only comments"


def test_wrong_length_gives_line_column_expected_and_found() -> None:
    _, short, long = entries(f"{EASTER}\n{EASTER[:-1]}\n{EASTER}7\n")
    assert str(short.error) == (
        "f.txt:2:81: expected n*n symbols for an n x n grid (81 for 9x9), got 80; "
        "the line ends early"
    )
    assert str(long.error) == (
        "f.txt:3:82: expected n*n symbols for an n x n grid (81 for 9x9), got 82; "
        "symbol 82 is extra"
    )


def test_bad_symbol_gives_line_and_column() -> None:
    bad = EASTER[:13] + "x" + EASTER[14:]
    error = entries(f"{EASTER}\n  {bad}\n")[1].error
    assert str(error) == "f.txt:2:16: unexpected symbol 'x': expected 1-9 or a blank (. 0 _)"


def test_sizes_mixed_in_one_file() -> None:
    found = entries(f"{EASTER}\n{TUTORIAL_4X4}\n{EASTER}\n")
    assert [e.puzzle is not None for e in found] == [True, False, True]
    assert str(found[1].error) == (
        "f.txt:2: a 4x4 puzzle in a file of 9x9 puzzles: one file holds one size"
    )


def test_sizes_mixed_in_one_csv() -> None:
    found = entries(f"puzzle\n{EASTER}\n{TUTORIAL_4X4}\n")
    assert str(found[1].error) == (
        "f.txt:3: a 4x4 puzzle in a file of 9x9 puzzles: one file holds one size"
    )


def test_clash_between_givens_reads_and_is_none_naming_cells_and_unit() -> None:
    clash = ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6.."
    found = entries(f"{EASTER}\n{clash}\n{EASTER}\n")
    assert all(entry.puzzle is not None for entry in found)  # a clash is no reading error
    verdict = crosscheck(found[1].puzzle)
    assert verdict.status == "none"
    assert verdict.reason == (
        "9 repeats at r1c2 and r1c3 in row 1; 9 repeats at r1c2 and r5c2 in column 2; "
        "9 repeats at r1c2 and r1c3 in box 1"
    )


def test_box_that_does_not_divide_the_size() -> None:
    error = only_error(EASTER, box=(2, 4))
    assert str(error) == "f.txt:1: box 2x4 does not fit a 9x9 grid: rows x columns must be 9"


def test_grid_row_of_the_wrong_length() -> None:
    text = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . . 4\n"
    error = entries(text)[0].error
    assert str(error) == "f.txt:2:23: row 2 of the grid at line 1 has 10 symbols, expected 9"


def test_grid_that_ends_early() -> None:
    error = only_error("5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n", format="grid")
    assert str(error) == (
        "f.txt:3: the grid at line 1 ends after 2 rows, expected 9 rows of 9 symbols"
    )


def test_csv_bad_symbol_column_counts_from_the_line() -> None:
    bad = EASTER[:4] + "?" + EASTER[5:]
    error = only_error(f"id,quizzes\n12,{bad}\n")
    assert str(error) == "f.txt:2:8: unexpected symbol '?': expected 1-9 or a blank (. 0 _)"


def test_csv_stated_solution_with_a_blank() -> None:
    error = only_error(f"puzzle,solution\n{EASTER},{EASTER_SOLUTION[:-1]}.\n")
    assert str(error) == ("f.txt:2:163: the stated solution has a blank: a solution is a full grid")


def test_csv_header_without_puzzle_column() -> None:
    with pytest.raises(PuzzleError, match=re.escape("f.txt:1: CSV header 'id,grid' has no puzzle")):
        entries(f"id,grid\n1,{EASTER}\n", format="csv")


def test_letters_in_a_9x9() -> None:
    error = only_error(EASTER[:-1] + "A")
    assert str(error) == "f.txt:1:81: unexpected symbol 'A': expected 1-9 or a blank (. 0 _)"


def test_symbol_outside_both_16x16_alphabets() -> None:
    text = "H" + "." * 255
    assert str(only_error(text)) == (
        "f.txt:1:1: unexpected symbol 'H': expected 1-9A-G or 0-9A-F for a 16x16 grid, "
        "or a blank (. 0 _)"
    )
