"""Grade targets for generation: a band (``hard``, ``hard+``) or an ER-like rating range.

The grade itself is :func:`cp_sudoku.deduction.grade` (its bands are
:data:`cp_sudoku.deduction.BANDS`); a generated puzzle is kept when logic
solves it (no guessing) and its rating falls in the target's range, low
bound included, high bound excluded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from cp_sudoku.model import CpSudokuError, Puzzle, UsageError


@dataclass(frozen=True)
class Target:
    """A rating range ``low <= rating < high`` (``high`` may be ``inf``) and how it was asked."""

    low: float
    high: float
    asked: str

    def __str__(self) -> str:
        return self.asked


def parse_target(grade: str | None = None, rating: str | None = None) -> Target | None:
    """The target of ``--grade NAME`` (a band; ``NAME+`` for that band and harder) or
    ``--rating LOW-HIGH`` (``6.0-7.5``; ``6-`` for 6 and above); None when neither.

    Raises:
        UsageError: both given, an unknown band, a range that is not
            ``LOW-HIGH`` with ``0 <= LOW < HIGH``, or one no puzzle can reach
            (starting at or above the top of the rating scale).
    """
    if grade is None and rating is None:
        return None
    if grade is not None and rating is not None:
        raise UsageError("give --grade or --rating, not both")
    from cp_sudoku.deduction import BANDS, band_range

    if grade is not None:
        name = grade.strip().lower()
        low, high = band_range(name)
        return Target(low, high, name)
    text = (rating or "").strip()
    low_text, dash, high_text = text.partition("-")
    try:
        low = float(low_text)
        high = float(high_text) if high_text else math.inf
    except ValueError:
        raise UsageError(f"--rating takes LOW-HIGH such as 6.0-7.5 or 6-, got {rating!r}") from None
    if not dash or not (0 <= low < high) or math.isnan(low) or math.isnan(high):
        raise UsageError(f"--rating takes LOW-HIGH with 0 <= LOW < HIGH, got {rating!r}")
    top = max(band_low for _, band_low, _ in BANDS)
    ceiling = RATING_CEILING
    if low >= ceiling:
        raise UsageError(
            f"no puzzle rates {low:g} or more: the hardest step rates below {ceiling:g} "
            f"(the top band starts at {top:g})"
        )
    return Target(low, high, text)


#: The techniques of a path that needs no more than singles.
SINGLES = ("hidden single", "naked single")

#: Rules (:func:`rules_key`) whose every minimal puzzle logic solves with singles alone,
#: and the highest rating among those minimal puzzles: every one was graded
#: (``bench/grade_ceiling.py``; docs/grading.md#what-a-small-grid-can-reach). A single
#: stays one when givens are added, so singles solve every unique puzzle of these rules,
#: minimal or not: none rates above :func:`singles_rating`. (Not listed: the 4x4 Latin
#: squares with diagonals, boxes 1x4 or 4x1, where 16 of the 608 minimal puzzles, up to
#: renaming the digits, need an XYZ-Wing, rating 4.4.)
SINGLES_ONLY: dict[tuple[str, int, tuple[int, int], tuple[str, ...]], float] = {
    **{("sudoku", n, box, ()): 1.2 for n in (2, 3, 4) for box in ((1, n), (n, 1))},
    ("sudoku", 4, (2, 2), ()): 1.2,
    ("sudoku", 4, (2, 2), ("diagonals",)): 1.5,
    ("sudoku", 4, (2, 2), ("windows",)): 1.5,
    ("sudoku", 4, (2, 2), ("diagonals", "windows")): 1.5,
}


def rules_key(rules: Any) -> tuple[str, int, tuple[int, int], tuple[str, ...]] | None:
    """``(kind, size, box, extras)`` of a Sudoku request (None for other kinds): the key of
    :data:`SINGLES_ONLY`; ``box`` the one used (``rules.box`` or the size's default)."""
    if rules.kind != "sudoku":
        return None
    from cp_sudoku.kinds.grid import box_shape

    try:
        rows, cols = box_shape(rules.box, rules.size)
    except CpSudokuError:
        return None
    size: int = rules.size
    return ("sudoku", size, (rows, cols), tuple(sorted(rules.extras)))


def singles_rating() -> float:
    """The rating of the hardest single (naked single, 2.3 on the engine's scale)."""
    from cp_sudoku.deduction import TECHNIQUES

    return max(rating for name, rating, _ in TECHNIQUES if name in SINGLES)


def check_reachable(request: Any) -> None:
    """Refuse a grade target no puzzle of the request can reach, before any is drawn.

    ``request`` is a :class:`~cp_sudoku.generate.making.Request` (its rules, ``target``,
    ``minimal`` and ``symmetry``). For rules in :data:`SINGLES_ONLY` the highest rating
    is the measured one when every given is dug (``minimal`` without a symmetry: the
    puzzle is minimal), else that of the hardest single (:func:`singles_rating`).

    Raises:
        UsageError: the target's range starts above that rating, naming it and its band.
    """
    target = request.target
    key = rules_key(request) if target is not None else None
    top = SINGLES_ONLY.get(key) if key is not None else None
    if top is None:
        return
    dug = request.minimal and request.symmetry == "none"
    if not dug:
        top = singles_rating()
    if target.low > top:
        from cp_sudoku.deduction import band_of

        n = request.size
        extras = "".join(f" {extra}" for extra in request.extras)
        which = "minimal " if dug else ""
        why = "every one was graded" if dug else "singles solve every one"
        raise UsageError(
            f"no {which}{n}x{n}{extras} sudoku is graded {target}: {why}, and none rates "
            f"above {top:g} ({band_of(top)}); ask for --grade {band_of(top)} or a --rating "
            f"range starting at {top:g} or below"
        )


#: No step of the deduction engine rates this high (nets and bowman's bingo,
#: its last resort, rate about 10; Sudoku Explainer's scale tops out near 12).
RATING_CEILING = 12.0


def grade_within(puzzle: Puzzle, target: Target) -> Any:
    """The grade of ``puzzle`` when logic solves it within ``target``'s range, else None.

    Grading stops early once a step harder than the range is needed.
    """
    from cp_sudoku.deduction import grade

    found = grade(puzzle, max_rating=None if math.isinf(target.high) else target.high)
    if not found.solved or not target.low <= found.rating < target.high:
        return None
    return found
