"""The mip, dlx and minizinc back ends: agreement with the others, counts, capabilities."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import lines

from cp_sudoku.analysis import load_collection
from cp_sudoku.backends import get_backend
from cp_sudoku.backends.minizinc import INSTALL, missing
from cp_sudoku.crosscheck import count, crosscheck
from cp_sudoku.encodings.exact_cover import to_exact_cover
from cp_sudoku.encodings.mip import to_mip
from cp_sudoku.generate.blanked import generated_killers
from cp_sudoku.io import parse_line, read_file
from cp_sudoku.model import Puzzle, Unit, Unsupported, UsageError, is_solution

MODELS = Path(__file__).resolve().parent.parent / "models"
NO_MINIZINC = missing()
needs_minizinc = pytest.mark.skipif(NO_MINIZINC is not None, reason=str(NO_MINIZINC))
#: The six paradigms (minizinc only where its executable is installed).
SIX = ("cpsat", "sat", "backtrack", "mip", "dlx") + (() if NO_MINIZINC else ("minizinc",))


def only_units(puzzle: Puzzle) -> bool:
    return all(isinstance(c, Unit) for c in puzzle.constraints)


def agree(puzzle: Puzzle, backends: tuple[str, ...], limit: int = 2) -> str:
    """Cross-check; each back end either declined by capability or agrees; every grid checked."""
    verdict = crosscheck(puzzle, backends, limit=limit, time_limit=300)
    assert verdict.agree, verdict.disagreements
    for name, result in verdict.results.items():
        if name in verdict.declined:
            assert name == "dlx" and not only_units(puzzle), result.reason
            assert result.reason == "not supported by dlx: " + ", ".join(
                sorted({type(c).__name__ for c in puzzle.constraints} - {"Unit"})
            )
            continue
        assert result.status == verdict.status, (name, result.status, verdict.status)
        assert all(is_solution(puzzle, grid) for grid in result.solutions)
    return verdict.status


#: The paradigms but MiniZinc.
FIVE = tuple(b for b in SIX if b != "minizinc")


#: Models ``mip`` runs under the slow mark only: on the 5x5 Skyscrapers with heights 1-4
#: and empty cells it takes 1.3 s of CPU (one MIP per solution); the same 0-1 model is
#: solved by HiGHS in the default run (tests/test_exporters.py, the LP and MPS round trips
#: of "skyscrapers-empties"), and ``mip`` runs on the two other Skyscrapers models here.
MIP_SLOW = ("skyscrapers-5x5-heights4",)


def _model_puzzles() -> list[Any]:
    """The model files' puzzles, each with the back ends of its default cross-check:
    MiniZinc (a process per puzzle, 0.15 s of CPU or more) joins on the first puzzle of
    each kind (the file name's first word), on the rest under the slow mark; ``mip``
    leaves out :data:`MIP_SLOW` (slow too)."""
    found, kinds = [], set()
    for path in sorted(MODELS.glob("*.txt")):
        kind = path.stem.split("-")[0]
        for entry in read_file(path):
            backends = FIVE if kind in kinds else SIX
            if path.stem in MIP_SLOW:
                backends = tuple(b for b in backends if b != "mip")
            kinds.add(kind)
            found.append(pytest.param(entry.puzzle, backends, id=f"{path.stem}:{entry.line}"))
    return found


MODEL_PUZZLES = _model_puzzles()


@pytest.mark.parametrize(("puzzle", "backends"), MODEL_PUZZLES)
def test_six_back_ends_agree_on_every_model(puzzle: Puzzle, backends: tuple[str, ...]) -> None:
    assert agree(puzzle, backends) in ("unique", "multiple")


@pytest.mark.slow
@pytest.mark.parametrize(
    "puzzle", [pytest.param(p.values[0], id=p.id) for p in MODEL_PUZZLES if p.values[1] != SIX]
)
def test_the_back_ends_left_out_above_agree_on_the_other_models(puzzle: Puzzle) -> None:
    assert agree(puzzle, SIX) in ("unique", "multiple")


@pytest.mark.parametrize(("text", "limit", "found"), [("34..12.....3....", 10, 3)])
@pytest.mark.parametrize("name", ["mip", "dlx", "minizinc"])
def test_small_counts(name: str, text: str, limit: int, found: int) -> None:
    if name == "minizinc" and NO_MINIZINC:
        pytest.skip(NO_MINIZINC)
    result = get_backend(name).solve(parse_line(text), limit=limit)
    assert (result.count, result.complete, len(set(result.solutions))) == (found, True, found)


@pytest.mark.parametrize(
    "name",
    [
        "dlx",
        pytest.param("minizinc", marks=needs_minizinc),
        pytest.param("mip", marks=pytest.mark.slow),
    ],
)
def test_empty_4x4_has_288_grids(name: str) -> None:
    puzzle = parse_line("." * 16)
    result = get_backend(name).solve(puzzle, limit=1000)
    assert (result.count, result.complete, result.status) == (288, True, "multiple")
    assert len(set(result.solutions)) == 288
    assert all(is_solution(puzzle, grid) for grid in result.solutions)


def test_limit_below_the_count_is_not_complete() -> None:
    for name in ("mip", "dlx"):
        result = get_backend(name).solve(parse_line("." * 16), limit=5)
        assert (result.count, result.complete, result.stopped) == (5, False, "solution limit")


def test_clashing_givens_are_none() -> None:
    puzzle = parse_line("11" + "." * 14)
    for name in ("mip", "dlx"):
        result = get_backend(name).solve(puzzle)
        assert (result.status, result.complete) == ("none", True)


def test_time_limit_is_unknown_or_multiple_never_a_proof() -> None:
    puzzle = parse_line("." * 81)
    result = get_backend("dlx").solve(puzzle, limit=10**9, time_limit=0.2)
    # over a thousand grids in 0.2 s on an idle machine, none before the limit on a loaded
    # one (seen at load 14 in the whole suite): either way not complete, never a proof
    assert (result.complete, result.stopped) == (False, "time limit")
    assert result.status in ("multiple", "unknown")


def test_dlx_declines_cages_and_the_cross_check_ignores_it() -> None:
    (entry,) = read_file(MODELS / "kenken-4x4-issue4.txt")
    result = get_backend("dlx").solve(entry.puzzle)
    assert (result.status, result.stopped) == ("unknown", "declined")
    assert result.reason == "not supported by dlx: Cage"
    verdict = crosscheck(entry.puzzle, ["dlx", "cpsat"])
    assert (verdict.status, verdict.agree, verdict.declined) == ("unique", True, ("dlx",))
    counted = count(entry.puzzle, ["dlx", "cpsat"], limit=10)
    assert (counted.value, counted.exact, "dlx" in counted.figures) == (1, True, False)


def test_exact_cover_matrix_sizes() -> None:
    cover = to_exact_cover(parse_line("." * 81))
    assert (len(cover.columns), len(cover.options), all(cover.primary)) == (324, 729, True)
    # r1c1 = 1 covers its cell, "row 1=1", "column 1=1", "box 1=1"
    assert [cover.columns[k] for k in cover.covers[0]] == [
        "r1c1",
        "row 1=1",
        "column 1=1",
        "box 1=1",
    ]
    with pytest.raises(Unsupported, match="Cage"):
        to_exact_cover(next(read_file(MODELS / "kenken-4x4-issue4.txt")).puzzle)


def test_exact_cover_secondary_columns_for_short_units() -> None:
    puzzle = Puzzle(
        rows=1,
        cols=2,
        cells=((0, 0), (0, 1)),
        max_value=3,
        constraints=(Unit("run", ((0, 0), (0, 1))),),
    )
    cover = to_exact_cover(puzzle)
    assert cover.primary == (True, True, False, False, False)
    result = get_backend("dlx").solve(puzzle, limit=100)
    assert (result.count, result.complete) == (6, True)


def test_mip_model_of_the_empty_9x9_and_a_cut_on_cell_binaries() -> None:
    mip = to_mip(parse_line("." * 81))
    assert (len(mip.names), len(mip.rows)) == (729, 81 + 27 * 9)
    grid = tuple(range(1, 10)) * 9
    cut = mip.blocking_row(grid)
    assert cut is not None and (len(cut.indices), cut.sense, cut.rhs) == (81, "<=", 80)
    assert all(mip.names[i].startswith("x_") for i in cut.indices)


def test_minizinc_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda _name: None)
    missing.cache_clear()
    try:
        with pytest.raises(UsageError, match="apt-get install minizinc flatzinc"):
            get_backend("minizinc")
    finally:
        missing.cache_clear()
    assert "apt-get install minizinc flatzinc" in INSTALL


SAMPLES = {  # set -> (puzzles, step) of the agreement samples of the 9x9 sets
    "royle-17clue.txt": 163,
    "magictour-top1465.txt": 7,
    "forum-hardest-1106.txt": 1,
}


def _sample_agrees(data: Path, name: str, step: int, backend: str, size: int) -> None:
    puzzles = lines(data / "sudoku" / name, size, step)
    assert len(puzzles) == size
    reference = get_backend("sat")
    solver = get_backend(backend)
    for text in puzzles:
        puzzle = parse_line(text)
        expected = reference.solve(puzzle)
        result = solver.solve(puzzle)
        assert (result.status, result.solutions) == ("unique", expected.solutions), text


@pytest.mark.parametrize("name", SAMPLES)
def test_dlx_agrees_on_200_of_each_9x9_set(data: Path, name: str) -> None:
    size = 200 if name != "forum-hardest-1106.txt" else 15  # 70 ms each; all 375: slow
    _sample_agrees(data, name, SAMPLES[name], "dlx", size)


@pytest.mark.parametrize("name", SAMPLES)
def test_mip_agrees_on_a_sample_of_each_9x9_set(data: Path, name: str) -> None:
    size = 5 if name == "forum-hardest-1106.txt" else 10
    _sample_agrees(data, name, SAMPLES[name] * 10, "mip", size)


@needs_minizinc
def test_minizinc_agrees_on_a_sample_of_royle(data: Path) -> None:
    _sample_agrees(data, "royle-17clue.txt", 163 * 40, "minizinc", 2)  # 200: slow, below


@pytest.mark.slow
@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("backend", ["mip", "dlx", pytest.param("minizinc", marks=needs_minizinc)])
def test_200_puzzle_agreement_samples(data: Path, name: str, backend: str) -> None:
    _sample_agrees(data, name, SAMPLES[name], backend, 200)


def _kenken_agrees(size: int) -> None:
    backends = ("cpsat", "mip", "dlx") + (() if NO_MINIZINC else ("minizinc",))
    for entry in load_collection(["arithmatrix-4x4", "arithmatrix-6x6"], size):
        assert entry.puzzle is not None and entry.solution is not None
        verdict = crosscheck(entry.puzzle, backends, time_limit=300)
        assert verdict.agree and verdict.declined == ("dlx",), verdict.disagreements
        assert (verdict.status, verdict.solution) == ("unique", entry.solution)


def test_kenken_sample(data: Path) -> None:
    _kenken_agrees(3)


@pytest.mark.slow
def test_kenken_larger_sample(data: Path) -> None:
    _kenken_agrees(30)


def _killer_agrees(size: int, every: int) -> None:
    backends = ("cpsat", "sat", "mip", "dlx") + (() if NO_MINIZINC else ("minizinc",))
    for entry in generated_killers(size, given_every=every):
        assert entry.puzzle is not None and entry.solution is not None
        status = agree(entry.puzzle, backends)
        assert status in ("unique", "multiple")
        verdict = crosscheck(entry.puzzle, ["cpsat"], limit=1000)
        assert entry.solution in verdict.solutions


def test_killer_sample() -> None:
    _killer_agrees(3, every=4)


@pytest.mark.slow
def test_killer_larger_sample() -> None:
    _killer_agrees(6, every=0)


@needs_minizinc
def test_minizinc_runs_inside_an_event_loop() -> None:
    import asyncio

    async def solve() -> int:
        return get_backend("minizinc").solve(parse_line("34..12.....3...."), limit=10).count

    assert asyncio.run(solve()) == 3


HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


@pytest.mark.parametrize("name", ["mip", pytest.param("minizinc", marks=needs_minizinc)])
def test_a_tiny_time_limit_never_gives_a_false_proof(name: str) -> None:
    result = get_backend(name).solve(parse_line(HARD), time_limit=0.001)
    assert result.status in ("unique", "unknown")
    if not result.complete:
        assert (result.status, result.stopped) == ("unknown", "time limit")


def test_cli_says_which_back_end_declined() -> None:
    from click.testing import CliRunner

    from cp_sudoku.cli import main

    path = str(MODELS / "kenken-4x4-issue4.txt")
    checked = CliRunner().invoke(main, ["check", path, "--backend", "dlx", "--backend", "sat"])
    assert checked.exit_code == 0, checked.output
    assert "unique" in checked.output
    assert "dlx declined: not supported by dlx: Cage" in checked.output
    solved = CliRunner().invoke(main, ["solve", path, "--backend", "dlx", "--backend", "cpsat"])
    assert "dlx: declined, left out of the verdict (not supported by dlx: Cage)" in solved.output
