"""The CP-SAT back end's reused model: same verdicts as a model built per puzzle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import grid_of, lines

from cp_sudoku.backends.cpsat import CpSatBackend, _intervals
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.io import parse_line, parse_text
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import is_solution

NO_CANDIDATE = ".876543212........3........4........5........6........7........8........9........"


def test_intervals() -> None:
    assert _intervals([1, 2, 3, 5, 7, 8]) == [1, 3, 5, 5, 7, 8]
    assert _intervals([4]) == [4, 4]


@pytest.mark.parametrize("each", [50, pytest.param(150, marks=pytest.mark.slow)])
def test_reused_model_agrees_with_fresh_models(data: Path, each: int) -> None:
    # ``each`` unique and ``each`` multiple puzzles, spread over their sets
    texts = lines(data / "sudoku" / "royle-17clue.txt", each, 300)
    texts += lines(data / "sudoku" / "serg-benchmark-multi.txt", each, 60)
    texts += [NO_CANDIDATE, "." * 81]
    reused, fresh = CpSatBackend(), CpSatBackend(reuse=False)
    for text in texts:
        puzzle = parse_line(text)
        got, expected = reused.solve(puzzle), fresh.solve(puzzle)
        assert got.status == expected.status, text
        assert all(is_solution(puzzle, grid) for grid in got.solutions)
        if got.status == "unique":
            assert got.solutions == expected.solutions
    statuses = [reused.solve(parse_line(t)).status for t in (texts[0], texts[each], NO_CANDIDATE)]
    assert statuses == ["unique", "multiple", "none"]


def test_reused_model_after_a_time_limit_and_on_other_shapes(data: Path) -> None:
    backend = CpSatBackend()
    stopped = backend.solve(sudoku([0] * 81), limit=10**6, time_limit=0.2)
    assert stopped.status == "multiple" and not stopped.complete
    text = lines(data / "sudoku" / "norvig-top95.txt", 1)[0]
    solution = lines(data / "sudoku" / "norvig-top95.solutions.txt", 1)[0]
    assert backend.solve(parse_line(text)).solutions == (grid_of(solution),)
    assert len(backend.solve(parse_line("." * 16), limit=1000).solutions) == 288
    assert backend.solve(parse_line(text)).status == "unique"  # back to 9x9: rebuilt


#: A 4x4 with no solution whose tables (clone pairs, between lines) make OR-Tools 9.15 abort
#: the process with a failing CHECK when presolve is off (found by differential fuzzing).
TABLES_ABORT = """kind: sudoku
grid:
....
..1.
..4.
....
constraints:
clone r2c2 r1c2 | r4c3 r4c4
betweenline r3c3 r4c2 r3c1 r3c2
betweenline r4c4 r4c3 r3c3 r2c2
"""


def test_tables_that_empty_each_other_are_none_not_an_abort(tmp_path: Path) -> None:
    path = tmp_path / "tables.txt"
    path.write_text(TABLES_ABORT)
    script = (
        "import sys; from cp_sudoku.backends.cpsat import CpSatBackend; "
        "from cp_sudoku.io import parse_text; "
        "print(CpSatBackend().solve(parse_text(open(sys.argv[1]).read())).status)"
    )  # in a child: an abort would end the test run
    run = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-500:]
    assert run.stdout.split() == ["none"]
    assert crosscheck(parse_text(TABLES_ABORT)).status == "none"
