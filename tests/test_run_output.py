"""Rows as JSON lines and Parquet: the schema, invalid lines, slices, the spool."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from run_helpers import ROOT, cli, rows, run_here, write_puzzles

from cp_sudoku.model import UsageError
from cp_sudoku.run import Plan, check
from cp_sudoku.run.batch import Input, check_to_file, described
from cp_sudoku.run.chunks import Chunk, run_chunk
from cp_sudoku.run.output import column_types, columns_of, table_format
from cp_sudoku.run.resume import Spool
from cp_sudoku.run.slices import Part, cut, describe

pytest.importorskip("pyarrow")


def test_the_schema_names_every_back_end_column_in_plan_order() -> None:
    names = list(column_types(("sat", "backtrack-plain")))
    assert names[:9] == [
        "source", "line", "puzzle", "status", "solution", "agree", "matches_stated",
        "disagreements", "error",
    ]  # fmt: skip
    assert names[9:11] == ["grade", "rating"]
    assert names[11:14] == ["sat_status", "sat_seconds", "sat_solutions"]
    assert "sat_conflicts" in names and "backtrack_plain_tries" in names
    assert table_format("x.PARQUET") == "parquet" and table_format("x.jsonl") == "jsonl"


def test_slices_cover_every_line_once(tmp_path: Path) -> None:
    path = write_puzzles(tmp_path / "p.txt", 25)
    file = cut(path, 7)
    assert [(s.first_line, s.end - s.start > 0) for s in file.slices] == [
        (1, True), (8, True), (15, True), (22, True)
    ]  # fmt: skip
    assert file.slices[-1].end == path.stat().st_size
    with pytest.raises(UsageError, match="at least one line"):
        cut(path, 0)


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_rows_in_input_order_with_known_solutions_and_invalid_lines(
    tmp_path: Path, suffix: str
) -> None:
    path = write_puzzles(tmp_path / "p.csv", 30, csv=True, bad=(4,))
    out = tmp_path / f"out.{suffix}"
    tally = check_to_file(str(path), str(out), Plan(("sat", "backtrack")), slice_lines=8)
    found = rows(out)
    assert [row["line"] for row in found] == list(range(2, 32))
    bad = found[3]
    assert bad["status"] == "invalid" and bad["sat_status"] is None
    assert bad["error"].startswith(f"{path}:5:")
    good = [row for row in found if row["status"] != "invalid"]
    assert all(row["agree"] and row["matches_stated"] for row in good)
    assert all(row["sat_status"] == row["backtrack_status"] == row["status"] for row in good)
    unique = [row for row in good if row["status"] == "unique"]
    assert unique and all(len(row["solution"]) == 81 for row in unique)
    assert tally.statuses["invalid"] == 1 and tally.total == 30
    assert not out.with_name(out.name + ".parts").exists()


@pytest.mark.parametrize("name", ["p.txt", "p.csv"])
def test_a_byte_that_is_not_utf8_spoils_its_line_only_in_every_path(
    tmp_path: Path, name: str
) -> None:
    """A stray Latin-1 byte on line 9: the table path stopped the whole run (exit 2, ``not a
    UTF-8 text file (... at byte 74)``, no file or line, no table, and ``--resume`` met it
    again), and the streaming path lost the results still in flight.  Now both report that
    one puzzle, located, and check the rest."""
    path = write_puzzles(tmp_path / name, 20, csv=name.endswith(".csv"))
    raw = path.read_bytes().split(b"\n")
    raw[8] = raw[8][:4] + b"\xe9" + raw[8][5:]
    path.write_bytes(b"\n".join(raw))
    says = f"{path}:9:5: byte 0xE9 is not UTF-8: save the file as UTF-8"
    first = 2  # a header, or a comment
    for extra in ([], ["--jobs", "2", "--output", str(tmp_path / "o.jsonl")]):
        process = cli("check", str(path), "--backend", "sat", *extra)
        out, err = process.communicate(timeout=300)
        assert process.returncode == 2, err
        assert err.count("cp-sudoku: error:") == 1 and f"cp-sudoku: error: {says}" in err
        printed = [line.split()[0] for line in out.splitlines()]
        assert printed == [f"{path}:{n}" for n in range(first, first + 20)]
    found = rows(tmp_path / "o.jsonl")
    assert [row["status"] for row in found].count("invalid") == 1
    assert found[9 - first]["error"] == says and len(found) == 20


@pytest.mark.parametrize("table", ["o.parquet", "o.jsonl"])
def test_a_table_stores_a_byte_that_is_not_utf8_as_an_escape(tmp_path: Path, table: str) -> None:
    """The bad line's text was kept with a lone surrogate: Parquet refused it (exit 70, no
    table) and JSON lines held an escape of no character."""
    pytest.importorskip("pyarrow")
    path = write_puzzles(tmp_path / "p.txt", 3)
    raw = path.read_bytes().split(b"\n")
    raw[2] = b"\xff" + raw[2][1:]
    path.write_bytes(b"\n".join(raw))
    code, err = run_here("check", str(path), "--backend", "sat", "--output", str(tmp_path / table))
    assert code == 2, err
    found = rows(tmp_path / table)
    assert [row["status"] for row in found].count("invalid") == 1 and len(found) == 3
    assert found[1]["puzzle"] == "\\xff" + raw[2][1:].decode()


@pytest.mark.parametrize("table", ["o.parquet", "o.jsonl"])
def test_the_puzzle_column_of_a_csv_holds_the_puzzle_field(tmp_path: Path, table: str) -> None:
    """A CSV's ``puzzle`` column is the puzzle field as read (it held the whole record,
    the stated solution glued on with its comma), also for an invalid puzzle field."""
    path = write_puzzles(tmp_path / "p.csv", 4, csv=True, bad=(2,))
    records = [line.split(",") for line in path.read_text().splitlines()[1:5]]
    code, err = run_here("check", str(path), "--backend", "sat", "--output", str(tmp_path / table))
    assert code == 2, err
    found = rows(tmp_path / table)
    assert [row["puzzle"] for row in found] == [puzzle for puzzle, _ in records]
    assert [row["status"] == "invalid" for row in found] == [False, True, False, False]
    assert found[0]["puzzle"] == records[0][0] and len(records[0][0]) == 81


def test_a_grid_file_stopped_by_a_bad_byte_keeps_the_puzzles_before_it(tmp_path: Path) -> None:
    """A grid's puzzle spans lines, so a byte that is not UTF-8 stops the file; the 70
    puzzles before it were lost (nothing printed: those read into the chunk being filled,
    and those in flight, were dropped with the error)."""
    puzzles = write_puzzles(tmp_path / "p.txt", 12).read_text().splitlines()[1:]
    grids = ["\n".join(p[i : i + 9] for i in range(0, 81, 9)) for p in puzzles]
    text = "\n\n".join(grids).encode()
    at = text.index(grids[9].encode()) + 12  # row 2, column 3 of the tenth grid
    path = tmp_path / "grids.txt"
    path.write_bytes(text[:at] + b"\xe9" + text[at + 1 :])
    for jobs in ("1", "2"):
        process = cli("check", str(path), "--backend", "sat", "--format", "grid", "--jobs", jobs)
        out, err = process.communicate(timeout=300)
        assert process.returncode == 2, err
        assert (
            err.strip()
            == f"cp-sudoku: error: {path}:92:3: byte 0xE9 is not UTF-8: save the file as UTF-8"
        )
        assert [line.split()[0] for line in out.splitlines()] == [
            f"{path}:{1 + 10 * k}" for k in range(9)
        ]


def test_a_csv_record_spanning_lines_is_one_row_whatever_the_slices(tmp_path: Path) -> None:
    """A quoted puzzle field broken over lines 6 and 7: read whole, it is one valid puzzle;
    a slice ending at line 6 read it as two invalid ones (31 rows, exit 2)."""
    lines = write_puzzles(tmp_path / "p.csv", 12, csv=True).read_text().splitlines()
    puzzle, solution = lines[5].split(",")
    lines[5] = f'"{puzzle[:40]}\n{puzzle[40:]}",{solution}'
    path = tmp_path / "span.csv"
    path.write_text("\n".join(lines) + "\n")
    tables = []
    for size in (1, 2, 5, 100):
        out = tmp_path / f"o{size}.jsonl"
        tally = check_to_file(str(path), str(out), Plan(("sat",)), slice_lines=size)
        assert tally.total == 12 and "invalid" not in tally.statuses
        tables.append([{k: v for k, v in row.items() if "seconds" not in k} for row in rows(out)])
    assert all(table == tables[0] for table in tables)
    assert [row["line"] for row in tables[0]] == [2, 3, 4, 5, 7, *range(8, 15)]


@pytest.mark.parametrize("csv", [False, True])
def test_a_line_of_another_size_is_invalid_whatever_the_slices(tmp_path: Path, csv: bool) -> None:
    """Attack on issue 20: one file holds one size, so after a 4x4 first puzzle every 9x9
    line is invalid, and a bad line's message names 4x4.  A slice read alone took its size
    from its own first line: with ``--slice-lines 1`` the 9x9 lines were unique, and
    ``--cluster local:2`` printed 11 unique lines where ``--jobs 2`` printed 12 invalid."""
    lines = write_puzzles(tmp_path / "p", 6, csv=csv, bad=(4,)).read_text().splitlines()
    lines.insert(1, "1..............." + (",1234341221434321" if csv else ""))
    path = tmp_path / ("mixed.csv" if csv else "mixed.txt")
    path.write_text("\n".join(lines) + "\n")
    tables = []
    for size in (1, 3, 100):
        out = tmp_path / f"o{size}.jsonl"
        tally = check_to_file(str(path), str(out), Plan(("sat",)), slice_lines=size)
        assert tally.total == 7
        tables.append([{k: v for k, v in row.items() if "seconds" not in k} for row in rows(out)])
    assert all(table == tables[0] for table in tables)
    assert [row["status"] for row in tables[0]] == ["multiple", *["invalid"] * 6]
    assert "in a file of 4x4 puzzles" in tables[0][1]["error"]
    assert "(16 for 4x4)" in tables[0][4]["error"]  # the bad line, 12345


@pytest.mark.parametrize("csv", [False, True])
def test_a_file_with_lone_cr_line_ends_is_cut_as_it_is_read(tmp_path: Path, csv: bool) -> None:
    """Attack on issue 20: lines ended by a lone ``\\r`` (classic Mac) read as 12 puzzles,
    but the slices split at ``\\n`` only: ``--output`` and ``--cluster`` saw one invalid
    line for a line file, and for CSV took the whole file as its header: 0 puzzles, exit 0."""
    from cp_sudoku.io import read_file

    lines = write_puzzles(tmp_path / "p", 12, csv=csv).read_text().splitlines()
    if csv:  # a quoted puzzle field going on past a lone CR, too
        puzzle, solution = lines[5].split(",")
        lines[5] = f'"{puzzle[:40]}\r{puzzle[40:]}",{solution}'
    path = tmp_path / ("cr.csv" if csv else "cr.txt")
    path.write_bytes(("\r".join(lines) + "\r").encode())
    read = [entry.line for entry in read_file(path)]
    assert len(read) == 12
    for size in (1, 5, 100):
        out = tmp_path / f"o{size}.jsonl"
        tally = check_to_file(str(path), str(out), Plan(("sat",)), slice_lines=size)
        assert tally.total == 12 and "invalid" not in tally.statuses
        assert [row["line"] for row in rows(out)] == read


def test_a_quote_inside_a_csv_field_cuts_as_the_csv_module_reads(tmp_path: Path) -> None:
    """Attack on issue 20: in ``a"b,"x`` the first quote is a character of its field and the
    second opens a field that goes on to the next line; counting quotes (two: even) put a
    slice's end inside that field, so ``--output`` had 5 rows (a quoted field never closes,
    then another invalid line) where ``check`` read 4 puzzles."""
    from cp_sudoku.io import read_file

    lines = write_puzzles(tmp_path / "p.csv", 6, csv=True).read_text().splitlines()
    lines[3:3] = ['a"b,"x', 'y",z']
    path = tmp_path / "q.csv"
    path.write_text("\n".join(lines) + "\n")
    read = [(entry.line, entry.error is None) for entry in read_file(path)]
    assert len(read) == 7
    for size in (1, 2, 100):
        out = tmp_path / f"o{size}.jsonl"
        check_to_file(str(path), str(out), Plan(("sat",)), slice_lines=size)
        assert [(row["line"], row["error"] is None) for row in rows(out)] == read


def test_an_output_naming_the_input_is_refused_and_the_input_kept(tmp_path: Path) -> None:
    """Attack on issue 20: ``check p.txt --output p.txt`` (or ``./p.txt``, or a link to it)
    checked the puzzles, then replaced the input file with the table, exit 0."""
    path = write_puzzles(tmp_path / "p.txt", 5)
    before = path.read_bytes()
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    for output in (path, tmp_path / "." / "p.txt", link):
        code, err = run_here("check", str(path), "--backend", "sat", "--output", str(output))
        assert code == 2
        assert err == (
            f"cp-sudoku: error: --output {output} is the input file: the table would "
            "replace the puzzles; name another file\n"
        )
    assert path.read_bytes() == before and not (tmp_path / "p.txt.parts").exists()


def test_jsonl_and_parquet_hold_the_same_rows(tmp_path: Path) -> None:
    path = write_puzzles(tmp_path / "p.txt", 12)
    for suffix in ("jsonl", "parquet"):
        check_to_file(str(path), str(tmp_path / f"o.{suffix}"), Plan(("sat",)), slice_lines=5)
    assert rows(tmp_path / "o.jsonl") == rows(tmp_path / "o.parquet")
    first = json.loads((tmp_path / "o.jsonl").read_text().splitlines()[0])
    assert list(first) == list(column_types(("sat",)))


def test_a_spool_of_another_run_is_refused_and_half_written_parts_are_ignored(
    tmp_path: Path,
) -> None:
    path = write_puzzles(tmp_path / "p.txt", 10)
    file, plan = cut(path, 4), Plan(("sat",))
    run = describe(file) | {"plan": "sat"}
    spool = Spool(tmp_path / "o.parquet", run, plan.backends, resume=False)
    (spool.dir / "00000001.parquet.tmp").write_bytes(b"half a part")
    assert spool.done() == set()
    with pytest.raises(UsageError, match="--resume"):
        Spool(tmp_path / "o.parquet", run, plan.backends, resume=False)
    with pytest.raises(UsageError, match='another run \\(plan: "sat" then, "cpsat" now\\)'):
        Spool(tmp_path / "o.parquet", run | {"plan": "cpsat"}, plan.backends, resume=True)
    # a new user's finding: the refusal named the key only; a nested one is named to the leaf
    other = tmp_path / "x.parquet"
    Spool(other, run | {"plan": {"backends": ["sat"], "limit": 2}}, plan.backends, resume=False)
    with pytest.raises(UsageError) as refused:
        changed = {"plan": {"backends": ["sat", "cpsat"], "limit": 2}}
        Spool(other, run | changed, plan.backends, resume=True)
    assert '(plan.backends: ["sat"] then, ["sat", "cpsat"] now)' in str(refused.value)
    assert Spool(tmp_path / "o.parquet", run, plan.backends, resume=True).done() == set()


def test_a_resumed_table_runs_only_the_missing_slices_and_equals_a_whole_run(
    tmp_path: Path,
) -> None:
    path = write_puzzles(tmp_path / "p.txt", 10)
    plan = Plan(("sat",))
    whole, resumed = tmp_path / "whole.jsonl", tmp_path / "resumed.jsonl"
    assert check_to_file(str(path), str(whole), plan, slice_lines=4).total == 10
    file = cut(path, 4)
    spool = Spool(
        resumed, described(file, plan, Input(lambda: iter(()))), plan.backends, resume=False
    )
    part = Part(file.source, file.slices[1])
    spool.put(1, columns_of(run_chunk(Chunk(1, check, plan, part=part)), plan.backends))
    summary = check_to_file(str(path), str(resumed), plan, slice_lines=4, resume=True)
    assert summary.total == 10 and summary.statuses["unique"] + summary.statuses["multiple"] == 10
    assert rows(resumed) == rows(whole)


def _sql_blocks(page: Path) -> list[str]:
    """The statements of the ```sql blocks of a docs page."""
    blocks = re.findall(r"```sql\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    text = "\n".join(line for block in blocks for line in block.splitlines() if "--" not in line)
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def _table(source: Path, output: Path) -> tuple[int, str]:
    """``check SOURCE --output OUTPUT`` on ``sat`` in this process: exit code and stderr."""
    return run_here(
        "check", str(source), "--jobs", "1", "--backend", "sat", "--output", str(output)
    )


def test_the_documented_duckdb_queries_run_on_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQL of the README and docs/scale.md, run by DuckDB on a real table of each kind."""
    duckdb = pytest.importorskip("duckdb", reason='pip install -e ".[parquet]"')
    pytest.importorskip("pyarrow", reason='pip install -e ".[parquet]"')
    source = write_puzzles(tmp_path / "p.csv", 6, csv=True, bad=(3,))
    for name in ("results.parquet", "results.jsonl"):
        code, err = _table(source, tmp_path / name)
        assert code == 2, err  # the bad line
    monkeypatch.chdir(tmp_path)
    statements = _sql_blocks(ROOT / "README.md") + _sql_blocks(ROOT / "docs" / "scale.md")
    assert len(statements) == 4
    table = rows(tmp_path / "results.parquet")
    by_status = duckdb.sql(statements[0]).fetchall()
    assert {status: puzzles for status, puzzles, _ in by_status} == Counter(
        row["status"] for row in table
    )
    assert {status for status, _, _ in by_status} >= {"unique", "invalid"}
    assert all(ms > 0 for status, _, ms in by_status if status != "invalid")
    again = duckdb.sql(statements[1]).fetchall()  # the same query (the mean's float may vary)
    assert sorted(row[:2] for row in again) == sorted(row[:2] for row in by_status)
    assert duckdb.sql(statements[2]).fetchall() == []  # every back end agrees
    contradicted = sum(row["matches_stated"] is False for row in table)
    assert duckdb.sql(statements[3]).fetchall() == [(contradicted,)] == [(0,)]


def test_the_documented_pandas_lines_run_on_a_table_with_an_invalid_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new-user finding: the README's ``rows[~rows.agree | ...]`` raised ``TypeError: bad
    operand type for unary ~: 'NoneType'`` on a table holding an invalid line (its ``agree``
    is null).  The pandas blocks of the README and docs/scale.md run, and "anything to look
    at" is the invalid line and the one whose stated solution is contradicted."""
    pytest.importorskip("pandas", reason='pip install -e ".[notebook]"')
    pytest.importorskip("pyarrow", reason='pip install -e ".[parquet]"')
    source = write_puzzles(tmp_path / "p.csv", 4, csv=True, bad=(3,))
    lines = source.read_text(encoding="utf-8").splitlines()
    puzzle, solution = lines[2].split(",")  # the second puzzle's stated solution, one cell off
    lines[2] = f"{puzzle},{solution[:-1]}{'1' if solution[-1] != '1' else '2'}"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err = _table(source, tmp_path / "results.parquet")
    assert code == 3, err  # the contradicted solution (3) outranks the bad line (2)
    monkeypatch.chdir(tmp_path)
    for page in (ROOT / "README.md", ROOT / "docs" / "scale.md"):
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        (block,) = [block for block in blocks if "read_parquet" in block]
        (look,) = [line for line in block.splitlines() if "anything to look at" in line]
        names: dict[str, object] = {}
        exec(block, names)
        found = eval(look.split("#")[0], names)
        assert sorted(found.line) == [3, 4], page  # line 3: contradicted; line 4: invalid
