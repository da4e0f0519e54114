"""The f-puzzles format: the three forms, every key's errors, export and round trips, verdicts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from cp_sudoku.backends import DEFAULT_BACKENDS
from cp_sudoku.cli import main
from cp_sudoku.constraints import REGISTRY, Cage, Unit, Visibility
from cp_sudoku.constraints.cellrules import Candidates, Clone
from cp_sudoku.constraints.globalpairs import NegativeRatio, Nonconsecutive
from cp_sudoku.constraints.outside import LittleKiller, Sandwich, XSum
from cp_sudoku.constraints.sumlines import Arrow, RegionSumLine
from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.io import parse_text, read_file, read_text, to_text
from cp_sudoku.io.fpuzzles import from_data, parse_fpuzzles
from cp_sudoku.io.fpuzzles_link import decode, encode, link
from cp_sudoku.io.fpuzzles_write import fpuzzles, rule_key, to_fpuzzles
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import PuzzleError, is_solution

FOLDER = "fpuzzles"
#: Small puzzles the default run checks end to end (the slow test runs all 22).
SMALL = ("rangsk-peak-sudoku", "rangsk-6x6-extreme-killer", "rangsk-irregular-7x7-kropki")


def slugs(data: Path) -> list[str]:
    """Every puzzle of the f-puzzles folder, from its INDEX.tsv."""
    rows = (data / FOLDER / "INDEX.tsv").read_text().splitlines()[1:]
    return [row.split("\t")[0] for row in rows]


def expected(data: Path, slug: str) -> str:
    """The INDEX.tsv verdict of a puzzle: unique or multiple."""
    for row in (data / FOLDER / "INDEX.tsv").read_text().splitlines()[1:]:
        fields = row.split("\t")
        if fields[0] == slug:
            return fields[5]
    raise KeyError(slug)


def solution(data: Path, slug: str) -> tuple[int, ...]:
    text = (data / FOLDER / f"{slug}.solution.txt").read_text().strip()
    return tuple(int(v) for v in (text.split(",") if "," in text else text))


def peak(data: Path) -> dict:
    return json.loads((data / FOLDER / "rangsk-peak-sudoku.json").read_text())


# --- the three forms -----------------------------------------------------------------------------


def test_every_form_decodes_to_the_same_json(data: Path) -> None:
    string = (data / FOLDER / "rangsk-peak-sudoku.fpuzzles.txt").read_text().strip()
    text = (data / FOLDER / "rangsk-peak-sudoku.json").read_text()
    expected_data = json.loads(text)
    forms = [
        text,
        string,
        f"https://www.f-puzzles.com/?load={string}",
        f"https://www.f-puzzles.com/?load={quote(string, safe='')}",
        f"https://sudokupad.app/fpuzzles{string}",
        f"https://sudokupad.app/fpuz{string}",
        f"fpuzzles{string}",
    ]
    for form in forms:
        assert decode(form) == expected_data, form[:60]


def test_a_file_of_links_reads_one_puzzle_per_line(data: Path, tmp_path: Path) -> None:
    lines = [
        (data / FOLDER / f"{slug}.fpuzzles.txt").read_text().strip()
        for slug in ("rangsk-peak-sudoku", "rangsk-ripples")
    ]
    path = tmp_path / "links.txt"
    path.write_text(f"# two puzzles\n{lines[0]}\n\nhttps://www.f-puzzles.com/?load={lines[1]}\n")
    entries = list(read_file(path))
    assert [e.line for e in entries] == [2, 4]
    assert [e.puzzle.name for e in entries] == ["Peak Sudoku by Rangsk", "Ripples by Philip Newman"]
    assert entries[1].puzzle.givens[(0, 0)] == 9  # Ripples' given at r1c1


@pytest.mark.parametrize("scheme", ["https://www.", "http://", "www.", ""])
def test_a_link_typed_on_the_command_line_is_a_puzzle(data: Path, scheme: str) -> None:
    """A new user's finding: a link pasted as the argument was taken for a file name
    ("no such file: https://www.f-puzzles.com/?load=..."); an attacker's: without its
    ``https://`` too."""
    solution = (data / FOLDER / "rangsk-6x6-extreme-killer.solution.txt").read_text().split()
    encoded = (data / FOLDER / "rangsk-6x6-extreme-killer.fpuzzles.txt").read_text().strip()
    link = f"{scheme}f-puzzles.com/?load={encoded}"
    result = CliRunner().invoke(main, ["check", link, "--backend", "cpsat"])
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[:3] == ["<argument>:1", "unique", "".join(solution)]


@pytest.mark.parametrize(
    ("link", "said"),
    [
        ("https://www.f-puzzles.com/?id=abc123", "an f-puzzles '?id=' link names a puzzle"),
        ("f-puzzles.com/?id=abc123", "an f-puzzles '?id=' link names a puzzle"),
        ("https://f-puzzles.com/?load=XYZ", "a compressed string starting 'N4Ig'"),
        ("sudokupad.app/rangsk/peak", "a compressed string starting 'N4Ig'"),
    ],
)
def test_a_link_without_a_string_gets_the_links_error(link: str, said: str) -> None:
    """A new user's finding: an ``?id=`` link, a string that is not one, or a SudokuPad
    short link was read as a grid ("unexpected symbol 'h'") or taken for a missing file."""
    result = CliRunner().invoke(main, ["check", link])
    assert result.exit_code == 2, result.output
    assert "<argument>:1: malformed link: " in result.stderr and said in result.stderr


@pytest.mark.parametrize(
    "layout", [{"indent": 2}, {"indent": 1, "sort_keys": True}, {"sort_keys": True}]
)
def test_json_spread_over_lines_or_with_keys_reordered_is_detected(
    data: Path, tmp_path: Path, layout: dict[str, Any]
) -> None:
    record = peak(data)
    path = tmp_path / "pretty.json"
    path.write_bytes(json.dumps(record, **layout).replace("\n", "\r\n").encode())
    (entry,) = list(read_file(path))
    assert entry.puzzle == from_data(record)[0]


def test_only_given_values_are_givens_and_pencil_marks_restrict(data: Path) -> None:
    record = peak(data)
    record["grid"][0][0] = {"value": 3}  # a solver's entry, not a clue
    record["grid"][0][1] = {"value": 2, "given": True}
    record["grid"][1][1] = {"givenPencilMarks": [1, 2]}
    puzzle, _ = from_data(record)
    assert dict(puzzle.givens) == {(0, 1): 2}
    assert Candidates((1, 1), (1, 2)) in puzzle.constraints


def test_regions_override_boxes_and_null_means_no_region(data: Path) -> None:
    record = json.loads((data / FOLDER / "rangsk-irregular-7x7-kropki.json").read_text())
    puzzle, _ = from_data(record)
    regions = [u for u in puzzle.units if u.role == "region"]
    assert regions and all(len(u.cells) == 7 for u in regions)
    record = peak(data)
    for row in record["grid"]:
        for cell in row:
            cell["region"] = None
    puzzle, _ = from_data(record)
    assert {u.role for u in puzzle.units} == {"row", "column"}


def test_a_stated_solution_is_kept(data: Path) -> None:
    entry = next(read_file(data / FOLDER / "rangsk-jumbled-joy.fpuzzles.txt"))
    assert entry.solution == solution(data, "rangsk-jumbled-joy")


def test_cosmetic_keys_are_ignored(data: Path) -> None:
    record = peak(data)
    record.update(line=[{"lines": [["R1C1", "R2C2"]]}], cage=[{"cells": ["R1C1"], "value": "x"}])
    record.update(text=[], highlightConflicts=True, circle=[], rectangle=[])
    assert from_data(record)[0] == from_data(peak(data))[0]


# --- what each key becomes -----------------------------------------------------------------------


def test_keys_become_their_constraint_types(data: Path) -> None:
    def types(slug: str) -> set[str]:
        puzzle = next(read_file(data / FOLDER / f"{slug}.json")).puzzle
        return {type(c).__name__ for c in puzzle.constraints}

    assert {"Cage", "Minimum", "Maximum"} <= types("rangsk-6x6-extreme-killer")
    assert {"AntiKnight", "Nonconsecutive", "NegativeRatio", "Palindrome"} <= types(
        "rangsk-bird-in-a-storm"
    )
    assert {"Sandwich"} <= types("rangsk-sandwich-sudoku")
    assert {"XSum", "Whispers"} <= types("rangsk-tiny-scar")
    assert {"Visibility", "Renban"} <= types("rangsk-renban-skyscrapers-ctc-400k")
    assert {"Arrow", "Clone", "Odd", "Even"} <= types("rangsk-tangled-arrows")
    assert {"ColumnIndexer", "Renban"} <= types("rangsk-dab")
    assert {"RegionSumLine"} <= types("rangsk-equal-sums")
    assert {"ZipperLine"} <= types("rangsk-jumbled-joy")
    assert {"BetweenLine", "Difference", "Ratio"} <= types("rangsk-dotween")
    assert {"LittleKiller", "XV"} <= types("rangsk-peak-sudoku")
    assert {"Quadruple"} <= types("rangsk-boxes")


def test_rule_details_follow_rangsk(data: Path) -> None:
    bird = next(read_file(data / FOLDER / "rangsk-bird-in-a-storm.json")).puzzle
    ratio = next(c for c in bird.constraints if isinstance(c, NegativeRatio))
    assert ratio.ratios == (2,)  # no black dot: ratio 2
    white = next(c for c in bird.constraints if isinstance(c, Nonconsecutive))
    assert white.exempt and ratio.exempt == white.exempt  # dotted pairs are exempt from both
    killer = next(read_file(data / FOLDER / "rangsk-6x6-extreme-killer.json")).puzzle
    assert any(isinstance(c, Unit) and c.role == "cage" for c in killer.constraints)  # no sum
    assert any(isinstance(c, Cage) and c.distinct for c in killer.constraints)
    sky = next(read_file(data / FOLDER / "rangsk-renban-skyscrapers-ctc-400k.json")).puzzle
    clue = next(c for c in sky.constraints if isinstance(c, Visibility))
    assert len(clue.cells) == 9 and clue.side in ("top", "bottom", "left", "right")


def test_outside_clues_run_from_the_clue_into_the_grid(data: Path) -> None:
    record = peak(data)
    record["sandwichsum"] = [{"cell": "R0C2", "value": "3"}]
    record["xsum"] = [{"cell": "R3C5", "value": "6"}]
    record["littlekillersum"] = [{"cell": "R0C3", "direction": "DL", "value": "5"}]
    rules = from_data(record)[0].constraints
    assert Sandwich([(0, 1), (1, 1), (2, 1), (3, 1)], 3) in rules
    assert XSum([(2, 3), (2, 2), (2, 1), (2, 0)], 6) in rules
    assert LittleKiller([(0, 1), (1, 0)], 5) in rules


#: The one-cell diagonals of a 4x4: (clue, direction, corner cell).
CORNER_KILLERS = [
    ("R0C2", "DL", (0, 0)), ("R2C0", "UR", (0, 0)), ("R0C3", "DR", (0, 3)), ("R2C5", "UL", (0, 3)),
    ("R3C0", "DR", (3, 0)), ("R5C2", "UL", (3, 0)), ("R3C5", "DL", (3, 3)), ("R5C3", "UR", (3, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("clue", "direction", "corner"), CORNER_KILLERS)
def test_a_little_killer_on_one_corner_cell_reads_checks_and_round_trips(
    data: Path, clue: str, direction: str, corner: tuple[int, int]
) -> None:
    digit = solution(data, "rangsk-peak-sudoku")[4 * corner[0] + corner[1]]
    for total, verdict in ((digit, "unique"), (digit % 4 + 1, "none")):
        record = peak(data)
        record["littlekillersum"].append(
            {"cell": clue, "direction": direction, "value": str(total)}
        )
        puzzle = from_data(record)[0]
        assert LittleKiller([corner], total) in puzzle.constraints
        assert crosscheck(puzzle).status == verdict
        assert from_data(to_fpuzzles(puzzle))[0] == puzzle
        assert parse_text(to_text(puzzle)) == puzzle


def test_arrows_with_pills_and_several_lines(data: Path) -> None:
    record = peak(data)
    record["arrow"] = [
        {"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3", "R3C3"], ["R1C1", "R2C1"]]}
    ]
    rules = from_data(record)[0].constraints
    assert Arrow([(0, 0), (0, 1)], [(1, 2), (2, 2)]) in rules
    assert Arrow([(0, 0), (0, 1)], [(1, 0)]) in rules
    arrow = Arrow([(0, 0), (0, 1)], [(1, 2), (2, 2)])
    assert arrow.holds([1, 2, 5, 7]) and not arrow.holds([2, 1, 5, 7])  # the pill reads 12


def test_region_sum_lines_are_cut_by_region(data: Path) -> None:
    record = peak(data)
    record["regionsumline"] = [{"lines": [["R1C2", "R1C3", "R1C4", "R2C4"]]}]
    rules = from_data(record)[0].constraints
    assert RegionSumLine([[(0, 1)], [(0, 2), (0, 3), (1, 3)]]) in rules


def test_overlapping_clones_become_one_clone_per_pair(data: Path) -> None:
    record = peak(data)
    record["clone"] = [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R1C2", "R1C3"]}]
    rules = from_data(record)[0].constraints
    assert Clone([(0, 0)], [(0, 1)]) in rules and Clone([(0, 1)], [(0, 2)]) in rules


# --- errors: one line naming the key and the cell ------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d.update(lockout=[{"lines": [["R1C1", "R1C2"]]}]),
            "lockout: unknown f-puzzles key",
        ),
        (lambda d: d.update(size=17), "size: expected the grid's side, an integer from 1 to 16"),
        (lambda d: d.update(odd=[{"cell": "R5C1"}]), "odd[0]: r5c1 is outside the 4x4 grid"),
        (
            lambda d: d.update(thermometer=[{"lines": [["R1C1", "R1C2", "R2C2", "R1C1"]]}]),
            "thermometer[0]: thermometer r1c1-r1c2-r2c2-r1c1 passes through r1c1 twice",
        ),
        (
            lambda d: d.update(arrow=[{"cells": [], "lines": [["R1C1", "R1C2", "R1C3"]]}]),
            "arrow[0]: arrow r1c2-r1c3 has no circle",
        ),
        (
            lambda d: d.update(sandwichsum=[{"cell": "R0C0", "value": "3"}]),
            "sandwichsum[0]: the clue at r0c0 is on no row or column",
        ),
        (
            lambda d: d["grid"][0][0].update(value=1, given="true"),
            "grid r1c1: 'given' must be true or false, got 'true'",
        ),
        (
            lambda d: d["grid"][0][0].update(value=1, given=1),
            "grid r1c1: 'given' must be true or false, got 1",
        ),
        (
            lambda d: d["grid"][0][0].update(colour=3),
            "grid r1c1: unknown cell field 'colour'",
        ),
        (
            lambda d: d["grid"][0][0].update(region=0) or d["grid"][3][3].update(region=0),
            "grid: region 1 has 5 cells",
        ),
    ],
)
def test_bad_input_names_the_key_and_the_cell(data: Path, change, message: str) -> None:
    record = peak(data)
    change(record)
    with pytest.raises(PuzzleError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        from_data(record)


def test_malformed_links_are_refused() -> None:
    for text, message in [
        (
            "https://example.com/?load=N4IgzglgXpAs",
            "malformed link: 'example.com' is not an f-puzzles or SudokuPad address",
        ),
        (
            "https://f-puzzles.com.example.org/?load=N4IgzglgXpAs",
            "'f-puzzles.com.example.org' is not an f-puzzles or SudokuPad address",
        ),
        ("https://sudokupad.app/sclN4IgzglgXpAs", "expected f-puzzles JSON"),
        ("https://www.f-puzzles.com/?load=N4IgzglgXpAs", "does not decompress"),
        ("https://www.f-puzzles.com/?id=abc123", "names a puzzle kept on the f-puzzles server"),
        ("N4Ig!!!", "is not in the base64 alphabet"),
        ("hello", "expected f-puzzles JSON"),
    ]:
        with pytest.raises(PuzzleError, match=message):
            decode(text)


def test_a_string_that_decompresses_past_the_cap_is_refused_before_decompressing(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lz-string is LZW: a 70 KB string of repeats decompressed to 450 million characters
    (1.4 GB).  The length is read from the codes first; it equals the decompressed
    length, and past the cap the link is refused in one line."""
    from lzstring import LZString

    import cp_sudoku.io.fpuzzles_link as fpuzzles_link

    for slug in slugs(data):
        string = (data / FOLDER / f"{slug}.fpuzzles.txt").read_text().strip()
        plain = LZString().decompressFromBase64(string)
        assert fpuzzles_link._decompressed_length(string, 10**9) == len(plain), slug
    string = (data / FOLDER / "rangsk-behemoth.fpuzzles.txt").read_text().strip()
    monkeypatch.setattr(fpuzzles_link, "MAX_JSON", 1000)
    with pytest.raises(PuzzleError, match=r"decompresses to more than 1,000 characters"):
        decode(string)


def test_cli_prints_one_line_and_exits_2(data: Path, tmp_path: Path) -> None:
    record = peak(data)
    record["thermometer"] = [{"lines": [["R1C1", "R9C1"]]}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("cp-sudoku: error")]
    assert errors == [f"cp-sudoku: error: {path}:1: thermometer[0]: r9c1 is outside the 4x4 grid"]


# --- export and round trips ----------------------------------------------------------------------


def test_import_export_import_gives_an_equal_puzzle(data: Path) -> None:
    for slug in slugs(data):
        puzzle = next(read_file(data / FOLDER / f"{slug}.json")).puzzle
        text = fpuzzles(puzzle)
        link_line, _ = text.splitlines()
        assert link_line.startswith("# https://www.f-puzzles.com/?load=N4Ig")
        (again,) = list(read_text(text))
        assert again.puzzle == puzzle, slug
        assert parse_fpuzzles(link_line[2:]) == puzzle, slug


def test_export_refuses_what_fpuzzles_cannot_say(data: Path) -> None:
    from cp_sudoku.kinds.kenken import kenken

    with pytest.raises(PuzzleError, match="f-puzzles has no rule for cage 3- "):
        to_fpuzzles(kenken(2, [(3, "-", [(0, 0), (0, 1)]), (3, "-", [(1, 0), (1, 1)])]))
    puzzle = from_data(peak(data))[0]
    odd = Nonconsecutive(4, 4, [((0, 0), (0, 1))])  # spares a pair without a dot
    with pytest.raises(PuzzleError, match="f-puzzles cannot express nonconsecutive"):
        to_fpuzzles(replace(puzzle, constraints=(*puzzle.constraints, odd)))


@pytest.mark.parametrize("name", sorted(n for n, t in REGISTRY.items() if t.fpuzzles_key))
def test_every_type_with_a_key_exports_and_reads_back(name: str) -> None:
    written = 0
    for n in (4, 6):
        base = sudoku([0] * n * n)
        for example in REGISTRY[name].examples(n, n):
            puzzle = replace(base, constraints=(*base.constraints, example))
            try:
                data = to_fpuzzles(puzzle)
            except PuzzleError as error:  # an instance f-puzzles has no words for
                assert str(error).startswith("f-puzzles "), error
                continue
            back = from_data(data)[0].constraints
            assert [rule_key(c) for c in back] == [rule_key(c) for c in puzzle.constraints]
            written += 1
    assert written, f"no example of {name} can be written for f-puzzles"


def test_links_from_fpuzzles_and_sudokupad_hosts_are_read(data: Path) -> None:
    string = (data / FOLDER / "rangsk-peak-sudoku.fpuzzles.txt").read_text().strip()
    for form in (
        f"f-puzzles.com/?load={string}",
        f"http://www.f-puzzles.com/?foo=1&load={string}",
        f"https://beta.sudokupad.app/?puzzleid=fpuzzles{string}",
        f"https://app.crackingthecryptic.com/sudoku/fpuzzles{string}",
        f"?load={string}",
    ):
        assert decode(form) == peak(data), form[:60]


def test_link_round_trip(data: Path) -> None:
    record = peak(data)
    assert decode(link(record)) == record and decode(encode(record)) == record


# --- verdicts ------------------------------------------------------------------------------------


def _verdict_matches(data: Path, slug: str, time_limit: float = 120) -> None:
    """The default back ends give the INDEX.tsv verdict, with the stated solution when
    unique: ``cpsat`` and ``sat`` decide it; a back end may decline (the kernel has no
    variant rules) or stop at the time limit (the backtracker on four of the 22), never
    disagree."""
    puzzle = next(read_file(data / FOLDER / f"{slug}.fpuzzles.txt")).puzzle
    assert puzzle is not None
    verdict = crosscheck(puzzle, DEFAULT_BACKENDS, limit=2, time_limit=time_limit)
    assert verdict.agree, verdict.disagreements
    assert verdict.status == expected(data, slug), slug
    for result in verdict.results.values():
        if result.backend in ("cpsat", "sat"):
            assert result.status == verdict.status, (slug, result.backend, result.status)
        assert result.status in (verdict.status, "unknown"), (slug, result.backend)
        assert all(is_solution(puzzle, grid) for grid in result.solutions)
    stated = solution(data, slug)
    assert is_solution(puzzle, stated)
    if verdict.status == "unique":
        assert verdict.solution == stated


@pytest.mark.parametrize("slug", SMALL)
def test_small_puzzles_give_their_index_verdict(data: Path, slug: str) -> None:
    _verdict_matches(data, slug)


@pytest.mark.slow
def test_every_fpuzzles_puzzle_gives_its_index_verdict(data: Path) -> None:
    for slug in slugs(data):
        _verdict_matches(data, slug, time_limit=30)


@pytest.mark.slow
def test_every_fpuzzles_puzzle_is_proved_and_verified(data: Path, tmp_path: Path) -> None:
    pytest.importorskip("dratify", reason='pip install -e ".[proof]"')
    from cp_sudoku.verify.certify import certify
    from cp_sudoku.verify.check import verify

    for slug in slugs(data):
        puzzle = next(read_file(data / FOLDER / f"{slug}.fpuzzles.txt")).puzzle
        assert puzzle is not None
        done = certify(puzzle, tmp_path, slug)
        assert done.path is not None and not done.failures, (slug, done.failures)
        report = verify(done.path)
        assert report.holds, (slug, report.failures)
        assert report.status == expected(data, slug), slug


# --- the service --------------------------------------------------------------------------------


def test_the_service_reads_a_link_and_refuses_an_unknown_key_with_422(
    data: Path, service: Any
) -> None:
    from cp_sudoku.io.fpuzzles_link import link as link_of

    record = peak(data)
    answer = service.post("/v1/check", json={"puzzle": link_of(record)}, params={"drawing": "true"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["status"] == "unique" and body["solution"] == "1423324123144132"
    shapes = {mark["shape"] for mark in body["drawing"]["marks"]}
    assert {"outside", "edge-text"} <= shapes  # little killers and the V
    record["lockout"] = []
    refused = service.post("/v1/check", json={"puzzle": link_of(record)})
    assert refused.status_code == 422
    assert "lockout: unknown f-puzzles key" in refused.text


def test_rules_over_the_whole_grid_are_drawn_in_words(data: Path) -> None:
    from cp_sudoku.service.solving import drawing

    path = data / "fpuzzles" / "rangsk-bird-in-a-storm.fpuzzles.txt"
    (entry,) = read_file(path)
    assert entry.puzzle is not None
    rules = [m for m in drawing(entry.puzzle, None)["marks"] if m["shape"] == "rule"]
    assert [m["label"].split()[0] for m in rules] == [
        "antiknight",
        "nonconsecutive",
        "negativeratio",
    ]
    assert all(m["cells"] == [] for m in rules)
    shown = CliRunner().invoke(main, ["solve", str(path)])
    assert "\n  antiknight" in shown.output


@pytest.mark.parametrize(
    "extra",
    [
        '"killercage":[{"cells":["R1C1","R1C2"],"value":"-5"}]',
        '"killercage":[{"cells":["R1C1","R1C2"],"value":"0"}]',
        '"killercage":[{"cells":["R1C1","R1C2"],"value":"\u0661\u0663"}]',
        '"littlekillersum":[{"cell":"R0C4","direction":"DL","value":"-3"}]',
    ],
)
def test_a_sum_that_is_not_a_positive_number_is_refused_not_dropped(
    extra: str, tmp_path: Path
) -> None:
    grid = ",".join(["[" + ",".join(["{}"] * 4) + "]"] * 4)
    path = tmp_path / "bad.json"
    path.write_text('{"size":4,"grid":[' + grid + "]," + extra + "}", encoding="utf-8")
    run = CliRunner().invoke(main, ["check", str(path)])
    assert run.exit_code == 2
    assert "Traceback" not in run.output


@pytest.mark.parametrize(
    "text",
    [
        '{"size":9' + "0" * 5000 + ',"grid":[]}',
        '{"size":9,"grid":' + "[" * 100000 + "]" * 100000 + "}",
    ],
)
def test_json_too_deep_or_too_long_a_number_is_one_line(text: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    run = CliRunner().invoke(main, ["check", str(path)])
    assert run.exit_code == 2
    assert "internal error" not in run.output and "Traceback" not in run.output


# --- shapes the f-puzzles README does not allow (issue 17) ---------------------------------------

#: (change to Peak Sudoku, 4x4; the message after ``file:line: ``).
SHAPES = {
    "arrow-line-outside-its-circle": (
        {"arrow": [{"cells": ["R1C1"], "lines": [["R3C3", "R3C4"]]}]},
        "arrow[0]: the line starts at r3c3, outside its circle (r1c1); an arrow's line starts "
        "in the circle it leaves",
    ),
    "arrow-line-back-into-its-pill": (
        {"arrow": [{"cells": ["R1C1", "R1C2"], "lines": [["R1C1", "R1C2", "R2C2"]]}]},
        "arrow[0]: the line comes back into its circle at r1c2; only its first cell is in the "
        "circle",
    ),
    "white-dot-cells-not-touching": (
        {"difference": [{"cells": ["R1C1", "R2C2"]}]},
        "difference[0]: r1c1 and r2c2 do not touch; a white dot sits on the edge between two "
        "orthogonally adjacent cells",
    ),
    "black-dot-cells-not-touching": (
        {"ratio": [{"cells": ["R1C1", "R4C4"]}]},
        "ratio[0]: r1c1 and r4c4 do not touch; a black dot sits on the edge",
    ),
    "xv-cells-not-touching": (
        {"xv": [{"cells": ["R2C1", "R2C3"], "value": "X"}]},
        "xv[0]: r2c1 and r2c3 do not touch; an X or V sits on the edge",
    ),
    "solution-of-the-wrong-length": (
        {"solution": [1, 2, 3, 4]},
        "solution: expected a list of 16 digits for the 4x4 grid (row-major, '.' or 0 for an "
        "unknown cell), got 4 entries",
    ),
    "solution-with-a-bad-value": (
        {"solution": [1] * 15 + ["x"]},
        "solution: r4c4 holds 'x'; expected a digit 1..4, or '.' or 0 for an unknown cell",
    ),
    "size-zero": ({"size": 0}, "size: expected the grid's side, an integer from 1 to 16"),
    "size-negative": ({"size": -4}, "size: expected the grid's side, an integer from 1 to 16"),
    "size-not-an-integer": (
        {"size": 4.5},
        "size: expected the grid's side, an integer from 1 to 16 (the largest f-puzzles grid), "
        "got 4.5",
    ),
    "line-that-jumps": (
        {"renban": [{"lines": [["R1C1", "R1C2", "R3C2"]]}]},
        "renban[0]: the line steps from r1c2 to r3c2, which do not touch; each step of a line "
        "goes to a neighbouring cell (sideways or diagonally)",
    ),
    "thermometer-of-one-cell": (
        {"thermometer": [{"lines": [["R2C2"]]}]},
        "thermometer[0]: a thermometer line of one cell (r2c2) sets no rule; a line needs at "
        "least two cells",
    ),
    "line-through-a-cell-twice": (
        {"palindrome": [{"lines": [["R1C1", "R1C2", "R2C2", "R2C1", "R1C2"]]}]},
        "palindrome[0]: palindrome r1c1-r1c2-r2c2-r2c1-r1c2 passes through r1c2 twice",
    ),
    "cage-with-a-cell-twice": (
        {"killercage": [{"cells": ["R1C1", "R1C2", "R1C1"], "value": "4"}]},
        "killercage[0]: r1c1 is listed twice",
    ),
    "cage-with-no-cell": (
        {"killercage": [{"cells": [], "value": "4"}]},
        "killercage[0]: a cage needs at least one cell",
    ),
    "quadruple-not-on-a-2x2": (
        {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R3C3"], "values": [1]}]},
        "quadruple[0]: a quadruple sits on the four cells of a 2x2 square, got r1c1, r1c2, "
        "r2c1, r3c3",
    ),
    "quadruple-digit-over-n": (
        {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [5]}]},
        "quadruple[0]: 'values' must be digits 1..4, got 5",
    ),
    "cell-outside-the-grid": (
        {"extraregion": [{"cells": ["R1C1", "R0C1"]}]},
        "extraregion[0]: r0c1 is outside the 4x4 grid",
    ),
    "little-killer-pointing-away-from-the-grid": (
        {"littlekillersum": [{"cell": "R0C2", "direction": "UR", "value": "5"}]},
        "littlekillersum[0]: the clue at r0c2 points at no cell of the grid",
    ),
    "little-killer-direction-not-a-string": (
        {"littlekillersum": [{"cell": "R0C3", "direction": ["DL"], "value": "5"}]},
        "littlekillersum[0]: direction must be UR, UL, DR or DL, got ['DL']",
    ),
    "little-killer-clue-inside-the-grid": (
        {"littlekillersum": [{"cell": "R2C2", "direction": "DR", "value": "5"}]},
        "littlekillersum[0]: a clue must stand outside the grid, got r2c2",
    ),
}


@pytest.mark.parametrize("case", sorted(SHAPES))
def test_a_shape_the_format_does_not_allow_is_one_line_and_exit_2(
    data: Path, tmp_path: Path, case: str
) -> None:
    change, message = SHAPES[case]
    record = peak(data)
    record.update(change)
    with pytest.raises(PuzzleError) as error:
        from_data(record)
    assert error.value.message.startswith(message)
    path = tmp_path / f"{case}.json"
    path.write_text(json.dumps(record))
    run = CliRunner().invoke(main, ["check", str(path)])
    assert run.exit_code == 2, run.output
    assert "Traceback" not in run.output
    errors = [line for line in run.output.splitlines() if "error" in line]
    assert len(errors) == 1 and errors[0].startswith(f"cp-sudoku: error: {path}:1: {message}")


def test_a_shape_the_format_does_not_allow_is_422_on_the_service(data: Path, service: Any) -> None:
    for case, (change, message) in sorted(SHAPES.items()):
        record = peak(data)
        record.update(change)
        answer = service.post("/v1/check", json={"puzzle": link(record)})
        assert answer.status_code == 422, (case, answer.text)
        assert message in answer.json()["error"], (case, answer.text)
    refused = service.post("/v1/check", json={"puzzle": "https://example.com/?load=N4IgzglgXpAs"})
    assert refused.status_code == 422 and "is not an f-puzzles or SudokuPad" in refused.text


def test_a_partial_or_empty_stated_solution_is_not_compared(data: Path) -> None:
    record = peak(data)
    record["solution"] = ["."] * 15 + [2]
    assert from_data(record)[1] is None
    record["solution"] = []
    assert from_data(record)[1] is None
    record["solution"] = [str(v) for v in "1423324123144132"]
    assert from_data(record)[1] == tuple(int(v) for v in "1423324123144132")
