"""Generation speed: cp_sudoku's generator against QQWing, measured in one run on one machine.

Usage: python bench/generate_speed.py [--count N] [--hard N]

Figures are CPU seconds (``time.process_time`` for this process, which counts
OR-Tools' threads too; ``RUSAGE_CHILDREN`` for QQWing), so a loaded machine
changes them little.  Every cp_sudoku puzzle counted is minimal, unique and
cross-checked by the default cross-check; QQWing's are its own claim (QQWing
removes givens while its solver finds one solution, as ours do, and checks
nothing else).

1. minimal unique 9x9, no symmetry, no grade target (issue target: >= 50/s);
2. 180°-symmetric 9x9 graded hard or above (``hard+``; target >= 2/s);
3. QQWing ``--generate N --one-line`` (any difficulty, no symmetry) and
   ``--symmetry rotate180 --difficulty expert``, for the ratios;
4. hodoku-py (the ``bench`` extra; HoDoKu's generator ported to Python with a C
   accelerator for its backtracker): ``SudokuGenerator().generate_sudoku(symmetric=False)``
   (clues removed in random order while its solver finds one solution: minimal, no
   grade) and ``Generator().generate(DifficultyType.HARD)`` (180°-symmetric drafts
   rated by its solver until one lands in HARD), in this process, CPU time.
"""

from __future__ import annotations

import argparse
import platform
import resource
import shutil
import subprocess
import time

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate import Request, make


def ours(request: Request, count: int) -> tuple[float, float, float]:
    """Puzzles per CPU second for ``count`` puzzles of ``request``, mean givens, and the
    share of the time that the final cross-check takes (timed again on the same puzzles)."""
    maker = request.maker()
    make(request, 999, 0, maker)  # warm up: imports, the CNF of the rules
    start = time.process_time()
    made = [make(request, 1, index, maker) for index in range(count)]
    seconds = time.process_time() - start
    start = time.process_time()
    for one in made:
        crosscheck(one.puzzle, request.backends)
    checking = time.process_time() - start
    givens = sum(len(one.puzzle.givens) for one in made) / count
    return count / seconds, givens, checking / seconds


def qqwing(count: int, *options: str) -> float | None:
    """QQWing's puzzles per CPU second (None when it is not installed)."""
    found = shutil.which("qqwing") or shutil.which("/usr/games/qqwing")
    if found is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [found, "--generate", str(count), "--one-line", *options],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return count / cpu


def hodoku(count: int, hard: bool = False) -> float | None:
    """hodoku-py's puzzles per CPU second (None when it is not installed): minimal
    unique 9x9s, or with ``hard`` 180°-symmetric ones in its HARD band."""
    try:
        from hodoku.api import DifficultyType, Generator
        from hodoku.generator.generator import SudokuGenerator
    except ImportError:
        return None
    if hard:
        rated = Generator()
        start = time.process_time()
        for _ in range(count):
            rated.generate(DifficultyType.HARD, symmetric=True)
    else:
        plain = SudokuGenerator()
        start = time.process_time()
        for _ in range(count):
            plain.generate_sudoku(symmetric=False)
    return count / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--hard", type=int, default=20)
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}")
    rate, givens, share = ours(Request(), args.count)
    base = qqwing(args.count)
    print(
        f"minimal unique 9x9:        cp_sudoku {rate:7.1f}/s ({givens:.1f} givens; "
        f"cross-check {share:.0%} of the time)"
    )
    if base:
        print(f"                           qqwing    {base:7.1f}/s  ratio {rate / base:.2f}")
    other = hodoku(args.count)
    if other:
        print(f"                           hodoku-py {other:7.1f}/s  ratio {rate / other:.2f}")
    try:
        from cp_sudoku.generate.grading import parse_target

        hard = Request(symmetry="rot180", target=parse_target("hard+"))
        rate, givens, share = ours(hard, args.hard)
    except ImportError:
        print("180° hard+: skipped (cp_sudoku.deduction is not installed)")
        return
    base = qqwing(args.hard, "--symmetry", "rotate180", "--difficulty", "expert")
    print(
        f"180°-symmetric, hard+:     cp_sudoku {rate:7.2f}/s ({givens:.1f} givens; "
        f"cross-check {share:.0%})"
    )
    if base:
        print(f"  (qqwing rotate180 expert)   qqwing {base:7.2f}/s  ratio {rate / base:.2f}")
    other = hodoku(args.hard, hard=True)
    if other:
        print(f"  (hodoku-py HARD, symmetric) hodoku-py {other:7.2f}/s  ratio {rate / other:.2f}")


if __name__ == "__main__":
    main()
