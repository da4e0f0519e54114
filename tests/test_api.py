"""The Python API as a library user meets it: threads, counting, iterating, wrong types."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
from conftest import lines

import cp_sudoku
from cp_sudoku import crosscheck
from cp_sudoku.backends import DEFAULT_BACKENDS, get_backend
from cp_sudoku.crosscheck import count, solutions
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Puzzle, PuzzleError, UsageError, is_solution

TUTORIAL_4X4 = "......122..4.4.."  # 3 solutions (the tutorial's exactly-3 puzzle is below)
THREE = "34..12.....3...."


def test_threads_calling_crosscheck_get_every_answer_right(data: Path) -> None:
    """Six threads share nothing but the puzzles; each owns its back ends."""
    texts = lines(data / "sudoku" / "norvig-top95.txt", 60)
    stated = lines(data / "sudoku" / "norvig-top95.solutions.txt", 60)
    puzzles = [parse_line(text) for text in texts]
    wrong: list[str] = []
    done: list[int] = []

    def work(offset: int) -> None:
        for k in range(offset, len(puzzles), 2):
            verdict = crosscheck(puzzles[k], limit=2)
            if verdict.status != "unique" or verdict.solution != tuple(map(int, stated[k])):
                wrong.append(f"{texts[k]}: {verdict.status} {verdict.disagreements}")
            done.append(k)

    threads = [threading.Thread(target=work, args=(k % 2,)) for k in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert not wrong
    assert len(done) == 3 * len(puzzles)  # every thread answered every one of its puzzles


@pytest.mark.parametrize("name", DEFAULT_BACKENDS)
def test_threads_sharing_one_built_back_end_take_turns(data: Path, name: str) -> None:
    backend = get_backend(name)
    texts = lines(data / "sudoku" / "royle-17clue.txt", 120, 97)
    puzzles = [parse_line(text) for text in texts]
    statuses: list[str] = []

    def work(offset: int) -> None:
        for puzzle in puzzles[offset::4]:
            result = backend.solve(puzzle)
            ok = result.status == "unique" and is_solution(puzzle, result.solutions[0])
            statuses.append("ok" if ok else f"{result.status} {puzzle}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    assert statuses == ["ok"] * len(puzzles)  # a thread that raised leaves its share missing


@pytest.mark.parametrize("name", DEFAULT_BACKENDS)
def test_count_is_at_most_the_limit_and_exact_below_it(name: str) -> None:
    empty = sudoku([0] * 16)
    assert count(empty, [name], limit=288).value == 288
    found = count(empty, [name], limit=1000)
    assert (found.value, found.exact, found.proved_by) == (288, True, (name,))
    capped = count(empty, [name], limit=10)
    assert (capped.value, capped.exact) == (10, False)


def test_count_with_three_back_ends_does_not_add_them_up() -> None:
    capped = count(sudoku([0] * 16), DEFAULT_BACKENDS, limit=5)
    assert capped.value == 5 and not capped.exact
    assert capped.figures == {name: (5, False) for name in DEFAULT_BACKENDS}
    exact = count(parse_line(THREE), DEFAULT_BACKENDS, limit=100)
    assert (exact.value, exact.exact) == (3, True)
    assert exact.proved_by == DEFAULT_BACKENDS


def test_counting_many_solutions_keeps_only_a_few_grids() -> None:
    result = get_backend("sat").solve(sudoku([0] * 16), limit=1000, keep=2)
    assert result.count == 288 and result.complete and len(result.solutions) == 2


@pytest.mark.parametrize("name", DEFAULT_BACKENDS)
def test_solutions_yields_distinct_checked_grids(name: str) -> None:
    puzzle = parse_line(THREE)
    grids = list(solutions(puzzle, name, limit=10))
    assert len(grids) == len(set(grids)) == 3
    assert all(is_solution(puzzle, grid) for grid in grids)
    assert len(list(solutions(sudoku([0] * 16), name, limit=7))) == 7


def test_a_single_back_end_name_is_not_split_into_letters() -> None:
    verdict = crosscheck(parse_line(THREE), "sat", limit=10)
    assert list(verdict.results) == ["sat"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: crosscheck("1.."), "expected a Puzzle"),  # type: ignore[arg-type]
        (lambda: crosscheck(sudoku([0] * 16), ["nope"]), "unknown back end 'nope'"),
        (lambda: crosscheck(sudoku([0] * 16), [3]), "a back end is a name"),  # type: ignore[list-item]
        (lambda: crosscheck(sudoku([0] * 16), []), "no back end"),
        (lambda: crosscheck(sudoku([0] * 16), limit=0), "solution limit"),
        (lambda: crosscheck(sudoku([0] * 16), time_limit=float("nan")), "time limit"),
        (lambda: crosscheck(sudoku([0] * 16), time_limit=-1), "time limit"),
        (lambda: get_backend("cpsat", parameters={"max_tme_in_seconds": 1}), "max_tme"),
        (lambda: get_backend("sat", solver="minisat"), "choose one of"),
        (lambda: get_backend("sat", incremental="yes"), "expected bool"),
        (lambda: get_backend("backtrack", strategy="plain"), "no option 'strategy'"),
    ],
)
def test_wrong_arguments_get_a_usage_error_that_says_what(call, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        call()


def test_cpsat_parameters_it_refuses_are_a_usage_error_saying_why() -> None:
    backend = get_backend("cpsat", parameters={"num_search_workers": 1})
    with pytest.raises(UsageError, match="Do not specify both num_search_workers and num_workers"):
        backend.solve(parse_line(THREE))


def test_infinite_time_limit_means_no_limit() -> None:
    verdict = crosscheck(parse_line(THREE), limit=10, time_limit=float("inf"))
    assert verdict.status == "multiple" and len(verdict.solutions) == 3
    assert crosscheck(parse_line(THREE), ["sat"], time_limit=1e400).status == "multiple"


def test_puzzles_compare_by_value_and_have_a_short_repr() -> None:
    a, b = parse_line(THREE), parse_line(THREE)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != parse_line(TUTORIAL_4X4)
    assert repr(a) == "Puzzle(sudoku 4x4, 16 cells, 5 givens)"
    assert len({a, b}) == 1


def test_puzzle_errors_carry_the_cells_at_fault() -> None:
    with pytest.raises(PuzzleError) as error:
        Puzzle(rows=2, cols=2, cells=((0, 0), (0, 1)), max_value=2, givens={(0, 1): 3})
    assert error.value.cells == ((0, 1),)
    assert "r1c2" in str(error.value)


def test_a_declined_puzzle_is_unknown_says_why_and_is_ignored_by_the_judge() -> None:
    from cp_sudoku.backends.base import Backend
    from cp_sudoku.model import Cage, Unit

    class UnitsOnly(Backend):
        name = "units-only"
        supports = frozenset({Unit})

        def search(self, puzzle, sink, clock, stats):  # never reached: it declines cages
            raise AssertionError

    grid = sudoku([0] * 16)
    puzzle = Puzzle(
        rows=4,
        cols=4,
        cells=grid.cells,
        max_value=4,
        constraints=(*grid.units, Cage(((0, 0), (0, 1)), "+", 3, True)),
    )
    result = UnitsOnly().solve(puzzle)
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert result.reason == "not supported by units-only: Cage"
    verdict = crosscheck(puzzle, [UnitsOnly(), "sat"], limit=1000)
    assert verdict.agree and verdict.declined == ("units-only",)
    assert verdict.status == "multiple" and len(verdict.solutions) == 48


BIG = "9" * 23


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            f"kind: kenken\nsize: 2\ncages:\n{BIG}* r1c1 r1c2; 3+ r2c1 r2c2\n",
            f"cage {BIG}* {{r1c1,r1c2}}: no values 1..2 give {BIG}",
        ),
        (
            f"kind: killer\nsize: 4\ncages:\n{BIG} r1c1 r1c2; 7 r1c3 r1c4\n"
            "7 r2c1 r2c2; 3 r2c3 r2c4; 3 r3c1 r3c2; 7 r3c3 r3c4; 7 r4c1 r4c2; 3 r4c3 r4c4\n",
            f"cage {BIG}+ {{r1c1,r1c2}}: no values 1..4 give {BIG}",
        ),
    ],
)
def test_targets_too_large_for_any_solver_are_none_everywhere(text: str, reason: str) -> None:
    """A fuzz finding: such a target crashed CP-SAT's and SCIP's bindings (an internal error)."""
    from cp_sudoku.backends import available
    from cp_sudoku.io import parse_text

    puzzle = parse_text(text)
    for name in available():
        try:
            backend = get_backend(name)
        except UsageError:  # the minizinc executable is not installed
            continue
        result = backend.solve(puzzle)
        if result.stopped != "declined":
            assert (result.status, result.reason) == ("none", reason), name
    verdict = crosscheck(puzzle)
    assert verdict.status == "none" and verdict.reason == reason


def test_a_skyscraper_clue_longer_than_its_line_is_bad_input_naming_it() -> None:
    """A fuzz finding: a clue of 10**21 reached CP-SAT (an internal error)."""
    from cp_sudoku.io import parse_text

    text = "kind: skyscrapers\nsize: 5\nbottom: . . . . 6\nleft: . . 2 . .\n"
    with pytest.raises(PuzzleError, match="a clue counts 1 to 5 buildings along 5 cells") as error:
        parse_text(text)
    assert error.value.cells == ((4, 4), (3, 4), (2, 4), (1, 4), (0, 4))


def test_the_type_checkers_names_are_the_lazy_exports() -> None:
    """``__init__.pyi`` (what type checkers read) re-exports each name of ``EXPORTS`` (what
    the package imports on first use) from the same module, and ``import *`` gives them."""
    stub = Path(cp_sudoku.__file__).with_suffix(".pyi")
    exported = {
        alias.asname: node.module
        for node in ast.parse(stub.read_text()).body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    }
    assert exported == cp_sudoku.EXPORTS
    star: dict[str, object] = {}
    exec("from cp_sudoku import *", star)
    assert set(star) - {"__builtins__"} == {*cp_sudoku.EXPORTS, "__version__"}
    assert star["crosscheck"] is crosscheck and star["Puzzle"] is Puzzle
