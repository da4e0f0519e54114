"""Side by side, in one run: ``bench``'s rate for a back end and ``check``'s on the same file.

Runs ``cp-sudoku bench FILE --backend B --no-baselines``, ``cp-sudoku check FILE
--backend B --jobs 1 > /dev/null`` (with ``--json`` when asked) and the same ``check`` on the
file's first
puzzle alone (its start-up: imports, building the back end) alternately, ``--rounds``
times, and prints each command's rate in puzzles per CPU second (its process's user +
system time; ``bench`` counts only its solver calls) and per wall-clock second, and
check's rate as a share of bench's, with and without check's start-up.  ``check`` reads
every puzzle and ``bench`` reads them before its clock starts, so the last share is also
given against bench's rate of reading and solving (its ``read_cpu_seconds`` added).

Usage::

    python bench/overhead.py FILE --backend sat --rounds 2
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import click


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _check(path: str, backend: str, puzzles: int, as_json: bool) -> tuple[float, float]:
    cpu, start = _children_cpu(), time.perf_counter()
    with open(os.devnull, "w") as sink:
        subprocess.run(
            [sys.executable, "-m", "cp_sudoku.cli", "check", path, "--backend", backend,
             "--jobs", "1", *(["--json"] * as_json)],
            stdout=sink, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
    return puzzles / (_children_cpu() - cpu), puzzles / (time.perf_counter() - start)


def _bench(path: str, backend: str) -> tuple[float, float]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [sys.executable, "-m", "cp_sudoku.cli", "bench", path, "--backend", backend,
             "--no-baselines", "--json-out", out.name],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )  # fmt: skip
        with open(out.name) as handle:
            record = json.load(handle)["records"][0]
    reading = record["puzzles"] / (record["cpu_seconds"] + record["read_cpu_seconds"])
    return record["cpu_per_second"], record["per_second"], reading


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--backend", default="sat", show_default=True)
@click.option("--rounds", default=2, show_default=True, type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Time `check --json` (default: text lines).")
def main(path: str, backend: str, rounds: int, as_json: bool) -> None:
    """Rates of bench and check --jobs 1 for BACKEND on the puzzles of PATH."""
    with open(path) as handle:
        puzzles = sum(1 for line in handle if line.strip() and not line.startswith("#"))
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as first:
        with open(path) as handle:
            first.write(next(line for line in handle if line.strip() and line[0] != "#"))
        first.flush()
        for round_ in range(1, rounds + 1):
            bench_cpu, bench_wall, bench_read = _bench(path, backend)
            check_cpu, check_wall = _check(path, backend, puzzles, as_json)
            start_up = 1 / _check(first.name, backend, 1, as_json)[0]
            solving = puzzles / (puzzles / check_cpu - start_up)
            click.echo(
                f"round {round_}: {backend} on {puzzles:,} puzzles: bench {bench_cpu:,.0f}/CPU s "
                f"({bench_wall:,.0f}/s wall), check --jobs 1 {check_cpu:,.0f}/CPU s "
                f"({check_wall:,.0f}/s wall): {check_cpu / bench_cpu:.0%} of bench (CPU), "
                f"{check_wall / bench_wall:.0%} (wall); less check's start-up of "
                f"{start_up:.2f} CPU s: {solving:,.0f}/CPU s, {solving / bench_cpu:.0%} of bench, "
                f"{solving / bench_read:.0%} of bench's reading and solving "
                f"({bench_read:,.0f}/CPU s)"
            )


if __name__ == "__main__":
    main()
