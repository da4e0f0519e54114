"""The kinds: one registry, extras that compose, Futoshiki, Skyscrapers, hidden operators,
and the variant text format written and read back equal for every kind."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import check_all

from cp_sudoku.backends import DEFAULT_BACKENDS, get_backend
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.display import render_grid
from cp_sudoku.io import parse_text, read_file, to_text
from cp_sudoku.kinds import ALIASES, KINDS, kind_of
from cp_sudoku.kinds.futoshiki import futoshiki
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.kakuro import Clue, kakuro
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.skyscrapers import SIDES, skyscrapers
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle, PuzzleError, Relation, SparseUnit, Visibility, is_solution

MODELS = Path(__file__).resolve().parents[1] / "models"
X_WINDOKU = ".......1.....2...3.........4....3.......5...6....1.........78......6........32..."
X_WINDOKU_SOLUTION = (
    "932674518678521943541398267469283751217459386853716429326147895794865132185932674"
)
PAIRS = [[(r, c), (r, c + 1)] for r in range(4) for c in (0, 2)]


def test_the_kinds_are_listed_once_with_their_old_names() -> None:
    assert list(KINDS) == [
        "sudoku",
        "killer",
        "kenken",
        "kakuro",
        "jigsaw",
        "futoshiki",
        "skyscrapers",
    ]
    assert ALIASES == {"x-sudoku": ("sudoku", ("diagonals",)), "windoku": ("sudoku", ("windows",))}
    assert kind_of("windoku") is KINDS["sudoku"]
    with pytest.raises(PuzzleError, match="unknown kind 'hexoku': expected one of sudoku"):
        kind_of("hexoku")


@pytest.mark.parametrize(
    ("extras", "status", "count"),
    [
        (["diagonals", "windows"], "unique", 1),
        (["diagonals"], "multiple", 2),
        (["windows"], "multiple", 2),
    ],
)
def test_x_windoku_of_the_issue_is_unique_and_each_extra_alone_is_not(
    extras: list[str], status: str, count: int
) -> None:
    verdict = check_all(sudoku(X_WINDOKU, extras=extras), limit=2)
    assert verdict.status == status
    assert all(len(r.solutions) == count for r in verdict.results.values())
    if status == "unique":
        assert "".join(map(str, verdict.solution)) == X_WINDOKU_SOLUTION


def test_old_kind_names_read_as_sudoku_with_extras() -> None:
    grid = "\n".join(X_WINDOKU[i : i + 9] for i in range(0, 81, 9))
    x = parse_text(f"kind: x-sudoku\ngrid:\n{grid}\n")
    assert (x.kind, x.extras) == ("sudoku", ("diagonals",))
    both = parse_text(f"kind: windoku\nextras: diagonals\ngrid:\n{grid}\n")
    assert both == sudoku(X_WINDOKU, extras=["windows", "diagonals"])


def test_extras_apply_to_jigsaw_and_killer_alike() -> None:
    regions = list("AABBAABBCCDDCCDD")
    plain = jigsaw([0] * 16, regions)
    x = jigsaw([0] * 16, regions, extras=["diagonals"])
    assert len(x.units) == len(plain.units) + 2
    assert set(check_all(x, limit=100).solutions) < set(check_all(plain, limit=1000).solutions)
    cages = list(zip([3, 7, 7, 3, 3, 7, 7, 3], PAIRS, strict=True))
    nc = killer(cages, size=4, extras=["non-consecutive"])
    assert (
        all(r.op == "non-consecutive" for r in nc.of_type(Relation))
        and len(nc.of_type(Relation)) == 24
    )
    for grid in check_all(nc, limit=50).solutions:
        assert all(
            abs(grid[4 * r + c] - grid[4 * r + c + 1]) > 1 for r in range(4) for c in range(3)
        )


def test_non_consecutive_sudoku_every_back_end() -> None:
    verdict = check_all(sudoku([1] + [0] * 15, extras=["non-consecutive"]), limit=10)
    for grid in verdict.solutions:
        assert abs(grid[0] - grid[1]) > 1 and abs(grid[0] - grid[4]) > 1


def test_an_extra_the_kind_does_not_take_is_refused_at_its_line() -> None:
    with pytest.raises(PuzzleError, match="'extras:' does not apply to a kenken"):
        parse_text("kind: kenken\nsize: 1\nextras: windows\ncages: 1 r1c1\n")
    with pytest.raises(PuzzleError, match=r"3: extra .windows. does not apply to a skyscrapers"):
        parse_text("kind: skyscrapers\nsize: 4\nextras: windows\n")
    with pytest.raises(PuzzleError, match="unknown extra 'stripes'"):
        sudoku([0] * 16, extras=["stripes"])


# ---------------------------------------------------------------- Futoshiki

ISSUE_FUTOSHIKI = """kind: futoshiki
size: 5
grid:
. . . . .
. 3 . . .
. . . . .
. . . . .
. . . . .
relations:
r1c1 < r1c2
r2c4 > r3c4
"""


def test_futoshiki_of_the_issue_reads_to_relations() -> None:
    puzzle = parse_text(ISSUE_FUTOSHIKI)
    assert puzzle.of_type(Relation) == (
        Relation((0, 0), (0, 1), "<"),
        Relation((2, 3), (1, 3), "<"),
    )
    assert puzzle.givens == {(1, 1): 3}
    same = parse_text(ISSUE_FUTOSHIKI.replace("r1c2\nr2c4", "r1c2; r2c4"))
    assert same == puzzle
    assert crosscheck(puzzle, limit=5).status == "multiple"


def test_futoshiki_signs_stand_between_neighbours() -> None:
    with pytest.raises(PuzzleError, match="orthogonally adjacent") as error:
        parse_text("kind: futoshiki\nsize: 3\nrelations:\nr1c1 < r1c2\nr1c1 < r2c2\n", "f")
    assert str(error.value).startswith("f:5: ")
    with pytest.raises(PuzzleError, match="expected a relation such as 'r1c1 < r1c2'"):
        parse_text("kind: futoshiki\nsize: 3\nrelations: r1c1 = r1c2\n")


def test_contradictory_signs_are_none_not_a_reading_error() -> None:
    puzzle = futoshiki(2, [((0, 0), "<", (0, 1)), ((0, 0), ">", (0, 1))])
    assert check_all(puzzle).status == "none"


def test_futoshiki_drawing_shows_the_signs() -> None:
    puzzle = futoshiki(2, [((0, 0), "<", (0, 1)), ((0, 0), ">", (1, 0))])
    assert render_grid(puzzle, (1, 2, 2, 1)) == "1 < 2\nv\n2   1\n"


# ---------------------------------------------------------------- Skyscrapers

# puzzlekit 15_4x4 (its README's worked example): heights up to 3, one empty cell a line.
SKY_15 = {
    "top": [2, 2, 1, 2],
    "bottom": [1, 2, 3, 1],
    "left": [2, 2, 3, 1],
    "right": [2, 2, 1, 3],
}
SKY_15_SOLUTION = (0, 1, 3, 2, 2, 3, 0, 1, 1, 0, 2, 3, 3, 2, 1, 0)


def test_skyscrapers_with_empty_cells_model() -> None:
    puzzle = skyscrapers(4, SKY_15, heights=3)
    assert (puzzle.min_value, puzzle.max_value) == (0, 3)
    assert sum(isinstance(c, SparseUnit) for c in puzzle.constraints) == 8
    assert sum(isinstance(c, Visibility) for c in puzzle.constraints) == 16
    verdict = check_all(puzzle)
    assert verdict.status == "unique" and verdict.solution == SKY_15_SOLUTION


def test_skyscrapers_drawing_puts_the_clues_around() -> None:
    drawn = render_grid(skyscrapers(4, SKY_15, heights=3), SKY_15_SOLUTION).splitlines()
    assert drawn[0] == "  2 2 1 2"
    assert drawn[1] == "2 0 1 3 2 2"
    assert drawn[-1] == "  1 2 3 1"


def test_skyscrapers_refuse_a_short_side_and_heights_over_n() -> None:
    with pytest.raises(PuzzleError, match="'top:' needs 4 clues"):
        skyscrapers(4, {"top": [1, 2]})
    with pytest.raises(PuzzleError, match=r"heights must be 1\.\.4"):
        skyscrapers(4, {}, heights=5)


# ---------------------------------------------------------------- KenKen, hidden operators


def test_hidden_operator_cage_takes_any_operation() -> None:
    # 2x2: a cage 2? over a row holds {1, 2} (2-1... no: 2*1 = 2, 2/1 = 2).
    puzzle = kenken(2, [(2, "?", [(0, 0), (0, 1)]), (3, "?", [(1, 0), (1, 1)])])
    assert check_all(puzzle, limit=5).status == "multiple"
    assert "2?" in to_text(puzzle)
    with pytest.raises(PuzzleError, match=r"needs an operation \(\+ - \* /, or \? for a hidden"):
        parse_text("kind: kenken\nsize: 2\ncages: 3 r1c1 r1c2\n")


# ---------------------------------------------------------------- to_text, every kind


def _every_kind() -> list[Puzzle]:
    cages = list(zip([3, 7, 7, 3, 3, 7, 7, 3], PAIRS, strict=True))
    return [
        sudoku(X_WINDOKU),
        sudoku([0] * 36, (3, 2)),
        sudoku(X_WINDOKU, extras=["diagonals", "windows", "non-consecutive"]),
        sudoku([1] + [0] * 255, alphabet="0123456789ABCDEF"),
        killer(cages, size=4),
        killer(cages, [1] + [0] * 15, extras=["diagonals"]),
        kenken(2, [(3, "+", [(0, 0), (0, 1)]), (2, "?", [(1, 0), (1, 1)])]),
        kenken(2, [(1, "=", [(0, 0)]), (2, "=", [(0, 1)]), (1, "-", [(1, 0), (1, 1)])]),
        kakuro([[Clue(), Clue(3, None), Clue(4, None)], [Clue(None, 7), None, None]]),
        jigsaw([1] + [0] * 15, list("AABBACCBACDBCDDD"), extras=["windows"]),
        futoshiki(3, [((0, 0), "<", (0, 1)), ((2, 2), ">", (1, 2))], [0, 0, 0, 0, 2] + [0] * 4),
        skyscrapers(4, SKY_15, heights=3),
        skyscrapers(4, {"left": [1, None, None, 2]}, [0] * 15 + [4], extras=["diagonals"]),
    ]


def test_every_kind_has_a_round_trip_case() -> None:
    assert {p.kind for p in _every_kind()} == set(KINDS)


@pytest.mark.parametrize("puzzle", _every_kind(), ids=repr)
def test_to_text_reads_back_to_an_equal_puzzle(puzzle: Puzzle) -> None:
    text = to_text(puzzle)
    assert parse_text(text) == puzzle, text
    assert to_text(parse_text(text)) == text


@pytest.mark.parametrize("name", ["kenken-4x4-issue4.txt", "kakuro-4x5-issue4.txt"])
def test_to_text_refuses_givens_a_kind_without_a_grid_cannot_write(name: str) -> None:
    """A KenKen or Kakuro with givens (built in Python) was written without them, so
    ``certify``, which proves the puzzle as its text reads back, proved another puzzle:
    ``unique`` for a KenKen whose givens left it no solution."""
    puzzle = next(iter(read_file(MODELS / name))).puzzle
    assert puzzle is not None
    with pytest.raises(PuzzleError, match="with givens has no text form"):
        to_text(replace(puzzle, givens={puzzle.cells[0]: 1}))


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.txt")), ids=lambda p: p.name)
def test_every_model_file_writes_and_reads_back_equal(path: Path) -> None:
    for entry in read_file(path):
        assert entry.puzzle is not None, entry.error
        assert parse_text(to_text(entry.puzzle)) == entry.puzzle


NEW_MODELS = [
    "x-windoku-9x9-issue9.txt",
    "futoshiki-4x4.txt",
    "futoshiki-5x5.txt",
    "futoshiki-6x6.txt",
    "skyscrapers-5x5.txt",
    "skyscrapers-5x5-heights4.txt",
    "skyscrapers-5x5-diagonals.txt",
    "kenken-4x4-hidden.txt",
    "kenken-5x5-hidden.txt",
]


@pytest.mark.parametrize("name", NEW_MODELS)
def test_new_model_files_have_their_stated_solution(name: str) -> None:
    text = (MODELS / name).read_text(encoding="utf-8")
    stated = re.search(r"^# solution: (?:rows )?([\d /]+)$", text, re.MULTILINE)
    assert stated
    grid = tuple(int(ch) for ch in stated.group(1) if ch.isdigit())
    (entry,) = read_file(MODELS / name)
    assert entry.puzzle is not None, entry.error
    assert is_solution(entry.puzzle, grid)
    verdict = crosscheck(entry.puzzle, DEFAULT_BACKENDS, limit=2)
    assert verdict.status == "unique" and verdict.solution == grid


def test_cpsat_compiles_skyscraper_clues_and_sparse_lines_natively_not_as_tables() -> None:
    from cp_sudoku.backends.cpsat import build_model

    model, _ = build_model(skyscrapers(4, SKY_15, heights=3))
    constraints = model.proto.constraints
    assert sum(c.has_table() for c in constraints) == 0
    assert sum(c.has_lin_max() for c in constraints) == 16 * 3  # prefix maxima of each clue
    assert sum(c.has_exactly_one() for c in constraints) == 8 * 3  # sparse lines, per height


def test_random_skyscrapers_have_one_count_on_every_back_end() -> None:
    """Native clue encodings (cpsat, sat) against the backtracker's table, full counts."""
    rng = random.Random(7)
    backends = {name: get_backend(name) for name in ("cpsat", "sat", "backtrack")}
    for _ in range(40):
        n = rng.choice([3, 4, 4, 5])
        heights = rng.choice([n, n - 1]) if n > 3 else n
        clues = {side: [rng.choice([None, None, 1, 2, 3]) for _ in range(n)] for side in SIDES}
        grid = [0] * (n * n)
        grid[rng.randrange(n * n)] = rng.randint(0, heights)
        extras = ["diagonals"] if rng.random() < 0.2 else []
        puzzle = skyscrapers(n, clues, grid, heights=heights, extras=extras)
        found = {name: b.solve(puzzle, limit=10**6) for name, b in backends.items()}
        assert len({(r.status, len(r.solutions)) for r in found.values()}) == 1, found
        assert all(is_solution(puzzle, g) for r in found.values() for g in r.solutions)
