"""A run killed with SIGKILL part-way, then resumed, gives the file of an uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
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


def _workers(pid: int) -> list[int]:
    """The child processes of ``pid`` but Python's resource tracker (it ends by itself)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    children = [int(child) for child in found.split()]
    return [c for c in children if "resource_tracker" not in _cmdline(c)]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    "how",
    [
        ["--jobs", "2"],
        # a Dask cluster's start and stop cost 14 s of CPU: slow (.ci/run runs it)
        pytest.param(["--cluster", "local:2"], marks=pytest.mark.slow),
    ],
)
def test_ctrl_c_keeps_every_finished_slice_and_resume_equals_a_whole_run(
    tmp_path: Path, how: list[str]
) -> None:
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) during ``check
    --output``: exit 130 at once, no worker left, the finished slices kept; --resume then
    gives the table of an uninterrupted run."""
    if how[0] == "--cluster":
        pytest.importorskip("distributed")
    source = write_puzzles(tmp_path / "p.txt", 400, bad=(9,))
    args = ["check", str(source), "--backend", "sat", "--backend", "backtrack", *how]
    whole, cut_short = tmp_path / "whole.jsonl", tmp_path / "resumed.jsonl"
    code, err = run_cli(*args, "--output", str(whole))
    assert code == 2, err  # the invalid line 9
    spool = cut_short.with_name("resumed.jsonl.parts")
    process = cli(*args, "--output", str(cut_short), start_new_session=True)
    deadline = time.monotonic() + 240  # an anti-hang bound only
    while len(list(spool.glob("*.jsonl"))) < 2:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no part file appeared"
        time.sleep(0.05)
    workers = _workers(process.pid)
    assert workers
    start = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    seconds = time.monotonic() - start
    assert process.returncode == 130, err
    assert err.splitlines()[-1].startswith("cp-sudoku: interrupted after")
    assert "the finished slices are kept: add --resume" in err
    assert "Traceback" not in err
    assert seconds < 10  # a generous anti-hang bound; docs/scale.md gives the figures
    time.sleep(0.5)
    assert [w for w in workers if _alive(w)] == []
    kept = len(list(spool.glob("*.jsonl")))
    assert 2 <= kept < 8  # 401 lines in 8 slices of 51 (four per worker)
    code, err = run_cli(*args, "--output", str(cut_short), "--resume")
    assert code == 2, err
    assert rows(cut_short) == rows(whole)
    assert [row["line"] for row in rows(whole)] == list(range(2, 402))
