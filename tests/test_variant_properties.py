"""Property tests: random cages over a known grid keep it among every back end's solutions."""

from __future__ import annotations

from collections.abc import Callable

from conftest import answered, check_all
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cp_sudoku.generate.blanked import solved_grid
from cp_sudoku.io import parse_text as parse_variant
from cp_sudoku.io import to_text as variant_text
from cp_sudoku.kinds.kenken import CageSpec, kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.model import Cell, Puzzle, is_solution

SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def latin_squares(draw: st.DrawFn, n: int) -> tuple[int, ...]:
    """The cyclic n x n Latin square with rows, columns and symbols permuted."""
    rows, cols = draw(st.permutations(range(n))), draw(st.permutations(range(n)))
    symbols = draw(st.permutations(range(1, n + 1)))
    return tuple(symbols[(rows[r] + cols[c]) % n] for r in range(n) for c in range(n))


def grow_cages(
    draw: st.DrawFn, n: int, largest: int, fits: Callable[[list[Cell], Cell], bool]
) -> list[list[Cell]]:
    """Cover the n x n grid with cages of 1..largest orthogonally connected cells."""
    owner: set[Cell] = set()
    cages = []
    for start in draw(st.permutations([(r, c) for r in range(n) for c in range(n)])):
        if start in owner:
            continue
        cage = [start]
        owner.add(start)
        size = draw(st.integers(1, largest))
        while len(cage) < size:
            around = sorted(
                {
                    (r + dr, c + dc)
                    for r, c in cage
                    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                    if 0 <= r + dr < n and 0 <= c + dc < n
                }
                - owner
            )
            options = [cell for cell in around if fits(cage, cell)]
            if not options:
                break
            cell = draw(st.sampled_from(options))
            cage.append(cell)
            owner.add(cell)
        cages.append(cage)
    return cages


def kenken_cage(draw: st.DrawFn, cells: list[Cell], values: list[int]) -> CageSpec:
    """An operation the values allow, and its target."""
    if len(cells) == 1:
        return values[0], "=", cells
    ops = ["+", "*"]
    if len(cells) == 2:
        high, low = max(values), min(values)
        ops += ["-"] if high > low else []
        ops += ["/"] if high % low == 0 and high > low else []
    op = draw(st.sampled_from(ops))
    target = {
        "+": sum(values),
        "*": _product(values),
        "-": max(values) - min(values),
        "/": max(values) // min(values),
    }[op]
    return target, op, cells


def _product(values: list[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def assert_complete_agreement(puzzle: Puzzle, grid: tuple[int, ...], limit: int) -> None:
    assert is_solution(puzzle, grid)
    verdict = check_all(puzzle, limit=limit)
    assume(all(r.complete for r in answered(verdict)))
    for result in answered(verdict):
        assert grid in result.solutions
        assert sorted(result.solutions) == sorted(verdict.solutions)


@SETTINGS
@given(data=st.data(), n=st.integers(3, 5))
def test_random_kenken_over_a_latin_square(data: st.DataObject, n: int) -> None:
    square = data.draw(latin_squares(n))
    value = {(i // n, i % n): v for i, v in enumerate(square)}
    shapes = grow_cages(data.draw, n, 4, lambda cage, cell: True)
    cages = [kenken_cage(data.draw, s, [value[c] for c in s]) for s in shapes]
    puzzle = kenken(n, cages)
    assert_complete_agreement(puzzle, square, limit=300)
    assert parse_variant(variant_text(puzzle)).cages == puzzle.cages


@SETTINGS
@given(
    data=st.data(),
    box=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3)]),
    seed=st.integers(0, 10**6),
)
def test_random_sum_cages_and_givens_over_a_solved_sudoku(
    data: st.DataObject, box: tuple[int, int], seed: int
) -> None:
    grid = solved_grid(box, seed)
    n = box[0] * box[1]
    value = {(i // n, i % n): v for i, v in enumerate(grid)}
    shapes = grow_cages(
        data.draw, n, 5, lambda cage, cell: value[cell] not in {value[c] for c in cage}
    )
    shown = data.draw(st.sets(st.integers(0, n * n - 1), max_size=n * n // 4))
    givens = [v if i in shown else 0 for i, v in enumerate(grid)]
    puzzle = killer([(sum(value[c] for c in s), s) for s in shapes], givens, box=box)
    assert_complete_agreement(puzzle, grid, limit=100)
    assert parse_variant(variant_text(puzzle)).cages == puzzle.cages
