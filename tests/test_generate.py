"""Generation: every puzzle audited after the fact (unique, minimal, symmetric, graded)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cp_sudoku.cli import main
from cp_sudoku.generate import Generated, Request, make
from cp_sudoku.generate.audit import audit
from cp_sudoku.generate.complete import complete
from cp_sudoku.generate.grading import parse_target
from cp_sudoku.generate.stream import generate
from cp_sudoku.generate.symmetry import check_symmetry, orbits
from cp_sudoku.io import parse_text, read_file, to_text
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import UsageError


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
    (entry,) = read_file(Path(__file__).resolve().parents[1] / "models" / "jigsaw-9x9.txt")
    assert entry.puzzle is not None
    drawn = replace(entry.puzzle, givens={(0, 0): 5})  # the regions and one digit placed
    done = complete(drawn, seed=1)
    assert done.status == "unique" and done.puzzle is not None and done.solution is not None
    assert done.puzzle.givens[(0, 0)] == 5 and done.added == len(done.puzzle.givens) - 1
    made = Generated(done.puzzle, done.solution, 1, 0, None, 1, 0.0, ())
    assert audit(made) == [] or all("r1c1" in p for p in audit(made))  # the setter's digit stays


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


def test_a_grade_a_small_grid_cannot_reach_is_refused_up_front(service: Any) -> None:
    """Every minimal 4x4 Sudoku was graded (bench/grade_ceiling.py): none rates above 1.2,
    and singles solve every 4x4, minimal or not (at most 2.3): both easy."""
    pytest.importorskip("cp_sudoku.deduction", reason="the grade package has not landed")
    runner = CliRunner()
    for asked in (["--grade", "extreme"], ["--grade", "medium+"], ["--rating", "1.3-4"]):
        result = runner.invoke(main, ["generate", "--size", "4", *asked])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and "Traceback" not in result.output
        assert "no minimal 4x4 sudoku is graded" in result.output
        assert "every one was graded, and none rates above 1.2 (easy)" in result.output
    not_dug = ["--size", "4", "--no-minimal", "--rating", "2.4-"]
    result = runner.invoke(main, ["generate", *not_dug])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "singles solve every one, and none rates above 2.3 (easy)" in result.output
    result = runner.invoke(main, ["generate", "--size", "4", "--box", "1x4", "--grade", "hard"])
    assert result.exit_code == 2 and "no minimal 4x4 sudoku is graded hard" in result.output
    with pytest.raises(UsageError, match=r"above 1\.2 \(easy\)"):
        make(Request(size=4, target=parse_target("extreme")), 0, 0)
    windoku = Request(size=4, extras=("windows",), symmetry="rot180", target=parse_target("hard"))
    with pytest.raises(UsageError, match=r"no 4x4 windows sudoku .* above 2\.3"):
        windoku.maker()
    reply = service.post("/v1/generate", json={"size": 4, "grade": "expert"})
    assert reply.status_code == 422 and "above 1.2 (easy)" in reply.json()["error"]
    # what is reachable is still made
    for target in (parse_target("easy"), parse_target(rating="1-1.3")):
        made = make(Request(size=4, target=target), 0, 0)
        assert made.grade.solved and made.grade.rating == 1.2
    # other rules are not limited so: a 9x9, a 4x4 Latin square with diagonals, a killer
    for rules in ({}, {"size": 4, "box": (1, 4), "extras": ("diagonals",)}, {"kind": "killer"}):
        assert Request(**rules, target=parse_target("hard")).maker() is not None  # type: ignore[arg-type]


def test_the_singles_only_rules_are_the_ones_measured() -> None:
    """Each rule set listed as singles-only has every minimal puzzle solved by singles;
    the 2x2 and 3x3 ones here, the 4x4 ones (seconds each) in the slow run."""
    pytest.importorskip("cp_sudoku.deduction", reason="the grade package has not landed")
    import io

    from cp_sudoku.generate.grading import SINGLES_ONLY, rules_key

    bench = _bench("grade_ceiling")
    small = [r for r in bench.requests([2, 3]) if rules_key(r) in SINGLES_ONLY]
    assert len(small) == 4  # boxes 1xn and nx1 of sizes 2 and 3
    for request in small:
        top, singles = bench.measure(request, out=io.StringIO())
        assert singles and top == SINGLES_ONLY[rules_key(request)] == 1.2


@pytest.mark.slow
def test_the_4x4_singles_only_rules_are_the_ones_measured() -> None:
    import io

    from cp_sudoku.generate.grading import SINGLES_ONLY, rules_key

    bench = _bench("grade_ceiling")
    listed = [r for r in bench.requests([4]) if rules_key(r) in SINGLES_ONLY]
    assert len(listed) == 6  # boxes 2x2 (plain, diagonals, windows, both), 1x4 and 4x1
    for request in listed:
        top, singles = bench.measure(request, out=io.StringIO())
        assert singles and top == SINGLES_ONLY[rules_key(request)], request
    latin_x = Request(size=4, box=(1, 4), extras=("diagonals",))
    assert bench.measure(latin_x, out=io.StringIO()) == (4.4, False)  # an XYZ-Wing: not listed


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


def test_certificates_of_other_sizes_with_one_seed_never_replace_each_other(
    tmp_path: Path,
) -> None:
    """Both were ``generated-1-0``: the 6x6's silently replaced the 4x4's."""
    runner = CliRunner()
    for size in (["--size", "4"], ["--size", "6", "--box", "2x3"]):
        done = runner.invoke(main, ["generate", *size, "--seed", "1", "--certify", str(tmp_path)])
        assert done.exit_code == 0, done.output
    names = sorted(path.name for path in tmp_path.glob("*.cert.json"))
    assert len(names) == 2 and all(name.startswith("generated-1-0-") for name in names)
    verified = runner.invoke(main, ["verify", str(tmp_path)])
    assert verified.exit_code == 0 and verified.output.count("holds") == 2


def test_a_certificate_already_there_is_kept_without_force(tmp_path: Path) -> None:
    """Attack on issue 20: ``generate --seed 3 --certify DIR`` run again replaced the
    certificate it had written (edited in between), exit 0; there was no --force."""
    runner = CliRunner()
    args = ["generate", "--size", "4", "--seed", "3", "--certify", str(tmp_path)]
    assert runner.invoke(main, args).exit_code == 0
    (certificate,) = tmp_path.glob("*.cert.json")
    certificate.write_text("kept\n")
    again = runner.invoke(main, args)
    assert again.exit_code == 2
    assert again.stderr == f"cp-sudoku: error: {certificate} exists: add --force to overwrite it\n"
    assert again.stdout.count("\n") == 1 and certificate.read_text() == "kept\n"
    forced = runner.invoke(main, [*args, "--force"])
    assert forced.exit_code == 0 and json.loads(certificate.read_text())["status"] == "unique"


def test_service_generates_what_the_cli_prints(service: Any) -> None:
    reply = service.post("/v1/generate", json={"size": 6, "count": 2, "seed": 9})
    assert reply.status_code == 200, reply.text
    lines = [p["line"] for p in reply.json()["puzzles"]]
    bad = service.post("/v1/generate", json={"size": 6, "box": "2x3", "symmetry": "rot90"})
    assert bad.status_code == 422 and "cannot have 90° rotation" in bad.json()["error"]
    printed = CliRunner().invoke(main, ["generate", "--size", "6", "--count", "2", "--seed", "9"])
    assert [line.split()[0] for line in printed.output.splitlines()] == lines


def _bench(name: str = "generate_evidence") -> Any:
    """The script ``bench/NAME.py`` as a module."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _evidence() -> Any:
    return _bench()


def test_evidence_sample_of_every_group() -> None:
    import io

    # Every kind and symmetry at its smaller sizes. Left to -m slow (the whole run): the
    # non-consecutive 9x9, whose cross-check waits 10 s twice on the backtrack stand-in, and
    # the larger sizes of a kind sampled here already (0.3-1.0 s of CPU each).
    larger = ("sudoku 16x16", "killer 9x9", "kakuro 8x8", "kakuro 9x9", "futoshiki 6x6")
    larger += ("skyscrapers 6x6",)
    audited, failures = _evidence().run(  # type: ignore[attr-defined]
        scale=0.001,
        certify_every=9,
        out=io.StringIO(),
        leave_out=("non-consecutive 9x9", *larger),
    )
    assert failures == []
    assert audited >= 26  # one puzzle per group at least


@pytest.mark.slow
def test_evidence_over_a_thousand_puzzles() -> None:
    import io

    audited, failures = _evidence().run(scale=1.0, certify_every=10, out=io.StringIO())  # type: ignore[attr-defined]
    assert failures == []
    assert audited >= 1000


def test_from_a_drawn_x_sudoku_adds_givens_until_unique(tmp_path) -> None:  # type: ignore[no-untyped-def]
    drawn = tmp_path / "drawn.txt"
    drawn.write_text(to_text(sudoku([0] * 36, (2, 3), extras=("diagonals",))), encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", "--from", str(drawn), "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["status"] == "unique" and record["added"] > 0
    done = parse_text(record["text"])
    made = Generated(done, tuple(record["solution"]), 0, 0, None, 1, 0.0, ())
    assert audit(made) == []


def test_time_limit_per_puzzle_stops_a_big_one_and_keeps_the_rest_as_they_were() -> None:
    import time

    from cp_sudoku.generate import TimedOut

    started = time.perf_counter()
    with pytest.raises(TimedOut, match=r"within the time limit of 0\.3 s"):
        make(Request(size=25, time_limit=0.3), 0, 0)
    assert time.perf_counter() - started < 60  # a hang bound, not a speed target
    # a limit that is not reached changes nothing: same seed, same puzzle
    assert make(Request(time_limit=600), 3, 0).puzzle == make(Request(), 3, 0).puzzle
    runner = CliRunner()
    result = runner.invoke(main, ["generate", "--size", "25", "--time-limit", "0.3"])
    assert result.exit_code == 3
    assert result.output.count("\n") == 1 and "within the time limit of 0.3 s" in result.output
    bad = runner.invoke(main, ["generate", "--time-limit", "-1"])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    slow = complete(sudoku([0] * 625), time_limit=0.3)  # --from FILE --time-limit
    assert slow.status == "unknown" and "time limit of 0.3 s" in (slow.reason or "")


def test_service_generate_takes_the_time_limit(service: Any) -> None:
    reply = service.post("/v1/generate", json={"size": 25, "time_limit": 0.3})
    assert reply.status_code == 200, reply.text
    assert reply.json()["puzzles"] == []
    assert "within the time limit of 0.3 s" in reply.json()["failed"][0]
    over = service.post("/v1/generate", json={"time_limit": 1e6})
    assert over.status_code == 422 and "time_limit" in over.json()["error"]
    out_of_reach = service.post("/v1/generate", json={"rating": "13-14"})
    assert out_of_reach.status_code == 422
    assert "no puzzle rates 13 or more" in out_of_reach.json()["error"]


def test_a_service_generate_request_stops_at_the_servers_time_cap(tmp_path: Path) -> None:
    """An attacker's finding: ``count`` 100 at the 10 s cap held the only worker for more
    than 4.5 minutes.  The request now stops making puzzles once it has run for the
    server's cap, and says which were not made."""
    pytest.importorskip("fastapi", reason='pip install -e ".[service]"')
    import time

    from fastapi.testclient import TestClient

    from cp_sudoku.service.app import Settings, create_app
    from cp_sudoku.service.limits import Limits

    settings = Settings(db=tmp_path / "jobs.sqlite3", workers=1, limits=Limits(max_time_limit=1.0))
    with TestClient(create_app(settings)) as client:
        # the worker started and its modules imported first (seconds under load), untimed
        assert client.post("/v1/generate", json={"size": 25, "count": 1}).status_code == 200
        start = time.monotonic()
        reply = client.post("/v1/generate", json={"size": 25, "count": 30, "time_limit": 0.3})
        seconds = time.monotonic() - start
    assert reply.status_code == 200, reply.text
    failed = reply.json()["failed"]
    assert reply.json()["puzzles"] == [] and 2 <= len(failed) < 30
    assert all("within the time limit of 0.3 s" in line for line in failed[:-1])
    assert failed[-1] == (
        f"puzzles {len(failed)} to 30 not made: the request passed its 1 s (--max-time-limit)"
    )
    assert seconds < 6  # a generous anti-hang bound (30 puzzles of 0.3 s were 9 s of work)


def test_from_a_puzzle_without_solution_answers_none_with_its_reason(tmp_path) -> None:  # type: ignore[no-untyped-def]
    clash = tmp_path / "clash.txt"
    clash.write_text("11" + "." * 79 + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["generate", "--from", str(clash)])
    assert result.exit_code == 1
    assert result.output == f"{clash}:1: none: 1 repeats at r1c1 and r1c2 in row 1; " + (
        "1 repeats at r1c1 and r1c2 in box 1\n"
    )
    hidden = tmp_path / "hidden.txt"  # no two clues clash, yet r1c4=6 leaves no solution
    hidden.write_text(
        "8..6......95.......76.........426798...571243...893165......916....3.487....1.532\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["generate", "--from", str(hidden), "--json"])
    record = json.loads(result.output)
    assert result.exit_code == 1 and record["status"] == "none"
    assert "r1c4=6" in record["reason"] and "cannot all hold" in record["reason"]


def test_from_a_missing_file_is_one_line_naming_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A new-user finding: it said "No such file or directory: PATH", as no other command does."""
    missing = tmp_path / "my-killer-cages.txt"
    result = CliRunner().invoke(main, ["generate", "--from", str(missing)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"cp-sudoku: error: Invalid value for '--from': File '{missing}' does not exist.\n"
    )


def test_kakuro_sums_as_assumptions_agree_with_the_compiled_puzzle() -> None:
    """The generator's one-model-per-layout test of "another filling with these sums"
    gives the same answer as a fresh solver of the Kakuro it writes, on 60 fillings."""
    import random

    from cp_sudoku.generate import kakuro as generator
    from cp_sudoku.generate.oracle import Oracle
    from cp_sudoku.kinds.kakuro import kakuro

    answers = set()
    for seed in range(20):
        rng = random.Random(seed)
        white = generator.kakuro_layout(4 + seed % 4, rng)
        model = generator._Sums(white)
        try:
            for _ in range(3):
                solution = model.fill(rng, [])
                values = dict(zip(model.cells, solution, strict=True))
                puzzle = kakuro(generator._squares(len(white), white, model.runs, values))
                grid = tuple(values[c] for c in puzzle.cells)
                with Oracle(puzzle) as fresh:
                    expected = fresh.other_solution((), grid) is None
                assert (model.other(solution) is None) == expected
                answers.add(expected)
        finally:
            model.close()
    assert answers == {True, False}  # both answers met


@pytest.mark.parametrize(
    "size", [7, pytest.param(9, marks=pytest.mark.slow)]
)  # 0.5 and 4.3 s of CPU
def test_kakuro_up_to_9x9_is_generated_and_audited(size: int) -> None:
    made = make(Request(kind="kakuro", size=size), 11, 0)
    assert audit(made) == [] and len(made.puzzle.cells) * 3 >= (size - 1) ** 2


def test_kakuro_past_9x9_is_refused() -> None:
    with pytest.raises(UsageError, match=r"size 4\.\.9"):
        Request(kind="kakuro", size=10).maker()
