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

from cp_sudoku.model import Puzzle, UsageError


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
        above = name.endswith("+")
        low, high = band_range(name.rstrip("+"))
        return Target(low, math.inf if above else high, name)
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
