"""The deduction engine: solve a puzzle by logic alone, one named, checkable step at a time.

The state is the candidate grid (per cell, the values it may still take), started from
the givens.  Each step is the first found by the easiest technique that applies (the
order of :data:`TECHNIQUES`, by Sudoku Explainer rating), then the search starts again
from the easiest: the *easiest-first path*.  Placing a value removes it from the cell's
group peers (:mod:`cp_sudoku.deduction.groups`).  Every step is forced, so when the
steps complete the grid they prove the solution unique; when they stall, the candidates
left say where.

Techniques (definitions from Sudopedia and HoDoKu's guide; ratings Sudoku Explainer's):

=============================  ======  ====================================================
technique                      rating  what it does
=============================  ======  ====================================================
hidden single                  1.2/1.5 a value with one place in a full group (box / line)
naked single                   2.3     a cell with one candidate
cage combinations,             2.4     values no tuple of a constraint allows leave its
constraint tuples                      cells (generic: each type's ``allowed``)
locked candidates              2.6/2.8 pointing / claiming
naked and hidden subsets       3.0-5.4 pairs, triples, quads
X-Wing, Swordfish, Jellyfish   3.2-5.2 fish in rows and columns
XY-Wing, XYZ-Wing              4.2/4.4
X-chain, XY-chain              6.6+    single-digit chains; chains of bivalue cells
alternating inference chain    7.0+    mixed chains and nice loops
ALS-XZ                         7.0     two almost locked sets
forcing chains                 8.0+    cell and unit forcing chains (static)
forcing net                    8.5+    contradiction and forcing nets over singles
forcing net (nested)           9.0+    the same over singles, locked candidates and pairs
forcing net (nested twice)     9.5+    the same, also removing inside each branch every
                                       candidate whose own forcing net fails (Bowman's bingo
                                       two deep)
=============================  ======  ====================================================

``+``: plus Sudoku Explainer's length bonus.  Uniqueness-based techniques are not
implemented: they assume the uniqueness the steps are meant to prove.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from cp_sudoku.constraints.base import OutOfTime, check_deadline, compile_deadline
from cp_sudoku.deduction import basic
from cp_sudoku.deduction.als import als_xz
from cp_sudoku.deduction.chains import chain, forcing_chains
from cp_sudoku.deduction.groups import structure
from cp_sudoku.deduction.nets import net
from cp_sudoku.deduction.state import State, Step
from cp_sudoku.model import Cell, Puzzle, cell_name, violations

Finder = Callable[[State], "Step | None"]

#: (technique, its rating or lowest rating, finder), easiest first.
TECHNIQUES: tuple[tuple[str, float, Finder], ...] = (
    ("hidden single", 1.2, basic.hidden_single(True)),
    ("hidden single", 1.5, basic.hidden_single(False)),
    ("naked single", 2.3, basic.naked_single),
    ("constraint tuples", 2.4, basic.constraint_tuples),
    ("locked candidates (pointing)", 2.6, basic.locked_candidates(True)),
    ("locked candidates (claiming)", 2.8, basic.locked_candidates(False)),
    ("naked pair", 3.0, basic.naked_subset(2, 3.0)),
    ("X-Wing", 3.2, basic.fish(2, 3.2)),
    ("hidden pair", 3.4, basic.hidden_subset(2, 3.4)),
    ("naked triple", 3.6, basic.naked_subset(3, 3.6)),
    ("Swordfish", 3.8, basic.fish(3, 3.8)),
    ("hidden triple", 4.0, basic.hidden_subset(3, 4.0)),
    ("XY-Wing", 4.2, basic.xy_wing),
    ("XYZ-Wing", 4.4, basic.xyz_wing),
    ("naked quad", 5.0, basic.naked_subset(4, 5.0)),
    ("Jellyfish", 5.2, basic.fish(4, 5.2)),
    ("hidden quad", 5.4, basic.hidden_subset(4, 5.4)),
    ("X-chain", 6.6, chain("x")),
    ("XY-chain", 6.6, chain("xy")),
    ("alternating inference chain", 7.0, chain("aic")),
    ("ALS-XZ", 7.0, als_xz),
    ("forcing chains", 8.0, forcing_chains),
    ("forcing net", 8.5, net(1)),
    ("forcing net (nested)", 9.0, net(2)),
    ("forcing net (nested twice)", 9.5, net(3)),
)
#: Every technique name a step may carry, in order of difficulty.
TECHNIQUE_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(
        alias
        for name, _, _ in TECHNIQUES
        for alias in (("cage combinations", name) if name == "constraint tuples" else (name,))
    )
)
LEVEL = {name: level for level, name in enumerate(TECHNIQUE_NAMES, start=1)}


@dataclass(frozen=True)
class Explanation:
    """The steps found, whether they solved the grid, and the candidates left if not.

    ``outcome`` is ``solved`` (the steps are a proof of uniqueness), ``stalled`` (no
    technique applies; ``left`` holds each open cell's candidates), ``contradiction``
    (a cell or a full group has no candidate left: no solution; ``where`` says where),
    ``timeout`` (the time limit came first) or ``above`` (the next step is rated above
    the ``max_rating`` asked for).
    """

    steps: tuple[Step, ...]
    outcome: str
    left: dict[Cell, tuple[int, ...]] = field(default_factory=dict)
    where: str = ""

    @property
    def techniques(self) -> Counter[str]:
        """How many steps each technique took."""
        return Counter(step.technique for step in self.steps)

    @property
    def hardest(self) -> Step | None:
        """The highest-rated step (the first of equals), None when no step was taken."""
        return max(self.steps, key=lambda s: s.rating, default=None)

    @property
    def rating(self) -> float:
        """The rating of the hardest step (0.0 with no step)."""
        hardest = self.hardest
        return hardest.rating if hardest else 0.0

    @property
    def grade(self) -> str:
        """``XY-Wing (SE 4.2)``; ``beyond <hardest> (stalled)`` when it does not finish."""
        hardest = self.hardest
        if self.outcome != "solved":
            return f"beyond {hardest.technique if hardest else 'singles'} ({self.outcome})"
        if hardest is None:
            return "no step needed"
        return f"{hardest.technique} (SE {hardest.rating})"

    def summary(self) -> str:
        """One sentence: what the steps prove, or where they stall."""
        if self.outcome == "solved":
            return (
                f"solved by logic in {len(self.steps)} steps, every one forced: "
                f"a proof that the solution is unique; grade {self.grade}"
            )
        if self.outcome == "contradiction":
            if not self.steps:
                return f"a contradiction before any step: {self.where}"
            noun = "step leads" if len(self.steps) == 1 else "steps lead"
            return f"{len(self.steps)} {noun} to a contradiction: {self.where}"
        return (
            f"{self.outcome} after {len(self.steps)} steps with {len(self.left)} cells open "
            f"(first {self.where})"
        )

    def candidates_text(self) -> str:
        """The candidates left, ``r1c2=478 r1c3=3457...`` (values over 9 comma-separated)."""
        join = "," if any(v > 9 for values in self.left.values() for v in values) else ""
        return " ".join(
            f"{cell_name(c)}={join.join(map(str, values))}"
            for c, values in sorted(self.left.items())
        )

    def record(self) -> list[dict[str, Any]]:
        """The steps, then one closing entry (outcome, grade, candidates left), JSON-ready."""
        closing: dict[str, Any] = {"outcome": self.outcome, "grade": self.grade}
        closing["text"] = self.summary()
        if self.left:
            closing["candidates"] = {
                cell_name(c): list(values) for c, values in sorted(self.left.items())
            }
        return [*(step.record() for step in self.steps), closing]


def _contradiction(st: State) -> str | None:
    """Where the candidates show there is no solution, or None.  A completed grid is
    re-checked by the rule checker: the steps place values by the groups and reason with a
    rule only when singles stall, so singles alone can fill a cage's cells against it."""
    cand, every = st.cand, st.all
    if 0 in cand:  # else no cell is without a candidate
        for i in st.open():
            if not cand[i]:
                return f"{cell_name(st.s.cells[i])} has no candidate left"
    for group in st.s.full:
        seen = 0
        for i in group.cells:
            seen |= cand[i]
        if seen != every:
            missing = every & ~seen
            value = st.value((missing & -missing).bit_length() - 1)
            return f"{value} has no place left in {group.name}"
    if all(st.placed):  # a rule the steps never reasoned with may still be broken
        grid = [st.value(m.bit_length() - 1) for m in cand]
        broken = violations(st.puzzle, grid)
        if broken:
            return f"the grid the steps complete breaks a rule: {broken[0]}"
    return None


def explain(
    puzzle: Puzzle,
    max_steps: int = 10_000,
    *,
    time_limit: float | None = None,
    max_rating: float | None = None,
) -> Explanation:
    """Solve ``puzzle`` by logic alone: the steps on the easiest-first path, and whether
    they complete the grid.

    Args:
        puzzle: any puzzle (all-different groups, and any constraint type through its
            ``allowed``).
        max_steps: at most this many steps (fewer than cells x values are ever needed).
        time_limit: seconds of CPU (``time.process_time``); then ``timeout``.
        max_rating: stop (``above``) before a step rated above this; the step that
            would come next is still listed, last.
    """
    deadline = None if time_limit is None else time.process_time() + time_limit
    steps: list[Step] = []
    st: State | None = None
    with compile_deadline(deadline, time.process_time) if deadline else nullcontext():
        try:  # the clock is also read inside long techniques and a type's allowed values
            st = State.start(puzzle, structure(puzzle))
            outcome = _walk(st, steps, max_steps, max_rating)
        except OutOfTime:
            outcome = "timeout"
    if st is None:
        return Explanation((), outcome, {}, "before the first step")
    if outcome == "solved":
        return Explanation(tuple(steps), outcome)
    left = _left(st)
    problem = _contradiction(st)
    if problem is not None:
        return Explanation(tuple(steps), "contradiction", left, problem)
    first = min(left, key=lambda c: (len(left[c]), c))
    where = f"{cell_name(first)} {{{','.join(map(str, left[first]))}}}"
    return Explanation(tuple(steps), outcome, left, where)


def _walk(st: State, steps: list[Step], max_steps: int, max_rating: float | None) -> str:
    """Take steps on ``st`` (appended to ``steps``) until the outcome, which is returned.

    Raises:
        OutOfTime: the deadline in force passed (checked between steps and inside
            the long techniques).
    """
    index = st.puzzle.index
    while len(steps) < max_steps:
        if _contradiction(st) is not None:
            return "contradiction"
        if all(st.placed):
            return "solved"
        check_deadline()
        step = next((s for _, _, find in TECHNIQUES if (s := find(st)) is not None), None)
        if step is None:
            return "stalled"
        steps.append(step)
        if max_rating is not None and step.rating > max_rating:
            return "above"
        st.apply(step, index)
    return "stalled"


def _left(st: State) -> dict[Cell, tuple[int, ...]]:
    values = st.s.values
    return {
        st.s.cells[i]: tuple(values[d] for d in range(len(values)) if st.cand[i] >> d & 1)
        for i in st.open()
    }
