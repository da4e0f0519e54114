"""Extras: rules that compose with sudoku, jigsaw and killer (``extras: diagonals windows``).

==================  ===========================================================
extra               the constraints it adds to an n x n grid
==================  ===========================================================
``diagonals``       both long diagonals all-different (X-Sudoku)
``windows``         the (b - 1)**2 extra b x b windows of a b x b box grid,
                    corners at rows and columns ``1 + k * (b + 1)`` (0-based):
                    the four shaded windows of a 9x9 Windoku
``non-consecutive`` orthogonal neighbours differ by more than 1
                    (:class:`~cp_sudoku.model.Relation` ``non-consecutive``)
==================  ===========================================================

``kind: x-sudoku`` and ``kind: windoku`` are read as ``sudoku`` with
``diagonals`` and ``windows`` (:data:`cp_sudoku.kinds.ALIASES`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from math import isqrt

from cp_sudoku.model import Constraint, Puzzle, PuzzleError, Relation, Unit, cell_name

EXTRAS = ("diagonals", "windows", "non-consecutive")


def extras_of(words: Iterable[str]) -> tuple[str, ...]:
    """The extras named, in :data:`EXTRAS` order, each once.

    Raises:
        PuzzleError: an unknown extra.
    """
    named = set()
    for word in words:
        if word not in EXTRAS:
            raise PuzzleError(f"unknown extra {word!r}: expected one of {', '.join(EXTRAS)}")
        named.add(word)
    return tuple(extra for extra in EXTRAS if extra in named)


def diagonals(n: int) -> tuple[Unit, ...]:
    """Both long diagonals of an n x n grid."""
    return (
        Unit(
            "diagonal r1c1-" + cell_name((n - 1, n - 1)),
            tuple((i, i) for i in range(n)),
            "diagonal",
        ),
        Unit(
            f"anti-diagonal r1c{n}-" + cell_name((n - 1, 0)),
            tuple((i, n - 1 - i) for i in range(n)),
            "anti-diagonal",
        ),
    )


def windows(n: int, box: tuple[int, int] | None) -> tuple[Unit, ...]:
    """The Windoku windows of an n x n grid with b x b boxes (``box``, or b = sqrt(n)).

    Raises:
        PuzzleError: the boxes are not square, or n is not a square (no
            window layout is standard then).
    """
    b, other = box or (isqrt(n), isqrt(n))
    if b != other or b < 2 or b * other != n:
        raise PuzzleError(
            f"windows need square boxes of at least 2x2, got {b}x{other} on a {n}x{n} grid"
        )
    starts = [1 + k * (b + 1) for k in range(b - 1)]
    return tuple(
        Unit(
            f"window {number}",
            tuple((top + r, left + c) for r in range(b) for c in range(b)),
            "window",
        )
        for number, (top, left) in enumerate(((t, s) for t in starts for s in starts), start=1)
    )


def non_consecutive(n: int) -> tuple[Relation, ...]:
    """``non-consecutive`` between every pair of orthogonal neighbours, row-major."""
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    return tuple(Relation(a, b, "non-consecutive") for a, b in sorted(pairs))


def with_extras(base: Puzzle, extras: Iterable[str]) -> Puzzle:
    """``base`` (a square grid) with the units and relations of ``extras`` added.

    Raises:
        PuzzleError: an unknown extra; windows on a grid without square boxes.
    """
    named = extras_of(extras) if extras != () else ()  # () (the usual): nothing to look up
    if not named:
        return base
    n = base.rows
    added: tuple[Constraint, ...] = ()
    if "diagonals" in named:
        added += diagonals(n)
    if "windows" in named:
        added += windows(n, base.box)
    if "non-consecutive" in named:
        added += non_consecutive(n)
    return replace(base, constraints=base.constraints + added, extras=named)
