"""The variant text format: reading, writing, detection, and errors with their location."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MODELS, check_all, grid_of, model_text

from cp_sudoku.io import detect_format, read_file
from cp_sudoku.io import parse_text as parse_variant
from cp_sudoku.io import read_file as read_path
from cp_sudoku.io import to_text as variant_text
from cp_sudoku.io.text import read_text_lines as read_variant_lines
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.model import PuzzleError


def sniff(path: Path) -> str:
    with open(path, encoding="utf-8") as handle:
        return detect_format(handle.readlines()[:128], str(path))


KENKEN_RXCY = model_text("kenken-4x4-issue4.txt")

# The same puzzle in Norvig's notation (row letter, column digit), with ';', spaces
# around the operation, 'x' and the Unicode signs, and '=' for the one-cell cage.
KENKEN_NORVIG = (
    "kind: kenken\nsize: 4\n"
    "cages: 2 \u00d7 A2 A1 B1; 7 + A4 A3; 1 - D1 D2\n"
    "2 \u00f7 C4 D4; 2- D3 C3; 6x B3 B2; 2 - C2 C1; 4 = B4\n"
)


def test_norvig_and_rxcy_notations_give_one_model() -> None:
    a, b = parse_variant(KENKEN_RXCY), parse_variant(KENKEN_NORVIG)
    assert a.cages == b.cages
    assert a.units == b.units
    assert check_all(a).solution == grid_of("2143132442313412")


def test_killer_cage_notations() -> None:
    text = """kind: killer
size: 4
cages:
3: r1c1,r1c2
7+ r1c3 r1c4; 7 r2c1 r2c2
3 + r2c3, r2c4
3: r3c1 r3c2; 7: r3c3 r3c4; 7: r4c1 r4c2; 3: r4c3 r4c4
"""
    puzzle = parse_variant(text)
    pairs = [[(r, c), (r, c + 1)] for r in range(4) for c in (0, 2)]
    built = killer(list(zip([3, 7, 7, 3, 3, 7, 7, 3], pairs, strict=True)), size=4)
    assert puzzle.cages == built.cages
    assert puzzle.units == built.units
    verdict = check_all(puzzle, limit=50)
    assert grid_of("1234341221434321") in verdict.solutions


def test_sudoku_grid_in_numbers_with_separators_and_box() -> None:
    text = """kind: sudoku
box: 2x3
grid:
 . . . | . . .
 . 3 1 | . . 2
-------+------
 3 . . | . . 6
 . 1 5 | . . .
-------+------
 . . 6 | . . .
 1 . . | . 5 .
"""
    puzzle = parse_variant(text)
    assert puzzle.box == (2, 3)
    assert puzzle.givens[(1, 1)] == 3
    verdict = check_all(puzzle)
    assert verdict.solution == grid_of("264135531462342516615243456321123654")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("kind: hexoku\n", "1", "unknown kind 'hexoku'"),
        ("kind: kenken\ncages: 1 r1c1\n", "1", "a kenken needs 'size: N'"),
        ("kind: kenken\nsize: 1\ncages: 1 z9\n", "3", "expected a cell such as r1c2 or A2"),
        ("kind: kenken\nsize: 2\nsize: 2\n", "3", "'size:' appears twice"),
        ("kind: kenken\nsize: 2\nbox: 2x1\n", "3", "'box:' does not apply to a kenken"),
        ("kind: kenken\nsize: two\n", "2", "expected 'size: N' with 1 <= N <= 100, got 'two'"),
        # adversarial findings: a size that took gigabytes, digits that are not ASCII
        ("kind: futoshiki\nsize: 3000\n", "2", "with 1 <= N <= 100, got '3000'"),
        ("kind: skyscrapers\nsize: 99999999999\n", "2", "with 1 <= N <= 100, got '99999999999'"),
        ("kind: kenken\nsize: \u0664\n", "2", "with 1 <= N <= 100, got '\u0664'"),
        ("kind: kenken\nsize: 2\ncages: 3 r1c1 r1c2\n", "3", r"needs an operation"),
        ("kind: killer\nsize: 4\ncages: 3* r1c1 r1c2\n", "3", "a Killer cage is a sum"),
        ("kind: killer\ncages: 3 r1c1 r1c2\n", "1", "a killer needs 'size: N' or a 'grid:'"),
        ("kind: sudoku\nbox: 2\ngrid: 1234\n", "2", "expected 'box: RxC'"),
        ("kind: sudoku\ngrid:\n12.4\n3?..\n....\n....\n", "4:2", "unexpected symbol '\\?'"),
        # a new-user finding: a grid cut short said "a grid of 3 rows needs 3 entries per row"
        ("kind: sudoku\ngrid:\n12.4\n3...\n....\n", "5", "the grid ends after 3 rows, expected 4"),
        (
            "kind: sudoku\ngrid:\n12.4\n3....\n....\n....\n",
            "4:5",
            "a grid of 4 rows needs 4 entries",
        ),
        ("kind: jigsaw\nregions:\n1122\n1122\ngrid:\n....\n", "4", "ends after 2 rows, expected 4"),
        (
            "kind: sudoku\ngrid: ......122..4.4..\n",
            "2",
            r"16 rows of 16 symbols \(or, for a 4x4 puzzle on one line, 4 rows of 4\)",
        ),
        ("kind: x-sudoku\n", "1", "a sudoku needs a 'grid:'"),
        ("kind: jigsaw\ngrid: 1\n", "1", "a jigsaw needs a 'regions:' section"),
        ("kind: kakuro\ngrid:\nx 3\\\n\\3 ?\n", "4:4", "unexpected Kakuro square '?'"),
        ("kind: kakuro\ngrid:\nx 3\\\n\\3 _ _\n", "4", "rows must have one length"),
        ("kind: sudoku\nfoo\n", "2", "expected 'key: value'"),
    ],
)
def test_errors_name_the_line_and_what_was_expected(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as error:
        parse_variant(text, "puzzle.txt")
    assert str(error.value).startswith(f"puzzle.txt:{where}: ")


def test_a_bad_puzzle_is_reported_and_the_others_still_read() -> None:
    text = (
        "kind: kenken\nsize: 2\ncages: 3+ r1c1 r1c2; 3+ r2c1 r2c2\n"  # rows sum 3: fine
        "kind: kenken\nsize: 2\ncages: 3+ r1c1 r1c2\noops\n"
        "kind: kenken\nsize: 2\ncages: 1 r1c1; 2 r1c2; 2 r2c1; 1= r2c2\n"
    )
    entries = list(read_variant_lines(text.splitlines(), "many.txt"))
    assert [e.line for e in entries] == [1, 4, 8]
    assert entries[0].puzzle is not None and entries[2].puzzle is not None
    assert entries[1].error is not None
    assert str(entries[1].error).startswith("many.txt:7: expected a cage such as")
    assert check_all(entries[2].puzzle).solution == (1, 2, 2, 1)


def test_text_before_the_first_kind_line_or_no_puzzle_at_all() -> None:
    with pytest.raises(PuzzleError, match=r"f:1: expected a 'kind:' line first"):
        list(read_variant_lines(["size: 4"], "f"))
    with pytest.raises(PuzzleError, match="no puzzle found"):
        list(read_variant_lines(["# only a comment"], "f"))


def test_writing_reads_back_to_the_same_model() -> None:
    for path in sorted(MODELS.glob("*.txt")):
        if sniff(path) != "variant":
            continue
        for entry in read_path(path):
            assert entry.puzzle is not None, entry.error
            again = parse_variant(variant_text(entry.puzzle))
            assert again.kind == entry.puzzle.kind
            assert again.cells == entry.puzzle.cells
            assert again.units == entry.puzzle.units
            assert again.cages == entry.puzzle.cages
            assert dict(again.givens) == dict(entry.puzzle.givens)
            assert dict(again.labels) == dict(entry.puzzle.labels)


def test_written_kenken_text() -> None:
    puzzle = kenken(2, [(3, "+", [(0, 0), (0, 1)]), (2, "/", [(1, 0), (1, 1)])])
    assert variant_text(puzzle) == "kind: kenken\nsize: 2\ncages:\n3+ r1c1 r1c2\n2/ r2c1 r2c2\n"


def test_sniff(tmp_path: Path, data: Path) -> None:
    assert sniff(MODELS / "kenken-4x4-issue4.txt") == "variant"
    assert sniff(MODELS / "sudoku-9x9-hard.txt") == "line"
    assert sniff(data / "kenken" / "arithmatrix-4x4.jsonl") == "arithmatrix"
    assert sniff(data / "kakuro" / "xcsp3-easy-000.json") == "xcsp3"
    assert sniff(data / "kakuro" / "kuso-SumasCruzadas_93.csv") == "kuso"
    assert sniff(data / "kakuro" / "kuso-SumasCruzadas_93.solution.txt") != "kuso"
    kaggle = tmp_path / "sudoku.csv"
    kaggle.write_text("quizzes,solutions\n" + "0" * 81 + "," + "1" * 81 + "\n")
    assert sniff(kaggle) == "csv"
    other = tmp_path / "x.jsonl"
    other.write_text('{"status": "unique"}\n')
    assert sniff(other) == "line"
    with pytest.raises(PuzzleError, match="expected a 'kind:' line first"):
        list(read_file(kaggle, format="variant"))


# ---------------------------------------------------------------- the model files

# file -> the solution of each puzzle, in file order, as stated in its header.
VARIANT_MODELS = {
    "killer-9x9-wikipedia.txt": [
        "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
    ],
    "x-sudoku-9x9.txt": [
        "795863412142795863638421579321547986876932154459186327514679238287314695963258741"
    ],
    "windoku-9x9.txt": [
        "823419765617235948459678132584397621791862453362154879145783296238946517976521384"
    ],
    "jigsaw-9x9.txt": [
        "519642738462783195837915246345176829273598614981264357694831572126457983758329461"
    ],
    "kenken-4x4-issue4.txt": ["2143132442313412"],
    "kenken-6x6.txt": [
        "563412614523452361341256236145125634",
        "325461146253463512514326251634632145",
    ],
    "kakuro-4x5-issue4.txt": ["21314212"],
    "kakuro-6x6-xcsp3.txt": ["581869498317923986"],
}


@pytest.mark.parametrize("name", sorted(VARIANT_MODELS))
def test_variant_model_files_are_unique_with_their_stated_solutions(name: str) -> None:
    path = MODELS / name
    header = path.read_text().splitlines()
    assert any(line.startswith("# source:") for line in header)
    assert any(line.startswith("# solutions: 1") for line in header)
    entries = list(read_path(path))
    assert len(entries) == len(VARIANT_MODELS[name])
    for entry, solution in zip(entries, VARIANT_MODELS[name], strict=True):
        assert entry.puzzle is not None, entry.error
        verdict = check_all(entry.puzzle)
        assert verdict.status == "unique"
        assert verdict.solution == grid_of(solution)


def test_model_16x16_is_the_shared_puzzle_relabelled(data: Path) -> None:
    (entry,) = read_path(MODELS / "sudoku-16x16.txt")
    assert entry.puzzle is not None and entry.puzzle.max_value == 16
    symbols = "0123456789ABCDEF"
    line = (data / "sudoku-large" / "sudoku16x16_hard.txt").read_text().splitlines()[0]
    givens = {(i // 16, i % 16): symbols.index(ch) + 1 for i, ch in enumerate(line) if ch != "."}
    assert dict(entry.puzzle.givens) == givens
    assert check_all(entry.puzzle).status == "unique"


def test_model_6x6_sudoku() -> None:
    (entry,) = read_file(MODELS / "sudoku-6x6.txt")
    assert entry.puzzle is not None and entry.puzzle.box == (2, 3)
    verdict = check_all(entry.puzzle)
    assert verdict.status == "unique"
    assert verdict.solution == grid_of("264135531462342516615243456321123654")
