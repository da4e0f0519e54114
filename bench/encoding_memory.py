"""Peak memory of each back end on empty n x n Latin squares, against the encoding's size.

For each back end and each n, a fresh Python process builds the Futoshiki of size n with
no givens and no signs (rows and columns all-different: n * n cells of n values), solves it
once (limit 2) under ``--time-limit``, and reports its status, its CPU seconds, the size
measures of :mod:`cp_sudoku.encodings.size` and its peak RSS and address space
(``VmHWM``, ``VmPeak`` of ``/proc/self/status``), in MiB.  The process's import of every
back end's library (about 140 MiB resident, 430 MiB of address space) is the base.

Usage::

    python bench/encoding_memory.py --backend sat --backend cpsat --size 25 --size 36
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = """
import json, re, resource, sys, time
from cp_sudoku.backends import get_backend
from cp_sudoku.encodings.size import measures
from cp_sudoku.kinds.futoshiki import futoshiki
import cp_sudoku.backends.cpsat, cp_sudoku.backends.sat, cp_sudoku.backends.mip
name, n, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
puzzle = futoshiki(n, ())
backend = get_backend(name)
start = time.process_time()
result = backend.solve(puzzle, 2, seconds)
cpu = time.process_time() - start
status = open("/proc/self/status").read()
kib = dict(re.findall(r"(VmHWM|VmPeak):\\s+(\\d+)", status))
print(json.dumps({
    "backend": name, "n": n, "status": result.status, "stopped": result.stopped,
    "reason": result.reason, "cpu": round(cpu, 2), **measures(puzzle),
    "rss_mib": round(int(kib["VmHWM"]) / 1024, 1), "vm_mib": round(int(kib["VmPeak"]) / 1024, 1),
}))
"""


def main(argv: list[str]) -> int:
    """Print one JSON line per back end and size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", action="append", required=True)
    parser.add_argument("--size", action="append", type=int, required=True)
    parser.add_argument("--time-limit", type=float, default=20.0)
    args = parser.parse_args(argv)
    for name in args.backend:
        for n in args.size:
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, name, str(n), str(args.time_limit)],
                capture_output=True,
                text=True,
            )
            line = done.stdout.strip().splitlines()[-1:] or [
                json.dumps({"backend": name, "n": n, "error": done.stderr.strip()[-300:]})
            ]
            print(line[0], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
