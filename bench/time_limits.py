"""Does ``--time-limit`` hold?  Wall seconds of one solve per back end on large inputs.

Usage::

    python bench/time_limits.py write DIRECTORY [--seed 1]
    python bench/time_limits.py run DIRECTORY --backend sat --limit 0.5 [--limit 2 ...]

``write`` makes reproducible large puzzles from random Latin squares and Sudoku grids
(known solvable): KenKen of 20, 50 and 100 (cages of 1 to 4 cells, some hidden
operators), a 20 x 20 KenKen with a product cage over 15 cells of a row, Skyscrapers of 20
and 100 with half their clues, a 100 x 100 jigsaw (box regions with cells of equal value
traded at random) and a 100 x 100 Sudoku, each with some of its givens.  ``run`` solves
every file of DIRECTORY (and the shared f-puzzles set and the ten first lines of
``forum-hardest-1905-11plus``) with each back end at each limit, each solve in a child
process killed after ``10 x limit + 60`` s, and prints one line per solve: the wall
seconds around ``Backend.solve`` (given checks and compiling included; parsing not), the
back end's own ``seconds``, status and ``stopped``.  The child's start-up is not timed.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import click

from cp_sudoku.datasets import data_dir

#: The child: read one puzzle, time one solve, print one JSON line.
CHILD = """
import json, sys, time
from cp_sudoku.backends import get_backend
from cp_sudoku.io import read_file
puzzle = next(iter(read_file(sys.argv[1]))).puzzle
engine = get_backend(sys.argv[2])
started = time.perf_counter()
result = engine.solve(puzzle, limit=2, time_limit=float(sys.argv[3]))
wall = time.perf_counter() - started
print(json.dumps({"wall": wall, "seconds": result.seconds, "status": result.status,
                  "stopped": result.stopped, "reason": (result.reason or "")[:60]}))
"""


def latin(n: int, rng: random.Random) -> list[list[int]]:
    """A random n x n Latin square, values 1..n (a cyclic square, rows, columns and
    symbols permuted)."""
    rows, columns, symbols = (rng.sample(range(n), n) for _ in range(3))
    return [[symbols[(rows[r] + columns[c]) % n] + 1 for c in range(n)] for r in range(n)]


def sudoku_grid(k: int, rng: random.Random) -> list[list[int]]:
    """A random (k*k) x (k*k) Sudoku solution (the pattern grid, symbols relabelled and
    rows permuted within bands)."""
    n = k * k
    symbols = rng.sample(range(n), n)
    order = [band * k + r for band in range(k) for r in rng.sample(range(k), k)]
    return [[symbols[(k * (r % k) + r // k + c) % n] + 1 for c in range(n)] for r in order]


def kenken(n: int, rng: random.Random, hidden: float = 0.2, product: int = 0) -> str:
    """A KenKen on a random Latin square: cages of 1-4 cells grown from random cells;
    with ``product``, first one product cage over that many cells of the first row."""
    square = latin(n, rng)
    row = [(0, c) for c in range(product)]
    owner: dict[tuple[int, int], int] = dict.fromkeys(row, 0)
    cages: list[list[tuple[int, int]]] = [row] if row else []
    for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n):
        if cell in owner:
            continue
        cage = [cell]
        owner[cell] = len(cages)
        for _ in range(rng.randint(0, 3)):
            r, c = rng.choice(cage)
            free = [
                (r + dr, c + dc)
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr, c + dc) not in owner
            ]
            if free:
                nxt = rng.choice(free)
                owner[nxt] = len(cages)
                cage.append(nxt)
        cages.append(cage)
    lines = [f"kind: kenken\nsize: {n}\ncages:"]
    if row:
        lines.append(f"{math.prod(square[0][:product])}* {cells(row)}")
    for cage in cages[1 if row else 0 :]:
        values = [square[r][c] for r, c in cage]
        lines.append(f"{cage_target(values, rng, hidden)} {cells(cage)}")
    return "\n".join(lines) + "\n"


def cage_target(values: list[int], rng: random.Random, hidden: float) -> str:
    """``12+``, ``3-``, ``2/``, ``60*``, ``12?`` or ``4`` for these values."""
    if len(values) == 1:
        return str(values[0])
    ops = ["+", "*"] + (["-", "/"] if len(values) == 2 else [])
    op = rng.choice(ops)
    high, low = max(values), min(values)
    if op == "/" and high % low:
        op = "-"
    target = {
        "+": sum(values),
        "*": math.prod(values),
        "-": high - low,
        "/": high // low,
    }[op]
    return f"{target}{'?' if rng.random() < hidden else op}"


def cells(cage: list[tuple[int, int]]) -> str:
    return " ".join(f"r{r + 1}c{c + 1}" for r, c in cage)


def skyscrapers(n: int, rng: random.Random, keep: float = 0.5) -> str:
    """A Skyscrapers of a random Latin square with about ``keep`` of its clues."""
    square = latin(n, rng)
    columns = [list(col) for col in zip(*square, strict=True)]

    def seen(line: list[int]) -> int:
        tallest, count = 0, 0
        for height in line:
            if height > tallest:
                tallest, count = height, count + 1
        return count

    def side(lines: list[list[int]]) -> str:
        return " ".join(str(seen(line)) if rng.random() < keep else "." for line in lines)

    return (
        f"kind: skyscrapers\nsize: {n}\n"
        f"top: {side(columns)}\nbottom: {side([c[::-1] for c in columns])}\n"
        f"left: {side(square)}\nright: {side([r[::-1] for r in square])}\n"
    )


def jigsaw(k: int, rng: random.Random, keep: float = 0.35, trades: int = 20_000) -> str:
    """A (k*k) x (k*k) jigsaw: box regions whose cells of equal value are traded between
    regions at random (regions need not be connected), ``keep`` of the givens."""
    n = k * k
    grid = sudoku_grid(k, rng)
    region = [[(r // k) * k + c // k for c in range(n)] for r in range(n)]
    where: dict[int, list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            where.setdefault(grid[r][c], []).append((r, c))
    for _ in range(trades):  # two cells of one value swap regions: both stay all-different
        (r1, c1), (r2, c2) = rng.sample(where[rng.randint(1, n)], 2)
        region[r1][c1], region[r2][c2] = region[r2][c2], region[r1][c1]
    rows = [" ".join(str(v) if rng.random() < keep else "0" for v in row) for row in grid]
    regions = [" ".join(map(str, row)) for row in region]
    return "\n".join(["kind: jigsaw", "alphabet: numbers", "grid:", *rows, "regions:", *regions])


def sudoku(k: int, rng: random.Random, keep: float = 0.35) -> str:
    """A (k*k) x (k*k) Sudoku with ``keep`` of its givens."""
    grid = sudoku_grid(k, rng)
    rows = [" ".join(str(v) if rng.random() < keep else "0" for v in row) for row in grid]
    return "\n".join([f"kind: sudoku\nbox: {k}x{k}\nalphabet: numbers", "grid:", *rows])


@click.group()
def main() -> None:
    """Write large inputs, or time each back end's solves on them."""


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--seed", default=1, show_default=True)
def write(directory: Path, seed: int) -> None:
    """Write the large inputs into DIRECTORY."""
    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    made = {
        "kenken-20.txt": kenken(20, rng),
        "kenken-50.txt": kenken(50, rng),
        "kenken-100.txt": kenken(100, rng),
        "kenken-20-product-row.txt": kenken(20, rng, hidden=0.0, product=15),
        "skyscrapers-20.txt": skyscrapers(20, rng),
        "skyscrapers-100.txt": skyscrapers(100, rng),
        "jigsaw-100.txt": jigsaw(10, rng),
        "sudoku-100.txt": sudoku(10, rng),
    }
    for name, text in made.items():
        (directory / name).write_text(text)
        print(directory / name, len(text), "bytes")


@main.command()
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("--backend", "backends", multiple=True, required=True)
@click.option("--limit", "limits", multiple=True, type=float, required=True)
def run(directory: Path, backends: tuple[str, ...], limits: tuple[float, ...]) -> None:
    """Time every back end at every limit on DIRECTORY's files and the shared sets."""
    shared = data_dir()
    hardest = shared / "sudoku" / "forum-hardest-1905-11plus.txt"
    forum = directory / "forum-hardest-10.txt"
    forum.write_text("".join(hardest.open().readline() for _ in range(10)))
    files = sorted(directory.glob("*.txt"))
    files += sorted((shared / "fpuzzles").glob("*.fpuzzles.txt"))
    for name in backends:
        for limit in limits:
            for path in files:
                timed(path, name, limit)


def timed(path: Path, name: str, limit: float) -> None:
    """One solve in a child; print its line (``OVER`` past twice the limit)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), name, str(limit)],
            capture_output=True,
            text=True,
            timeout=10 * limit + 60,
        )
    except subprocess.TimeoutExpired:
        print(f"{name}\t{limit}\t{path.name}\tKILLED after {10 * limit + 60:.0f} s", flush=True)
        return
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        print(f"{name}\t{limit}\t{path.name}\tERROR {last[:100]}", flush=True)
        return
    got = json.loads(done.stdout.splitlines()[-1])
    flag = "OVER" if got["wall"] > 2 * limit else ""
    print(
        f"{name}\t{limit}\t{path.name}\twall {got['wall']:.2f}\town {got['seconds']:.2f}"
        f"\t{got['status']}\t{got['stopped']}\t{got['reason']}\t{flag}",
        flush=True,
    )


if __name__ == "__main__":
    main()
