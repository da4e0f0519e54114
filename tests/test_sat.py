"""The SAT back end's incremental path: same verdicts as fresh solvers, limits, recycling."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import lines

from cp_sudoku.backends import sat as sat_module
from cp_sudoku.backends.sat import SatBackend, ShapeSolver
from cp_sudoku.encodings.cnf import compiled_clauses, to_cnf
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cage, Puzzle, Unit, cells_of, is_solution

PIGEONHOLE = Puzzle(  # 12 cells, 11 values, all different: no solution, and hard for CDCL
    rows=1,
    cols=12,
    cells=cells_of(1, 12),
    max_value=11,
    constraints=(Unit("row 1", cells_of(1, 12)),),
)


@pytest.mark.parametrize("half", [75, pytest.param(1000, marks=pytest.mark.slow)])
def test_incremental_and_fresh_agree_on_2000_puzzles(data: Path, half: int) -> None:
    """``half`` royle-17clue (all unique), then ``half`` serg-benchmark-multi (all multiple)."""
    texts = lines(data / "sudoku" / "royle-17clue.txt", half, 49)
    texts += lines(data / "sudoku" / "serg-benchmark-multi.txt", half, 10)
    assert len(texts) == 2 * half
    fresh = SatBackend(incremental=False)
    with ShapeSolver(parse_line(texts[0])) as shape:
        for number, text in enumerate(texts):
            puzzle = parse_line(text)
            expected = fresh.solve(puzzle)
            found, complete, stats = shape.solve(puzzle)
            assert stats["assumptions"] == len(puzzle.givens)
            status = "multiple" if len(found) == 2 else ("unique" if complete else "unknown")
            assert status == expected.status == ("unique" if number < half else "multiple"), text
            assert len(set(found)) == len(found)
            assert all(is_solution(puzzle, grid) for grid in found)
            if status == "unique":
                assert found == list(expected.solutions)


def test_the_back_end_compiles_a_shape_on_its_first_puzzle(data: Path) -> None:
    texts = lines(data / "sudoku" / "norvig-top95.txt", 30)
    solutions = lines(data / "sudoku" / "norvig-top95.solutions.txt", 30)
    with SatBackend() as backend:
        results = [backend.solve(parse_line(text)) for text in texts]
    assert all(r.stats["assumptions"] > 0 for r in results)  # compiled from the first
    # the size counts depend on the puzzle alone: the compiled 9x9's
    assert {(r.stats["variables"], r.stats["clauses"]) for r in results} == {(729, 11_988)}
    for result, solution in zip(results, solutions, strict=True):
        assert result.status == "unique"
        assert result.solutions[0] == tuple(int(ch) for ch in solution)


def test_recycling_keeps_verdicts(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sat_module, "RECYCLE_PUZZLES", 3)
    texts = lines(data / "sudoku" / "serg-benchmark-multi.txt", 10)
    texts += lines(data / "sudoku" / "forum-hardest-1106.txt", 10)
    with ShapeSolver(parse_line(texts[0]), solver="glucose4") as shape:
        for text in texts:
            puzzle = parse_line(text)
            found, complete, _ = shape.solve(puzzle, limit=3)
            assert all(is_solution(puzzle, grid) for grid in found)
            assert len(set(found)) == len(found)
            assert (len(found) >= 2) == (text in texts[:10])
            assert complete == (len(found) < 3)


def test_compiled_shape_counts_exactly_and_survives_a_time_limit(data: Path) -> None:
    empty_4x4 = sudoku([0] * 16)
    with ShapeSolver(empty_4x4) as shape:
        found, complete, _ = shape.solve(empty_4x4, limit=1000)
        assert len(set(found)) == 288 and complete
        found, complete, _ = shape.solve(parse_line("34..12.....3...."), limit=10)
        assert len(found) == 3 and complete
        found, complete, _ = shape.solve(empty_4x4, limit=5)  # earlier blocking clauses are off
        assert len(found) == 5 and not complete
    empty_9x9 = sudoku([0] * 81)
    with ShapeSolver(empty_9x9) as shape:
        found, complete, _ = shape.solve(empty_9x9, limit=10**6, time_limit=0.2)
        assert len(found) >= 2 and not complete  # stopped by the clock, all distinct
        assert len(set(found)) == len(found) and all(is_solution(empty_9x9, g) for g in found)
        full = sudoku(found[-1])  # a grid blocked a moment ago: its blocking clause is off now
        again, complete, _ = shape.solve(full)
        assert again == [found[-1]] and complete
        puzzle = parse_line(lines(data / "sudoku" / "norvig-top95.txt", 1)[0])
        solution = lines(data / "sudoku" / "norvig-top95.solutions.txt", 1)[0]
        found, complete, _ = shape.solve(puzzle)
        assert complete and found == [tuple(int(ch) for ch in solution)]


@pytest.mark.parametrize("solver", ["minisat22", "cadical195"])
@pytest.mark.parametrize("incremental", [True, False])
def test_time_limit_says_unknown(solver: str, incremental: bool) -> None:
    """minisat22 is interrupted by a timer; cadical195 is run in conflict chunks."""
    backend = SatBackend(solver=solver, incremental=incremental)
    result = backend.solve(PIGEONHOLE, time_limit=0.2)
    assert result.status == "unknown" and not result.complete
    assert result.seconds < 5


def test_compiled_clause_count_matches_the_encoding() -> None:
    for box in [(2, 2), (2, 3), (3, 3), (4, 4)]:
        n = box[0] * box[1]
        puzzle = sudoku([0] * (n * n), box)
        for encoding in ("minimal", "efficient", "extended"):
            assert compiled_clauses(puzzle, encoding) == len(to_cnf(puzzle, encoding).clauses)
    assert compiled_clauses(sudoku([0] * 81)) == 11_988


def test_cages_and_assumption_free_solvers_are_never_compiled() -> None:
    base = sudoku([0] * 16)
    killer = replace(base, constraints=(*base.constraints, Cage(((0, 0), (0, 1)), "+", 3, True)))
    with pytest.raises(ValueError, match="units alone"):
        ShapeSolver(killer)
    with pytest.raises(ValueError, match="assumptions"):
        ShapeSolver(sudoku([0] * 16), solver="kissat404")
    backend = SatBackend()
    for _ in range(20):
        result = backend.solve(killer, limit=1000)
        assert result.stats["assumptions"] == 0
    assert len(result.solutions) == 48  # 288 grids / 12 ordered pairs at r1c1, r1c2; {1,2}: 2


def test_every_listed_solver_builds_and_honours_a_time_limit() -> None:
    import time

    from cp_sudoku.backends.sat import SatBackend, solver_names
    from cp_sudoku.kinds.sudoku import sudoku

    empty = sudoku([0] * 81)
    for name in solver_names():
        start = time.perf_counter()
        result = SatBackend(solver=name).solve(empty, limit=10**6, time_limit=0.1)
        assert result.status in ("multiple", "unknown"), name  # never a wrong proof
        assert not result.complete and result.stopped == "time limit", name
        assert time.perf_counter() - start < 30, name  # a generous bound that catches a hang
