"""Text drawings of variant puzzles and solutions."""

from __future__ import annotations

from pathlib import Path

import pytest

from cp_sudoku.display import render_grid as render
from cp_sudoku.io import read_file as read_path
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.sudoku import sudoku


def x_sudoku(grid):
    return sudoku(grid, extras=["diagonals"])


def windoku(grid):
    return sudoku(grid, extras=["windows"])


MODELS = Path(__file__).resolve().parents[1] / "models"

KENKEN_SOLVED = """\
+-------+-------+
|2*     |7+     |
| 2   1 | 4   3 |
|   +---+---+---+
|   |6*     |4  |
| 1 | 3   2 | 4 |
+---+---+---+---+
|2-     |2- |2/ |
| 4   2 | 3 | 1 |
+-------+   |   |
|1-     |   |   |
| 3   4 | 1 | 2 |
+-------+---+---+
"""

KAKURO_SOLVED = """\
+----+----+----+----+----+
|####|####|####|6\\  |3\\  |
|####|####|####|    |    |
+----+----+----+----+----+
|####|4\\  |3\\3 |    |    |
|####|    |    | 2  | 1  |
+----+----+----+----+----+
|\\10 |    |    |    |    |
|    | 3  | 1  | 4  | 2  |
+----+----+----+----+----+
|\\3  |    |    |####|####|
|    | 1  | 2  |####|####|
+----+----+----+----+----+
"""


def model(name: str):
    (entry,) = read_path(MODELS / name)
    assert entry.puzzle is not None
    return entry.puzzle


def test_kenken_with_cage_targets() -> None:
    grid = tuple(int(ch) for ch in "2143132442313412")
    assert render(model("kenken-4x4-issue4.txt"), grid) == KENKEN_SOLVED


def test_kakuro_with_clue_and_black_squares() -> None:
    puzzle = model("kakuro-4x5-issue4.txt")
    assert render(puzzle, (2, 1, 3, 1, 4, 2, 1, 2)) == KAKURO_SOLVED
    blank = render(puzzle)
    assert blank.count(" .  ") == 8  # the white cells, empty
    assert "\\10" in blank


def test_killer_shows_sums_without_the_operation() -> None:
    text = render(model("killer-9x9-wikipedia.txt"))
    first = text.splitlines()[1]
    assert first.startswith("|3      |15")
    assert "+" not in first


def test_sudoku_variants_mark_their_extra_units() -> None:
    x = render(x_sudoku([0] * 16)).splitlines()
    assert x[1] == "| \\     |     / |"
    assert x[4] == "|     \\ | /     |"
    w = render(windoku([0] * 16)).splitlines()
    assert w[4] == w[7] == "|    ###|###    |"  # the window r2-3 c2-3
    assert "#" not in w[1]


def test_jigsaw_outlines_its_regions() -> None:
    lines = render(jigsaw([1, 0, 0, 0] + [0] * 12, list("AABBACCBACDBCDDD"))).splitlines()
    assert lines[0] == "+-------+-------+"
    assert lines[2] == "| 1   . | .   . |"
    assert lines[3] == "|   +---+---+   |"


def test_wrong_grid_length() -> None:
    with pytest.raises(ValueError, match="grid has 3 values, expected 16"):
        render(x_sudoku([0] * 16), (1, 2, 3))
