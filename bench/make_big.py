"""Write a large, reproducible file of unique Sudoku puzzles with their known solutions.

Each output row is a random validity-preserving transformation of one of
the base puzzles: a relabelling of the digits, a permutation of the bands,
of the rows within each band, of the stacks and of the columns within each
stack, and a transposition with probability 1/2.  The same transformation
applied to the base's solution is the row's solution, so a transformed
puzzle is unique exactly when its base is, and its solution is known.

The bases' solutions are found once with the ``sat`` back end, re-verified
by the checker, and only puzzles proven unique are used.  The same seed,
bases and count always give the same bytes.  Output: CSV with the header
``puzzle,solution``, 81 digits per field (``0`` for a blank), readable by
``cp-sudoku check`` (the solution column is checked against the verdict).

Usage::

    python bench/make_big.py big.csv --count 1000000 --seed 1 \\
        ../shared/data/sudoku/royle-17clue.txt
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from math import isqrt

import click

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.io import read_file

Pair = tuple[str, str]


def transform(puzzle: str, solution: str, rng: random.Random) -> Pair:
    """One random validity-preserving transformation of ``puzzle`` and ``solution``.

    Both are ``n * n`` digit strings, row-major, ``n = k * k`` (k x k boxes).
    """
    n = isqrt(len(puzzle))
    k = isqrt(n)
    digits = rng.sample("123456789ABCDEFG"[:n], n)
    relabel = {str(v): digits[v - 1] for v in range(1, n + 1)} | {"0": "0"}
    rows = [band * k + r for band in rng.sample(range(k), k) for r in rng.sample(range(k), k)]
    cols = [stack * k + c for stack in rng.sample(range(k), k) for c in rng.sample(range(k), k)]
    if rng.random() < 0.5:
        order = [c * n + r for r in rows for c in cols]  # transposed
    else:
        order = [r * n + c for r in rows for c in cols]
    return (
        "".join(relabel[puzzle[i]] for i in order),
        "".join(relabel[solution[i]] for i in order),
    )


def solved_bases(paths: Sequence[str]) -> list[Pair]:
    """``(puzzle, solution)`` for every puzzle of ``paths`` that the sat back end proves unique."""
    bases = []
    for path in paths:
        for entry in read_file(path):
            if entry.puzzle is None or entry.puzzle.max_value > 9:
                continue
            verdict = crosscheck(entry.puzzle, "sat")
            if verdict.status == "unique" and verdict.solution:
                grid = ["0"] * len(entry.puzzle.cells)
                for (r, c), v in entry.puzzle.givens.items():
                    grid[r * entry.puzzle.cols + c] = str(v)
                bases.append(("".join(grid), "".join(map(str, verdict.solution))))
    return bases


@click.command()
@click.argument("output", type=click.Path(dir_okay=False, writable=True))
@click.argument("bases", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--count", default=1_000_000, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=1, show_default=True, type=int)
def main(output: str, bases: tuple[str, ...], count: int, seed: int) -> None:
    """Write COUNT transformed puzzles of the BASES files (9x9, one per line) to OUTPUT."""
    pairs = solved_bases(bases)
    if not pairs:
        raise click.UsageError("no unique 9x9 puzzle in the bases")
    rng = random.Random(seed)
    with open(output, "w", encoding="ascii", newline="\n") as out:
        out.write("puzzle,solution\n")
        for i in range(count):
            puzzle, solution = transform(*pairs[i % len(pairs)], rng)
            out.write(f"{puzzle},{solution}\n")
    click.echo(f"wrote {count:,} puzzles from {len(pairs):,} bases to {output}", err=True)


if __name__ == "__main__":
    sys.exit(main())
