"""Encodings are bounded before they are built: past its bound a back end declines the
puzzle with a reason naming the bound (cp_sudoku.encodings.size), never runs out of memory.
The runs of whole grids in a 2 GiB address space are in tests/test_input_bounds.py."""

from __future__ import annotations

from itertools import combinations

import pytest

from cp_sudoku.backends import get_backend
from cp_sudoku.constraints import TableTooLarge
from cp_sudoku.constraints.base import TABLE_CELLS
from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.encodings.exact_cover import to_exact_cover
from cp_sudoku.encodings.mip import to_mip
from cp_sudoku.encodings.size import (
    MAX_CELL_VALUES,
    EncodingTooLarge,
    cell_values,
    measures,
    unit_clauses,
)
from cp_sudoku.kinds.futoshiki import futoshiki
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cage, candidates


def test_the_unit_clause_estimate_is_the_cnf_of_the_units() -> None:
    """Without givens every clause of the optimised CNF is a cell's or a unit's."""
    for puzzle in (futoshiki(7, ()), sudoku("." * 81)):
        assert unit_clauses(puzzle, candidates(puzzle)) == len(to_cnf(puzzle).clauses)
    assert measures(futoshiki(36, ())) == {
        "cells": 1296,
        "cell_values": 46_656,
        "unit_clauses": 2_453_328,
    }


def test_givens_count_only_their_candidates() -> None:
    puzzle = sudoku("1" + "." * 80)
    # the given cell keeps one value; its 20 peers lose the given's
    assert cell_values(puzzle) == 80 * 9 + 1 - 20


@pytest.mark.parametrize(
    ("backend", "n", "says"),
    [
        ("sat", 42, "CNF: the encoding would hold 4,561,704 clauses, over the bound of 4,000,000"),
        ("cpsat", 70, "cpsat: the encoding would hold 343,000 cell values, over the bound"),
        ("mip", 40, "MIP: the encoding would hold 64,000 cell values, over the bound of 50,000"),
        ("dlx", 40, "dlx: the encoding would hold 7,488,000 conflict entries, over the bound"),
    ],
)
def test_a_back_end_declines_an_encoding_past_its_bound(backend: str, n: int, says: str) -> None:
    result = get_backend(backend).solve(futoshiki(n, ()), time_limit=30)
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert result.reason is not None and says in result.reason


def test_the_encoders_refuse_before_building() -> None:
    big = futoshiki(100, ())
    with pytest.raises(EncodingTooLarge, match="148,530,000 clauses"):
        to_cnf(big)
    with pytest.raises(EncodingTooLarge, match="1,000,000 cell values"):
        to_mip(big)
    with pytest.raises(EncodingTooLarge, match=f"over the bound of {MAX_CELL_VALUES:,}"):
        to_exact_cover(big)


def test_differ_pairs_are_the_peer_pairs_in_order() -> None:
    puzzle = sudoku("." * 81)
    cells = [puzzle.cells[i] for i in (0, 1, 9, 10, 40, 80, 8, 72)]
    expected = [
        (i, j) for i, j in combinations(range(len(cells)), 2) if cells[j] in puzzle.peers[cells[i]]
    ]
    assert puzzle.differ_pairs(cells) == expected


def test_a_table_wider_than_its_bound_is_declined_before_enumerating() -> None:
    n = 11
    cells = [(r, c) for r in range(n) for c in range(n)]
    wide = Cage(cells, "?", n * n * (n + 1) // 2)
    with pytest.raises(TableTooLarge, match=f"tables span at most {TABLE_CELLS} cells"):
        wide.allowed([list(range(1, n + 1))] * len(cells))
    puzzle = kenken(n, [(wide.target, "?", cells)])
    result = get_backend("backtrack").solve(puzzle, time_limit=30)
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert "121 cells: tables span at most 100 cells" in (result.reason or "")
