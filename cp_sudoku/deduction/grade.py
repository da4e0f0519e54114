"""The grade of a puzzle: the rating of the hardest step on the easiest-first path.

The rating is on Sudoku Explainer's scale (ER, 1.0 to about 11 here; SE's own goes to
about 12 for the hardest known puzzles), the band a name for a range of it (:data:`BANDS`),
and the technique mix the count of steps per technique.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cp_sudoku.deduction.engine import explain
from cp_sudoku.model import Puzzle, UsageError

#: (band, lowest rating, rating above the band), easiest first.
BANDS: tuple[tuple[str, float, float], ...] = (
    ("easy", 0.0, 2.5),
    ("medium", 2.5, 4.0),
    ("hard", 4.0, 6.0),
    ("expert", 6.0, 7.5),
    ("extreme", 7.5, float("inf")),
)
#: The band of a puzzle that logic did not finish.
UNSOLVED = "unsolved"


def band_of(rating: float) -> str:
    """The band ``rating`` falls in (:data:`BANDS`)."""
    return next(name for name, low, high in BANDS if low <= rating < high)


def band_range(name: str) -> tuple[float, float]:
    """The ratings of band ``name``: ``(lowest, above)``; ``name+`` (``hard+``, as
    ``generate --grade`` takes it) is that band and every harder one: ``(lowest, inf)``.

    Raises:
        UsageError: an unknown band, naming the bands.
    """
    band_name = name.removesuffix("+")
    for band, low, high in BANDS:
        if band == band_name:
            return (low, math.inf) if name.endswith("+") else (low, high)
    known = ", ".join(band for band, _, _ in BANDS)
    raise UsageError(f"unknown grade {name!r}: expected one of {known}, or BAND+ and harder")


@dataclass(frozen=True)
class Grade:
    """A puzzle's grade.

    - ``rating``: the rating of the hardest step (0.0 when none is needed); when logic
      does not finish, the hardest reached so far (a lower bound);
    - ``band``: :func:`band_of` the rating, or ``unsolved``;
    - ``techniques``: technique -> steps; ``steps``: how many; ``hardest``: its technique;
    - ``solved``: the steps completed the grid; ``outcome`` as
      :class:`~cp_sudoku.deduction.engine.Explanation`'s.
    """

    rating: float
    band: str
    techniques: Counter[str]
    solved: bool
    outcome: str
    steps: int
    hardest: str | None

    def record(self) -> dict[str, Any]:
        """JSON-ready values."""
        return {
            "rating": self.rating,
            "band": self.band,
            "hardest": self.hardest,
            "solved": self.solved,
            "outcome": self.outcome,
            "steps": self.steps,
            "techniques": dict(self.techniques),
        }

    def __str__(self) -> str:
        return f"{self.band} {self.rating:.1f}" + (f" ({self.hardest})" if self.hardest else "")


def grade(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    max_rating: float | None = None,
    uniqueness: bool = False,
) -> Grade:
    """Grade ``puzzle`` by the deduction engine (:func:`~cp_sudoku.deduction.engine.explain`).

    Args:
        time_limit: seconds of CPU for the whole grading (then outcome ``timeout``).
        max_rating: stop as soon as a step rated above this is needed (outcome
            ``above``, rating that step's): a generator's early reject.
        uniqueness: uniqueness-based techniques; none is implemented, so True is
            refused rather than ignored.

    Raises:
        UsageError: ``uniqueness`` asked for.
    """
    if uniqueness:
        raise UsageError("uniqueness-based techniques are not offered: they assume uniqueness")
    explanation = explain(puzzle, time_limit=time_limit, max_rating=max_rating)
    hardest = explanation.hardest
    solved = explanation.outcome == "solved"
    rating = explanation.rating
    return Grade(
        rating=rating,
        band=band_of(rating) if solved else UNSOLVED,
        techniques=explanation.techniques,
        solved=solved,
        outcome=explanation.outcome,
        steps=len(explanation.steps),
        hardest=hardest.technique if hardest else None,
    )
