"""Count the instructions a back end's solve calls take, with valgrind's callgrind.

Wall-clock rates on a shared machine vary by 20% between identical runs; callgrind counts
instructions, which do not depend on the load.  Two runs per (tree, back end, data set): one
that parses the puzzles and solves them, one that only parses them; the difference is the
solving.  TREE is a checkout of cp_sudoku (any version: only ``parse_line`` and
``get_backend`` are used), so two commits can be compared side by side:

    git worktree add /tmp/before bb6a93e
    python bench/instructions.py /tmp/before . --backend sat --backend backtrack --backend cpsat \\
        --set royle-17clue:300 --set magictour-top1465:200 --set forum-hardest-1106:60

Needs ``valgrind`` (Debian package) and the shared data (CP_SUDOKU_DATA or ../shared/data).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = """
import sys
sys.path.insert(0, sys.argv[1])
from cp_sudoku.backends import get_backend
try:
    from cp_sudoku.io import parse_line
except ImportError:  # before the io package existed
    from cp_sudoku.formats import parse_line
name, path, count, solve = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "solve"
texts = [line.strip() for line in open(path) if line.strip()][:count]
puzzles = [parse_line(text) for text in texts]
backend = get_backend(name)
if solve:
    for puzzle in puzzles:
        assert backend.solve(puzzle).status == "unique"
"""


def instructions(tree: str, backend: str, path: Path, count: int, mode: str) -> int:
    """Instructions of one run of the script above under callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                RUN,
                tree,
                backend,
                str(path),
                str(count),
                mode,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="checkouts of cp_sudoku to compare")
    parser.add_argument("--backend", action="append", required=True)
    parser.add_argument("--set", action="append", required=True, help="NAME:COUNT")
    args = parser.parse_args()
    data = Path(os.environ.get("CP_SUDOKU_DATA") or Path(args.trees[-1]) / ".." / "shared" / "data")
    for spec in args.set:
        name, count = spec.split(":")
        path = data / "sudoku" / f"{name}.txt"
        for tree in args.trees:
            base = instructions(tree, args.backend[0], path, int(count), "parse")
            for backend in args.backend:
                solving = instructions(tree, backend, path, int(count), "solve") - base
                print(f"{name}\t{count}\t{tree}\t{backend}\t{solving / 1e6:,.1f} M", flush=True)


if __name__ == "__main__":
    main()
