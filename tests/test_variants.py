"""The variant builders: known puzzles on every back end, the units they emit, bad input."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from conftest import answered, check_all, every_backend, grid_of

from cp_sudoku.backends import get_backend
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.kakuro import Clue, kakuro
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cage, Cell, Puzzle, PuzzleError, Unit, is_solution


def x_sudoku(grid, box=None):
    return sudoku(grid, box, extras=["diagonals"])


def windoku(grid, box=None):
    return sudoku(grid, box, extras=["windows"])


# Issue 4: the example of Wikipedia's "Killer sudoku" article, 29 sum cages, no givens.
WIKIPEDIA_KILLER = """
3: r1c1,r1c2 | 15: r1c3,r1c4,r1c5 | 22: r1c6,r2c5,r2c6,r3c5 | 4: r1c7,r2c7 | 16: r1c8,r2c8
15: r1c9,r2c9,r3c9,r4c9 | 25: r2c1,r2c2,r3c1,r3c2 | 17: r2c3,r2c4 | 9: r3c3,r3c4,r4c4
8: r3c6,r4c6,r5c6 | 20: r3c7,r3c8,r4c7 | 6: r4c1,r5c1 | 14: r4c2,r4c3 | 17: r4c5,r5c5,r6c5
17: r4c8,r5c7,r5c8 | 13: r5c2,r5c3,r6c2 | 20: r5c4,r6c4,r7c4 | 12: r5c9,r6c9
27: r6c1,r7c1,r8c1,r9c1 | 6: r6c3,r7c2,r7c3 | 20: r6c6,r7c6,r7c7 | 6: r6c7,r6c8
10: r7c5,r8c4,r8c5,r9c4 | 14: r7c8,r7c9,r8c8,r8c9 | 8: r8c2,r9c2 | 16: r8c3,r9c3
15: r8c6,r8c7 | 13: r9c5,r9c6,r9c7 | 17: r9c8,r9c9
"""
WIKIPEDIA_SOLUTION = (
    "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
)


def cells(text: str) -> list[Cell]:
    return [(int(r) - 1, int(c) - 1) for r, c in re.findall(r"r(\d+)c(\d+)", text)]


def killer_cages() -> list[tuple[int, list[Cell]]]:
    parts = [p for p in re.split(r"[|\n]", WIKIPEDIA_KILLER) if p.strip()]
    return [(int(p.split(":")[0]), cells(p.split(":")[1])) for p in parts]


# Issue 4: the 4x4 KenKen.
KENKEN_4X4 = [
    (2, "*", cells("r1c2 r1c1 r2c1")),
    (7, "+", cells("r1c4 r1c3")),
    (1, "-", cells("r4c1 r4c2")),
    (2, "/", cells("r3c4 r4c4")),
    (2, "-", cells("r4c3 r3c3")),
    (6, "*", cells("r2c3 r2c2")),
    (2, "-", cells("r3c2 r3c1")),
    (4, "=", cells("r2c4")),
]

# Issue 4: the small Kakuro, rows of ``x``, ``D\A`` and ``_``.
X, W = Clue(), None
KAKURO_SMALL = [
    [X, X, X, Clue(6), Clue(3)],
    [X, Clue(4), Clue(3, 3), W, W],
    [Clue(None, 10), W, W, W, W],
    [Clue(None, 3), W, W, X, X],
]


def rule_units(n: int, box: tuple[int, int] | None) -> list[frozenset[Cell]]:
    """Rows, columns and boxes straight from the rules (independent of the builders)."""
    units = [frozenset((r, c) for c in range(n)) for r in range(n)]
    units += [frozenset((r, c) for r in range(n)) for c in range(n)]
    if box:
        units += [
            frozenset((r, c) for r in range(n) for c in range(n) if (r // box[0], c // box[1]) == b)
            for b in {(r // box[0], c // box[1]) for r in range(n) for c in range(n)}
        ]
    return units


def unit_sets(puzzle: Puzzle) -> set[frozenset[Cell]]:
    return {frozenset(unit.cells) for unit in puzzle.units}


def missing(puzzle: Puzzle, expected: Iterable[frozenset[Cell]]) -> list[frozenset[Cell]]:
    have = unit_sets(puzzle)
    return [unit for unit in expected if unit not in have]


def without_units(puzzle: Puzzle, names: Iterable[str]) -> Puzzle:
    drop = set(names)
    return Puzzle(
        rows=puzzle.rows,
        cols=puzzle.cols,
        cells=puzzle.cells,
        max_value=puzzle.max_value,
        constraints=tuple(c for c in puzzle.constraints if getattr(c, "name", None) not in drop),
        givens=puzzle.givens,
        kind=puzzle.kind,
    )


# ---------------------------------------------------------------- Killer


def test_wikipedia_killer_is_unique_with_the_published_solution() -> None:
    cages = killer_cages()
    assert len(cages) == 29
    assert sum(target for target, _ in cages) == 405  # 9 rows of 1 + ... + 9
    puzzle = killer(cages)
    verdict = check_all(puzzle)
    assert verdict.status == "unique"
    assert verdict.solution == grid_of(WIKIPEDIA_SOLUTION)


def test_wikipedia_killer_model_has_every_sudoku_unit_and_only_those() -> None:
    puzzle = killer(killer_cages())
    expected = rule_units(9, (3, 3))
    assert len(expected) == 27
    assert missing(puzzle, expected) == []
    assert unit_sets(puzzle) == set(expected)
    assert all(cage.op == "+" and cage.distinct for cage in puzzle.cages)


@pytest.mark.parametrize("box", range(1, 10))
def test_a_model_with_a_box_dropped_fails_the_unit_check(box: int) -> None:
    """Solving cannot catch a dropped box here (see the next test); the unit check does."""
    broken = without_units(killer(killer_cages()), [f"box {box}"])
    lost = missing(broken, rule_units(9, (3, 3)))
    assert len(lost) == 1
    assert lost[0] == frozenset(
        (r, c) for r in range(9) for c in range(9) if (r // 3) * 3 + c // 3 == box - 1
    )


def test_wikipedia_killer_needs_no_box_at_all_for_its_answer() -> None:
    """Why a test that only checks the printed answer cannot find missing boxes: rows,
    columns and the cages alone already force the published solution."""
    puzzle = killer(killer_cages())
    no_boxes = without_units(puzzle, [f"box {b}" for b in range(1, 10)])
    verdict = check_all(no_boxes)
    assert verdict.status == "unique"
    assert verdict.solution == grid_of(WIKIPEDIA_SOLUTION)


def test_one_dropped_box_is_implied_but_dropped_boxes_are_caught_by_the_full_checker() -> None:
    """A single box follows from the rows and the other boxes of its band, so dropping
    one changes no count; dropping all four boxes of a 4x4 leaves the 576 Latin squares,
    and the full model's checker rejects exactly the 288 that are not Sudoku grids."""
    full = sudoku([0] * 16, (2, 2))
    assert len(check_all(full, limit=1000).solutions) == 288
    assert len(check_all(without_units(full, ["box 1"]), limit=1000).solutions) == 288
    latin = check_all(without_units(full, [f"box {b}" for b in range(1, 5)]), limit=1000)
    assert len(latin.solutions) == 576
    assert sum(not is_solution(full, grid) for grid in latin.solutions) == 288


def test_killer_with_givens_and_a_6x6_box() -> None:
    solution = grid_of("264135531462342516615243456321123654")
    pairs = [[(r, c), (r, c + 1)] for r in range(6) for c in (0, 2, 4)]
    cages = [(sum(solution[6 * r + c] for r, c in pair), pair) for pair in pairs]
    given = [v if i == 0 else 0 for i, v in enumerate(solution)]
    verdict = check_all(killer(cages, given, box=(2, 3)), limit=200)
    for result in answered(verdict):
        assert result.complete and len(result.solutions) == 128  # every solution enumerated
    assert solution in verdict.solutions
    assert all(grid[0] == 2 for grid in verdict.solutions)


@pytest.mark.parametrize(
    ("cages", "message"),
    [
        ([(3, [(0, 0), (0, 1)]), (5, [(0, 1), (0, 2)])], r"r1c2 is in two cages"),
        ([(3, [(0, 0), (0, 1)])], r"r1c3 is in no cage \(14 cell\(s\) uncovered\)"),
    ],
)
def test_killer_refuses_overlap_gaps_and_unreachable_sums(cages, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        killer(cages, size=4)


#: The cells of a 4x4 Killer outside r1c1-r1c2, each in a one-cell cage of value 1..4.
CELLS_4X4_REST = [(1 + (r + c) % 4, (r, c)) for r in range(4) for c in range(4) if r or c > 1]


# ---------------------------------------------------------------- KenKen


def test_kenken_4x4_from_the_issue() -> None:
    verdict = check_all(kenken(4, KENKEN_4X4), limit=10)
    assert verdict.status == "unique"
    assert verdict.solution == grid_of("2143132442313412")


def test_kenken_4x4_with_cage_digits_forced_to_differ() -> None:
    # The 2* cage holds 2, 1, 1: with distinct digits its target is out of reach, so
    # the clues clash ...
    verdict = check_all(kenken(4, KENKEN_4X4, distinct=True))
    assert verdict.status == "none"
    assert verdict.reason == "cage 2* {r1c2,r1c1,r2c1} cannot be met by the candidates left"
    # ... and a model that forces it through all-different units has no solution.
    puzzle = kenken(4, KENKEN_4X4)
    forced = Puzzle(
        rows=4,
        cols=4,
        cells=puzzle.cells,
        max_value=4,
        constraints=puzzle.constraints + tuple(Unit(c.describe(), c.cells) for c in puzzle.cages),
        kind="kenken",
    )
    assert check_all(forced).status == "none"


def test_kenken_units_are_rows_and_columns_only() -> None:
    assert unit_sets(kenken(4, KENKEN_4X4)) == set(rule_units(4, None))


def test_two_cell_minus_and_divide_hold_in_either_cell_order() -> None:
    # In the issue's puzzle the larger value of every - and / cage is its second cell;
    # with every cage's cells reversed, the larger one comes first: same answer.
    reversed_cages = [(t, op, list(reversed(c))) for t, op, c in KENKEN_4X4]
    for cages in (KENKEN_4X4, reversed_cages):
        verdict = check_all(kenken(4, cages), limit=10)
        assert verdict.status == "unique"
        assert verdict.solution == grid_of("2143132442313412")


@pytest.mark.parametrize("op", ["-", "/"])
def test_minus_and_divide_on_three_cells_are_refused(op: str) -> None:
    cages = [(1, op, [(0, 0), (0, 1), (0, 2)])] + [
        (1, "=", [(r, c)]) for r in (1, 2) for c in range(3)
    ]
    with pytest.raises(PuzzleError, match=rf"'{re.escape(op)}' takes exactly two cells"):
        kenken(3, cages)


@pytest.mark.parametrize(
    ("cages", "message"),
    [
        ([(3, "+", [(0, 0)])], r"a one-cell cage gives its value; use '='"),
        ([(3, "+", [(0, 0), (0, 1)]), (4, "+", [(0, 1), (1, 1)])], "r1c2 is in two cages"),
        ([(3, "+", [(0, 0), (0, 1)])], r"r1c3 is in no cage \(14 cell"),
    ],
)
def test_kenken_refuses_bad_cages(cages, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        kenken(4, cages)


# ---------------------------------------------------------------- Kakuro


def test_small_kakuro_from_the_issue() -> None:
    puzzle = kakuro(KAKURO_SMALL)
    assert len(puzzle.cells) == 8
    verdict = check_all(puzzle, limit=10)
    assert verdict.status == "unique"
    assert verdict.solution == (2, 1, 3, 1, 4, 2, 1, 2)


def test_small_kakuro_has_four_solutions_if_runs_may_repeat_digits() -> None:
    verdict = check_all(kakuro(KAKURO_SMALL, distinct=False), limit=10)
    assert len(verdict.solutions) == 4
    assert all(r.complete for r in answered(verdict))


def test_kakuro_labels_and_runs() -> None:
    puzzle = kakuro(KAKURO_SMALL)
    assert puzzle.labels == {
        (0, 3): "6\\",
        (0, 4): "3\\",
        (1, 1): "4\\",
        (1, 2): "3\\3",
        (2, 0): "\\10",
        (3, 0): "\\3",
    }
    assert puzzle.units == ()
    runs = {(cage.cells, cage.target) for cage in puzzle.cages}
    assert (((2, 1), (2, 2), (2, 3), (2, 4)), 10) in runs
    assert (((1, 3), (2, 3)), 6) in runs
    assert len(runs) == 7
    assert all(cage.distinct and cage.op == "+" for cage in puzzle.cages)


def test_kakuro_one_cell_run_is_an_equals_cage() -> None:
    puzzle = kakuro([[X, Clue(5), Clue(4)], [Clue(None, 7), W, W], [Clue(None, 2), W, X]])
    assert Cage(((2, 1),), "=", 2) in puzzle.cages
    assert check_all(puzzle).solution == (3, 4, 2)


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ([[X, Clue(3)], [Clue(None, 3), W, W]], r"row 2 has 3 squares, expected 2"),
        ([[Clue(None, 2), X], [Clue(None, 1), W]], r"r1c1: across sum 2, but no white cell"),
        (
            [[X, Clue(4), Clue(6)], [Clue(None, 10), W, W], [X, W, W]],
            r"the across run r3c2-r3c3 has no clue",
        ),
        ([[X, X], [X, X]], "at least one white cell"),
        ([[X, Clue(0)], [X, W]], "sum must be positive"),
        ([[X, X], [X, W]], r"white cell r2c2 is in no run with a clue"),
    ],
)
def test_kakuro_refuses_bad_layouts(layout, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        kakuro(layout)


# ---------------------------------------------------------------- jigsaw, X-Sudoku, Windoku

JIGSAW_4X4 = "AABBACCBACDBCDDD"


def test_jigsaw_units_are_rows_columns_and_the_regions() -> None:
    puzzle = jigsaw([0] * 16, list(JIGSAW_4X4))
    regions = [
        frozenset((i // 4, i % 4) for i, ch in enumerate(JIGSAW_4X4) if ch == k) for k in "ABCD"
    ]
    assert unit_sets(puzzle) == set(rule_units(4, None)) | set(regions)
    verdict = check_all(puzzle, limit=100)
    assert all(r.complete for r in answered(verdict))
    assert len(verdict.solutions) > 0


@pytest.mark.parametrize(
    ("regions", "message"),
    [
        ("AABBACCBACDBCDDA", r"region A \(from r1c1\) has 5 cells, expected 4"),
        ("AABBACCBACEBCDDD", r"a 4x4 jigsaw needs 4 regions, got 5"),
        ("AABBACCBACDBCDD", r"expected 16 region labels for a 4x4 grid, got 15"),
    ],
)
def test_jigsaw_refuses_wrong_regions(regions: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        jigsaw([0] * 16, list(regions))


def test_x_sudoku_units_and_count() -> None:
    puzzle = x_sudoku([0] * 16)
    diagonals = {frozenset((i, i) for i in range(4)), frozenset((i, 3 - i) for i in range(4))}
    assert unit_sets(puzzle) == set(rule_units(4, (2, 2))) | diagonals
    verdict = check_all(puzzle, limit=1000)
    # Of the 288 4x4 Sudoku grids, those whose two diagonals also hold 1-4.
    reference = check_all(sudoku([0] * 16), limit=1000)
    expected = [
        g
        for g in reference.solutions
        if len({g[0], g[5], g[10], g[15]}) == 4 and len({g[3], g[6], g[9], g[12]}) == 4
    ]
    assert sorted(verdict.solutions) == sorted(expected)
    assert len(expected) == 48


def test_windoku_windows() -> None:
    puzzle = windoku([0] * 81)
    windows = [u for u in puzzle.units if u.name.startswith("window")]
    tops = sorted(min(w.cells) for w in windows)
    assert tops == [(1, 1), (1, 5), (5, 1), (5, 5)]
    assert all(len(set(w.cells)) == 9 for w in windows)
    assert len(puzzle.units) == 31
    small = windoku([0] * 16)
    assert [set(u.cells) for u in small.units if u.name.startswith("window")] == [
        {(1, 1), (1, 2), (2, 1), (2, 2)}
    ]


def test_windoku_needs_square_boxes() -> None:
    with pytest.raises(PuzzleError, match="square boxes"):
        windoku([0] * 36)


def test_givens_that_clash_on_a_diagonal_are_none_naming_them() -> None:
    grid = [0] * 16
    grid[0], grid[10] = 1, 1
    assert sudoku(grid).givens == {(0, 0): 1, (2, 2): 1}  # fine without the diagonal
    verdict = check_all(x_sudoku(grid))
    assert verdict.status == "none"
    assert verdict.reason == "1 repeats at r1c1 and r3c3 in diagonal r1c1-r4c4"


@pytest.mark.parametrize(
    ("puzzle", "reason"),
    [
        (
            lambda: killer([(2, [(0, 0), (0, 1)])] + [(v, [c]) for v, c in CELLS_4X4_REST], size=4),
            "cage 2+ {r1c1,r1c2} cannot be met by the candidates left",
        ),
        (
            lambda: kenken(2, [(7, "/", [(0, 0), (0, 1)]), (3, "+", [(1, 0), (1, 1)])]),
            "cage 7/ {r1c1,r1c2}: no values 1..2 give 7",
        ),
        (
            lambda: kakuro([[X, Clue(19), Clue(3)], [Clue(None, 19), W, W], [Clue(None, 3), W, W]]),
            "cage 19+ {r2c2,r2c3}: no values 1..9 give 19",
        ),
        (
            lambda: kakuro([[Clue(None, 2), W, W]]),
            "cage 2+ {r1c2,r1c3} cannot be met by the candidates left",
        ),
    ],
)
def test_contradictory_clues_are_none_with_the_reason(puzzle, reason: str) -> None:
    verdict = check_all(puzzle())
    assert verdict.status == "none"
    assert reason in verdict.reason


@pytest.mark.parametrize("name", every_backend())
def test_every_registered_back_end_on_the_small_variants(name: str) -> None:
    for puzzle, solution in [
        (kenken(4, KENKEN_4X4), grid_of("2143132442313412")),
        (kakuro(KAKURO_SMALL), (2, 1, 3, 1, 4, 2, 1, 2)),
    ]:
        backend = get_backend(name)
        result = backend.solve(puzzle, limit=2)
        if result.stopped == "declined":  # a back end without cages (exact cover) says so
            assert result.reason == f"not supported by {name}: Cage"
            assert backend.declines(puzzle) == result.reason
            continue
        assert result.status == "unique"
        assert result.solutions == (solution,)
