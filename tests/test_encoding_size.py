"""Encodings are bounded before they are built: past its bound a back end declines the
puzzle with a reason naming the bound (cp_sudoku.encodings.size), never runs out of memory.
The runs of whole grids in a 2 GiB address space are in tests/test_input_bounds.py."""

from __future__ import annotations

import re
import time
from itertools import combinations
from math import prod
from pathlib import Path

import pytest
from click.testing import CliRunner

from cp_sudoku.backends import get_backend
from cp_sudoku.backends.minizinc import INSTALL, missing
from cp_sudoku.cli import main
from cp_sudoku.constraints import TableTooLarge
from cp_sudoku.constraints.base import TABLE_CELLS
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.encodings.exact_cover import to_exact_cover
from cp_sudoku.encodings.minizinc import to_minizinc
from cp_sudoku.encodings.mip import to_mip
from cp_sudoku.encodings.size import (
    MAX_CELL_VALUES,
    EncodingTooLarge,
    cell_values,
    measures,
    unit_clauses,
)
from cp_sudoku.io import parse_text
from cp_sudoku.kinds.futoshiki import futoshiki
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cage, Puzzle, Unsupported, candidates, is_solution


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
        ("sat", 42, "the CNF would hold 4,561,704 clauses, over the bound of 4,000,000"),
        ("cpsat", 70, "the CP-SAT model would hold 343,000 cell values, over the bound"),
        ("mip", 40, "the MIP would hold 64,000 cell values, over the bound of 50,000"),
        ("dlx", 40, "the dlx matrix would hold 7,488,000 conflict entries, over the bound"),
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
    result = get_backend("cpsat").solve(puzzle, time_limit=30)  # sat, backtrack: no table
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert "121 cells: tables span at most 100 cells" in (result.reason or "")


def _kenken_20_text(op: str = "*") -> str:
    """A valid 20 x 20 KenKen as a variant file: a Latin square, a cage over r1c1-r1c15
    (values 1 to 15) whose bound as a product, 20**15, passes 64 bits, every other cell a
    one-cell cage.  ``op`` ``*``: the product (a target of 14 digits); ``?``: the sum, 120."""
    n = 20
    big = [(0, c) for c in range(15)]
    target = prod(range(1, 16)) if op == "*" else sum(range(1, 16))
    lines = ["kind: kenken", f"size: {n}", "cages:"]
    lines.append(f"{target}{op} " + " ".join(f"r1c{c + 1}" for _, c in big))
    lines += [
        f"{(r + c) % n + 1} r{r + 1}c{c + 1}"
        for r in range(n)
        for c in range(n)
        if (r, c) not in big
    ]
    return "\n".join(lines) + "\n"


def _kenken_20_with_a_product_over_15_cells() -> Puzzle:
    return parse_text(_kenken_20_text("*"))


@pytest.mark.parametrize("backend", ["cpsat", "minizinc", "sat", "backtrack", "mip"])
def test_a_20x20_kenken_with_a_huge_product_gets_a_verdict(backend: str) -> None:
    """CP-SAT chains the product (it refused the model before) and proves it unique; sat,
    backtrack and mip take it as sums of prime exponents (``encodings/products.py``) and
    prove it unique too (they declined its table before: its 15 cells differ, so each of
    its 15! orders is another tuple, past the cap); MiniZinc declines a target past
    Gecode's integers (it crashed reading the FlatZinc)."""
    if backend == "minizinc" and missing() is not None:
        pytest.skip(f"minizinc is not installed: {INSTALL}")
    puzzle = _kenken_20_with_a_product_over_15_cells()
    result = get_backend(backend).solve(puzzle, time_limit=60)
    if backend == "minizinc":
        assert (result.status, result.stopped) == ("unknown", "declined"), result
        assert "past Gecode's integers" in (result.reason or "")
        return
    assert result.status == "unique", result
    assert result.solutions[0][:15] == tuple(range(1, 16))
    assert is_solution(puzzle, result.solutions[0])


@pytest.mark.parametrize(
    "rule",
    [
        "linear 99999999999 r1c1 1 r1c2 == 100000000001",
        "linear 1 r1c1 1 r1c2 == 2147483647",
        "relation ratio 99999999999 r4c1 r4c2",
    ],
)
def test_minizinc_declines_a_number_past_gecodes_integers(rule: str) -> None:
    """A 12-digit coefficient, right-hand side or ratio (the text format takes them) ended
    in exit 70: Gecode's FlatZinc parser refused the literal ("invalid integer literal")."""
    if missing() is not None:
        pytest.skip(f"minizinc is not installed: {INSTALL}")
    puzzle = parse_text(f"kind: sudoku\ngrid:\n....\n....\n....\n....\nconstraints:\n{rule}\n")
    result = get_backend("minizinc").solve(puzzle, time_limit=60)
    assert (result.status, result.stopped) == ("unknown", "declined"), result
    assert "past Gecode's integers" in (result.reason or "")


def test_minizinc_refuses_a_hidden_operator_that_may_be_a_product_past_64_bits(
    tmp_path: Path,
) -> None:
    """The 20 x 20 KenKen with its cage as ``120?`` (its sum): as a product it may reach
    20**15, and a chain of partial products in 1..120 would bind when the sum holds, so the
    MiniZinc writer refuses it, for the exporter (exit 2, one line) as for the back end
    (declined); the other back ends prove it unique.  A hidden operator whose product stays
    within 64 bits is still written as its disjunction."""
    text = _kenken_20_text("?")
    says = "a product that may reach 20**15, past 64 bits, as a hidden operator"
    with pytest.raises(Unsupported, match=re.escape(says)):
        to_minizinc(parse_text(text))
    source = tmp_path / "kenken.txt"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "kenken.mzn"
    result = CliRunner().invoke(main, ["export", str(source), "--to", "minizinc", "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and says in result.stderr
    assert not out.exists()
    small = parse_text(Path("models/kenken-5x5-hidden.txt").read_text(encoding="utf-8"))
    assert " \\/ product([" in to_minizinc(small).text  # its 3-cell cages: 5**3
    verdict = crosscheck(parse_text(text), ("sat", "backtrack"), time_limit=60)
    assert verdict.status == "unique" and verdict.agree
    if missing() is None:
        found = get_backend("minizinc").solve(parse_text(text), time_limit=60)
        assert (found.status, found.stopped) == ("unknown", "declined")
        assert says in (found.reason or "")


def test_the_default_cross_check_agrees_on_the_20x20_kenken() -> None:
    verdict = crosscheck(_kenken_20_with_a_product_over_15_cells(), time_limit=60)
    assert verdict.status == "unique" and verdict.agree
    answered = [r for r in verdict.results.values() if r.stopped != "declined"]
    assert {r.backend for r in answered} >= {"cpsat", "sat", "backtrack"}
    assert all(r.status == "unique" for r in answered)


def test_a_wide_symmetric_table_is_declined_at_its_first_tuple() -> None:
    """A hidden-operator cage (sum or product, so a table) over a whole row of a 9 x 9
    KenKen, on cpsat: the cells differ, so one tuple found means 9! = 362,880 of them, past
    the cap, without enumerating 200,000 first.  (sat and the backtracker take it as its
    sum or its product, never a table.)"""
    n = 9
    row = [(0, c) for c in range(n)]
    rest = [(r, c) for r in range(1, n) for c in range(n)]
    puzzle = kenken(n, [(362_880, "?", row)] + [((r + c) % n + 1, "=", [(r, c)]) for r, c in rest])
    started = time.perf_counter()
    result = get_backend("cpsat").solve(puzzle, time_limit=60)  # sat, backtrack: no table
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert "exceeds 200000 tuples (each of the 9! orders of a tuple is one)" in (
        result.reason or ""
    )
    assert time.perf_counter() - started < 30  # a hang bound: enumerating 200,000 took minutes
