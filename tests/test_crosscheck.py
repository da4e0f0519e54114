"""The cross-check: wrong grids and contradictions are reported, never hidden."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import grid_of

from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.backends.base import Result
from cp_sudoku.crosscheck import crosscheck, judge, lineup
from cp_sudoku.io import parse_line, read_file
from cp_sudoku.run import Plan

PUZZLE = parse_line("34..12.....3....")  # 3 solutions
FOURBYFOUR = parse_line("......122..4.4..")
SOLUTION = grid_of("1243431221343421")


def fake(name: str, status: str, solutions=(), complete: bool = True) -> Result:
    return Result(name, status, tuple(solutions), complete, 0.0)  # type: ignore[arg-type]


def test_agreement() -> None:
    verdict = judge(
        FOURBYFOUR, {"a": fake("a", "unique", [SOLUTION]), "b": fake("b", "unique", [SOLUTION])}
    )
    assert verdict.status == "unique"
    assert verdict.agree
    assert verdict.solution == SOLUTION


def test_a_grid_that_fails_the_checker_is_a_disagreement() -> None:
    wrong = grid_of("1243431221343412")
    verdict = judge(FOURBYFOUR, {"a": fake("a", "unique", [wrong])})
    assert verdict.status == "unknown"
    assert not verdict.agree
    assert "not a solution" in verdict.disagreements[0]


def test_statuses_that_differ_are_a_disagreement() -> None:
    verdict = judge(FOURBYFOUR, {"a": fake("a", "unique", [SOLUTION]), "b": fake("b", "none")})
    assert verdict.status == "unknown"
    assert any("none, but a solution was found" in d for d in verdict.disagreements)


def test_unknown_results_prove_nothing_but_do_not_contradict() -> None:
    verdict = judge(
        FOURBYFOUR,
        {"a": fake("a", "unique", [SOLUTION]), "b": fake("b", "unknown", [], complete=False)},
    )
    assert verdict.status == "unique"
    assert verdict.agree


def test_all_unknown_is_unknown() -> None:
    verdict = judge(FOURBYFOUR, {"a": fake("a", "unknown", [SOLUTION], complete=False)})
    assert verdict.status == "unknown"
    assert verdict.agree


def test_union_of_distinct_grids_contradicts_unique() -> None:
    a, b = crosscheck(PUZZLE, ["cpsat"], limit=3).solutions[:2]
    verdict = judge(PUZZLE, {"x": fake("x", "unique", [a]), "y": fake("y", "unique", [b])})
    assert verdict.status == "unknown"
    assert any("2 distinct solutions" in d for d in verdict.disagreements)


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="limit"):
        crosscheck(PUZZLE, limit=0)


def test_no_back_end_or_a_non_positive_time_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="no back end"):
        crosscheck(PUZZLE, backends=[])
    with pytest.raises(ValueError, match="time limit"):
        crosscheck(PUZZLE, time_limit=0)


def test_the_default_cross_check_is_sat_and_kernel_where_the_kernel_takes_the_puzzle() -> None:
    assert lineup(FOURBYFOUR) == ("sat", "kernel")
    verdict = crosscheck(FOURBYFOUR)
    assert list(verdict.results) == ["sat", "kernel"] and verdict.status == "unique"


def test_cpsat_joins_and_backtrack_stands_in_where_the_kernel_declines() -> None:
    (entry,) = read_file(Path(__file__).resolve().parents[1] / "models" / "kenken-4x4-issue4.txt")
    assert entry.puzzle is not None
    assert lineup(entry.puzzle) == DEFAULT_BACKENDS == ("cpsat", "sat", "kernel")
    verdict = crosscheck(entry.puzzle)
    assert list(verdict.results) == ["cpsat", "sat", "kernel", "backtrack"]
    assert verdict.declined == ("kernel",)


def test_named_back_ends_each_run() -> None:
    verdict = crosscheck(FOURBYFOUR, DEFAULT_BACKENDS)
    assert list(verdict.results) == list(DEFAULT_BACKENDS)
    plan = Plan(DEFAULT_BACKENDS)
    assert plan.lineup(FOURBYFOUR, plan.built()) == plan.built()
    default = Plan()  # builds only what runs on every puzzle; cpsat when a puzzle needs it
    assert default.names == DEFAULT_BACKENDS and default.always == ("sat", "kernel")
    assert [b.name for b in default.built()] == ["sat", "kernel"]
    assert [b.name for b in default.lineup(FOURBYFOUR, default.built())] == ["sat", "kernel"]
    (kenken,) = read_file(Path(__file__).resolve().parents[1] / "models" / "kenken-4x4-issue4.txt")
    assert kenken.puzzle is not None
    joined = default.lineup(kenken.puzzle, default.built())
    assert [b.name for b in joined] == list(DEFAULT_BACKENDS)


def test_back_ends_share_a_deadline_in_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a caller's deadline (generate's per puzzle) each back end gets at most what is
    left of it, not its whole own limit: generate --from --time-limit 3 took 12 s with
    three back ends each given 3 s."""
    import time

    from cp_sudoku.backends.base import Backend
    from cp_sudoku.constraints.base import OutOfTime, compile_deadline

    given: list[float | None] = []
    solve = Backend.solve

    def spy(self: Backend, puzzle, limit=2, time_limit=None, **rest):  # type: ignore[no-untyped-def]
        given.append(time_limit)
        return solve(self, puzzle, limit, time_limit, **rest)

    monkeypatch.setattr(Backend, "solve", spy)
    puzzle = parse_line("......122..4.4..")
    with compile_deadline(time.perf_counter() + 5):
        assert crosscheck(puzzle, ["sat", "backtrack"], time_limit=100).status == "unique"
    assert len(given) == 2 and all(t is not None and t <= 5 for t in given)
    given.clear()
    assert crosscheck(puzzle, ["sat"], time_limit=100).status == "unique"
    assert given == [100]  # no deadline in force: the back end's own limit
    with compile_deadline(time.perf_counter() - 1), pytest.raises(OutOfTime):
        crosscheck(puzzle, ["sat"])
