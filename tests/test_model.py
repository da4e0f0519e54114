"""The model: validation errors and the independent checker."""

from __future__ import annotations

from array import array
from collections import UserList, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku.backends import get_backend
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import (
    Cage,
    Cell,
    Puzzle,
    PuzzleError,
    Unit,
    cell_name,
    checker,
    clashes,
    is_solution,
    violations,
)

EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def test_cell_names_are_one_based() -> None:
    assert cell_name((0, 0)) == "r1c1"
    assert cell_name((8, 2)) == "r9c3"


def test_puzzle_error_is_a_value_error() -> None:
    assert issubclass(PuzzleError, ValueError)


def test_given_out_of_range() -> None:
    with pytest.raises(PuzzleError, match=r"given 5 at r1c1 is out of range 1\.\.4"):
        sudoku([5] + [0] * 15)


def test_repeated_digit_is_a_clash_naming_digit_cells_and_unit() -> None:
    text = ".99..5.1.85.4....2432......1...69.83.9.....6.62.71...9......1945....4.37.4.3..6.."
    clash = clashes(parse_line(text))[0]
    assert clash.message == "9 repeats at r1c2 and r1c3 in row 1"
    assert clash.cells == ((0, 1), (0, 2)) and clash.rule == "row"


def test_every_clash_is_named_up_to_ten() -> None:
    grid = [0] * 81
    grid[0] = grid[9] = 1  # r1c1, r2c1
    grid[40] = grid[44] = 3  # r5c5, r5c9
    messages = [clash.message for clash in clashes(sudoku(grid))]
    assert "1 repeats at r1c1 and r2c1 in column 1" in messages
    assert "3 repeats at r5c5 and r5c9 in row 5" in messages


@pytest.mark.parametrize("text", [EASTER[:-1], EASTER + "."])
def test_wrong_number_of_cells(text: str) -> None:
    with pytest.raises(PuzzleError) as error:
        parse_line(text)
    message = str(error.value)
    assert "81" in message
    assert str(len(text)) in message


def test_box_that_does_not_fit() -> None:
    with pytest.raises(PuzzleError, match=r"box 2x4 does not fit a 9x9 grid"):
        sudoku([0] * 81, box=(2, 4))


def test_prime_size_needs_an_explicit_box() -> None:
    with pytest.raises(PuzzleError, match="prime"):
        sudoku([0] * 25)


def test_clash_free_givens_without_candidate_are_valid() -> None:
    puzzle = parse_line(
        ".876543212........3........4........5........6........7........8........9........"
    )
    assert puzzle.givens[(0, 1)] == 8


def test_checker_6x6_box_orientation() -> None:
    empty = sudoku([0] * 36, box=(2, 3))
    assert is_solution(empty, tuple(int(c) for c in "261543435612516324342165654231123456"))
    transpose = tuple(int(c) for c in "245361631452156243563124412635324516")
    assert not is_solution(empty, transpose)
    assert any("box" in v for v in violations(empty, transpose))


def test_checker_rejects_a_broken_given_and_wrong_length() -> None:
    puzzle = sudoku([1] + [0] * 15)
    grid = tuple(int(c) for c in "2143341243211234")
    assert "r1c1 is 2, but the given is 1" in violations(puzzle, grid)
    assert violations(puzzle, grid[:-1]) == ["grid has 15 values, expected 16"]


def _breaks(puzzle: Puzzle, grid: tuple[object, ...]) -> list[str]:
    """The rules, one cell and one unit at a time (what ``violations`` says in words, and
    what its passes in C must agree with)."""
    if len(grid) != len(puzzle.cells):
        return ["length"]
    found = [
        f"{cell_name(cell)} range"
        for cell, v in zip(puzzle.cells, grid, strict=True)
        if type(v) is not int or not puzzle.min_value <= v <= puzzle.max_value
    ]
    if found:
        return found
    place = {cell: i for i, cell in enumerate(puzzle.cells)}
    found += [f"{cell_name(c)} given" for c, v in puzzle.givens.items() if grid[place[c]] != v]
    for unit in puzzle.units:
        values = [grid[place[cell]] for cell in unit.cells]
        if len(set(values)) != len(values):
            found.append(f"{unit.describe()} repeats")
    return found


@st.composite
def corrupted_grids(draw: st.DrawFn) -> tuple[Puzzle, tuple[object, ...]]:
    """A 4x4, 6x6, 9x9 or 16x16 Sudoku, with diagonals or windows, or a jigsaw (givens from
    a solution, or clashing), and a grid: the solution, or it with swapped cells, a value
    out of range, a bool, a float, a string, a cell dropped or added."""
    box = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (3, 3), (4, 4)]))
    n = box[0] * box[1]
    digits = draw(st.permutations(range(1, n + 1)))
    solution = [
        digits[(box[1] * (r % box[0]) + r // box[0] + c) % n] for r in range(n) for c in range(n)
    ]
    shown = draw(st.sets(st.integers(0, n * n - 1), max_size=n * n // 2))
    givens = [v if i in shown else 0 for i, v in enumerate(solution)]
    if draw(st.booleans()):  # a given that differs from the solution (may clash)
        givens[draw(st.integers(0, n * n - 1))] = draw(st.integers(1, n))
    grid: list[object] = list(solution)
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(grid) - 1))
        j = draw(st.integers(0, len(grid) - 1))
        change = draw(
            st.sampled_from(["swap", "value", "huge", "bool", "float", "str", "drop", "add"])
        )
        if change == "swap":
            grid[i], grid[j] = grid[j], grid[i]
        elif change == "value":
            grid[i] = draw(st.integers(-1, n + 1))
        elif change == "huge":  # past a C long
            grid[i] = draw(st.sampled_from([2**63, -(2**63) - 1, 2**100]))
        elif change == "bool":
            grid[i] = True
        elif change == "float":
            grid[i] = float(solution[i % (n * n)])
        elif change == "str":
            grid[i] = str(solution[i % (n * n)])
        elif change == "drop" and len(grid) > 1:
            grid.pop()
        elif change == "add":
            grid.append(1)
    shape = draw(st.sampled_from(["sudoku", "diagonals", "windows", "jigsaw"]))
    if shape == "jigsaw":  # regions: the broken diagonals r + c = k (mod n)
        return jigsaw(givens, [(i // n + i % n) % n for i in range(n * n)]), tuple(grid)
    extras = () if shape == "sudoku" or (shape == "windows" and box != (3, 3)) else (shape,)
    return sudoku(givens, box=box, extras=extras), tuple(grid)


@contextmanager
def _screened(compiled: bool) -> Iterator[None]:
    """The checker with its C screen (``compiled``) or its passes in Python, its shapes
    made anew either way."""
    kept = checker._SCREEN
    checker._SCREEN = kept if compiled else None
    checker._SHAPES.clear()
    try:
        yield
    finally:
        checker._SCREEN = kept
        checker._SHAPES.clear()


#: Each test of the checker runs with its C screen and with its passes in Python.
SCREENS = pytest.mark.parametrize(
    "compiled",
    [
        pytest.param(
            True,
            marks=pytest.mark.skipif(
                checker._SCREEN is None, reason="the C screen is not built: pip install -e ."
            ),
        ),
        False,
    ],
    ids=["C screen", "Python passes"],
)


@SCREENS
@settings(max_examples=400, deadline=None)
@given(case=corrupted_grids(), as_list=st.booleans())
def test_the_checker_agrees_with_the_rules_cell_by_cell(
    compiled: bool, case: tuple[Puzzle, tuple[object, ...]], as_list: bool
) -> None:
    """The checker's screen (types, range, every unit at once: in C, or in a few passes in
    Python without it) and givens pass exactly the grids the rules pass, one cell and one
    unit at a time, and name as many breaks; a grid as a tuple or a list."""
    puzzle, grid = case
    with _screened(compiled):
        found = violations(puzzle, list(grid) if as_list else grid)  # type: ignore[arg-type]
    expected = _breaks(puzzle, grid)
    assert bool(found) == bool(expected)
    assert len(found) == len(expected)


class _List(list[int]):
    pass


class _Tuple(tuple[int, ...]):
    __slots__ = ()


@SCREENS
@pytest.mark.parametrize(
    "container",
    [_List, _Tuple, lambda g: array("i", g), lambda g: array("B", g), deque, UserList],
    ids=["list subclass", "tuple subclass", "array i", "array B", "deque", "UserList"],
)
def test_the_checker_reads_any_sequence(
    compiled: bool, container: Callable[[list[int]], Sequence[int]]
) -> None:
    """A grid of integers in a sequence other than a list or a tuple is checked by the same
    rules as in a list: a grid of ones breaks givens and repeats a value in every unit, a
    solution passes."""
    puzzle = parse_line(EASTER)
    solution = get_backend("backtrack").solve(puzzle).solutions[0]
    with _screened(compiled):
        ones = violations(puzzle, container([1] * 81))
        assert violations(puzzle, container(list(solution))) == []
    assert sum(problem.endswith("repeats a value") for problem in ones) == 27
    assert ones == violations(puzzle, [1] * 81)


@SCREENS
def test_a_value_that_is_not_an_int_is_named_with_its_type(compiled: bool) -> None:
    """A value of another type reads as the value it is not (``'5'``, ``5.0``, ``True``
    print as 5, 5.0, True): the message shows its repr and its type."""
    puzzle = parse_line(EASTER)
    grid: list[object] = list(get_backend("backtrack").solve(puzzle).solutions[0])
    grid[1:5] = ["5", 5.0, True, 10]
    with _screened(compiled):
        found = violations(puzzle, grid)  # type: ignore[arg-type]
    assert found == [
        "r1c2 is '5' (str), expected an int in 1..9",
        "r1c3 is 5.0 (float), expected an int in 1..9",
        "r1c4 is True (bool), expected an int in 1..9",
        "r1c5 is 10, outside 1..9",
    ]


def test_checker_cages() -> None:
    cells = ((0, 0), (0, 1))
    puzzle = Puzzle(
        rows=1,
        cols=2,
        cells=cells,
        max_value=4,
        constraints=(Unit("row 1", cells), Cage(cells, "/", 2)),
    )
    assert is_solution(puzzle, (2, 4))
    assert is_solution(puzzle, (4, 2))
    assert not is_solution(puzzle, (3, 1))


@pytest.mark.parametrize(
    ("cells", "op", "target", "message"),
    [
        (((0, 0), (0, 1)), "=", 1, "'=' needs exactly one cell"),
        (((0, 0),), "+", 1, "use '='"),
        (((0, 0), (0, 1)), "^", 2, "operation must be one of"),
        (((0, 0), (0, 1), (0, 2)), "-", 1, "takes exactly two cells"),
    ],
)
def test_bad_cages(cells: tuple[Cell, ...], op: str, target: int, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as error:
        Cage(cells, op, target)
    assert error.value.cells == cells


@pytest.mark.parametrize(
    ("op", "target", "message"),
    [
        ("+", 9, "cage 9+ {r1c1,r1c2}: no values 1..4 give 9"),  # past any sum: no search
        ("*", 7, "cage 7* {r1c1,r1c2} cannot be met by the candidates left"),  # by enumeration
    ],
)
def test_cage_targets_out_of_reach_are_clashes_not_bad_input(
    op: str, target: int, message: str
) -> None:
    cells = ((0, 0), (0, 1))
    puzzle = Puzzle(
        rows=1, cols=2, cells=cells, max_value=4, constraints=(Cage(cells, op, target),)
    )
    (clash,) = clashes(puzzle)
    assert clash.rule == "cage" and clash.cells == cells
    assert clash.message == message


def test_unit_over_a_missing_cell() -> None:
    with pytest.raises(PuzzleError, match="r1c3, which is not a cell"):
        Puzzle(
            rows=1,
            cols=3,
            cells=((0, 0),),
            max_value=2,
            constraints=(Unit("run", ((0, 0), (0, 2))),),
        )


def test_puzzles_pickle_with_their_givens_and_labels() -> None:
    import pickle

    puzzle = Puzzle(
        rows=1,
        cols=3,
        cells=((0, 1), (0, 2)),
        max_value=2,
        constraints=(Unit("run", ((0, 1), (0, 2))),),
        givens={(0, 1): 2},
        labels={(0, 0): "\\3"},
    )
    copy = pickle.loads(pickle.dumps(puzzle))
    assert copy.givens == {(0, 1): 2} and copy.labels == {(0, 0): "\\3"}
    assert copy.units == puzzle.units and copy.cells == puzzle.cells
    with pytest.raises(TypeError):
        copy.givens[(0, 2)] = 1  # type: ignore[index]


def test_a_pickled_sudoku_carries_its_shape_as_a_recipe_and_shares_it() -> None:
    import pickle

    puzzle = parse_line("." * 80 + "1")
    data = pickle.dumps(puzzle)
    copy = pickle.loads(data)
    assert copy == puzzle and copy.givens == {(8, 8): 1}
    # the receiving process's own shared tuples (one structure, one compiled shape per shape)
    assert copy.cells is puzzle.cells and copy.constraints is puzzle.constraints
    assert len(data) < 600  # not 81 cells and 27 units
    with_extra = sudoku("." * 81, extras=["diagonals"])  # a tuple of its own travels whole
    assert pickle.loads(pickle.dumps(with_extra)) == with_extra
