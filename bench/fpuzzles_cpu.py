"""Wall and CPU seconds of one solve (limit 2) per f-puzzles puzzle and back end.

Usage: ``python bench/fpuzzles_cpu.py cpsat,sat 20`` (back ends, seconds per solve).  Reads
every ``*.fpuzzles.txt`` of the shared ``fpuzzles`` folder (``CP_SUDOKU_DATA``); prints one
line per solve, then per back end the median and maximum wall and CPU time
(``time.process_time``: the steadier figure on a shared machine).
"""

from __future__ import annotations

import statistics
import sys
import time

from cp_sudoku.backends import get_backend
from cp_sudoku.datasets import data_dir
from cp_sudoku.io import read_file


def main(backends: list[str], time_limit: float) -> None:
    """Solve each puzzle once per back end and print the figures."""
    rows: dict[str, list[tuple[str, str, float, float]]] = {}
    for path in sorted((data_dir() / "fpuzzles").glob("*.fpuzzles.txt")):
        puzzle = next(read_file(path)).puzzle
        assert puzzle is not None
        for name in backends:
            engine = get_backend(name)
            wall, cpu = time.perf_counter(), time.process_time()
            result = engine.solve(puzzle, limit=2, time_limit=time_limit)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rows.setdefault(name, []).append((path.stem, result.status, wall, cpu))
            print(name, path.stem, result.status, f"{wall:.3f}", f"{cpu:.3f}", flush=True)
    for name, found in rows.items():
        walls, cpus = [r[2] for r in found], [r[3] for r in found]
        print(
            f"{name}: wall median {statistics.median(walls) * 1000:.1f} ms, max {max(walls):.2f} s;"
            f" CPU median {statistics.median(cpus) * 1000:.1f} ms, max {max(cpus):.2f} s"
        )


if __name__ == "__main__":
    main(sys.argv[1].split(","), float(sys.argv[2]) if len(sys.argv) > 2 else 20.0)
