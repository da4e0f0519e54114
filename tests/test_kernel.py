"""The ``kernel`` back end: the compiled kernel and its pure-Python fallback.

Both paths are tested: the compiled one (skipped, with the reason, when the
extension is not built) and the fallback (forced in process and through the
``CP_SUDOKU_NO_KERNEL`` environment variable in a child process).  Answers
are compared with known solutions, known counts and the other back ends;
every grid goes through the checker.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import check_all, grid_of, lines

from cp_sudoku.backends import get_backend, kernel
from cp_sudoku.backends.kernel import KernelBackend
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.datasets import dataset_alphabet
from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import parse_line, read_file
from cp_sudoku.model import Puzzle, Unit, is_solution

needs_kernel = pytest.mark.skipif(not kernel.compiled(), reason=str(kernel.KERNEL_MISSING))

TUTORIAL = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TUTORIAL_SOLUTION = (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
TWO_SOLUTIONS = "349618572782359...651742389273895...195476238864231957527164893918523764436987125"
CLASH = ".876543212........3........4........5........6........7........8........9........"
EMPTY_9X9 = "." * 81
EMPTY_4X4 = "." * 16
MODELS = Path(__file__).parent.parent / "models"


@pytest.fixture(params=["compiled", "fallback"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> KernelBackend:
    """A kernel back end on each path (the fallback forced by unloading the kernel)."""
    if request.param == "compiled" and not kernel.compiled():
        pytest.skip(str(kernel.KERNEL_MISSING))
    if request.param == "fallback":
        monkeypatch.setattr(kernel, "_kernel", None)
    return KernelBackend()


def test_known_solution_unique(backend: KernelBackend) -> None:
    puzzle = parse_line(TUTORIAL)
    result = backend.solve(puzzle)
    assert (result.status, result.complete, result.stopped) == ("unique", True, None)
    assert result.solutions == (grid_of(TUTORIAL_SOLUTION),)
    assert set(result.stats) == {"tries", "backtracks"}


def test_two_solutions_counted_exactly(backend: KernelBackend) -> None:
    puzzle = parse_line(TWO_SOLUTIONS)
    result = backend.solve(puzzle, limit=10)
    assert (result.status, result.count, result.complete) == ("multiple", 2, True)
    assert len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, grid) for grid in result.solutions)


def test_clashing_givens_have_no_solution(backend: KernelBackend) -> None:
    result = backend.solve(parse_line(CLASH))
    assert (result.status, result.count, result.complete) == ("none", 0, True)


def test_counts_keep_only_what_is_asked(backend: KernelBackend) -> None:
    """288 grids of a 4x4 Sudoku; 1,000 of the 9x9's counted with two grids kept."""
    assert backend.solve(parse_line(EMPTY_4X4), limit=1000).count == 288
    puzzle = parse_line(EMPTY_9X9)
    result = backend.solve(puzzle, limit=1000, keep=2)
    assert (result.status, result.count, result.stopped) == ("multiple", 1000, "solution limit")
    assert len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, grid) for grid in result.solutions)


#: 18 givens of Easter Monster's solution: 148,320 solutions (dlx counts them too, in 9 s).
MANY = ".7.3.5..2...4....8.86.............7...8.......6..51...7.9...6.....2...........5.."


@needs_kernel
def test_a_count_past_the_hashes_kept_is_exact() -> None:
    """Past 65,536 grids the kernel stops keeping a hash per grid across its restarts and
    counts again in one plain run (each grid found once), so memory stays flat."""
    result = KernelBackend().solve(parse_line(MANY), limit=10**9, keep=2)
    assert (result.status, result.count, result.complete) == ("multiple", 148_320, True)
    assert len(set(result.solutions)) == 2


@needs_kernel
@pytest.mark.slow
def test_a_count_of_ten_million_stays_small() -> None:
    """Counting the empty 9x9 to 10 million kept a 64-bit hash per grid in the kernel's
    open-addressing set: 426 MB at 12 million, growing 10 MB a second.  Measured in a fresh
    process (its peak resident memory)."""
    code = (
        "import resource\n"
        "from cp_sudoku.backends.kernel import KernelBackend\n"
        "from cp_sudoku.io import parse_line\n"
        f"r = KernelBackend().solve(parse_line({EMPTY_9X9!r}), limit=10**7, keep=2)\n"
        "print(r.count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found, mib = map(int, out.stdout.split())
    assert found == 10**7
    assert mib < 100, f"{mib} MiB"


def test_effort_and_time_limits_give_unknown(backend: KernelBackend) -> None:
    puzzle = parse_line(EMPTY_9X9)
    capped = KernelBackend(max_tries=5).solve(puzzle, limit=10**9)
    assert (capped.status, capped.count, capped.stopped) == ("unknown", 0, "effort limit")
    timed = backend.solve(puzzle, limit=10**9, time_limit=0.05, keep=0)
    assert (timed.status, timed.complete, timed.stopped) == ("multiple", False, "time limit")


def test_other_constraint_types_are_declined_with_a_reason(backend: KernelBackend) -> None:
    (killer,) = read_file(MODELS / "killer-9x9-wikipedia.txt")
    assert killer.puzzle is not None
    result = backend.solve(killer.puzzle)
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert result.reason == "not supported by kernel: Cage"
    # In the default cross-check, backtrack stands in for it.
    verdict = crosscheck(killer.puzzle)
    assert verdict.status == "unique" and verdict.declined == ("kernel",)
    assert verdict.results["backtrack"].status == "unique"


def test_more_than_64_values_are_declined() -> None:
    cells = tuple((0, c) for c in range(65))
    puzzle = Puzzle(rows=1, cols=65, cells=cells, max_value=65, constraints=(Unit("row 1", cells),))
    result = KernelBackend().solve(puzzle)
    assert result.reason == "not supported by kernel: more than 64 values"


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.txt")), ids=lambda p: p.name)
def test_agrees_on_the_model_files(path: Path) -> None:
    """Every model file: the kernel's count (up to 50) equals backtrack's and sat's."""
    for entry in read_file(path):
        assert entry.puzzle is not None
        result = get_backend("kernel").solve(entry.puzzle, limit=50)
        if result.stopped == "declined":
            continue
        verdict = check_all(entry.puzzle, limit=50, backends=("kernel", "backtrack", "sat"))
        assert result.count == verdict.results["backtrack"].count


@needs_kernel
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5), (8, 8)])
def test_generated_grids_up_to_64_values(box: tuple[int, int]) -> None:
    """A puzzle made from a known grid (10% blank) has that grid among its solutions."""
    puzzle, grid = generated_sudoku(box, 0.1, seed=1)
    result = get_backend("kernel").solve(puzzle, limit=2, time_limit=60)
    assert result.status in ("unique", "multiple") and result.complete is (result.count < 2)
    assert all(is_solution(puzzle, found) for found in result.solutions)
    if result.status == "unique":
        assert result.solutions == (grid,)


def test_values_from_zero(backend: KernelBackend) -> None:
    """A 4x4 Sudoku with values 0..3: grids come back in the puzzle's own range."""
    one_based = parse_line("1..4..1..1..4..1")
    givens = {cell: value - 1 for cell, value in one_based.givens.items()}
    puzzle = replace(one_based, min_value=0, max_value=3, givens=givens)
    expected = get_backend("backtrack").solve(puzzle, limit=50)
    result = backend.solve(puzzle, limit=50)
    assert (result.status, result.count) == (expected.status, expected.count)
    assert set(result.solutions) == set(expected.solutions)
    assert all(is_solution(puzzle, grid) and min(grid) == 0 for grid in result.solutions)


def test_fallback_by_environment_variable() -> None:
    """``CP_SUDOKU_NO_KERNEL=1``: the pure-Python search runs and says why; the checker
    asks its rules in Python too (no C screen)."""
    code = (
        "from cp_sudoku.backends import kernel, get_backend\n"
        "from cp_sudoku.io import parse_line\n"
        "from cp_sudoku.model import checker\n"
        f"r = get_backend('kernel').solve(parse_line({TUTORIAL!r}))\n"
        "print(kernel.compiled(), kernel.KERNEL_MISSING, r.status, checker._SCREEN)\n"
    )
    env = {**os.environ, "CP_SUDOKU_NO_KERNEL": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False CP_SUDOKU_NO_KERNEL is set unique None"


def _sudoku_large(data: Path, name: str) -> list[Puzzle]:
    path = data / "sudoku-large" / f"{name}.txt"
    entries = list(read_file(path, alphabet=dataset_alphabet(path)))
    assert all(entry.puzzle is not None for entry in entries)
    return [entry.puzzle for entry in entries if entry.puzzle is not None]


@needs_kernel
@pytest.mark.parametrize(
    ("name", "more"),
    [
        *(
            pytest.param(f"sudoku16x16_{level}", ("dlx",), id=f"sudoku16x16_{level}")
            for level in ("easy", "medium", "hard")
        ),
        pytest.param("sudoku25x25_easy", (), id="sudoku25x25_easy"),
        # dlx takes seconds on the first 25x25 puzzle: with it, in the slow run
        pytest.param(
            "sudoku25x25_easy", ("dlx",), id="sudoku25x25_easy-dlx", marks=pytest.mark.slow
        ),
    ],
)
def test_agrees_on_the_16x16_and_25x25_sets(data: Path, name: str, more: tuple[str, ...]) -> None:
    for puzzle in _sudoku_large(data, name):
        verdict = check_all(puzzle, backends=("kernel", "cpsat", "sat", "backtrack", *more))
        assert verdict.status == "unique"


@needs_kernel
def test_every_serg_multi_puzzle_is_multiple(data: Path) -> None:
    backend = get_backend("kernel")
    for text in lines(data / "sudoku" / "serg-benchmark-multi.txt"):
        puzzle = parse_line(text)
        result = backend.solve(puzzle)
        assert result.status == "multiple", text
        assert len(set(result.solutions)) == 2
        assert all(is_solution(puzzle, grid) for grid in result.solutions), text


NINE_BY_NINE = [
    "norvig-easy50",
    "norvig-hardest11",
    "norvig-top95",
    "magictour-top1465",
    "forum-hardest-1106",
    "serg-benchmark-multi",
    "royle-17clue",
    "forum-hardest-1905-11plus",
]


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize("name", NINE_BY_NINE)
def test_agrees_with_every_back_end_on_the_9x9_sets(data: Path, name: str) -> None:
    """Every puzzle: kernel, cpsat, sat and backtrack agree, every grid re-checked;
    every 50th puzzle also with dlx, mip and minizinc (when installed)."""
    fast = ("kernel", "cpsat", "sat", "backtrack")
    slow = ("dlx", "mip") + (("minizinc",) if _has_minizinc() else ())
    for k, text in enumerate(lines(data / "sudoku" / f"{name}.txt")):
        if text.startswith("#"):
            continue
        check_all(parse_line(text), backends=fast + (slow if k % 50 == 0 else ()))


def _has_minizinc() -> bool:
    try:
        get_backend("minizinc")
    except Exception:
        return False
    return True
