"""The Sudoku builder for every box shape."""

from __future__ import annotations

import pytest

from cp_sudoku.backends import get_backend
from cp_sudoku.kinds.grid import default_box
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import is_solution


@pytest.mark.parametrize(
    ("n", "box"),
    [
        (1, (1, 1)),
        (4, (2, 2)),
        (6, (2, 3)),
        (8, (2, 4)),
        (9, (3, 3)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
    ],
)
def test_default_box(n: int, box: tuple[int, int]) -> None:
    assert default_box(n) == box


@pytest.mark.parametrize("box", [(1, 1), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4)])
def test_units_of_each_box_shape(box: tuple[int, int]) -> None:
    n = box[0] * box[1]
    puzzle = sudoku([0] * (n * n), box=box)
    assert len(puzzle.units) == 3 * n
    for unit in puzzle.units:
        assert len(set(unit.cells)) == n
    boxes = [u for u in puzzle.units if u.name.startswith("box")]
    first = set(boxes[0].cells)
    assert first == {(r, c) for r in range(box[0]) for c in range(box[1])}
    assert set().union(*(set(u.cells) for u in boxes)) == set(puzzle.cells)


@pytest.mark.parametrize("box", [(2, 3), (3, 2), (2, 4), (3, 4), (4, 4), (5, 5)])
@pytest.mark.parametrize("backend", ["cpsat", "sat", "backtrack"])
def test_empty_grid_of_each_shape_is_filled(box: tuple[int, int], backend: str) -> None:
    n = box[0] * box[1]
    puzzle = sudoku([0] * (n * n), box=box)
    result = get_backend(backend).solve(puzzle, limit=2, time_limit=60)
    assert result.status == "multiple"
    assert len(result.solutions) == 2
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
