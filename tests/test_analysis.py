"""The notebook's helpers: samples, records, tables, CNF sizes and unit propagation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import grid_of

from cp_sudoku import analysis
from cp_sudoku.deduction.propagation import unit_propagation
from cp_sudoku.deduction.singles import solve_singles
from cp_sudoku.display import grid_text
from cp_sudoku.io import Entry, parse_line
from cp_sudoku.model import Puzzle, PuzzleError, Unit

TUTORIAL_4X4 = "......122..4.4.."
# Exactly two solutions: rows 2 and 4 end in 416 / 641 or 641 / 416.
TWO_SOLUTIONS = "349618572782359...651742389273895...195476238864231957527164893918523764436987125"
NO_CANDIDATE = ".876543212........3........4........5........6........7........8........9........"
EASY_2 = "200080300060070084030500209000105408000000000402706000301007040720040060004010003"


def test_importing_the_helpers_leaves_pandas_and_matplotlib_alone() -> None:
    code = (
        "import sys, cp_sudoku, cp_sudoku.analysis, cp_sudoku.figures; "
        "print(sorted({'pandas', 'matplotlib'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- samples -------------------------------------------------------------------------------


def test_spread_is_even_and_keeps_order() -> None:
    assert analysis.spread(range(10), 3) == [0, 3, 6]
    assert analysis.spread(range(10), 1) == [0]
    assert analysis.spread(range(4), 0) == []
    assert analysis.spread([5, 6], None) == [5, 6]
    assert analysis.spread([5, 6], 9) == [5, 6]
    with pytest.raises(ValueError, match="count"):
        analysis.spread(range(10), -1)


def test_puzzle_lines_skip_comments_and_blanks(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text("# a comment\n\n" + TUTORIAL_4X4 + "\n  \n" + "." * 16 + "\n")
    assert analysis.puzzle_lines(path) == [(3, TUTORIAL_4X4), (5, "." * 16)]


def test_load_set_keeps_going_past_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text(TUTORIAL_4X4 + "\n" + "12x4" + "." * 12 + "\n" + "." * 16 + "\n")
    entries = analysis.load_set(path)
    assert [e.line for e in entries] == [1, 2, 3]
    assert entries[0].puzzle is not None and entries[0].label == "set.txt:1"
    assert entries[1].puzzle is None
    assert "unexpected symbol 'x'" in str(entries[1].error)
    assert entries[1].error is not None and entries[1].error.column == 3
    assert entries[2].puzzle is not None and not entries[2].puzzle.givens


def test_load_set_refuses_a_file_without_puzzles(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n")
    with pytest.raises(PuzzleError, match="no puzzle found"):
        analysis.load_set(path)


def test_load_set_samples_a_shared_set_evenly(data: Path) -> None:
    entries = analysis.load_set("norvig-top95", 5)
    assert [e.line for e in entries] == [1, 20, 39, 58, 77]
    with open(data / "sudoku" / "norvig-top95.txt") as handle:
        first = handle.readline().strip()
    assert entries[0].text == first
    assert all(e.puzzle is not None and e.puzzle.max_value == 9 for e in entries)


def test_generated_entries_are_seeded_and_sized() -> None:
    entries = analysis.generated_entries((4, 9), 2, seed=7)
    assert [(e.source, e.line) for e in entries] == [
        ("generated 4x4", 7),
        ("generated 4x4", 8),
        ("generated 9x9", 7),
        ("generated 9x9", 8),
    ]
    assert [e.puzzle.max_value for e in entries if e.puzzle] == [4, 4, 9, 9]
    again = analysis.generated_entries((4, 9), 2, seed=7)
    assert [e.text for e in entries] == [e.text for e in again]


# -- records -------------------------------------------------------------------------------


def test_run_records_one_row_per_puzzle_and_back_end() -> None:
    entries = [Entry("tutorial", 1, TUTORIAL_4X4, puzzle=parse_line(TUTORIAL_4X4))]
    backends = analysis.build_backends(
        ["backtrack-plain", "cpsat", "sat", "backtrack"], {"backtrack-plain": {"max_tries": 100}}
    )
    records = analysis.run_records(entries, backends, set_name="demo")
    assert [r["backend"] for r in records] == ["backtrack-plain", "cpsat", "sat", "backtrack"]
    for record in records:
        assert record["set"] == "demo"
        assert record["puzzle"] == "tutorial:1"
        assert (record["n"], record["cells"], record["givens"]) == (4, 16, 5)
        assert record["status"] == record["verdict"] == "unique"
        assert record["agree"] is True
        assert record["solutions"] == 1
        assert record["seconds"] > 0
        assert record["error"] is None
    plain = records[0]
    assert (plain["first_tries"], plain["first_backtracks"]) == (13, 2)
    assert "branches" in records[1] and "conflicts" in records[2] and "tries" in records[3]


def test_run_records_reports_a_bad_puzzle_and_runs_the_rest() -> None:
    bad = Entry("set", 1, "xx", error=PuzzleError("bad symbol", source="set", line=1))
    good = Entry("set", 2, TWO_SOLUTIONS, puzzle=parse_line(TWO_SOLUTIONS))
    records = analysis.run_records([bad, good], ["sat", "backtrack"])
    assert [(r["puzzle"], r["backend"], r["status"]) for r in records] == [
        ("set:1", "sat", "error"),
        ("set:1", "backtrack", "error"),
        ("set:2", "sat", "multiple"),
        ("set:2", "backtrack", "multiple"),
    ]
    assert records[0]["error"] == "set:1: bad symbol"


# -- tables (pandas) -----------------------------------------------------------------------


def _frame(records: list[dict]) -> object:
    pytest.importorskip("pandas", reason="pandas is in the notebook extra")
    return analysis.records_frame(records)


def test_time_summary_in_milliseconds() -> None:
    records = [
        {"set": "s", "puzzle": f"p{i}", "backend": "sat", "seconds": s}
        for i, s in enumerate([0.001, 0.002, 0.003])
    ]
    records.append({"set": "s", "puzzle": "bad", "backend": "sat", "status": "error"})
    table = analysis.time_summary(_frame(records))
    row = table.loc[("s", "sat")]
    assert row["puzzles"] == 3
    assert row["median ms"] == pytest.approx(2.0)
    assert row["p95 ms"] == pytest.approx(2.9)
    assert row["max ms"] == pytest.approx(3.0)
    assert row["per second"] == pytest.approx(500.0)


def test_status_mix_counts_every_status() -> None:
    statuses = ["unique", "unique", "unknown", "error"]
    records = [{"backend": "cpsat", "status": s} for s in statuses]
    records.append({"backend": "sat", "status": "multiple"})
    mix = analysis.status_mix(_frame(records))
    assert list(mix.columns) == ["unique", "multiple", "none", "unknown", "error"]
    assert mix.loc["cpsat"].tolist() == [2, 0, 0, 1, 1]
    assert mix.loc["sat"].tolist() == [0, 1, 0, 0, 0]


def test_effort_frame_one_column_per_back_end() -> None:
    records = [
        {"set": "s", "puzzle": "p", "givens": 17, "backend": "backtrack", "tries": 5},
        {"set": "s", "puzzle": "p", "givens": 17, "backend": "cpsat", "branches": 7},
        {"set": "s", "puzzle": "q", "givens": 20, "backend": "backtrack", "tries": 0},
        {"set": "s", "puzzle": "q", "givens": 20, "backend": "cpsat", "branches": 1},
    ]
    effort = analysis.effort_frame(_frame(records))
    assert list(effort.columns) == ["backtrack tries", "cpsat branches", "givens"]
    assert effort.loc[("s", "p")].tolist() == [5, 7, 17]
    assert effort.loc[("s", "q")].tolist() == [0, 1, 20]


def test_entries_frame_describes_each_puzzle(tmp_path: Path) -> None:
    pytest.importorskip("pandas", reason="pandas is in the notebook extra")
    path = tmp_path / "set.txt"
    path.write_text(TUTORIAL_4X4 + "\n" + "1" * 5 + "\n")
    frame = analysis.entries_frame(analysis.load_set(path), "demo")
    assert frame["puzzle"].tolist() == ["set.txt:1", "set.txt:2"]
    assert frame["givens"].tolist()[0] == 5
    assert frame["error"].isna().tolist() == [True, False]
    assert (frame["set"] == "demo").all()


# -- encodings -----------------------------------------------------------------------------


def test_cnf_sizes_of_empty_grids_match_the_counting_formulas() -> None:
    records = analysis.cnf_size_records((4, 9), blank_fraction=1.0)
    size = {(r["n"], r["encoding"]): (r["variables"], r["clauses"]) for r in records}
    # 4x4: 16 definedness + 12 units * 4 values * C(4, 2) uniqueness = 304; + 16 * C(4, 2)
    # cell uniqueness = 400; + 12 * 4 unit definedness = 448.
    assert size[(4, "minimal")] == (64, 304)
    assert size[(4, "efficient")] == (64, 400)
    assert size[(4, "extended")] == (64, 448)
    # 9x9: Lynce and Ouaknine's counts.
    assert size[(9, "minimal")] == (729, 8829)
    assert size[(9, "efficient")] == (729, 11745)
    assert size[(9, "extended")] == (729, 11988)
    assert size[(9, "optimised")] == (729, 11988)  # nothing to simplify without givens
    assert {r["givens"] for r in records} == {0}


def test_cnf_sizes_count_one_unit_clause_per_given() -> None:
    records = analysis.cnf_size_records((9,), blank_fraction=0.5, seed=3)
    by = {r["encoding"]: r for r in records}
    assert by["extended"]["clauses"] == 11988 + by["extended"]["givens"]
    assert by["optimised"]["variables"] < by["extended"]["variables"]
    assert by["optimised"]["clauses"] < by["extended"]["clauses"] / 5


def _sample_puzzles(data: Path) -> list[Puzzle]:
    entries = []
    for name in ("norvig-easy50", "norvig-top95", "royle-17clue"):
        entries += analysis.load_set(name, 6)
    return [e.puzzle for e in entries if e.puzzle is not None]


def test_unit_propagation_decides_what_singles_decide(data: Path) -> None:
    """Lynce and Ouaknine: UP under minimal/efficient = naked singles, under
    extended = naked + hidden singles.  Two independent implementations agree cell by cell."""
    solved = 0
    for puzzle in _sample_puzzles(data):
        naked = solve_singles(puzzle, hidden=False)
        both = solve_singles(puzzle, hidden=True)
        solved += both.status == "solved"
        for encoding, expected in [
            ("minimal", naked),
            ("efficient", naked),
            ("extended", both),
            ("optimised", both),
        ]:
            assert unit_propagation(puzzle, encoding) == expected, encoding
    assert solved >= 5  # the easy puzzles are there to be solved


def test_unit_propagation_solves_an_easy_puzzle_with_its_known_solution() -> None:
    puzzle = parse_line(EASY_2)
    assert unit_propagation(puzzle, "minimal").status == "open"
    result = unit_propagation(puzzle, "extended")
    assert result.status == "solved"
    assert result.grid == grid_of(
        "245981376169273584837564219976125438513498627482736951391657842728349165654812793"
    )


@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended", "optimised"])
def test_unit_propagation_finds_a_cell_without_candidates(encoding: str) -> None:
    result = unit_propagation(parse_line(NO_CANDIDATE), encoding)
    assert result.status == "contradiction"


def test_deduction_records_and_shares() -> None:
    entries = [
        Entry("s", 1, EASY_2, puzzle=parse_line(EASY_2)),
        Entry("s", 2, NO_CANDIDATE, puzzle=parse_line(NO_CANDIDATE)),
        Entry("s", 3, "x", error=PuzzleError("bad")),
    ]
    records = analysis.deduction_records(entries, set_name="demo")
    methods = [r["method"] for r in records[:6]]
    assert methods == [
        "naked singles",
        "naked + hidden singles",
        "UP minimal",
        "UP efficient",
        "UP extended",
        "UP optimised",
    ]
    assert len(records) == 12  # the bad entry is left out
    solved = {(r["puzzle"], r["method"]): r["solved"] for r in records}
    assert solved[("s:1", "naked + hidden singles")] and solved[("s:1", "UP optimised")]
    assert not solved[("s:1", "naked singles")]
    assert not any(solved[("s:2", m)] for m in methods)
    frame = _frame(records)
    share = analysis.solved_share(frame)
    assert list(share.columns) == methods
    assert share.loc["demo"].tolist() == [0.0, 0.5, 0.0, 0.0, 0.5, 0.5]
    agreement = analysis.method_agreement(frame, "naked + hidden singles", "UP extended")
    assert agreement.loc["demo"].tolist() == [1, 0, 0, 1]


# -- several solutions ---------------------------------------------------------------------


def test_solution_records_show_two_checked_grids_per_back_end() -> None:
    puzzle = parse_line(TWO_SOLUTIONS)
    first = grid_of(TWO_SOLUTIONS.replace("...", "416", 1).replace("...", "641", 1))
    second = grid_of(TWO_SOLUTIONS.replace("...", "641", 1).replace("...", "416", 1))
    records = analysis.solution_records(puzzle, ["cpsat", "sat", "backtrack"])
    assert [r["backend"] for r in records] == ["cpsat", "sat", "backtrack"]
    for record in records:
        assert record["status"] == record["verdict"] == "multiple"
        assert record["found"] == 2
        assert record["all checked"] is True
        assert set(record["grids"]) == {first, second}
        assert record["differing cells"] == ["r2c7", "r2c8", "r2c9", "r4c7", "r4c8", "r4c9"]


def test_differing_cells_names_rxcy() -> None:
    puzzle = parse_line("." * 16)
    a = grid_of("1234341221434321")
    b = grid_of("1234341221434312")
    assert analysis.differing_cells(puzzle, a, b) == ["r4c3", "r4c4"]


def test_grid_text_boxes_marks_and_holes() -> None:
    puzzle = parse_line(TUTORIAL_4X4)
    grid = grid_of("1243431221343421")
    assert grid_text(puzzle, grid, ["r1c2"]) == (
        " 1 [2]| 4  3\n 4  3 | 1  2\n------+------\n 2  1 | 3  4\n 3  4 | 2  1"
    )
    holed = Puzzle(1, 3, ((0, 0), (0, 2)), 2, constraints=(Unit("run", ((0, 0), (0, 2))),))
    assert grid_text(holed, (2, 0)) == " 2  #  ."


def test_load_collection_reads_kenken_and_kakuro_with_stated_solutions(data: Path) -> None:
    from cp_sudoku.analysis import load_collection, run_records

    kenken = load_collection(["arithmatrix-4x4"], 3)
    assert [e.line for e in kenken] == [1, 334, 667]
    kakuro = load_collection(["kuso-SumasCruzadas_93", "kuso-SumasCruzadas_96"])
    assert [e.puzzle.kind for e in kenken + kakuro] == ["kenken"] * 3 + ["kakuro"] * 2
    records = run_records(kenken + kakuro, ["sat", "backtrack"])
    assert {r["verdict"] for r in records} == {"unique"}
    stated = {r["puzzle"]: r["matches_stated"] for r in records}
    # kuso 96 stores a grid that repeats a 5 in its 14 down-run (test_variant_collections.py)
    assert [v for k, v in stated.items() if "_96" in k] == [False]
    assert all(v for k, v in stated.items() if "_96" not in k)


def test_effort_statistic_is_declared_by_each_back_end() -> None:
    """No table of back-end names: each back end's first effort statistic."""
    from cp_sudoku.analysis import effort_measures, effort_statistic

    assert effort_statistic("backtrack-plain") == "tries"
    assert effort_measures(["cpsat", "sat", "backtrack"]) == {
        "cpsat": "branches",
        "sat": "conflicts",
        "backtrack": "tries",
    }
