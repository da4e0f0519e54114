"""``check``'s rate against ``bench``'s for one back end, in one process, in alternated
blocks of the same file, in CPU time: a comparison that a moving load does not skew.

Per block of ``--block`` puzzles, one after the other: ``bench``'s own measurement
(:func:`cp_sudoku.bench.load_dataset`, then :func:`cp_sudoku.bench.measure`: its CPU time
over the solve calls, and over reading the block), then the command ``check BLOCK --jobs 1
--backend B`` itself (``--json`` when asked), through its click entry point with stdout and
stderr to ``/dev/null`` (the process's CPU time over the call: every thread, start-up
excluded since the modules and the back end are already there).  Both take the back end
from the process's one cache; its solve calls are also timed on the calling thread's
clock, in both.  The blocks are visited ``--rounds`` times.

Prints the figures per puzzle and, over the blocks, the median of check's rate as a share
of bench's ``cpu_per_second`` (the solve calls alone) and of bench's rate of reading and
solving (``read_cpu_seconds`` added); with several rounds, also the share of the least CPU
time per block, each side's least over the rounds, summed over the blocks (a disturbance of
the machine only adds time, so the least is the figure least moved by it).  Last, the share
with check's own solve calls replaced by bench's (``bench / (bench + rest)``, the rest being
check's CPU time besides its solve calls on their thread's clock): both sides make the same
solve calls on the same block, so this share is moved only by what check does besides them,
not by the speed the machine happened to give the same solves a moment apart (which moves
the first figure by several points either way between two runs of one tree).

Usage::

    python bench/check_path.py ../shared/data/sudoku/royle-17clue.txt --backend sat \\
        --block 500 --blocks 20 --rounds 2
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout, suppress
from itertools import islice
from typing import Any

import click

from cp_sudoku.backends.built import built
from cp_sudoku.bench import load_dataset, measure
from cp_sudoku.cli import main as cli


@contextmanager
def _thread_timed(backend: Any) -> Iterator[list[float]]:
    """``backend.solve`` adding its calling thread's CPU seconds to the yielded ``[0.0]``."""
    spent = [0.0]
    solve: Callable[..., Any] = backend.solve

    def timed(*args: Any, **options: Any) -> Any:
        start = time.thread_time()
        try:
            return solve(*args, **options)
        finally:
            spent[0] += time.thread_time() - start

    backend.solve = timed
    try:
        yield spent
    finally:
        del backend.solve  # the class's method again


def _check(path: str, backend: str, as_json: bool) -> float:
    """The process CPU seconds of ``cp-sudoku check PATH --jobs 1 --backend B [--json]``."""
    with open(os.devnull, "w") as sink, redirect_stdout(sink), redirect_stderr(sink):
        start = time.process_time()
        with suppress(SystemExit):  # the command's exit code
            cli(["check", path, "--jobs", "1", "--backend", backend, *(["--json"] * as_json)])
        return time.process_time() - start


def _quartiles(shares: list[float]) -> str:
    low, middle, high = statistics.quantiles(shares) if len(shares) > 1 else shares * 3
    return f"median {middle:.1%} (quartiles {low:.1%}-{high:.1%})"


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--backend", default="sat", show_default=True)
@click.option("--block", default=500, show_default=True, type=click.IntRange(min=1))
@click.option("--blocks", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Time `check --json` (default: text lines).")
def main(path: str, backend: str, block: int, blocks: int, rounds: int, as_json: bool) -> None:
    """Print bench's and check's CPU per puzzle and check's share of bench's rate."""
    with open(path) as handle:
        lines = list(islice((line for line in handle if line.strip()), block * blocks))
    solver = built(backend)  # the one both take, from the process's cache
    totals = dict.fromkeys(("solve", "read", "check", "bench thread", "check thread"), 0.0)
    alone: list[float] = []
    with_reading: list[float] = []
    at_bench_speed: list[float] = []
    best: dict[str, tuple[float, float]] = {}  # block -> least CPU of bench, of check
    with tempfile.TemporaryDirectory() as folder:
        parts = []
        for number in range(0, len(lines), block):
            parts.append(os.path.join(folder, f"block{number // block}.txt"))
            with open(parts[-1], "w") as handle:
                handle.writelines(lines[number : number + block])
        _check(parts[0], backend, as_json)  # imports, the back end built
        for _ in range(rounds):
            for part in parts:
                dataset = load_dataset(part)
                with _thread_timed(solver) as in_bench:
                    record = measure(dataset, backend)
                with _thread_timed(solver) as in_check:
                    checking = _check(part, backend, as_json)
                least = best.get(part, (record.cpu_seconds, checking))
                best[part] = (min(least[0], record.cpu_seconds), min(least[1], checking))
                alone.append(record.cpu_seconds / checking)
                rest = checking - in_check[0]  # check's CPU besides its own solve calls
                at_bench_speed.append(record.cpu_seconds / (record.cpu_seconds + rest))
                with_reading.append((record.cpu_seconds + record.read_cpu_seconds) / checking)
                for key, value in (
                    ("solve", record.cpu_seconds),
                    ("read", record.read_cpu_seconds),
                    ("check", checking),
                    ("bench thread", in_bench[0]),
                    ("check thread", in_check[0]),
                ):
                    totals[key] += value
    count = rounds * len(lines)
    us = {key: value / count * 1e6 for key, value in totals.items()}
    click.echo(
        f"{count:,} puzzles ({len(parts)} blocks of {block}, {rounds} round(s)); a puzzle: "
        f"bench's solve calls {us['solve']:.0f} us of process CPU ({us['bench thread']:.0f} "
        f"on their thread's clock), bench's reading {us['read']:.0f} us; check "
        f"{us['check']:.0f} us, of which the solve calls {us['check thread']:.0f} "
        f"(thread clock) and the rest {us['check'] - us['check thread']:.0f}"
    )
    click.echo(f"check's rate / bench's cpu_per_second: {_quartiles(alone)}")
    if rounds > 1:  # a disturbance only adds CPU time: the least of each block is the cleanest
        fastest = sum(bench for bench, _ in best.values()) / sum(
            check for _, check in best.values()
        )
        click.echo(f"  of the least CPU per block over the rounds, summed: {fastest:.1%}")
    click.echo(f"check's rate / bench's rate of reading and solving: {_quartiles(with_reading)}")
    click.echo(
        "check's rate / bench's cpu_per_second, check's solve calls taken at bench's time: "
        f"{_quartiles(at_bench_speed)}"
    )


if __name__ == "__main__":
    main()
