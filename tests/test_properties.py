"""Property tests: a solved grid with random blanks is among every back end's solutions."""

from __future__ import annotations

from conftest import answered, check_all
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cp_sudoku.kinds.sudoku import sudoku


@st.composite
def solved_grids(draw: st.DrawFn, box: tuple[int, int]) -> tuple[int, ...]:
    """A solved n x n grid: the pattern grid with digits, rows and columns shuffled
    within the symmetries that keep it a solution."""
    br, bc = box
    n = br * bc
    digits = draw(st.permutations(range(1, n + 1)))
    bands = draw(st.permutations(range(n // br)))
    rows = [b * br + r for b in bands for r in draw(st.permutations(range(br)))]
    stacks = draw(st.permutations(range(n // bc)))
    cols = [s * bc + c for s in stacks for c in draw(st.permutations(range(bc)))]
    return tuple(digits[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols)


def blanked(draw: st.DrawFn, grid: tuple[int, ...], most: int) -> list[int]:
    blanks = draw(st.sets(st.integers(0, len(grid) - 1), max_size=most))
    return [0 if i in blanks else v for i, v in enumerate(grid)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), box=st.sampled_from([(2, 2), (2, 3), (3, 2)]))
def test_small_grids_every_solution_enumerated(data: st.DataObject, box: tuple[int, int]) -> None:
    grid = data.draw(solved_grids(box))
    n = box[0] * box[1]
    puzzle = sudoku(blanked(data.draw, grid, most=n * n if n == 4 else 22), box=box)
    verdict = check_all(puzzle, limit=400)
    assume(all(r.complete for r in answered(verdict)))
    for result in verdict.results.values():
        assert grid in result.solutions
        assert len(result.solutions) == len(verdict.solutions)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_9x9_with_random_blanks(data: st.DataObject) -> None:
    grid = data.draw(solved_grids((3, 3)))
    puzzle = sudoku(blanked(data.draw, grid, most=60), box=(3, 3))
    verdict = check_all(puzzle, limit=2)
    assert verdict.status in ("unique", "multiple")
    if verdict.status == "unique":
        assert verdict.solution == grid
