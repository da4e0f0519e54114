"""A run killed with SIGKILL part-way, then resumed, gives the file of an uninterrupted run."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from run_helpers import cli, rows, run_cli, run_here, write_puzzles

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
    # the killed run and the resume are processes; the reference run and the refusals need
    # not be (in this process with one job: a subprocess's start costs about 1 s of CPU)
    run = run_here if jobs == "1" else run_cli
    code, err = run(*args, "--output", str(whole))
    assert code == 2, err  # the invalid line 8
    spool = cut_short.with_name("resumed.parquet.parts")
    _kill_after_parts(cli(*args, "--output", str(cut_short)), spool, 3)
    assert spool.is_dir() and not cut_short.exists()
    done = len(list(spool.glob("*.parquet")))
    assert 3 <= done < 12
    code, err = run(*args, "--output", str(cut_short))
    assert code == 2 and "--resume" in err  # a spool is not overwritten without --resume
    code, err = run_cli(*args, "--output", str(cut_short), "--resume")
    assert code == 2, err
    # the rate is over the puzzles checked in this run; the earlier rows are named apart
    earlier = 25 * done
    assert f"{300 - earlier:,} checked in " in err, err
    assert f"; {earlier:,} from an earlier run" in err, err
    assert not spool.exists()
    assert rows(cut_short) == rows(whole)
    assert len(rows(whole)) == 300
    assert [row["line"] for row in rows(whole)] == list(range(2, 302))
    code, err = run(*args, "--output", str(cut_short), "--resume")
    assert code == 2 and "0 checked" in err and "; 300 from an earlier run" in err  # not re-run


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
        # a pool's start and two runs (3 s), a Dask cluster's start and stop (14 s of CPU):
        # slow, .ci/run runs both; the default run keeps test_sigkill_then_resume_...[1]
        pytest.param(["--jobs", "2"], marks=pytest.mark.slow),
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
    common = ["check", str(source), "--backend", "sat", "--backend", "backtrack"]
    args = [*common, *how]
    whole, cut_short = tmp_path / "whole.jsonl", tmp_path / "resumed.jsonl"
    # the reference table: in this process with one job (rows do not depend on the jobs,
    # and a subprocess with two workers costs seconds of CPU for its imports)
    code, err = run_here(*common, "--jobs", "1", "--output", str(whole))
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
    out, err = process.communicate(timeout=60)
    seconds = time.monotonic() - start
    assert process.returncode == 130, err
    said = re.fullmatch(
        r"cp-sudoku: interrupted after ([\d,]+) of 400 puzzles( printed)?; ([\d,]+) kept in "
        r"(\S+): add --resume to go on",
        err.splitlines()[-1],
    )
    assert said, err
    assert said[4] == str(spool)
    printed, kept = int(said[1].replace(",", "")), int(said[3].replace(",", ""))
    assert printed == len(out.splitlines())  # the lines on stdout, in input order
    assert kept == sum(len(part.read_text().splitlines()) for part in spool.glob("*.jsonl"))
    assert (said[2] is None) == (printed == kept)
    assert "Traceback" not in err
    assert "distributed." not in err  # Dask's own log ("Couldn't gather keys") is kept off
    assert seconds < 10  # a generous anti-hang bound; docs/scale.md gives the figures
    gone = time.monotonic() + 0.5  # no worker left half a second after the exit
    while any(_alive(w) for w in workers) and time.monotonic() < gone:
        time.sleep(0.02)
    assert [w for w in workers if _alive(w)] == []
    kept = len(list(spool.glob("*.jsonl")))
    assert 2 <= kept < 8  # 401 lines in 8 slices of 51 (four per worker)
    code, err = run_cli(*args, "--output", str(cut_short), "--resume")
    assert code == 2, err
    assert rows(cut_short) == rows(whole)
    assert [row["line"] for row in rows(whole)] == list(range(2, 402))


def test_interrupt_line_says_what_was_printed_and_what_the_spool_keeps() -> None:
    """Lines print in input order, slices are kept as they finish: when the two counts
    differ, the line gives both; when they agree, it gives one count."""
    from cp_sudoku.cli.exits import Tally

    rows_kept = [1250]
    tally = Tally(total=lambda: 10_000, spool="y.parquet.parts", kept=lambda: rows_kept[0])
    assert tally.describe() == (
        "interrupted after 0 of 10,000 puzzles printed; 1,250 kept in y.parquet.parts: "
        "add --resume to go on"
    )
    tally.done = rows_kept[0] = 1
    assert tally.describe() == (
        "interrupted after 1 of 10,000 puzzles; 1 kept in y.parquet.parts: add --resume to go on"
    )
    assert Tally(done=1, total=lambda: 1).describe() == "interrupted after 1 of 1 puzzle"


def test_a_spool_imports_what_keeping_a_part_needs_before_the_run(tmp_path: Path) -> None:
    """Attack on issue 20: SIGINT to ``check p30k.txt --jobs 2 --output x.parquet`` as its
    first slice finished took 1.6 to 3.1 s to exit (2 runs of 26, load 3-5): keeping that
    slice imported OR-Tools, and pandas with it, for the ``cpsat`` columns' names.  The
    spool now imports them when made, before any worker runs."""
    import sys

    script = (
        "import sys; from cp_sudoku.run.resume import Spool; "
        f"Spool({str(tmp_path / 'x.parquet')!r}, {{}}, ('cpsat', 'sat'), resume=False); "
        "print('ortools.sat.python.cp_model' in sys.modules, 'pyarrow.parquet' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert found.stdout.split() == ["True", "True"], found.stderr


def test_an_interrupt_a_library_swallowed_still_stops_the_run(tmp_path: Path) -> None:
    """Attack on issue 20: one SIGINT 1.3 s into ``check --cluster local:2 --output`` (1
    run of 30) was acted on 12 s later, at the first line printed (``interrupted after 1
    of 30,000 puzzles printed``): its KeyboardInterrupt had been swallowed, as an optional
    import's ``except ImportError`` does when the signal hits a C extension's start.  The
    run loop now asks the tally while it waits.  Here the spool's imports swallow it."""
    import sys

    source = write_puzzles(tmp_path / "p.txt", 3000)
    table = tmp_path / "x.jsonl"
    script = (
        "import signal, sys\n"
        "import cp_sudoku.run.resume as resume\n"
        "def swallowing(backends, format):\n"
        "    try:\n"
        "        signal.raise_signal(signal.SIGINT)  # the handler raises KeyboardInterrupt\n"
        "    except KeyboardInterrupt:\n"
        "        pass  # as 'except ImportError' around an import the signal hit\n"
        "resume.ready = swallowing\n"
        "from cp_sudoku.cli.start import main\n"
        "sys.argv[0] = 'cp-sudoku'\n"
        "main()\n"
    )
    args = [str(source), "--backend", "sat", "--jobs", "1", "--slice-lines", "3000"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    found = subprocess.run(
        [sys.executable, "-c", script, "check", *args, "--output", str(table)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert found.returncode == 130, found.stderr
    assert found.stdout == ""  # stopped while its one slice ran, not at its first line
    assert found.stderr.startswith("cp-sudoku: interrupted after 0 of 3,000 puzzles")
