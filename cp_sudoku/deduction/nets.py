"""Forcing nets: assume a candidate, propagate, and read what follows (the last resort).

A *net* follows every consequence of an assumption at once, not one chain: the
assumption is placed on a copy of the grid and propagated to a fixpoint with
:data:`PROPAGATORS` of a level.  If the copy meets a contradiction, the assumption is
false (a contradiction net, Bowman's bingo); if every candidate of a cell (every place
of a value in a full group) leads to the same placement or elimination, that conclusion
holds (cell and unit forcing nets).  Sudoku Explainer rates these Dynamic Forcing Chains
8.5 and, when the propagation itself uses forcing chains, 9.0 and up (its *nested*
levels); here level 1 propagates singles (8.5), level 2 also locked candidates and pairs
(9.0), and level 3 also removes, inside the branch, each candidate whose own level-1 net
fails (9.5), each plus the length bonus over the propagation's steps.
"""

from __future__ import annotations

from collections.abc import Callable

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.deduction import basic
from cp_sudoku.deduction.chains import length_bonus
from cp_sudoku.deduction.state import State, Step, bits
from cp_sudoku.model import cell_name

#: The techniques level 2 propagates with, besides singles.
_LEVEL2: tuple[Callable[[State], Step | None], ...] = (
    basic.locked_candidates(True),
    basic.locked_candidates(False),
    basic.naked_subset(2, 3.0),
    basic.hidden_subset(2, 3.4),
)


def propagate(st: State, level: int) -> tuple[bool, int]:
    """Apply singles (at level 2 also the :data:`_LEVEL2` techniques, at level 3 also
    level-1 contradiction nets) to a fixpoint on
    ``st``: whether it stayed consistent (False: a cell or a value has no place left),
    and the number of steps taken."""
    steps = 0
    cand, placed, peers = st.cand, st.placed, st.s.peers
    groups, every = list(zip(st.s.full, st.s.masks, strict=True)), st.all
    queue = [i for i in range(len(cand)) if not placed[i] and not cand[i] & (cand[i] - 1)]
    # cells whose candidates changed since the last look for hidden singles: a group
    # none of them is in gives nothing new (-1: look everywhere)
    dirty = -1
    while True:
        while queue:
            i = queue.pop()
            if placed[i]:
                continue
            m = cand[i]
            if not m:
                return False, steps
            placed[i] = True
            steps += 1
            keep = ~m
            for p in peers[i]:
                c = cand[p]
                if c & m:
                    c &= keep
                    cand[p] = c
                    dirty |= 1 << p
                    if not c:
                        return False, steps
                    if not c & (c - 1) and not placed[p]:
                        queue.append(p)
        changed, dirty = dirty, 0
        for group, mask in groups:
            if not changed & mask:
                continue
            once = twice = 0
            for i in group.cells:
                m = cand[i]
                twice |= once & m
                once |= m
            if once != every:
                return False, steps
            single = once & ~twice
            if not single:
                continue
            for i in group.cells:
                hit = cand[i] & single
                if hit and not placed[i]:
                    if hit & (hit - 1):
                        return False, steps  # two values need this one cell
                    cand[i] = hit
                    changed |= 1 << i
                    dirty |= 1 << i
                    queue.append(i)
        if not queue and level >= 2:
            dirty = -1
            for find in _LEVEL2:
                step = find(st)
                if step is not None:
                    st.apply(step, st.puzzle.index)
                    steps += 1
                    queue = [i for i in st.open() if not cand[i] & (cand[i] - 1)]
                    break
        if not queue and level >= 3:
            dirty = -1
            # inside the branch: every candidate whose level-1 net fails is removed
            for i in st.open():
                for d in bits(cand[i]):
                    if not _after(st, i, d, 1)[1]:
                        cand[i] &= ~(1 << d)
                        steps += 1
                        if not cand[i] & (cand[i] - 1):
                            queue.append(i)
            if queue:
                continue
        if not queue:
            return True, steps


def _after(st: State, i: int, d: int, level: int) -> tuple[State, bool, int]:
    check_deadline()
    trial = st.copy()
    trial.place(i, d)
    return (trial, *propagate(trial, level))


def net(level: int) -> Callable[[State], Step | None]:
    """The finder of forcing nets of ``level`` (1 to 3): the shortest contradiction net,
    else the cell or unit forcing net with the fewest propagation steps."""
    base = 8.0 + 0.5 * level
    technique = {1: "forcing net", 2: "forcing net (nested)", 3: "forcing net (nested twice)"}[
        level
    ]

    def find(st: State) -> Step | None:
        outcomes: dict[tuple[int, int], tuple[State, bool, int]] = {}
        for i in st.open():
            for d in bits(st.cand[i]):
                outcomes[(i, d)] = _after(st, i, d, level)
        failed = [(steps, i, d) for (i, d), (_, ok, steps) in outcomes.items() if not ok]
        if failed:
            rating = base + length_bonus(min(failed)[0] + 2)
            # every contradiction of the lowest rating, in one step
            chosen = sorted(
                (i, d) for steps, i, d in failed if base + length_bonus(steps + 2) <= rating
            )
            text = (
                "contradiction net: "
                + ", ".join(f"{st.value(d)} at {cell_name(st.s.cells[i])}" for i, d in chosen)
                + " each lead, by propagation, to a cell or a value with no place left"
            )
            removes = tuple((st.s.cells[i], st.s.values[d]) for i, d in chosen)
            cells = sorted({i for i, _ in chosen})
            digits = sorted({d for _, d in chosen})
            return st.step(technique, rating, cells, digits, text, removes=removes)
        best: tuple[float, Step] | None = None
        cand = st.cand
        for where, starts in st.alternatives():
            states = [outcomes[start] for start in starts]
            union = states[0][0].cand
            for trial, _, _ in states[1:]:
                union = [a | b for a, b in zip(union, trial.cand, strict=True)]
            # what every branch says of each open cell it changes
            common = [_common(cand[i], union[i], i) for i in st.open() if union[i] != cand[i]]
            removes = tuple(
                (st.s.cells[i], st.s.values[d]) for i, _, gone in common for d in bits(gone)
            )
            places = [(i, digit) for i, digit, _ in common if digit is not None]
            if not (removes or places):
                continue
            rating = base + length_bonus(sum(steps for _, _, steps in states) + 2)
            if best is not None and rating >= best[0]:
                continue
            text = (
                f"forcing net from every option of {st.option_name(where)}: each leads to the "
                "same result"
            )
            cells = [i for i, _ in starts]
            digits = sorted({d for _, d in starts})
            step = st.step(technique, rating, cells, digits, text, removes=removes, places=places)
            best = (rating, step)
        return best[1] if best else None

    return find


def _common(before: int, union: int, i: int) -> tuple[int, int | None, int]:
    """What every branch says of cell ``i`` (``before`` its candidates, ``union`` all the
    branches' together): ``i``, the digit placed in all (or None), and the candidates
    removed in all."""
    gone = before & ~union
    placed = None
    if union.bit_count() == 1 and before != union:
        placed = union.bit_length() - 1
    return i, placed, gone
