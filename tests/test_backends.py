"""Known values on all three back ends, which must agree and return checked grids."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import check_all, every_backend, grid_of, lines

from cp_sudoku.backends import base, get_backend
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import is_solution

TUTORIAL_4X4 = "......122..4.4.."
TUTORIAL_9X9 = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
TUTORIAL_200 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ANTI_BACKTRACK = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
FULL = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@pytest.mark.parametrize(
    ("text", "tries", "backtracks"),
    [(TUTORIAL_4X4, 13, 2), (TUTORIAL_9X9, 4208, None), (TUTORIAL_200, 200, None)],
)
def test_plain_matches_the_tutorial(text: str, tries: int, backtracks: int | None) -> None:
    result = get_backend("backtrack-plain").solve(parse_line(text))
    assert result.status == "unique"
    assert result.stats["first_tries"] == tries
    if backtracks is not None:
        assert result.stats["first_backtracks"] == backtracks


def test_tutorial_4x4_solution() -> None:
    verdict = check_all(parse_line(TUTORIAL_4X4))
    assert verdict.status == "unique"
    assert verdict.solution == grid_of("1243431221343421")


def test_plain_with_a_tries_cap_says_unknown_not_none() -> None:
    result = get_backend("backtrack-plain", max_tries=10_000).solve(parse_line(ANTI_BACKTRACK))
    assert result.status == "unknown"
    assert result.stats["tries"] == 10_001


def test_plain_time_limit_says_unknown() -> None:
    result = get_backend("backtrack-plain").solve(parse_line(ANTI_BACKTRACK), time_limit=0.05)
    assert result.status == "unknown"


@pytest.mark.parametrize(
    ("text", "solution"),
    [
        (
            ANTI_BACKTRACK,
            "987654321246173985351928746128537694634892157795461832519286473472319568863745219",
        ),
        (
            EASTER,
            "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
        ),
        (FULL, FULL),
    ],
)
def test_unique_cases(text: str, solution: str) -> None:
    verdict = check_all(parse_line(text))
    assert verdict.status == "unique"
    assert verdict.solution == grid_of(solution)


def test_hard1_is_multiple_on_every_back_end() -> None:
    verdict = check_all(parse_line(HARD1))
    assert verdict.status == "multiple"
    assert len(verdict.solutions) >= 2


def test_exactly_two_solutions() -> None:
    text = "349618572782359...651742389273895...195476238864231957527164893918523764436987125"
    verdict = check_all(parse_line(text), limit=10)
    assert verdict.status == "multiple"
    for result in verdict.results.values():
        assert len(result.solutions) == 2
        assert result.complete


def test_no_candidate_means_none() -> None:
    text = ".876543212........3........4........5........6........7........8........9........"
    verdict = check_all(parse_line(text))
    assert verdict.status == "none"
    assert verdict.solution is None


@pytest.mark.parametrize(
    ("text", "limit", "count"),
    [("34..12.....3....", 3, 3), ("34..12.....3....", 10, 3), ("." * 16, 1000, 288)],
)
def test_counts(text: str, limit: int, count: int) -> None:
    verdict = check_all(parse_line(text), limit=limit)
    for result in verdict.results.values():
        assert len(result.solutions) == count
        assert result.complete == (limit > count)  # at the limit, more may exist
    assert len(verdict.solutions) == count


def test_limit_stops_counting() -> None:
    verdict = check_all(parse_line("." * 16), limit=5)
    for result in verdict.results.values():
        assert len(result.solutions) == 5
        assert not result.complete


def test_one_by_one() -> None:
    verdict = check_all(sudoku([0]))
    assert verdict.status == "unique"
    assert verdict.solution == (1,)


def test_top95_all_unique_with_stored_solutions(data: Path) -> None:
    puzzles = lines(data / "sudoku" / "norvig-top95.txt")
    solutions = lines(data / "sudoku" / "norvig-top95.solutions.txt")
    assert len(puzzles) == len(solutions) == 95
    for text, solution in zip(puzzles, solutions, strict=True):
        verdict = check_all(parse_line(text))
        assert verdict.status == "unique", text
        assert verdict.solution == grid_of(solution)


@pytest.mark.parametrize(
    ("name", "count", "step"),
    [
        # 100 of the hardest set by default; 200 of it and the other two (4 s of CPU)
        # under the slow mark
        pytest.param("royle-17clue.txt", 300, 163, marks=pytest.mark.slow),
        ("forum-hardest-1106.txt", 100, 1),
        pytest.param("forum-hardest-1106.txt", 200, 1, marks=pytest.mark.slow),
        pytest.param("magictour-top1465.txt", 300, 4, marks=pytest.mark.slow),
    ],
)
def test_benchmark_samples_unique(data: Path, name: str, count: int, step: int) -> None:
    puzzles = lines(data / "sudoku" / name, count, step)
    assert len(puzzles) == count
    for text in puzzles:
        assert check_all(parse_line(text)).status == "unique", text


@pytest.mark.parametrize("count", [100, pytest.param(200, marks=pytest.mark.slow)])
def test_serg_multi_sample_is_multiple(data: Path, count: int) -> None:
    puzzles = lines(data / "sudoku" / "serg-benchmark-multi.txt", count, 50)
    assert len(puzzles) == count
    for text in puzzles:
        verdict = check_all(parse_line(text))
        assert verdict.status == "multiple", text
        assert len(verdict.solutions) >= 2


@pytest.mark.parametrize("name", every_backend())
def test_every_registered_back_end_solves_easter_monster(name: str) -> None:
    options = {"max_tries": 1000} if name == "backtrack-plain" else {}
    puzzle = parse_line(EASTER)
    result = get_backend(name, **options).solve(puzzle)
    assert result.status in ("unique", "unknown")
    assert all(is_solution(puzzle, g) for g in result.solutions)
    if name != "backtrack-plain":
        assert result.status == "unique"


@pytest.mark.parametrize("name", ["sat", "sat-naive", "dlx"])
def test_a_search_that_meets_each_grid_once_counts_without_hashes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sat (each grid blocked in its cube) and dlx (each grid one leaf) hand the sink every
    grid once, so it keeps no hash of the grids it only counts: a count of millions kept
    about 80 bytes a grid (dlx 112 MB at 750,000 grids, growing).  The exact counts show
    that no grid came twice (a repeat would be counted)."""
    sinks: list[base.Sink] = []

    class Spy(base.Sink):
        def __init__(self, *args: object, **kwargs: bool) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            sinks.append(self)

    monkeypatch.setattr(base, "Sink", Spy)
    backend = get_backend(name)
    assert backend.distinct_grids
    result = backend.solve(parse_line("." * 81), limit=1000, keep=2)
    assert (result.count, len(result.solutions), sinks[-1].hashes) == (1000, 2, 0)
    whole = backend.solve(parse_line("." * 16), limit=10**6, keep=2)
    assert (whole.count, whole.complete) == (288, True)
