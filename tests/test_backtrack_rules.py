"""The backtracker's table rules prune exactly what brute force over their rule keeps."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_sudoku.backends.backtrack import BacktrackBackend
from cp_sudoku.backends.backtrack_rules import DISTINCT_MOVES, DigitSets, Layers, Rule, Tuples, mask
from cp_sudoku.constraints import TableTooLarge, Visibility
from cp_sudoku.constraints.automaton import Automaton
from cp_sudoku.constraints.outside import Sandwich, XSum
from cp_sudoku.io import read_file
from cp_sudoku.kinds.skyscrapers import skyscrapers
from cp_sudoku.kinds.sudoku import sudoku

N = 5
ROW = tuple((0, c) for c in range(N))
#: Rules over five cells of one row, values 1..5 (Visibility also from 0: empty cells).
AUTOMATA: list[tuple[Automaton, range]] = [
    (Sandwich(ROW, 5), range(1, N + 1)),
    (Sandwich(ROW, 0), range(1, N + 1)),
    (XSum(ROW, 7), range(1, N + 1)),
    (Visibility(ROW, 3, "left"), range(1, N + 1)),
    (Visibility(ROW, 2, "left"), range(0, N + 1)),
]


def gac(rule: Rule, holds: list[tuple[int, ...]], masks: list[int]) -> list[int] | None:
    """What generalised arc consistency keeps: the values of the allowed tuples within
    ``masks`` (``holds``: every allowed tuple, values 1..n), None when none is left."""
    found = [0] * len(masks)
    for t in holds:
        if all(m >> (v - 1) & 1 for m, v in zip(masks, t, strict=True)):
            for pos, v in enumerate(t):
                found[pos] |= 1 << (v - 1)
    return found if any(found) else None


masks_5 = st.lists(st.integers(1, (1 << (N + 1)) - 1), min_size=N, max_size=N)


@cache
def allowed_of(which: int, distinct: bool) -> list[tuple[int, ...]]:
    """Every tuple rule ``which`` of :data:`AUTOMATA` allows, values shifted to 1..n."""
    rule, values = AUTOMATA[which]
    shift = 1 - values.start
    return [
        tuple(v + shift for v in t)
        for t in product(values, repeat=N)
        if rule.holds(t) and (not distinct or len(set(t)) == N)
    ]


@settings(max_examples=200, deadline=None)
@given(masks=masks_5, which=st.integers(0, len(AUTOMATA) - 1), distinct=st.booleans())
def test_layers_prune_as_brute_force(masks: list[int], which: int, distinct: bool) -> None:
    rule, values = AUTOMATA[which]
    layers = Layers(list(range(N)), rule, values, 1 - values.start, distinct)
    masks = [m & ((1 << len(values)) - 1) or 1 for m in masks]
    assert layers.prune(masks) == gac(layers, allowed_of(which, distinct), masks)


def test_layers_fit_as_the_rule_holds() -> None:
    """fits is the rule alone: the units see to distinct values."""
    for rule, values in AUTOMATA:
        shift = 1 - values.start
        layers = Layers(list(range(N)), rule, values, shift, True)
        for t in product(values, repeat=N):
            assert layers.fits([v + shift for v in t]) == rule.holds(t)


@settings(max_examples=200, deadline=None)
@given(
    tuples=st.lists(st.tuples(*[st.integers(1, 4)] * 3), min_size=1, max_size=30),
    masks=st.lists(st.integers(1, 15), min_size=3, max_size=3),
)
def test_tuples_prune_as_brute_force(tuples: list[tuple[int, ...]], masks: list[int]) -> None:
    table = Tuples([0, 1, 2], tuples, 4)
    assert table.prune(masks) == gac(table, tuples, masks)
    for t in product(range(1, 5), repeat=3):
        assert table.fits(list(t)) == (t in tuples)


def test_digit_sets_keep_the_digits_of_the_sets_that_fit() -> None:
    cage = DigitSets([0, 1], [mask({1, 4}), mask({2, 3})])  # two cells summing to 5
    assert cage.prune([mask({1, 2}), mask({3, 4})]) == [mask({1, 2}), mask({3, 4})]
    assert cage.prune([mask({1}), mask({2, 3, 4})]) == [mask({1}), mask({4})]
    assert cage.prune([mask({1}), mask({2, 3})]) is None
    assert cage.fits([4, 1]) and not cage.fits([1, 1])


def runs(layers: list[list[tuple[object, int, object]]]) -> set[tuple[int, ...]]:
    """Every path of a layered graph, as the values read along it."""
    paths: dict[object, set[tuple[int, ...]]] = {state: {()} for state, _, _ in layers[0]}
    for layer in layers:
        after: dict[object, set[tuple[int, ...]]] = {}
        for state, value, nxt in layer:
            after.setdefault(nxt, set()).update((*p, value) for p in paths.get(state, ()))
        paths = after
    return set().union(*paths.values())


def test_automaton_layers_with_distinct_values_are_the_distinct_runs() -> None:
    for rule, values in AUTOMATA:
        every = set(product(values, repeat=N))
        held = {t for t in every if rule.holds(t)}
        assert runs(rule.layers([values] * N)) == held
        assert runs(rule.layers([values] * N, distinct=True)) == {
            t for t in held if len(set(t)) == N
        }


def test_sandwich_clues_are_settled_without_a_table_of_permutations(data: Path) -> None:
    folder = data / "fpuzzles"
    puzzle = next(read_file(folder / "rangsk-sandwich-sudoku.fpuzzles.txt")).puzzle
    assert puzzle is not None
    stated = (folder / "rangsk-sandwich-sudoku.solution.txt").read_text().strip()
    result = BacktrackBackend().solve(puzzle, time_limit=120)  # a hang guard
    assert result.status == "unique"
    assert "".join(map(str, result.solutions[0])) == stated.replace(",", "")


def test_an_equal_puzzle_of_other_tuples_shares_the_compiled_structure() -> None:
    puzzle = sudoku([0] * 81)
    backend = BacktrackBackend()
    first = backend.compiled(puzzle)
    assert backend.compiled(sudoku([0] * 80 + [1])) is first  # the same tuples: by identity
    rebuilt = replace(puzzle, cells=tuple(list(puzzle.cells)))
    assert rebuilt.cells is not puzzle.cells
    assert backend.compiled(rebuilt) is first  # equal tuples: by value
    other = replace(puzzle, constraints=puzzle.constraints[:-1])
    assert backend.compiled(other) is not first


def test_a_12x12_skyscrapers_takes_the_clues_alone_past_the_distinct_cap() -> None:
    n = 12
    square = [[(r + c) % n + 1 for c in range(n)] for r in range(n)]
    clues = {
        "left": [Visibility.seen(row) for row in square],
        "top": [Visibility.seen([square[r][c] for r in range(n)]) for c in range(n)],
    }
    puzzle = skyscrapers(n, clues)
    clue = puzzle.of_type(Visibility)[0]
    with pytest.raises(TableTooLarge):
        clue.layers([puzzle.values] * n, distinct=True, cap=DISTINCT_MOVES)
    result = BacktrackBackend().solve(puzzle, time_limit=120)  # a hang guard
    assert result.status == "unique"
    assert result.solutions[0] == tuple(v for row in square for v in row)
