"""A run killed with SIGKILL part-way, then resumed, gives the file of an uninterrupted run."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
from run_helpers import cli, rows, run_cli, write_puzzles

pytest.importorskip("pyarrow")


def _kill_after_parts(process, spool: Path, parts: int) -> None:
    deadline = time.monotonic() + 240  # an anti-hang bound only
    while len(list(spool.glob("*.parquet"))) < parts:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path: Path, jobs: str) -> None:
    source = write_puzzles(tmp_path / "p.csv", 300, csv=True, bad=(7,))
    args = ["check", str(source), "--backend", "sat", "--backend", "backtrack"]
    args += ["--slice-lines", "25", "--jobs", jobs]
    whole, cut_short = tmp_path / "whole.parquet", tmp_path / "resumed.parquet"
    code, err = run_cli(*args, "--output", str(whole))
    assert code == 2, err  # the invalid line 8
    spool = cut_short.with_name("resumed.parquet.parts")
    _kill_after_parts(cli(*args, "--output", str(cut_short)), spool, 3)
    assert spool.is_dir() and not cut_short.exists()
    done = len(list(spool.glob("*.parquet")))
    assert 3 <= done < 12
    code, err = run_cli(*args, "--output", str(cut_short))
    assert code == 2 and "--resume" in err  # a spool is not overwritten without --resume
    code, err = run_cli(*args, "--output", str(cut_short), "--resume")
    assert code == 2, err
    assert not spool.exists()
    assert rows(cut_short) == rows(whole)
    assert len(rows(whole)) == 300
    assert [row["line"] for row in rows(whole)] == list(range(2, 302))
    code, err = run_cli(*args, "--output", str(cut_short), "--resume")
    assert code == 2 and "300 puzzles" in err  # already complete: counted, not re-run
