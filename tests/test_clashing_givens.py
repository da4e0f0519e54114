"""Wrong statuses the re-check used to catch (issue 20): givens that clash are ``none``
on every back end, and CP-SAT takes a product cage whose largest product passes 2**62."""

from __future__ import annotations

from math import prod

import pytest

from cp_sudoku import crosscheck
from cp_sudoku.backends import available, get_backend
from cp_sudoku.backends.minizinc import missing
from cp_sudoku.io import parse_line
from cp_sudoku.kinds.kenken import kenken

#: A full 4x4 grid whose last row repeats 1 (r4c3 and r4c4): no solution.
CLASHING = "1234341221434311"
RUNNABLE = [name for name in available() if name != "minizinc" or missing() is None]


@pytest.mark.parametrize("name", RUNNABLE)
def test_clashing_givens_are_none_on_every_back_end(name: str) -> None:
    result = get_backend(name).solve(parse_line(CLASHING))
    assert (result.status, result.complete) == ("none", True)
    assert result.reason is not None and "1 repeats at r4c3 and r4c4 in row 4" in result.reason
    assert result.solutions == ()


@pytest.mark.parametrize("name", ["dlx", "kernel"])
def test_clashing_givens_are_none_on_a_back_end_that_declines_the_rules(name: str) -> None:
    """Attack on issue 20: a Killer (cages ``dlx`` and ``kernel`` decline) whose givens
    repeat 1 in row 1 was ``unknown`` (declined) on them, ``none`` on every other."""
    from cp_sudoku.io import read_text

    text = "kind: killer\nsize: 4\ncages:\n3 r1c1 r1c2; 7 r1c3 r1c4; 7 r2c1 r2c2; 3 r2c3 r2c4\n"
    text += "3 r3c1 r3c2; 7 r3c3 r3c4; 7 r4c1 r4c2; 3 r4c3 r4c4\ngrid:\n11..\n....\n....\n....\n"
    (entry,) = read_text(text)
    assert entry.puzzle is not None
    result = get_backend(name).solve(entry.puzzle)
    assert (result.status, result.complete) == ("none", True)
    assert result.reason is not None and "1 repeats at r1c1 and r1c2 in row 1" in result.reason
    declined = get_backend(name).solve(entry.puzzle.with_grid(bytes(16), "open"))
    assert (declined.status, declined.stopped) == ("unknown", "declined")


def test_clashing_givens_are_none_in_the_cross_check() -> None:
    verdict = crosscheck(parse_line("1...1..........."), ["mip", "backtrack-plain", "cpsat"])
    assert verdict.status == "none"
    assert verdict.agree


def test_cpsat_takes_a_product_cage_past_2_62() -> None:
    n = 20
    latin = [[(r * 7 + c * 3) % n + 1 for c in range(n)] for r in range(n)]
    wide = [(0, c) for c in range(15)]  # the largest product 20**15 passes 2**62
    cages = [(prod(latin[0][c] for c in range(15)), "*", wide)]
    cages += [
        (latin[r][c], "=", [(r, c)]) for r in range(n) for c in range(n) if (r, c) not in wide
    ]
    puzzle = kenken(n, cages)
    result = get_backend("cpsat").solve(puzzle)
    assert result.status in ("unique", "multiple"), result  # compiled and solved, not refused
    assert all(grid[:n] and sorted(grid[:15]) == sorted(latin[0][:15]) for grid in result.solutions)
