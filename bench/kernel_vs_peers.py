"""The ``kernel`` back end against hodoku-py (and tdoku, when built) in one process, CPU time.

Usage::

    pip install -e ".[bench]"            # hodoku-py: the bench-only extra
    python bench/kernel_vs_peers.py royle-17clue magictour-top1465 forum-hardest-1106 \\
        [--count N] [--rounds 3] [--tdoku /tmp/tdoku/libtdoku.so] [--json-out FILE]

Every puzzle is decided with solution limit 2 (so every figure includes the
proof of uniqueness):

- ``kernel``: ``get_backend("kernel").solve(puzzle)``, the call ``cp-sudoku
  bench`` times (puzzles parsed before the clock starts);
- ``hodoku-py``: ``SudokuGenerator().solve_string(text)``, HoDoKu's
  uniqueness check (its C backtracker ``_gen_accel`` when built), counting
  to 2;
- ``tdoku`` (optional): ``TdokuSolverDpllTriadSimd(text, 2, ...)`` through
  ctypes from a shared library you build yourself from
  github.com/t-dillon/tdoku (nothing of it is in this repository)::

      g++ -O3 -march=native -std=c++17 -shared -fPIC -Iinclude \\
          -o libtdoku.so src/solver_dpll_triad_simd.cc src/util.cc

Each solver runs the whole set once per round, solvers alternating within a
round, and the figure is the total over the rounds of process CPU time
(``time.process_time``), so a busy machine slows all of them alike.  The
verdicts are compared: any disagreement is printed and counted.  Nothing is
installed or downloaded at run time.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import time
from collections import Counter
from collections.abc import Callable

from cp_sudoku.backends import get_backend
from cp_sudoku.datasets import dataset_path
from cp_sudoku.io import parse_line

Decide = Callable[[int], int]  # puzzle number -> solutions found (0, 1 or 2)


def puzzle_lines(name: str, count: int | None) -> list[str]:
    """The puzzles of a data set as 81-character lines ('.' for a blank)."""
    with open(dataset_path(name)) as handle:
        found = [line.strip()[:81] for line in handle if line.strip() and line[0] != "#"]
    return [text.replace("0", ".") for text in found[:count]]


def kernel_solver(texts: list[str]) -> Decide:
    backend = get_backend("kernel")
    puzzles = [parse_line(text) for text in texts]
    return lambda k: backend.solve(puzzles[k]).count


def hodoku_solver(texts: list[str]) -> Decide:
    from hodoku.generator.generator import SudokuGenerator

    generator = SudokuGenerator()

    def decide(k: int) -> int:
        generator.solve_string(texts[k])
        return generator.get_solution_count()

    return decide


def tdoku_solver(texts: list[str], library: str) -> Decide:
    tdoku = ctypes.CDLL(library)
    solve = tdoku.TdokuSolverDpllTriadSimd
    solve.restype = ctypes.c_size_t
    solve.argtypes = [
        ctypes.c_char_p,
        ctypes.c_size_t,
        ctypes.c_uint32,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_size_t),
    ]
    encoded = [text.encode() for text in texts]
    solution = ctypes.create_string_buffer(82)
    guesses = ctypes.c_size_t(0)
    return lambda k: solve(encoded[k], 2, 0, solution, ctypes.byref(guesses))


def measure(name: str, args: argparse.Namespace) -> dict[str, object]:
    texts = puzzle_lines(name, args.count)
    solvers = {"kernel": kernel_solver(texts), "hodoku-py": hodoku_solver(texts)}
    if args.tdoku:
        solvers["tdoku"] = tdoku_solver(texts, args.tdoku)
    cpu = dict.fromkeys(solvers, 0.0)
    counts: dict[str, list[int]] = {}
    for _ in range(args.rounds):
        for solver, decide in solvers.items():
            start = time.process_time()
            found = [decide(k) for k in range(len(texts))]
            cpu[solver] += time.process_time() - start
            counts[solver] = [min(n, 2) for n in found]
    disagreements = [
        k for k in range(len(texts)) if len({found[k] for found in counts.values()}) > 1
    ]
    for k in disagreements[:10]:
        print(f"  disagreement on {name} #{k + 1}: { ({s: c[k] for s, c in counts.items()}) }")
    solves = len(texts) * args.rounds
    record: dict[str, object] = {
        "dataset": name,
        "puzzles": len(texts),
        "rounds": args.rounds,
        "disagreements": len(disagreements),
        "verdicts": dict(Counter(counts["kernel"])),
        "cpu_per_second": {s: round(solves / cpu[s]) for s in solvers},
        "cpu_us_per_puzzle": {s: round(cpu[s] / solves * 1e6, 1) for s in solvers},
    }
    rates = record["cpu_per_second"]
    assert isinstance(rates, dict)
    line = ", ".join(f"{s} {rate:,}/s" for s, rate in rates.items())
    print(f"{name} ({len(texts)} puzzles x {args.rounds}): {line}")
    if "tdoku" in rates:
        record["tdoku_over_kernel"] = round(rates["tdoku"] / rates["kernel"], 1)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("datasets", nargs="+")
    parser.add_argument("--count", type=int, default=None, help="first N puzzles of each set")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tdoku", help="path of a libtdoku.so built from tdoku's source")
    parser.add_argument("--json-out", help="write the figures here as JSON")
    args = parser.parse_args()
    records = [measure(name, args) for name in args.datasets]
    if args.json_out:
        machine = {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        }
        with open(args.json_out, "w") as out:
            json.dump({"machine": machine, "records": records}, out, indent=1)


if __name__ == "__main__":
    main()
