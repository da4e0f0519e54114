"""Product cages as sums of prime exponents (``cp_sudoku/encodings/products.py``), hidden
operators as either a sum or a product, long sum cages by bounds in the backtracker: the
``sat``, ``mip`` and ``backtrack`` back ends count exactly what the cage's table of allowed
tuples allows.  A 20 x 20 KenKen whose product cage is too large for a table is in
``tests/test_encoding_size.py``."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cp_sudoku.backends import get_backend
from cp_sudoku.constraints import Table
from cp_sudoku.encodings.products import by_exponents, exponent_sums
from cp_sudoku.kinds.grid import square_puzzle, sudoku_units
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.model import Cage, Cell, Puzzle, is_solution

#: The back ends that compile a product cage by its exponent sums.
BY_EXPONENTS = ("sat", "mip", "backtrack", "backtrack-plain")


def test_exponent_sums_split_the_target_by_prime() -> None:
    sums = exponent_sums(2**3 * 3 * 7, (1, 2, 3, 4, 5, 6))
    assert [(s.prime, s.total) for s in sums] == [(2, 3), (3, 1), (5, 0), (7, 1)]
    assert sums[0].exponents == {1: 0, 2: 1, 3: 0, 4: 2, 5: 0, 6: 1}
    assert set(sums[-1].exponents.values()) == {0}  # 7 divides no value: a sum never met
    assert not by_exponents(Cage(((0, 0), (0, 1)), "*", 6), range(1, 7))  # two cells: pairs
    assert not by_exponents(Cage(((0, 0), (0, 1), (1, 0)), "*", 6), range(7))  # a 0 value


#: Solutions each back end looks for (more than many cages allow; a cage allowing more is
#: compared on the first 30, each re-checked).
LIMIT = 30


@st.composite
def cages(draw: st.DrawFn) -> tuple[Puzzle, Puzzle, int]:
    """An n x n grid (n = 3..6, values 1..n) with one cage of 3 to 6 cells anywhere (a
    product, a hidden operator or a sum) and every other cell given, its target reachable
    or not, its values distinct or not, the cells of row 1 all different or not; the same
    puzzle with the cage as its table of allowed tuples; and how many tuples it has."""
    n = draw(st.integers(3, 6))
    every = [(r, c) for r in range(n) for c in range(n)]
    cells: list[Cell] = draw(st.lists(st.sampled_from(every), min_size=3, max_size=6, unique=True))
    values = draw(st.lists(st.integers(1, n), min_size=len(cells), max_size=len(cells)))
    op = draw(st.sampled_from("*?+"))
    reachable = {"*": [math.prod(values)], "+": [sum(values)]}.get(
        op, [sum(values), math.prod(values)]
    )
    target = draw(st.sampled_from([*reachable, draw(st.integers(1, n ** len(cells)))]))
    cage = Cage(tuple(cells), op, target, draw(st.booleans()))
    units = sudoku_units(n, None)[:1] if draw(st.booleans()) else ()
    givens = {cell: 1 + (cell[1] if units and cell[0] == 0 else 0) for cell in every}
    givens = {cell: v for cell, v in givens.items() if cell not in cells}
    puzzle = replace(square_puzzle(n, "kenken", constraints=(*units, cage)), givens=givens)
    row = {cells.index(c) for c in cells if c[0] == 0} if units else set()
    tuples = tuple(
        t
        for t in product(range(1, n + 1), repeat=len(cells))
        if cage.holds(t) and _fits_row(puzzle, cells, t, row)
    )
    tabled = replace(puzzle, constraints=(*units, Table(tuple(cells), tuples)))
    return puzzle, tabled, len(tuples)


def _fits_row(puzzle: Puzzle, cells: list[Cell], values: tuple[int, ...], row: set[int]) -> bool:
    """The cage's values in row 1 repeat neither each other nor a given of the row."""
    seen = [v for k, v in enumerate(values) if k in row]
    seen += [v for cell, v in puzzle.givens.items() if cell[0] == 0] if row else []
    return len(set(seen)) == len(seen)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cages())
def test_exponent_sums_count_what_the_table_allows(puzzles: tuple[Puzzle, Puzzle, int]) -> None:
    _count_what_the_table_allows(*puzzles)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cages())
def test_exponent_sums_count_what_the_table_allows_many(
    puzzles: tuple[Puzzle, Puzzle, int],
) -> None:
    _count_what_the_table_allows(*puzzles)


def _count_what_the_table_allows(with_cage: Puzzle, tabled: Puzzle, allowed: int) -> None:
    expected = get_backend("sat").solve(tabled, limit=LIMIT)
    assert expected.count == min(allowed, LIMIT)
    for name in BY_EXPONENTS:
        result = get_backend(name).solve(with_cage, limit=LIMIT)
        assert result.count == expected.count, (name, result.count, expected.count)
        assert result.complete == expected.complete, name
        assert all(is_solution(with_cage, grid) for grid in result.solutions), name
        if expected.complete:
            assert set(result.solutions) == set(expected.solutions), name


def _kenken_12_with_two_row_products(divide: int) -> Puzzle:
    """A 12 x 12 KenKen, each pair of rows one ``*`` cage of 24 cells with the target
    12!**2 (18 digits, which every Latin square meets), the first divided by ``divide``."""
    n = 12
    cages = [
        (
            math.factorial(n) ** 2 // (divide if r == 0 else 1),
            "*",
            [(r + k, c) for k in (0, 1) for c in range(n)],
        )
        for r in range(0, n, 2)
    ]
    return kenken(n, cages)


@pytest.mark.parametrize(("divide", "status"), [(1, "multiple"), (11, "none")])
def test_cpsat_takes_several_products_past_64_bits(divide: int, status: str) -> None:
    """Six 24-cell products whose bound 12**24 passes 64 bits: CP-SAT chained each through
    partial products between 1 and the target, and refused the model (the widths of its
    domains add up past 64 bits), so ``check`` exited 2 on a valid puzzle; as exponent
    sums it answers (dividing by 11 leaves one 11 for two rows: no solution)."""
    puzzle = _kenken_12_with_two_row_products(divide)
    result = get_backend("cpsat").solve(puzzle, limit=2, time_limit=60)
    assert result.status == status, result
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
