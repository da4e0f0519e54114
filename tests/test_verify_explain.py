"""Every deduction step is sound: replayed, it never removes the solution's value."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cp_sudoku.generate.blanked import solved_grid
from cp_sudoku.io import read_file
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cell, Grid, Puzzle
from cp_sudoku.verify.explain import LEVEL, TECHNIQUES, Explanation, explain
from cp_sudoku.verify.proof import prove

MODELS = Path(__file__).resolve().parents[1] / "models"
#: magictour-top1465 lines that between them use every technique but the hidden quad
#: (the first line where each appears; found by running the engine over the file).
TOP1465_LINES = (1, 11, 14, 44, 52, 156, 201)


def replay(puzzle: Puzzle, explanation: Explanation, solution: Grid) -> None:
    """Apply every step to a candidate grid of our own and check it against ``solution``."""
    true = dict(zip(puzzle.cells, solution, strict=True))
    peers: dict[Cell, set[Cell]] = {cell: set() for cell in puzzle.cells}
    for unit in puzzle.units:
        for cell in unit.cells:
            peers[cell].update(c for c in unit.cells if c != cell)
    cands = {cell: set(puzzle.values) for cell in puzzle.cells}

    def place(cell: Cell, value: int) -> None:
        assert true[cell] == value, f"places {value} at {cell}, the solution has {true[cell]}"
        cands[cell] = {value}
        for peer in peers[cell]:
            cands[peer].discard(value)

    for cell, value in puzzle.givens.items():
        place(cell, value)
    for step in explanation.steps:
        assert step.places or step.removes, step
        for cell, value in step.removes:
            assert value in cands[cell], f"{step.text}: removes {value} from {cell} twice"
            assert true[cell] != value, f"unsound {step.technique}: {step.text}"
            cands[cell].discard(value)
        for cell, value in step.places:
            place(cell, value)
    if explanation.outcome == "solved":
        assert all(cands[cell] == {true[cell]} for cell in puzzle.cells)
    else:
        assert explanation.outcome == "stalled"
        assert all(true[cell] in values for cell, values in explanation.left.items())


def _check(puzzle: Puzzle) -> Explanation:
    run = prove(puzzle)
    assert run.status == "unique"
    explanation = explain(puzzle)
    replay(puzzle, explanation, run.solutions[0])
    return explanation


def test_every_step_on_the_unique_models_is_sound() -> None:
    used: set[str] = set()
    for path in sorted(MODELS.glob("*.txt")):
        for entry in read_file(path):
            assert entry.puzzle is not None
            if prove(entry.puzzle).status == "unique":
                used |= set(_check(entry.puzzle).techniques)
    assert {"naked single", "hidden single", "cage combinations", "naked pair"} <= used


def test_every_technique_but_the_hidden_quad_on_top1465_is_sound(data: Path) -> None:
    path = data / "sudoku" / "magictour-top1465.txt"
    entries = [e for e in read_file(path) if e.line in TOP1465_LINES]
    used: set[str] = set()
    for entry in entries:
        assert entry.puzzle is not None
        used |= set(_check(entry.puzzle).techniques)
    expected = {name for name, _ in TECHNIQUES} - {
        "hidden quad",
        "cage combinations",
        "relation and clue tuples",
    }
    assert used == expected


@pytest.mark.slow
def test_every_step_on_400_of_top1465_is_sound(data: Path) -> None:
    path = data / "sudoku" / "magictour-top1465.txt"
    for entry in list(read_file(path))[:400]:
        assert entry.puzzle is not None
        _check(entry.puzzle)


def test_a_puzzle_solved_by_singles_is_graded_and_proved_unique() -> None:
    explanation = explain(next(iter(read_file(MODELS / "sudoku-4x4-tutorial.txt"))).puzzle)
    assert explanation.outcome == "solved"
    assert explanation.hardest == "naked single"
    assert explanation.grade == "naked single (level 1, SE 2.3)"
    assert "a proof that the solution is unique" in explanation.summary()
    closing = explanation.record()[-1]
    assert closing["outcome"] == "solved" and "candidates" not in closing


def test_a_stall_says_where_and_lists_the_candidates_left() -> None:
    entry = list(read_file(MODELS / "sudoku-9x9-hard.txt"))[1]
    explanation = explain(entry.puzzle)
    assert explanation.outcome == "stalled" and explanation.left
    assert explanation.grade.startswith("beyond simple colouring")
    closing = explanation.record()[-1]
    assert closing["candidates"] and "stalled after" in closing["text"]
    assert explanation.candidates_text().startswith("r1c2=478 r1c3=")
    assert LEVEL["simple colouring"] == len(TECHNIQUES)


def test_a_puzzle_without_solution_ends_in_a_contradiction() -> None:
    explanation = explain(sudoku([int(c) if c != "." else 0 for c in "31.....2..1..3.."]))
    assert explanation.outcome == "contradiction"
    assert "no candidate" in explanation.where or "no place" in explanation.where


def test_every_technique_is_sound_on_random_candidate_grids() -> None:
    # candidate grids that hold the true solution (each open cell: its value plus random others,
    # none taken by a placed peer); every technique's first step must keep every true value
    from cp_sudoku.verify.explain import _FINDERS, _Grid

    rng = random.Random(19)
    fired: set[str] = set()
    for trial in range(300):
        solution = solved_grid((3, 3), trial)
        puzzle = sudoku([v if rng.random() < 0.25 else 0 for v in solution])
        true = dict(zip(puzzle.cells, solution, strict=True))
        g = _Grid(puzzle)
        density = rng.choice([0.1, 0.2, 0.35])
        for cell in g.open():
            g.cands[cell] = {true[cell]} | {v for v in g.cands[cell] if rng.random() < density}
        for find in _FINDERS:
            step = find(g)
            if step is None:
                continue
            fired.add(step.technique)
            assert all(true[c] != v for c, v in step.removes), step.text
            assert all(true[c] == v for c, v in step.places), step.text
    expected = {name for name, _ in TECHNIQUES} - {"cage combinations", "relation and clue tuples"}
    assert fired == expected
