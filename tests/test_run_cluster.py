"""Dask: a local cluster gives what --jobs gives, a killed worker's slice is re-run, and a
scheduler and workers started as separate processes serve a check."""

from __future__ import annotations

import gc
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from run_helpers import ROOT, check_with_progress, cli, rows, run_cli, write_puzzles, write_slow

from cp_sudoku.model import UsageError
from cp_sudoku.run import Plan, check, ordered
from cp_sudoku.run.batch import check_to_file
from cp_sudoku.run.chunks import Chunk, run_chunk
from cp_sudoku.run.cluster import executor, parse_cluster
from cp_sudoku.run.slices import Part, cut

# found, not imported: importing distributed costs about a second at collection, on each
# xdist worker, and only the processes the tests start need it
pytestmark = pytest.mark.skipif(
    any(find_spec(name) is None for name in ("distributed", "pyarrow")),
    reason='the cluster extra is not installed: pip install -e ".[cluster]"',
)


def test_cluster_values() -> None:
    assert parse_cluster("local:3").workers == 3
    assert parse_cluster("tcp://10.0.0.1:8786").address == "tcp://10.0.0.1:8786"
    for bad in ("local:0", "local:x", "somewhere"):
        with pytest.raises(UsageError, match="--cluster"):
            parse_cluster(bad)


def test_quiet_raises_the_dask_loggers_and_restores_them() -> None:
    import logging

    from cp_sudoku.run.cluster import _quiet

    worker = logging.getLogger("distributed.worker")
    worker.setLevel(logging.INFO)
    with _quiet():
        assert not worker.isEnabledFor(logging.ERROR)
        assert not logging.getLogger("distributed.scheduler").isEnabledFor(logging.ERROR)
    assert worker.level == logging.INFO
    worker.setLevel(logging.NOTSET)


def test_quiet_keeps_dask_and_tornado_silent_through_an_interrupt() -> None:
    """Attack on issue 20: SIGINT to ``check p30k.txt --cluster local:2`` once its workers
    were solving (4.5 to 7 s after the start) printed, in 3 runs of 20, tornado's
    ``ERROR - Exception in callback ... AssertionError: Status.starting`` traceback (Dask's
    state correction meeting the killed workers), and once a nanny's ``WARNING -
    Restarting worker`` after the interrupt line (the levels were restored on the way out)."""
    import logging

    from cp_sudoku.run.cluster import _quiet

    loggers = [logging.getLogger(n) for n in ("distributed.nanny", "tornado.application")]
    levels = [logger.level for logger in loggers]
    try:
        with pytest.raises(KeyboardInterrupt), _quiet():
            assert not any(logger.isEnabledFor(logging.ERROR) for logger in loggers)
            raise KeyboardInterrupt
        assert not any(logger.isEnabledFor(logging.WARNING) for logger in loggers)
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def test_the_launch_gate_waits_for_a_launch_kills_it_and_refuses_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Ctrl-C that closes the gate while a nanny's worker is half started (created, its
    state not yet written) waits for that launch, kills the process, and fails any later
    launch: no child is left to find its parent gone and print a traceback."""
    from distributed.utils import get_mp_context

    from cp_sudoku.run.launches import Launches

    spawn = get_mp_context().Process
    unpatched = spawn.__dict__["_Popen"]
    original = spawn._Popen
    entered = threading.Event()

    def slow(process: object) -> object:  # a launch that takes a while, as under load
        entered.set()
        time.sleep(0.5)
        return original(process)

    monkeypatch.setattr(spawn, "_Popen", staticmethod(slow))
    launches = Launches()
    launches.install()
    try:
        child = spawn(target=time.sleep, args=(60,))
        starting = threading.Thread(target=child.start)
        starting.start()
        assert entered.wait(10)
        launches.close()  # returns once the launch is done, and kills its process
        starting.join(10)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        with pytest.raises(RuntimeError, match="interrupted"):
            spawn(target=time.sleep, args=(60,)).start()
    finally:
        launches.uninstall()
    assert spawn.__dict__["_Popen"].__func__ is slow  # given back as it was
    monkeypatch.undo()
    assert spawn.__dict__["_Popen"] is unpatched


@pytest.mark.slow  # two runs of 120 puzzles and a cluster (11 s of CPU); .ci/run runs it
def test_jobs_and_a_local_cluster_write_the_same_rows(tmp_path: Path) -> None:
    source = write_puzzles(tmp_path / "p.txt", 120, bad=(5,))
    common = ["check", str(source), "--slice-lines", "20", "--backend", "sat", "--backend", "cpsat"]
    outputs = {}
    for name, how in (("jobs", ["--jobs", "2"]), ("cluster", ["--cluster", "local:2"])):
        outputs[name] = tmp_path / f"{name}.jsonl"
        code, err = run_cli(*common, *how, "--output", str(outputs[name]))
        assert code == 2, err  # the invalid line
    assert rows(outputs["jobs"]) == rows(outputs["cluster"])
    assert len(rows(outputs["jobs"])) == 120


def _untimed(stdout: str) -> list[str]:
    """The lines of ``check``, each back end's time left out, and the two values of a cell
    where two solutions differ in one order (which solution a back end finds first
    depends on what its solver served before)."""

    def pair(found: re.Match[str]) -> str:
        return "=" + "|".join(sorted(found[1].split("|")))

    lines = [re.sub(r"  [\w-]+ [\d.,]+ m?s", "", line) for line in stdout.splitlines()]
    return [re.sub(r"=(\w+\|\w+)", pair, line) for line in lines]


@pytest.mark.slow  # a cluster's start (3 s): .ci/run runs it
def test_a_cluster_without_output_prints_the_lines_of_jobs(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cp_sudoku.cli import main

    source = write_puzzles(tmp_path / "p.txt", 60, bad=(5,))
    common = ["check", str(source), "--backend", "sat", "--backend", "backtrack"]
    # the lines of --jobs, in-process with one job: --jobs 2 prints the same lines as
    # --jobs 1 (tests/test_cli.py), and a pool of two costs seconds of CPU to start
    reference = CliRunner().invoke(main, [*common, "--jobs", "1"])
    assert reference.exit_code == 2, reference.output  # the invalid line
    process = cli(*common, "--cluster", "local:2")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 2, err
    # our one line for the invalid puzzle and the summary; no Dask log or traceback
    assert "distributed." not in err and "Traceback" not in err, err
    assert _untimed(out) == _untimed(reference.stdout)
    assert len(_untimed(out)) == 60 and _untimed(out)[4].endswith("invalid")


@pytest.mark.slow  # 240 puzzles on backtrack-plain and a cluster; .ci/run runs it
def test_a_killed_worker_has_its_slice_run_again(tmp_path: Path, data: Path) -> None:
    source = write_puzzles(tmp_path / "p.txt", 240)
    plan = Plan(("backtrack-plain",))  # slow enough that a slice is still running when killed
    expected = tmp_path / "inline.jsonl"
    check_to_file(str(source), str(expected), plan, slice_lines=30)
    file = cut(source, 30)
    killed: list[int] = []
    running: list[str] = []  # the tasks on the worker when it was killed
    with executor(1, "local:2") as chosen:
        client = chosen.client  # type: ignore[attr-defined]
        pids = client.run(os.getpid)
        assert not _dask_gc_callbacks()  # a Ctrl-C raised inside one would be swallowed

        def kill_one_busy_worker() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                processing = client.processing()
                busy = [w for w, tasks in processing.items() if tasks]
                if busy:
                    tasks = processing[busy[0]]  # as seen, before it may finish them
                    time.sleep(0.05)  # inside the slice
                    running.extend(tasks)
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.02)

        killer = threading.Thread(target=kill_one_busy_worker)
        killer.start()
        chunks = [Chunk(s.index, check, plan, part=Part(file.source, s)) for s in file.slices]
        done = list(ordered(chunks, chosen, run_chunk, window=len(chunks)))
        killer.join()
    assert killed and running, "no worker was busy"
    assert [chunk.index for chunk, _ in done] == list(range(len(file.slices)))
    assert {int(key.split("-")[2]) for key in running} <= {chunk.index for chunk, _ in done}
    statuses = [outcome.value.verdict.status for _, found in done for outcome in found]
    assert statuses == [row["status"] for row in rows(expected)]


def test_the_schedulers_gc_timing_is_switched_off() -> None:
    from distributed.gc import enable_gc_diagnosis

    from cp_sudoku.run.cluster import _no_gc_diagnosis

    enable_gc_diagnosis()  # as a LocalCluster's scheduler does in this process
    assert _dask_gc_callbacks()
    _no_gc_diagnosis()
    assert not _dask_gc_callbacks()


def _dask_gc_callbacks() -> list[object]:
    """The garbage-collection callbacks of Dask's GC timing in this process."""
    return [c for c in gc.callbacks if getattr(c, "__module__", "").startswith("distributed")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_a_separate_scheduler_and_two_workers_serve_a_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if dask is None:
        pytest.skip("the dask command is not installed")
    source = write_puzzles(tmp_path / "p.csv", 150, csv=True)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    started = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            **quiet,
        )
    ]
    try:
        for _ in range(2):
            started.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                     "--no-dashboard", "--host", "127.0.0.1"],
                    **quiet,
                )
            )  # fmt: skip
        from distributed import Client

        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        serial, cluster = tmp_path / "serial.jsonl", tmp_path / "cluster.jsonl"
        code, err = run_cli(
            "check", str(source), "--jobs", "1", "--slice-lines", "30", "--output", str(serial)
        )  # fmt: skip
        assert code in (0, 1), err
        code, err = run_cli(
            "check", str(source), "--cluster", address, "--slice-lines", "30",
            "--output", str(cluster),
        )  # fmt: skip
        assert code in (0, 1), err
        assert rows(serial) == rows(cluster)
        assert all(row["matches_stated"] for row in rows(cluster))
        # the workers' progress reports reach the run through the scheduler's events
        out = str(tmp_path / "slow.jsonl")
        code, counts, _ = check_with_progress(
            monkeypatch, write_slow(tmp_path / "slow.txt", 16),
            "--cluster", address, "--slice-lines", "8", "--output", out,
        )  # fmt: skip
        assert code == 3 and any(0 < count < 8 for count in counts), counts
    finally:
        for process in reversed(started):
            process.send_signal(signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _group(pgid: int) -> list[int]:
    """The processes of the process group ``pgid`` still alive (not zombies)."""
    found = subprocess.run(["pgrep", "-g", str(pgid)], capture_output=True, text=True).stdout
    alive = []
    for pid in map(int, found.split()):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(pid)
    return alive


@pytest.mark.parametrize(
    "seconds",
    [
        # the sweep costs a cluster start each (seconds of CPU): slow, .ci/run runs it
        *(pytest.param(s, marks=pytest.mark.slow) for s in (0.3, 1.0, 1.5, 2.0, 2.5, 4.0)),
    ],
)
def test_ctrl_c_while_a_local_cluster_starts_prints_one_line(
    tmp_path: Path, seconds: float
) -> None:
    """SIGINT to the process group (as a terminal sends Ctrl-C) at a moment of ``check
    --cluster local:2 --output``'s start: exit 130 with the one interrupt line (no worker's
    KeyboardInterrupt traceback, no resource tracker warning), no process of the run left,
    and what the line says is kept is in the spool."""
    import pyarrow.parquet as pq

    source = write_puzzles(tmp_path / "p.txt", 3000)  # more than 4 s of work
    table = tmp_path / "x.parquet"
    process = cli(
        "check", str(source), "--backend", "sat", "--cluster", "local:2", "--output", str(table),
        start_new_session=True,
    )  # fmt: skip
    time.sleep(seconds)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    said = re.fullmatch(
        r"cp-sudoku: interrupted after [\d,]+( of 3,000)? puzzles?( printed)?"
        r"(; ([\d,]+) kept in \S+: add --resume to go on)?\n",
        err,
    )
    assert said, err
    if said[4] is not None:  # the table had begun: its finished slices are kept
        parts = (tmp_path / "x.parquet.parts").glob("*.parquet")
        assert int(said[4].replace(",", "")) == sum(pq.read_table(p).num_rows for p in parts)
    deadline = time.monotonic() + 5  # the resource tracker ends when its pipe closes
    while _group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _group(process.pid) == []
