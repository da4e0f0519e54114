"""The setter's workbench: differences, true candidates, cores and suggested givens,
each compared with an independent answer (enumeration by the backtracker, another back end)."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import lines
from pysat.solvers import Solver
from workbench_support import (
    contradictory,
    enumerated,
    enumerated_candidates,
    fewest_givens,
    snake_palindrome,
)

from cp_sudoku.backends.base import Clock
from cp_sudoku.backends.sat import Stopper
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import parse_line, parse_text
from cp_sudoku.kinds.killer import killer
from cp_sudoku.model import UsageError, violations
from cp_sudoku.workbench import (
    count_words,
    differences,
    suggest,
    true_candidates,
    why_none,
)
from cp_sudoku.workbench.core import _deleted, check_core
from cp_sudoku.workbench.members import selected

THREE_SOLUTIONS = "34..12.....3...."


def pair_killer(targets: tuple[int, ...] = (3, 7, 7, 3, 3, 7, 7, 3)):
    """A 4x4 Killer whose cages are the two halves of each row, with these sums."""
    cells = [[(r, c), (r, c + 1)] for r in range(4) for c in (0, 2)]
    return killer(list(zip(targets, cells, strict=True)), size=4, box=(2, 2))


#: Exactly two solutions (models/sudoku-9x9-multiple.txt, line 2).
TWO_SOLUTIONS = "349618572782359...651742389273895...195476238864231957527164893918523764436987125"


def test_differences_name_each_cell_and_both_values() -> None:
    puzzle = parse_line(THREE_SOLUTIONS)
    verdict = crosscheck(puzzle, "sat")
    first, second = verdict.solutions[:2]
    found = differences(puzzle, first, second)
    assert found and all(first[puzzle.index[d.cell]] == d.values[0] for d in found)
    assert all(second[puzzle.index[d.cell]] == d.values[1] for d in found)
    assert len(found) == sum(a != b for a, b in zip(first, second, strict=True))
    assert found[0].record()["cell"].startswith("r")


def test_count_words_say_what_is_known() -> None:
    puzzle = parse_line(THREE_SOLUTIONS)
    # three back ends, limit 2: each stopped at 2, whatever the distinct grids add up to
    assert count_words(crosscheck(puzzle, limit=2)) == (
        "at least 2 solutions (search stopped at the limit)"
    )
    assert count_words(crosscheck(puzzle, limit=10)) == "exactly 3 solutions"
    # a puzzle with exactly 2: the sat search ends below the limit of 5
    assert count_words(crosscheck(parse_line(TWO_SOLUTIONS), "sat", limit=5)) == (
        "exactly 2 solutions"
    )
    assert count_words(crosscheck(parse_line(TWO_SOLUTIONS), "sat", limit=2)) == (
        "at least 2 solutions (search stopped at the limit)"
    )


@pytest.mark.parametrize("seed", range(6))
def test_true_candidates_equal_enumeration_on_6x6(seed: int) -> None:
    puzzle, _ = generated_sudoku((2, 3), blank_fraction=0.6, seed=seed)
    grids = enumerated(puzzle)
    found = true_candidates(puzzle, per_candidate=1_000)
    assert dict(found.values) == enumerated_candidates(puzzle, grids)
    assert all(not violations(puzzle, grid) for grid in found.grids)
    for (cell, value), count in found.counts.items():
        i = puzzle.index[cell]
        assert count == sum(grid[i] == value for grid in grids), (cell, value)
    assert found.status == ("multiple" if len(grids) > 1 else "unique")


def test_true_candidates_cap_and_unique_and_none() -> None:
    puzzle = parse_line(THREE_SOLUTIONS)
    capped = true_candidates(puzzle, per_candidate=2)
    assert max(capped.counts.values()) == 2 and capped.record()["cap"] == 2
    assert capped.counts[((0, 0), 3)] == 2  # a given: the puzzle's count, capped
    unique = true_candidates(parse_line("1234341221434321"[:-1] + "."))
    assert unique.status == "unique" and all(len(v) == 1 for v in unique.values.values())
    none = true_candidates(parse_line("12.......3.4..4."))
    assert none.status == "none" and not any(none.values.values())
    with pytest.raises(UsageError):
        true_candidates(puzzle, per_candidate=-1)


def test_true_candidates_equal_enumeration_on_serg_sample(data: Path) -> None:
    for line in lines(data / "sudoku" / "serg-benchmark-multi.txt", 10, step=997):
        puzzle = parse_line(line)
        assert dict(true_candidates(puzzle).values) == enumerated_candidates(
            puzzle, enumerated(puzzle)
        )


def test_true_candidates_of_a_killer_equal_enumeration() -> None:
    puzzle = pair_killer()
    assert dict(true_candidates(puzzle).values) == enumerated_candidates(puzzle, enumerated(puzzle))


def _made_none(data: Path, count: int) -> list:
    made = []
    for line in lines(data / "sudoku" / "serg-benchmark-multi.txt", 40, step=211):
        puzzle = contradictory(parse_line(line))
        if puzzle is not None:
            made.append(puzzle)
        if len(made) == count:
            break
    return made


@pytest.mark.parametrize(
    "count", [1, pytest.param(3, marks=pytest.mark.slow)]
)  # about 2 s of CPU a puzzle
def test_cores_are_unsatisfiable_and_minimal_by_other_back_ends(data: Path, count: int) -> None:
    made = _made_none(data, count)
    assert len(made) == count
    for puzzle in made:
        assert crosscheck(puzzle).status == "none"
        core = why_none(puzzle, check_backend="cpsat")
        assert core.members and core.minimal is True
        assert core.checks["core"] == "unsatisfiable"
        assert check_core(puzzle, core.members, "backtrack")["dropped"] == ["satisfiable"] * len(
            core.members
        )
        musx = why_none(puzzle, smallest=False, check_backend="backtrack")
        assert musx.minimal is True and len(musx.members) >= len(core.members)
        assert "cannot all hold; drop any one of them and a solution exists" in core.sentence()


def test_core_of_a_killer_names_the_cage() -> None:
    # three cages of sum 3 (each {1,2}) in rows 1 and 2: two of them share a row or a box
    puzzle = pair_killer((3, 3, 7, 3, 3, 7, 7, 3))
    assert crosscheck(puzzle).status == "none"
    core = why_none(puzzle)
    texts = [m.text for m in core.members]
    assert len(texts) == 3 and sum(t.startswith("cage 3+") for t in texts) == 2
    assert texts[0] in ("row 1", "row 2", "box 1", "box 2")
    assert core.minimal is True


def test_one_deadline_bounds_the_whole_of_why_none() -> None:
    """The formula, the SAT calls, OptUx, the checks and the deduction share one deadline
    (before, only the deduction and the checks had a limit, each the whole of it: 7 CPU
    seconds under a 2 s limit on this puzzle, whose deduction alone runs for minutes).
    A limit of 1 s here: each second of it is a second of the suite's CPU."""
    puzzle = parse_text(snake_palindrome())
    started = time.perf_counter()
    core = why_none(puzzle, time_limit=1)
    assert time.perf_counter() - started < 2  # within twice the limit
    assert core.stopped == "time limit" and core.record()["stopped"] == "time limit"
    assert core.steps.outcome == "timeout"
    assert core.minimal is not False  # what the check saw never contradicts the core
    if core.members:  # whatever was reached has no solution
        assert check_core(puzzle, core.members, "backtrack")["core"] == "unsatisfiable"
    late = check_core(puzzle, core.members or (), "backtrack", time_limit=1e-9)
    assert late["core"] == "unknown"
    with pytest.raises(UsageError):
        why_none(puzzle, time_limit=0)


def test_a_core_cut_by_the_deadline_says_it_is_not_reduced() -> None:
    """The deletion stopped at its first call keeps the whole unsatisfiable set, marked
    not reduced, and its sentence claims no minimality."""
    puzzle = pair_killer((3, 3, 7, 3, 3, 7, 7, 3))
    formula = selected(puzzle)
    with Solver(name="g4", bootstrap_with=formula.clauses) as sat:
        assert not sat.solve(assumptions=list(formula.selectors))
        core = sorted(sat.get_core())
        stopper = Stopper(sat, Clock(1e-9))
        time.sleep(0.01)
        kept, reduced = _deleted(stopper, sat, core)
        stopper.close()
    assert not reduced and sorted(kept) == core
    full = why_none(puzzle)
    cut = replace(full, reduced=False, stopped="time limit")
    assert "not reduced to a minimal set" in cut.sentence()
    assert "drop any one" not in cut.sentence() and full.stopped is None and full.reduced


def test_a_solvable_puzzle_has_no_core() -> None:
    core = why_none(parse_line(THREE_SOLUTIONS))
    assert core.members == () and core.record()["sentence"] is None


@pytest.mark.parametrize("seed", range(8))
def test_suggestions_are_unique_and_fewest_on_small_grids(seed: int) -> None:
    box = (2, 2) if seed % 2 else (2, 3)
    puzzle, _ = generated_sudoku(box, blank_fraction=0.75 if box == (2, 2) else 0.6, seed=seed)
    grids = enumerated(puzzle)
    found = suggest(puzzle)
    if len(grids) == 1:
        assert found.givens == () and found.status == "unique"
        return
    assert found.status == "unique" and found.agree
    added = replace(puzzle, givens={**puzzle.givens, **dict(found.givens)})
    assert len(enumerated(added)) == 1
    for cell, value in found.givens:
        assert found.target is not None and found.target[puzzle.index[cell]] == value
    assert found.optimal and found.target is not None
    # the fewest for its target, as the brute force finds; another target may need fewer
    assert len(found.givens) == fewest_givens(puzzle, grids, [found.target])
    assert fewest_givens(puzzle, grids) <= len(found.givens)


def test_suggest_on_serg_multi_sample_and_a_killer(data: Path) -> None:
    for line in lines(data / "sudoku" / "serg-benchmark-multi.txt", 5, step=1999):
        puzzle = parse_line(line)
        found = suggest(puzzle)
        assert found.status == "unique" and found.givens
    puzzle = pair_killer()
    found = suggest(puzzle, ["cpsat", "backtrack"])
    assert found.status == "unique" and len(found.givens) >= 1


def test_candidates_certificate_verifies_and_tampering_is_caught(tmp_path: Path) -> None:
    pytest.importorskip("dratify", reason='pip install -e ".[proof]"')
    import json

    from cp_sudoku.verify.candidates import certify_candidates
    from cp_sudoku.verify.check import verify

    done = certify_candidates(parse_line(THREE_SOLUTIONS), tmp_path, "three")
    assert done.failures == () and done.refuted == 4 and done.proof_lines > 0
    assert verify(done.path).holds
    record = json.loads(done.path.read_text())
    assert record["status"] == "candidates" and record["checked"] is True

    def tampered(change) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
        edited = json.loads(done.path.read_text())
        change(edited)
        path = tmp_path / "edited.cert.json"
        path.write_text(json.dumps(edited))
        return verify(path).failures

    def drop_kept(r: dict) -> None:  # type: ignore[type-arg]
        r["candidates"]["r1c3"] = [1]

    def add_removed(r: dict) -> None:  # type: ignore[type-arg]
        r["candidates"]["r3c1"] = [2, 3, 4]

    def drop_witness(r: dict) -> None:  # type: ignore[type-arg]
        r["solutions"] = r["solutions"][:1]

    assert any("r1c3" in f for f in tampered(drop_kept))
    assert any("r3c1" in f for f in tampered(add_removed))
    assert tampered(drop_witness)
    (tmp_path / "three.drat").write_text("0\n")
    assert any("proof" in f for f in verify(done.path).failures)


@pytest.mark.slow
def test_true_candidates_equal_enumeration_on_200_serg_puzzles(data: Path) -> None:
    for line in lines(data / "sudoku" / "serg-benchmark-multi.txt", 200, step=50):
        puzzle = parse_line(line)
        assert dict(true_candidates(puzzle).values) == enumerated_candidates(
            puzzle, enumerated(puzzle)
        ), line


@pytest.mark.slow
def test_suggestions_make_every_serg_multi_puzzle_unique(data: Path) -> None:
    added = []
    for line in lines(data / "sudoku" / "serg-benchmark-multi.txt"):
        found = suggest(parse_line(line))
        assert found.status == "unique" and found.agree, line
        added.append(len(found.givens))
    assert len(added) == 10_000 and max(added) <= 5  # docs/performance.md: median 2, max 5
