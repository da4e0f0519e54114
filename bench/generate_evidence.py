"""Evidence for ``cp-sudoku generate``: puzzles of every kind, each audited after the fact.

Usage: python bench/generate_evidence.py [--scale S] [--certify-every K] [--only TEXT...]

For every group below, ``count * scale`` puzzles are generated (seed 2026) and
each goes through :func:`cp_sudoku.generate.audit.audit`: unique by the
default cross-check with the stated solution, minimal (each given, or orbit of
givens under the symmetry, removed in turn gives ``multiple``), symmetric,
and graded again when a grade was asked.  Every ``certify_every``-th puzzle
is also proved (:func:`cp_sudoku.verify.certify.certify`) and its
certificate verified.  Prints one row per group and the totals; exits 1 when
any audit or certificate fails.  ``--only`` keeps the groups whose label
contains one of the texts (``--only kakuro "non-consecutive 9x9"``).
``tests/test_generate.py`` runs it whole under ``-m slow`` and a small scale
by default.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from cp_sudoku.generate import Request
from cp_sudoku.generate.audit import audit
from cp_sudoku.generate.stream import generate

#: (label, request, puzzles at scale 1): 1,115 puzzles across kinds, sizes and symmetries
#: (plus 80 graded ones when the grade package is there).
GROUPS: list[tuple[str, Request, int]] = [
    ("sudoku 9x9", Request(), 250),
    ("sudoku 9x9 rot180", Request(symmetry="rot180"), 100),
    ("sudoku 9x9 rot90", Request(symmetry="rot90"), 50),
    ("sudoku 9x9 mirror", Request(symmetry="mirror"), 50),
    ("sudoku 9x9 diagonal", Request(symmetry="diagonal"), 50),
    ("sudoku 4x4", Request(size=4), 50),
    ("sudoku 6x6 2x3 rot180", Request(size=6, box=(2, 3), symmetry="rot180"), 60),
    ("sudoku 6x6 3x2", Request(size=6, box=(3, 2)), 40),
    ("sudoku 8x8 2x4", Request(size=8, box=(2, 4)), 30),
    ("sudoku 12x12 3x4", Request(size=12, box=(3, 4)), 10),
    ("sudoku 16x16", Request(size=16), 5),
    ("x-sudoku 9x9", Request(extras=("diagonals",)), 30),
    ("windoku 9x9", Request(extras=("windows",)), 30),
    ("non-consecutive 6x6", Request(size=6, extras=("non-consecutive",)), 20),
    ("non-consecutive 9x9", Request(extras=("non-consecutive",)), 20),
    ("jigsaw 6x6", Request(kind="jigsaw", size=6), 40),
    ("jigsaw 9x9", Request(kind="jigsaw"), 10),
    ("jigsaw 9x9 rot180", Request(kind="jigsaw", symmetry="rot180"), 10),
    ("killer 6x6", Request(kind="killer", size=6), 30),
    ("killer 9x9", Request(kind="killer"), 20),
    ("kenken 4x4", Request(kind="kenken", size=4), 30),
    ("kenken 6x6", Request(kind="kenken", size=6), 20),
    ("kakuro 5x5", Request(kind="kakuro", size=5), 20),
    ("kakuro 7x7", Request(kind="kakuro", size=7), 20),
    ("kakuro 8x8", Request(kind="kakuro", size=8), 15),
    ("kakuro 9x9", Request(kind="kakuro", size=9), 15),
    ("futoshiki 5x5", Request(kind="futoshiki", size=5), 30),
    ("futoshiki 6x6", Request(kind="futoshiki", size=6), 15),
    ("skyscrapers 5x5", Request(kind="skyscrapers", size=5), 30),
    ("skyscrapers 6x6", Request(kind="skyscrapers", size=6), 15),
]


def graded_groups() -> list[tuple[str, Request, int]]:
    """Groups with a grade target, when the grade package is installed (else none)."""
    try:
        from cp_sudoku.generate.grading import parse_target

        return [
            (
                "sudoku 9x9 rot180 hard+",
                Request(symmetry="rot180", target=parse_target("hard+")),
                40,
            ),
            ("sudoku 9x9 medium", Request(target=parse_target("medium")), 20),
            ("sudoku 6x6 rating 1-2.5", Request(size=6, target=parse_target(rating="1-2.5")), 20),
        ]
    except ImportError:
        return []


def run(
    scale: float = 1.0,
    certify_every: int = 10,
    out=sys.stdout,
    only: tuple[str, ...] = (),
    leave_out: tuple[str, ...] = (),
) -> tuple[int, list[str]]:
    """Generate and audit every group (those whose label contains a text of ``only``,
    when given, and none of ``leave_out``); the puzzles audited and every failure found."""
    from cp_sudoku.verify.certify import certify

    failures: list[str] = []
    total = certified = 0
    with tempfile.TemporaryDirectory() as folder:
        for label, request, count in GROUPS + graded_groups():
            if only and not any(text in label for text in only):
                continue
            if any(text in label for text in leave_out):
                continue
            n = max(1, round(count * scale))
            start, wall = time.process_time(), time.perf_counter()
            givens = 0
            for made in generate(request, n, seed=2026):
                if isinstance(made, Exception):
                    failures.append(f"{label}: {made}")
                    continue
                total += 1
                givens += len(made.puzzle.givens)
                failures += [f"{label} #{made.index}: {p}" for p in audit(made, request.symmetry)]
                if certify_every and total % certify_every == 0:
                    done = certify(
                        made.puzzle, Path(folder), f"{label.replace(' ', '-')}-{made.index}"
                    )
                    certified += 1
                    if done.status != "unique" or done.failures:
                        failures.append(
                            f"{label} #{made.index}: certificate {done.status} {done.failures}"
                        )
            seconds, wall = time.process_time() - start, time.perf_counter() - wall
            print(
                f"{label:24} {n:5} puzzles  {givens / n:6.1f} givens  "
                f"{seconds:7.1f} s CPU {wall:7.1f} s wall (made and audited)",
                file=out,
                flush=True,
            )
    print(
        f"audited {total} puzzles, {certified} certificates verified, {len(failures)} failures",
        file=out,
    )
    for failure in failures:
        print("FAIL", failure, file=out)
    return total, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--certify-every", type=int, default=10)
    parser.add_argument("--only", nargs="*", default=[], metavar="TEXT")
    args = parser.parse_args()
    _, failures = run(args.scale, args.certify_every, only=tuple(args.only))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
