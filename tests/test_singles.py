"""Singles without search: known solutions, known stalls, contradictions, soundness."""

from __future__ import annotations

from pathlib import Path

from conftest import grid_of, lines

from cp_sudoku.deduction.singles import solve_singles
from cp_sudoku.io import parse_line
from cp_sudoku.model import Cage, Puzzle, Unit, cells_of

TUTORIAL_4X4 = "......122..4.4.."
# norvig-easy50, puzzle 2: naked singles stall, hidden singles finish it.
EASY_2 = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"
EASY_2_SOLUTION = (
    "245981376169273584837564219976125438513498627482736951391657842728349165654812793"
)
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
# Row 1 has no place for 1: boxes 1 and 2 already hold a 1, box 3's row-1 cells are given.
NO_PLACE_FOR_1 = "......234" + "1........" + "...1....." + "." * 54
NO_CANDIDATE = ".876543212........3........4........5........6........7........8........9........"


def test_naked_singles_solve_the_tutorial_4x4() -> None:
    result = solve_singles(parse_line(TUTORIAL_4X4), hidden=False)
    assert result.status == "solved"
    assert result.grid == grid_of("1243431221343421")
    assert result.decided == 16


def test_hidden_singles_finish_what_naked_singles_leave_open() -> None:
    puzzle = parse_line(EASY_2)
    naked = solve_singles(puzzle, hidden=False)
    assert naked.status == "open"
    assert 0 < naked.decided < 81
    both = solve_singles(puzzle)
    assert both.status == "solved"
    assert both.grid == grid_of(EASY_2_SOLUTION)


def test_a_hard_puzzle_stays_open_with_only_its_givens() -> None:
    puzzle = parse_line(EASTER)
    result = solve_singles(puzzle)
    assert result.status == "open"
    assert result.decided == len(puzzle.givens) == 21


def test_a_value_with_no_place_is_a_contradiction_for_hidden_singles_only() -> None:
    puzzle = parse_line(NO_PLACE_FOR_1)
    assert solve_singles(puzzle).status == "contradiction"
    assert solve_singles(puzzle, hidden=False).status == "open"


def test_a_cell_with_no_candidate_is_a_contradiction() -> None:
    assert solve_singles(parse_line(NO_CANDIDATE), hidden=False).status == "contradiction"


def test_decided_cells_agree_with_the_stored_solutions(data: Path) -> None:
    puzzles = lines(data / "sudoku" / "norvig-top95.txt")
    solutions = lines(data / "sudoku" / "norvig-top95.solutions.txt")
    for text, solution in zip(puzzles, solutions, strict=True):
        result = solve_singles(parse_line(text))
        assert result.status in ("open", "solved")
        assert all(v in (0, s) for v, s in zip(result.grid, grid_of(solution), strict=True)), text


def _latin_2x2(*cages: Cage) -> Puzzle:
    units = (
        Unit("row 1", ((0, 0), (0, 1))),
        Unit("row 2", ((1, 0), (1, 1))),
        Unit("column 1", ((0, 0), (1, 0))),
        Unit("column 2", ((0, 1), (1, 1))),
    )
    return Puzzle(2, 2, cells_of(2, 2), 2, constraints=(*units, *cages), kind="kenken")


def test_a_one_cell_cage_acts_as_a_given() -> None:
    result = solve_singles(_latin_2x2(Cage(((0, 0),), "=", 1)))
    assert result.status == "solved"
    assert result.grid == (1, 2, 2, 1)


def test_a_decided_grid_that_breaks_a_cage_is_a_contradiction() -> None:
    puzzle = _latin_2x2(Cage(((0, 0),), "=", 1), Cage(((0, 0), (1, 1)), "+", 3))
    assert solve_singles(puzzle).status == "contradiction"


def test_a_distinct_cage_is_an_all_different_group() -> None:
    cells = cells_of(1, 2)
    puzzle = Puzzle(
        1, 2, cells, 2, constraints=(Cage(cells, "+", 3, distinct=True),), givens={(0, 0): 2}
    )
    result = solve_singles(puzzle)
    assert result.status == "solved"
    assert result.grid == (2, 1)
