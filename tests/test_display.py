"""Showing puzzles: pretty grids, side by side, labels, and JSON records."""

from __future__ import annotations

import json
from pathlib import Path

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.display import (
    beside,
    cell_texts,
    error_record,
    layout,
    render_grid,
    side_by_side,
    verdict_record,
)
from cp_sudoku.generate.blanked import generated_sudoku, solved_grid
from cp_sudoku.io import Entry, grid_string, parse_line, read_file
from cp_sudoku.kinds import KINDS, Kind
from cp_sudoku.model import Puzzle, PuzzleError, Unit

MODELS = Path(__file__).resolve().parents[1] / "models"

TUTORIAL_4X4 = "......122..4.4.."
SOLUTION_4X4 = (1, 2, 4, 3, 4, 3, 1, 2, 2, 1, 3, 4, 3, 4, 2, 1)


def test_pretty_grid_with_box_separators() -> None:
    assert render_grid(parse_line(TUTORIAL_4X4)) == (
        ". . | . .\n. . | 1 2\n----+----\n2 . | . 4\n. 4 | . ."
    )


def test_side_by_side_under_headings() -> None:
    assert side_by_side(parse_line(TUTORIAL_4X4), SOLUTION_4X4) == "\n".join(
        [
            "Puzzle       Solution",
            ". . | . .    1 2 | 4 3",
            ". . | 1 2    4 3 | 1 2",
            "----+----    ----+----",
            "2 . | . 4    2 1 | 3 4",
            ". 4 | . .    3 4 | 2 1",
        ]
    )


def test_puzzle_alone_when_there_is_no_solution() -> None:
    text = side_by_side(parse_line(TUTORIAL_4X4), None)
    assert text.splitlines()[0] == "Puzzle"
    assert text.splitlines()[1:] == render_grid(parse_line(TUTORIAL_4X4)).splitlines()


def test_6x6_boxes_are_two_rows_by_three_columns() -> None:
    lines = render_grid(parse_line("." * 36, box=(2, 3))).splitlines()
    assert lines[0] == ". . . | . . ."
    assert lines[2] == "------+------"
    assert len(lines) == 6 + 2


def test_large_grid_in_its_alphabet() -> None:
    line = "0123456789ABCDEF" + "." * 240
    lines = render_grid(parse_line(line, alphabet="0-9A-F")).splitlines()
    assert lines[0] == "0 1 2 3 | 4 5 6 7 | 8 9 A B | C D E F"
    assert len(lines) == 16 + 3


def test_large_grid_without_alphabet_uses_aligned_numbers() -> None:
    puzzle, solution = generated_sudoku((4, 4), 0.5, seed=3)
    lines = render_grid(puzzle, solution).splitlines()
    assert len(lines) == 19
    assert len({len(line) for line in lines}) == 1  # every column aligned
    first = [int(t) for t in lines[0].replace("|", " ").split()]
    assert first == list(solution[:16])


def kakuro_like() -> Puzzle:
    """Two rows of a Kakuro-like layout: a black square and a clue on the left."""
    cells = ((0, 1), (0, 2), (1, 1), (1, 2))
    return Puzzle(
        rows=2,
        cols=3,
        cells=cells,
        max_value=9,
        constraints=(Unit("run 1", cells[:2]), Unit("run 2", cells[2:])),
        givens={(0, 1): 7},
        kind="kakuro-like",
        labels={(0, 0): "#", (1, 0): "4\\"},
    )


def test_positions_that_are_not_cells_show_their_label() -> None:
    puzzle = kakuro_like()
    assert render_grid(puzzle) == " #  7  .\n4\\  .  ."
    assert render_grid(puzzle, (7, 1, 3, 1)) == " #  7  1\n4\\  3  1"


def test_a_kind_can_register_its_own_renderer() -> None:
    def starred(puzzle: Puzzle, values: object) -> str:
        texts = cell_texts(puzzle)
        marked = {p: t + "*" if p in puzzle.givens else t for p, t in texts.items()}
        return "\n".join(layout(puzzle, marked))

    KINDS["kakuro-like"] = Kind("kakuro-like", "", {}, build=None, text=None, draw=starred)  # type: ignore[arg-type]
    try:
        assert render_grid(kakuro_like()) == " # 7*  .\n4\\  .  ."
    finally:
        del KINDS["kakuro-like"]


def test_variants_are_drawn_with_their_cages() -> None:
    (entry,) = read_file(MODELS / "kenken-4x4-issue4.txt")
    assert entry.puzzle is not None
    drawn = render_grid(entry.puzzle)
    assert "2*" in drawn and "7+" in drawn and "2/" in drawn


def test_verdict_record_is_one_json_object_with_the_documented_keys() -> None:
    puzzle = parse_line(TUTORIAL_4X4)
    entry = Entry("f.txt", 3, TUTORIAL_4X4, puzzle=puzzle, solution=SOLUTION_4X4)
    record = json.loads(json.dumps(verdict_record(entry, crosscheck(puzzle))))
    assert record["source"] == "f.txt" and record["line"] == 3
    assert record["status"] == "unique"
    assert record["solution"] == "1243431221343421"
    assert record["agree"] is True and record["disagreements"] == []
    assert record["matches_stated"] is True
    assert set(record["backends"]) == {"sat", "kernel"}  # the default cross-check of a 4x4
    for result in record["backends"].values():
        assert result["status"] == "unique" and result["solutions"] == 1
        assert result["seconds"] >= 0


def test_solution_in_the_puzzle_alphabet() -> None:
    full = grid_string(solved_grid((4, 4), seed=5), "0123456789ABCDEF")
    text = "...." + full[4:]  # blanks in one row only: each column fixes its cell
    puzzle = parse_line(text, alphabet="0-9A-F")
    record = verdict_record(Entry("f", 1, text, puzzle=puzzle), crosscheck(puzzle, ["sat"]))
    assert record["status"] == "unique"
    assert record["solution"] == full


def test_error_record() -> None:
    entry = Entry("f.txt", 2, "x", error=PuzzleError("bad", source="f.txt", line=2, column=1))
    record = error_record(entry)
    assert record["status"] == "invalid" and record["error"] == "f.txt:2:1: bad"


def test_beside_aligns_blocks_under_titles() -> None:
    text = beside(["ab\nc", "x\nyz\nw"], ["one", "two"], gap=2)
    assert text == "one  two\nab   x\nc    yz\n     w"
