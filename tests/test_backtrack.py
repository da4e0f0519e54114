"""The backtrack back end: cages, restarts, limits and large grids (both strategies)."""

from __future__ import annotations

import subprocess
import sys
from itertools import permutations
from math import prod
from pathlib import Path

import pytest
from conftest import check_all, grid_of, lines
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku.backends import Backend, get_backend
from cp_sudoku.backends.backtrack import BacktrackBackend, MrvSearch
from cp_sudoku.backends.base import Sink
from cp_sudoku.generate.blanked import generated_sudoku, solved_grid
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.grid import sudoku_units
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cage, Cell, Puzzle, Unit, cells_of, is_solution

EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


def cell(name: str) -> Cell:
    row, col = name[1:].split("c")
    return int(row) - 1, int(col) - 1


def cage(text: str, *names: str, distinct: bool = False) -> Cage:
    """``"2*"`` or ``"=4"`` and rXcY cell names -> a Cage."""
    if text.startswith("="):
        return Cage(tuple(cell(n) for n in names), "=", int(text[1:]), distinct)
    return Cage(tuple(cell(n) for n in names), text[-1], int(text[:-1]), distinct)


def caged(
    n: int,
    cages: list[Cage],
    box: tuple[int, int] | None = None,
    givens: dict[Cell, int] | None = None,
) -> Puzzle:
    """An n x n grid with cages: a KenKen without ``box``, a Killer-like Sudoku with it."""
    return Puzzle(
        rows=n,
        cols=n,
        cells=cells_of(n, n),
        max_value=n,
        constraints=(*sudoku_units(n, box), *cages),
        givens=givens or {},
        kind="killer" if box else "kenken",
    )


KENKEN_4X4 = caged(
    4,
    [
        cage("2*", "r1c2", "r1c1", "r2c1"),
        cage("7+", "r1c4", "r1c3"),
        cage("1-", "r4c1", "r4c2"),
        cage("2/", "r3c4", "r4c4"),
        cage("2-", "r4c3", "r3c3"),
        cage("6*", "r2c3", "r2c2"),
        cage("2-", "r3c2", "r3c1"),
        cage("=4", "r2c4"),
    ],
)


@pytest.mark.parametrize("strategy", ["mrv", "plain"])
def test_kenken_4x4_is_unique(strategy: str) -> None:
    result = backtracker(strategy).solve(KENKEN_4X4, limit=10)
    assert result.status == "unique"
    assert result.solutions == (grid_of("2143132442313412"),)


def test_kenken_4x4_all_back_ends_agree() -> None:
    assert check_all(KENKEN_4X4).solution == grid_of("2143132442313412")


def latin_squares(n: int) -> list[tuple[int, ...]]:
    """Every n x n Latin square over 1..n, flat and row-major (576 for n = 4)."""
    rows = list(permutations(range(1, n + 1)))
    squares: list[tuple[int, ...]] = [()]
    for r in range(n):
        squares = [
            grid + row
            for grid in squares
            for row in rows
            if all(row[c] != grid[k * n + c] for k in range(r) for c in range(n))
        ]
    return squares


LATIN_4 = latin_squares(4)


@st.composite
def caged_puzzles(draw: st.DrawFn, box: tuple[int, int] | None, n: int) -> Puzzle:
    """A solved grid with random cages (over some or all cells) whose targets it
    meets: a KenKen (no boxes) or a Killer-like Sudoku, with at most two givens."""
    grid = solved_grid(box or (1, n), draw(st.integers(0, 10**6)))
    order = draw(st.permutations(range(n * n)))[: draw(st.integers(n, n * n))]  # caged cells
    cages, start = [], 0
    while start < len(order):
        size = draw(st.sampled_from([1, 2, 2, 3, 3, 4]))
        members = order[start : start + size]
        start += size
        values = [grid[i] for i in members]
        cells = tuple((i // n, i % n) for i in members)
        if len(members) == 1:
            cages.append(Cage(cells, "=", values[0]))
            continue
        high, low = max(values), min(values)
        ops = ["+", "*"]
        if len(members) == 2 and high != low:
            ops += ["-", "/"] if high % low == 0 else ["-"]
        op = draw(st.sampled_from(ops))
        target = {
            "+": sum(values),
            "*": prod(values),
            "-": high - low,
            "/": high // low,
        }[op]
        distinct = op == "+" and len(set(values)) == len(values) and draw(st.booleans())
        cages.append(Cage(cells, op, target, distinct))
    givens = draw(st.sets(st.integers(0, n * n - 1), max_size=2))
    return caged(n, cages, box, {(i // n, i % n): grid[i] for i in givens})


@settings(max_examples=60, deadline=None)
@given(puzzle=st.one_of(caged_puzzles(None, 4), caged_puzzles((2, 2), 4)))
def test_caged_4x4_solution_sets_match_brute_force(puzzle: Puzzle) -> None:
    expected = {g for g in LATIN_4 if is_solution(puzzle, g)}
    assert expected  # built from a solved grid
    for strategy in ("mrv", "plain"):
        result = backtracker(strategy).solve(puzzle, limit=1000)
        assert result.complete
        assert set(result.solutions) == expected
        assert len(result.solutions) == len(expected)


@settings(max_examples=15, deadline=None)
@given(puzzle=st.one_of(caged_puzzles(None, 6), caged_puzzles((2, 3), 6)))
def test_caged_6x6_agrees_with_every_back_end(puzzle: Puzzle) -> None:
    verdict = check_all(puzzle, limit=3)
    assert verdict.status in ("unique", "multiple")


def kakuro_block() -> tuple[Puzzle, set[tuple[int, ...]]]:
    """A 3 x 3 Kakuro block whose six runs each sum to 15 with distinct digits: no
    unit holds every value, and the solutions are counted here by brute force."""
    rows = [tuple((r, c) for c in range(3)) for r in range(3)]
    cols = [tuple((r, c) for r in range(3)) for c in range(3)]
    puzzle = Puzzle(
        rows=3,
        cols=3,
        cells=cells_of(3, 3),
        max_value=9,
        constraints=(
            *(Unit(f"run {k + 1}", run) for k, run in enumerate(rows + cols)),
            *(Cage(run, "+", 15, distinct=True) for run in rows + cols),
        ),
        kind="kakuro",
    )
    lines15 = [row for row in permutations(range(1, 10), 3) if sum(row) == 15]
    grids = {
        a + b + c
        for a in lines15
        for b in lines15
        for c in lines15
        if all(len({a[k], b[k], c[k]}) == 3 and a[k] + b[k] + c[k] == 15 for k in range(3))
    }
    return puzzle, grids


@pytest.mark.parametrize("strategy", ["mrv", "plain"])
def test_kakuro_block_counts_every_solution(strategy: str) -> None:
    puzzle, expected = kakuro_block()
    result = backtracker(strategy).solve(puzzle, limit=10_000)
    assert result.complete
    assert set(result.solutions) == expected
    assert len(expected) == 744
    assert all(is_solution(puzzle, g) for g in result.solutions)


@pytest.fixture
def quick_restarts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Restart after 3 tries, so that nearly every search restarts many times."""
    monkeypatch.setattr(MrvSearch, "RESTART_TRIES", 3)


@pytest.mark.usefixtures("quick_restarts")
@pytest.mark.parametrize(
    ("text", "limit", "count"),
    [("." * 16, 1000, 288), ("34..12.....3....", 10, 3), (EASTER, 2, 1), (HARD1, 2, 2)],
)
def test_restarts_keep_counts_exact(text: str, limit: int, count: int) -> None:
    puzzle = parse_line(text)
    result = BacktrackBackend().solve(puzzle, limit=limit)
    assert len(result.solutions) == count
    assert len(set(result.solutions)) == count
    assert result.complete == (count < limit)
    assert all(is_solution(puzzle, g) for g in result.solutions)
    assert result.stats["tries"] > 3  # it did restart


@pytest.mark.usefixtures("quick_restarts")
@settings(max_examples=30, deadline=None)
@given(puzzle=caged_puzzles((2, 2), 4))
def test_restarts_keep_caged_counts_exact(puzzle: Puzzle) -> None:
    expected = {g for g in LATIN_4 if is_solution(puzzle, g)}
    result = BacktrackBackend().solve(puzzle, limit=1000)
    assert set(result.solutions) == expected


@pytest.mark.usefixtures("quick_restarts")
def test_restarts_without_full_units() -> None:
    puzzle, expected = kakuro_block()
    result = BacktrackBackend().solve(puzzle, limit=10_000)
    assert set(result.solutions) == expected
    assert result.complete


def test_mrv_statistics_are_tries_and_backtracks() -> None:
    result = BacktrackBackend().solve(parse_line(EASTER))
    assert set(result.stats) == {"tries", "backtracks"}
    assert 0 < result.stats["backtracks"] < result.stats["tries"]


def test_mrv_tries_cap_says_unknown() -> None:
    result = BacktrackBackend(max_tries=10).solve(parse_line(EASTER))
    assert result.status == "unknown"
    assert result.stats["tries"] == 11


def test_mrv_time_limit_says_unknown() -> None:
    puzzle, _ = generated_sudoku((6, 6), 0.45, seed=5)  # runs for minutes
    result = BacktrackBackend().solve(puzzle, time_limit=0.2)
    assert result.status == "unknown"
    assert not result.complete
    assert all(is_solution(puzzle, g) for g in result.solutions)


@pytest.mark.parametrize(("text", "status"), [(EASTER, "unique"), (HARD1, "multiple")])
def test_hard_cases_finish(text: str, status: str) -> None:
    result = BacktrackBackend().solve(parse_line(text), time_limit=30)  # a hang guard
    assert result.status == status


def test_generated_36x36_with_several_solutions() -> None:
    # At 45% blanks some seeds take minutes (see the module docstring); 40% is quick.
    puzzle, _ = generated_sudoku((6, 6), 0.4, seed=1)
    result = BacktrackBackend().solve(puzzle, time_limit=120)  # a hang guard
    assert result.status == "multiple"
    assert len(set(result.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in result.solutions)


def test_no_recursion_on_a_36x36_grid() -> None:
    puzzle, grid = generated_sudoku((6, 6), 0.3, seed=2)
    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        result = BacktrackBackend().solve(puzzle, time_limit=120)
    finally:
        sys.setrecursionlimit(depth)
    assert result.status in ("unique", "multiple")
    assert grid in result.solutions or result.status == "multiple"
    assert all(is_solution(puzzle, g) for g in result.solutions)


ALPHABETS = {16: "0123456789ABCDEF", 25: "123456789ABCDEFGHIJKLMNOP"}


@pytest.mark.parametrize(
    "name",
    ["sudoku16x16_easy", "sudoku16x16_medium", "sudoku16x16_hard", "sudoku25x25_easy"],
)
def test_large_grids_are_unique(data: Path, name: str) -> None:
    for text in lines(data / "sudoku-large" / f"{name}.txt"):
        n = int(len(text) ** 0.5)
        alphabet = ALPHABETS[n]
        puzzle = sudoku([0 if ch == "." else alphabet.index(ch) + 1 for ch in text])
        result = BacktrackBackend().solve(puzzle, time_limit=60)  # a hang guard
        assert result.status == "unique", text
        assert is_solution(puzzle, result.solutions[0])


def test_structure_is_compiled_once_per_shape() -> None:
    a, b = parse_line(EASTER), parse_line(HARD1)
    backend = BacktrackBackend()
    assert backend.compiled(a) is backend.compiled(b)
    other = caged(4, [cage("=1", "r1c1")])
    assert backend.compiled(other) is not backend.compiled(KENKEN_4X4)
    assert BacktrackBackend().solve(other, limit=1000).solutions != ()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("royle-17clue", "unique"),
        ("magictour-top1465", "unique"),
        ("forum-hardest-1106", "unique"),
        ("norvig-top95", "unique"),
        ("serg-benchmark-multi", "multiple"),
    ],
)
def test_mrv_on_whole_data_sets(data: Path, name: str, status: str) -> None:
    backend = BacktrackBackend()
    for text in lines(data / "sudoku" / f"{name}.txt"):
        puzzle = parse_line(text)
        result = backend.solve(puzzle, time_limit=60)  # a hang guard
        assert result.status == status, text
        assert len(set(result.solutions)) == len(result.solutions)
        assert all(is_solution(puzzle, g) for g in result.solutions), text


def backtracker(strategy: str) -> Backend:
    """The back end of a strategy: ``mrv`` is ``backtrack``, ``plain`` is ``backtrack-plain``."""
    return get_backend({"mrv": "backtrack", "plain": "backtrack-plain"}[strategy])


#: A 5 x 5 Kakuro whose sums contradict only as a whole (across 81, down 80): every run
#: alone can be met, so a search must try a great many fillings before it proves none.
WHOLE_CONTRADICTION = """kind: kakuro
grid:
x    20\\  20\\  20\\  20\\
\\20  _    _    _    _
\\20  _    _    _    _
\\20  _    _    _    _
\\21  _    _    _    _
"""


def test_the_default_tries_cap_is_per_solution_asked_for() -> None:
    assert BacktrackBackend().cap(2) == 100_000
    assert BacktrackBackend().cap(1_000_000) == 50_000_000_000  # counting is not cut short
    assert BacktrackBackend(max_tries=7).cap(2) == 7
    assert BacktrackBackend(max_tries=0).cap(2) is None
    assert get_backend("backtrack-plain").cap(2) is None  # the baseline keeps no default cap


def test_a_capped_backtrack_leaves_the_verdict_to_the_back_ends_that_finish() -> None:
    from cp_sudoku import crosscheck
    from cp_sudoku.io import read_text

    puzzle = next(read_text(WHOLE_CONTRADICTION)).puzzle
    assert puzzle is not None
    # mip proves none from its LP relaxation at once (cpsat takes 1.5 s of CPU, sat 40 s)
    verdict = crosscheck(puzzle, ["mip", get_backend("backtrack", max_tries=2_000)])
    assert verdict.status == "none"  # proved by mip; never a guess
    assert verdict.results["backtrack"].status == "unknown"
    assert verdict.results["backtrack"].stopped == "effort limit"


@pytest.mark.slow
def test_the_default_cap_stops_backtrack_on_the_whole_contradiction() -> None:
    from cp_sudoku.io import read_text

    puzzle = next(read_text(WHOLE_CONTRADICTION)).puzzle
    assert puzzle is not None
    result = BacktrackBackend().solve(puzzle)
    assert (result.status, result.stopped) == ("unknown", "effort limit")
    assert result.stats["tries"] == 100_001


#: 24 givens of Easter Monster's solution: 2,855 solutions (the kernel counts the same).
FEW = ".74..5.........15.....92.3.....238..........536.85.2.9...5.8..........8....7...91"


def test_a_count_past_its_hashes_is_recounted_plainly_and_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``RECOUNT_AFTER`` grids found with restarts (lowered here to 500), the count
    starts again in one plain run that keeps no hash: still exact."""
    recounts = []
    original = Sink.recount

    def spy(sink: Sink) -> None:
        recounts.append(sink.count)
        original(sink)

    monkeypatch.setattr(MrvSearch, "RECOUNT_AFTER", 500)
    monkeypatch.setattr(Sink, "recount", spy)
    puzzle = parse_line(FEW)
    result = get_backend("backtrack").solve(puzzle, limit=10**9, keep=2)
    assert (result.status, result.count, result.complete) == ("multiple", 2855, True)
    assert recounts and recounts[0] >= 500
    assert all(is_solution(puzzle, grid) for grid in result.solutions)


@pytest.mark.slow
def test_a_count_of_a_million_and_a_half_stays_small() -> None:
    """``count <81 dots> --backend backtrack`` kept a hash of each grid found (about 100
    bytes a grid, 187 MB at 1.35 million); measured in a fresh process."""
    code = (
        "import resource\n"
        "from cp_sudoku.backends import get_backend\n"
        "from cp_sudoku.io import parse_line\n"
        "r = get_backend('backtrack').solve(parse_line('.' * 81), limit=1_500_000, keep=2)\n"
        "print(r.count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found, mib = map(int, out.stdout.split())
    assert found == 1_500_000
    assert mib < 120, f"{mib} MiB"
