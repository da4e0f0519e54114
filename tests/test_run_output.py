"""Rows as JSON lines and Parquet: the schema, invalid lines, slices, the spool."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from run_helpers import ROOT, rows, run_here, write_puzzles

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
    with pytest.raises(UsageError, match="differs in plan"):
        Spool(tmp_path / "o.parquet", run | {"plan": "cpsat"}, plan.backends, resume=True)
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


def test_the_documented_duckdb_queries_run_on_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQL of the README and docs/scale.md, run by DuckDB on a real table of each kind."""
    duckdb = pytest.importorskip("duckdb", reason='pip install -e ".[parquet]"')
    pytest.importorskip("pyarrow", reason='pip install -e ".[parquet]"')
    source = write_puzzles(tmp_path / "p.csv", 6, csv=True, bad=(3,))
    for name in ("results.parquet", "results.jsonl"):
        code, err = run_here(
            "check",
            str(source),
            "--jobs",
            "1",
            "--backend",
            "sat",
            "--output",
            str(tmp_path / name),
        )
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
