"""Load on ``cp-sudoku serve`` over loopback, against the CLI on the same puzzles, same run.

Two modes (both bounded in count and time; the server binds 127.0.0.1 only):

``check`` (default)
    The CLI baseline first: ``cp-sudoku check FILE --backend sat --jobs W
    --json`` on the first ``--requests`` royle-17clue puzzles (its own
    summary's rate, and the wall time of the whole command).  Then a server
    with ``--workers W``; ``--warmup`` requests; the server's RSS; then
    ``--clients`` concurrent clients send ``--requests`` ``POST /v1/check``
    requests (``backends: ["sat"]``), one puzzle each, over keep-alive
    connections; throughput, p50/p95/p99 latency, errors, and the RSS after.
``job``
    ``cp-sudoku check FILE --backend sat --jobs W --json`` on the whole file,
    then one ``POST /v1/jobs`` of the same file on a server with ``--workers
    W``; both rates, and whether every result line is the CLI's (all fields,
    in order, except the source name and the seconds).

The clients are plain asyncio streams writing HTTP/1.1 by hand, so that the
load generator costs little of the CPU it shares with the server.

    python bench/load_service.py --requests 2000 --clients 16 --workers 2
    python bench/load_service.py job --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import quantiles
from typing import Any

import httpx

PROJECT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", choices=["check", "job"], default="check")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=600, help="Stop past this.")
    parser.add_argument("--data", type=Path, help="Puzzle file (default: royle-17clue).")
    args = parser.parse_args()
    if args.data is None:
        sys.path.insert(0, str(PROJECT))
        from cp_sudoku.datasets import data_dir  # CP_SUDOKU_DATA, or ../shared/data

        args.data = data_dir() / "sudoku" / "royle-17clue.txt"
    python = platform.python_version()
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {python}")
    print(f"load average before: {os.getloadavg()}")
    if args.mode == "check":
        bench_check(args)
    else:
        bench_job(args)
    print(f"load average after: {os.getloadavg()}")


# --- The CLI baseline ------------------------------------------------------------------------


def run_cli(path: Path, workers: int, *extra: str) -> tuple[list[str], float, float]:
    """(JSON lines, the CLI's own rate in puzzles/s, wall seconds of the command).

    Also prints the CPU seconds of the command and its workers, per puzzle.
    """
    command = [sys.executable, "-m", "cp_sudoku.cli", "check", str(path), "--backend", "sat"]
    command += ["--jobs", str(workers), "--json", *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=_env(), check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"\(([\d,.]+) puzzles/s\)", done.stderr)
    rate = float(found[1].replace(",", "")) if found else float("nan")
    lines = done.stdout.splitlines()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(
        f"  CLI CPU (command and workers, start-up included): "
        f"{cpu / max(len(lines), 1) * 1000:.2f} ms per puzzle"
    )
    return lines, rate, wall


# --- The server ------------------------------------------------------------------------------


class Server:
    """``cp-sudoku serve`` on a free loopback port, in its own session."""

    def __init__(self, workers: int, db: Path) -> None:
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            self.port = probe.getsockname()[1]
        command = [sys.executable, "-m", "cp_sudoku.service.command", "--host", HOST]
        command += ["--port", str(self.port), "--workers", str(workers), "--db", str(db)]
        command += ["--max-upload", "64", "--queue", "256"]
        self.process = subprocess.Popen(command, env=_env(), start_new_session=True)
        self.url = f"http://{HOST}:{self.port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def rss_mib(self) -> tuple[float, float]:
        """(the server process's RSS, the server's and its workers' together), MiB."""
        main = _rss(self.process.pid)
        workers = sum(_rss(pid) for pid in _children(self.process.pid))
        return main, main + workers

    def cpu_seconds(self) -> tuple[float, float]:
        """(CPU seconds used by the server process, by its workers together)."""
        return _cpu(self.process.pid), sum(_cpu(pid) for pid in _children(self.process.pid))

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(30)


def _rss(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(found[1]) / 1024 if found else 0.0


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _env() -> dict[str, str]:
    return os.environ | {"PYTHONPATH": str(PROJECT)}


# --- Mode check ------------------------------------------------------------------------------


async def _client(
    port: int, bodies: list[bytes], latencies: list[float], errors: list[str], deadline: float
) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        for body in bodies:
            if time.monotonic() > deadline:
                errors.append("stopped by --max-seconds")
                return
            head = (
                f"POST /v1/check HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            start = time.perf_counter()
            writer.write(head + body)
            await writer.drain()
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            answer = await reader.readexactly(length)
            latencies.append(time.perf_counter() - start)
            if b" 200 " not in status_line or b'"status": "unique"' not in answer.replace(
                b'"status":"unique"', b'"status": "unique"'
            ):
                errors.append(status_line.decode().strip())
    finally:
        writer.close()


async def _load(
    port: int, puzzles: list[str], clients: int, max_seconds: float
) -> tuple[list[float], list[str], float]:
    bodies = [json.dumps({"puzzle": p, "backends": ["sat"]}).encode() for p in puzzles]
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + max_seconds
    start = time.perf_counter()
    await asyncio.gather(
        *(_client(port, bodies[k::clients], latencies, errors, deadline) for k in range(clients))
    )
    return latencies, errors, time.perf_counter() - start


def bench_check(args: argparse.Namespace) -> None:
    with open(args.data) as handle:
        puzzles = [next(handle).strip() for _ in range(args.requests + args.warmup)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("\n".join(puzzles[: args.requests]) + "\n")
        for extra in ((), ("--time-limit", "10")):
            _, rate, wall = run_cli(path, args.workers, *extra)
            label = " ".join(["cp-sudoku check --backend sat --jobs", str(args.workers), *extra])
            print(f"CLI baseline: {label}: {rate:,.1f} puzzles/s (command wall {wall:.2f} s)")
        server = Server(args.workers, Path(folder) / "jobs.sqlite3")
        try:
            warm, warm_errors, _ = asyncio.run(
                _load(server.port, puzzles[args.requests :], args.clients, args.max_seconds)
            )
            before, cpu_before = server.rss_mib(), server.cpu_seconds()
            latencies, errors, wall = asyncio.run(
                _load(server.port, puzzles[: args.requests], args.clients, args.max_seconds)
            )
            after, cpu_after = server.rss_mib(), server.cpu_seconds()
        finally:
            server.stop()
    cuts = quantiles(latencies, n=100)
    print(f"warm-up: {len(warm)} requests, {len(warm_errors)} errors")
    print(
        f"service: {len(latencies)} POST /v1/check from {args.clients} clients, "
        f"--workers {args.workers}: {len(latencies) / wall:,.1f} requests/s, "
        f"p50 {cuts[49] * 1000:.2f} ms, p95 {cuts[94] * 1000:.2f} ms, "
        f"p99 {cuts[98] * 1000:.2f} ms, errors {len(errors)}"
    )
    print(f"errors: {errors[:5]}")
    served_cpu, workers_cpu = (b - a for a, b in zip(cpu_before, cpu_after, strict=True))
    print(
        f"CPU per request: server process {served_cpu / len(latencies) * 1000:.2f} ms, "
        f"workers {workers_cpu / len(latencies) * 1000:.2f} ms"
    )
    print(
        f"RSS after warm-up: server {before[0]:.1f} MiB (with workers {before[1]:.1f} MiB); "
        f"after the load: server {after[0]:.1f} MiB (with workers {after[1]:.1f} MiB); "
        f"change {100 * (after[0] / before[0] - 1):+.1f}% "
        f"(with workers {100 * (after[1] / before[1] - 1):+.1f}%)"
    )


# --- Mode job --------------------------------------------------------------------------------


#: The fields of a record that do not depend on timing or on which worker ran the puzzle.
VERDICT_FIELDS = (
    "line",
    "status",
    "solution",
    "agree",
    "disagreements",
    "matches_stated",
    "mismatch",
    "reason",
    "error",
)


def _keys(record: dict[str, Any]) -> list[Any]:
    return [*record, *(list(result) for result in record["backends"].values())]


def _verdict_fields(record: dict[str, Any]) -> list[Any]:
    backends = [(name, r["status"], r["solutions"]) for name, r in record["backends"].items()]
    return [record.get(key) for key in VERDICT_FIELDS] + backends


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A record less its source and seconds: what two runs could share exactly.  The
    sat back end's effort statistics differ between two runs of the CLI with two workers
    too (each worker's solver learns from the puzzles it saw before)."""
    out = {key: value for key, value in record.items() if key != "source"}
    out["backends"] = {
        name: {key: value for key, value in result.items() if key != "seconds"}
        for name, result in record["backends"].items()
    }
    return out


def bench_job(args: argparse.Namespace) -> None:
    lines, rate, wall = run_cli(args.data, args.workers, "--time-limit", "10")
    print(
        f"CLI: check --backend sat --jobs {args.workers} --time-limit 10: {len(lines):,} lines, "
        f"{rate:,.1f} puzzles/s (command wall {wall:.1f} s)"
    )
    _, plain_rate, plain_wall = run_cli(args.data, args.workers)
    print(
        f"CLI: check --backend sat --jobs {args.workers}: {plain_rate:,.1f} puzzles/s "
        f"(command wall {plain_wall:.1f} s)"
    )
    with tempfile.TemporaryDirectory() as folder:
        server = Server(args.workers, Path(folder) / "jobs.sqlite3")
        try:
            with httpx.Client(base_url=server.url, timeout=120) as client:
                cpu_before = server.cpu_seconds()
                start = time.perf_counter()
                job = client.post(
                    "/v1/jobs", content=args.data.read_bytes(), params={"backends": "sat"}
                ).json()
                deadline = time.monotonic() + args.max_seconds
                while time.monotonic() < deadline:
                    state = client.get(f"/v1/jobs/{job['id']}").json()
                    if state["state"] not in ("queued", "running"):
                        break
                    time.sleep(0.5)
                wall_job = time.perf_counter() - start
                cpu_after = server.cpu_seconds()
                served = client.get(f"/v1/jobs/{job['id']}/results").text.splitlines()
        finally:
            server.stop()
    served_records = [json.loads(line) for line in served]
    cli_records = [json.loads(line) for line in lines]
    same_count = len(served_records) == len(cli_records)
    same_fields = same_count and all(
        _keys(a) == _keys(b) for a, b in zip(served_records, cli_records, strict=True)
    )
    same_verdicts = same_count and all(
        _verdict_fields(a) == _verdict_fields(b)
        for a, b in zip(served_records, cli_records, strict=True)
    )
    effort_differs = sum(
        _comparable(a) != _comparable(b) for a, b in zip(served_records, cli_records, strict=False)
    )
    print(
        f"service job, --workers {args.workers}: state {state['state']}, {state['done']:,} done, "
        f"rate {state['rate']:,.1f} puzzles/s (running time), "
        f"{len(served) / wall_job:,.1f} puzzles/s (POST to done, wall {wall_job:.1f} s)"
    )
    served_cpu, workers_cpu = (b - a for a, b in zip(cpu_before, cpu_after, strict=True))
    print(
        f"service CPU: server process {served_cpu / len(served) * 1000:.2f} ms, "
        f"workers {workers_cpu / len(served) * 1000:.2f} ms per puzzle (start-up excluded)"
    )
    print(
        f"lines: service {len(served_records):,}, CLI {len(cli_records):,}; the same fields in "
        f"the same order (backends' too): {same_fields}; the same verdict fields "
        f"({', '.join(VERDICT_FIELDS)}): {same_verdicts}; lines whose search-effort "
        f"statistics differ: {effort_differs:,}"
    )


if __name__ == "__main__":
    main()
