"""Generation: every puzzle audited after the fact (unique, minimal, symmetric, graded)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cp_sudoku.cli import main
from cp_sudoku.generate import Request, make
from cp_sudoku.generate.audit import audit
from cp_sudoku.generate.complete import complete
from cp_sudoku.generate.grading import parse_target
from cp_sudoku.generate.stream import generate
from cp_sudoku.generate.symmetry import check_symmetry, orbits
from cp_sudoku.io import parse_text, read_file, to_text
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import UsageError

#: One request per kind and shape, with the symmetries each shape has.
SAMPLE = [
    (Request(), 2),
    (Request(symmetry="rot180"), 2),
    (Request(symmetry="rot90"), 1),
    (Request(symmetry="mirror"), 1),
    (Request(symmetry="diagonal"), 1),
    (Request(size=4), 2),
    (Request(size=6, box=(2, 3), symmetry="rot180"), 2),
    (Request(size=6, box=(3, 2)), 1),
    (Request(extras=("diagonals",)), 1),
    (Request(extras=("windows",)), 1),
    (Request(kind="jigsaw", size=6), 1),
    (Request(kind="killer", size=6), 1),
    (Request(kind="killer"), 1),
    (Request(kind="kenken", size=5), 1),
    (Request(kind="kakuro", size=5), 1),
    (Request(kind="futoshiki", size=5), 1),
    (Request(kind="skyscrapers", size=5), 1),
]


@pytest.mark.parametrize(("request_", "count"), SAMPLE, ids=lambda x: repr(x)[:60])
def test_generated_puzzles_pass_their_audit(request_: Request, count: int) -> None:
    for made in generate(request_, count, seed=3):
        assert not isinstance(made, Exception)
        assert made.puzzle.kind == request_.kind
        assert audit(made, request_.symmetry) == []
        assert parse_text(to_text(made.puzzle)) == made.puzzle  # written as it reads back


def test_a_seed_gives_the_same_puzzles_whatever_the_jobs() -> None:
    one = [m.puzzle for m in generate(Request(), 3, seed=11, jobs=1)]
    two = [m.puzzle for m in generate(Request(), 3, seed=11, jobs=2)]
    assert one == two
    assert len(set(one)) == 3


def test_no_minimal_stops_early_and_stays_unique() -> None:
    made = make(Request(minimal=False), 5, 0)
    assert audit(made, minimal=False) == []
    assert len(made.puzzle.givens) > len(make(Request(), 5, 0).puzzle.givens)


def test_a_shape_without_the_symmetry_is_refused() -> None:
    shape = sudoku([0] * 36, (2, 3))
    with pytest.raises(UsageError, match="cannot have 90° rotation: its box 1 maps onto no unit"):
        check_symmetry(shape, "rot90")
    with pytest.raises(UsageError, match="cannot have main-diagonal reflection"):
        check_symmetry(shape, "diagonal")
    assert len(orbits(shape.cells, check_symmetry(shape, "rot180"))) == 18


def test_complete_adds_the_fewest_givens_found_and_stays_minimal() -> None:
    (entry,) = [e for e in read_file("models/killer-9x9-wikipedia.txt")]
    assert entry.puzzle is not None
    bare = entry.puzzle.__class__(**{**entry.puzzle.__getstate__(), "givens": {}})
    done = complete(bare, seed=1)
    assert done.status == "unique" and done.puzzle is not None
    made = make(Request(), 0, 0)  # for the audit's shape only
    checked = made.__class__(done.puzzle, done.solution, 0, 0, None, 1, 0.0, ())
    assert audit(checked) == []


def test_complete_answers_none_with_the_reason() -> None:
    clash = sudoku("11" + "." * 79)
    done = complete(clash)
    assert done.status == "none"
    assert done.reason and "r1c1" in done.reason


def test_cli_streams_lines_with_grades_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "--count", "2", "--seed", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2 and "# " in lines[0] and "seed 4:0" in lines[0]
    assert sudoku(lines[0].split()[0]).givens
    result = runner.invoke(main, ["generate", "--kind", "futoshiki", "--size", "4", "--json"])
    record = json.loads(result.output)
    assert record["kind"] == "futoshiki" and parse_text(record["text"]).kind == "futoshiki"


def test_cli_bad_options_are_one_line_errors() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "--size", "6", "--box", "2x3", "--symmetry", "rot90"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "cannot have 90° rotation" in result.output
    result = runner.invoke(main, ["generate", "--kind", "kenken", "--symmetry", "rot180"])
    assert result.exit_code == 2 and "symmetry can only be none" in result.output


def test_grade_targets() -> None:
    pytest.importorskip("cp_sudoku.deduction", reason="the grade package has not landed")
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "--rating", "13-14"])
    assert result.exit_code == 2 and "no puzzle rates 13 or more" in result.output
    result = runner.invoke(main, ["generate", "--grade", "impossible"])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    request = Request(symmetry="rot180", target=parse_target("medium+"))
    for made in generate(request, 2, seed=5):
        assert not isinstance(made, Exception)
        assert made.grade.solved and made.grade.rating >= 2.5
        assert audit(made, "rot180") == []


def test_certified_puzzles_pass_verify(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    result = runner.invoke(
        main, ["generate", "--size", "6", "--count", "2", "--certify", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert all(
        r["certificate"]["holds"] and r["certificate"]["status"] == "unique" for r in records
    )
    verified = runner.invoke(main, ["verify", str(tmp_path)])
    assert verified.exit_code == 0 and verified.output.count("holds") == 2
