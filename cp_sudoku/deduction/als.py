"""ALS-XZ: two almost locked sets joined by a restricted common value.

An *almost locked set* (ALS) is ``k`` open cells of one group holding ``k + 1``
candidates between them.  Two disjoint ALSs A and B with a *restricted common* value x
(every x of A sees every x of B, so x is not in both) cannot both lose x; so one of
them is locked without x, and any other common value z is then true in A or in B:
z leaves every cell that sees all the z of A and of B (Sudopedia, HoDoKu).  Rated 7.0,
at a short Sudoku Explainer forcing chain (SE has no ALS).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.deduction.groups import Group
from cp_sudoku.deduction.state import State, Step, bits

#: ALSs of at most this many cells are tried (the count of pairs grows fast past it).
MAX_CELLS = 4


@dataclass(frozen=True)
class _Als:
    cells: int  # bit set over cell indices
    mask: int  # its candidates
    where: str
    holders: dict[int, int]  # digit -> its cells holding it (bit set)
    seeing: dict[int, int]  # digit -> the cells outside seeing every holder (bit set)


def _sets(st: State) -> list[_Als]:
    """Every ALS, each once (with the first group holding it); a group's are found once
    per content of its cells."""
    cand, placed = st.cand, st.placed
    known = st.shared.setdefault("als", {})
    found: dict[int, _Als] = {}
    for k, (group, contents) in enumerate(zip(st.s.groups, st.contents(False), strict=True)):
        key = (k, contents(cand), contents(placed))
        sets = known.get(key)
        if sets is None:
            sets = known[key] = _group_sets(st, group)
        for als in sets:
            found.setdefault(als.cells, als)
    return list(found.values())


def _group_sets(st: State, group: Group) -> list[_Als]:
    cand, peer_masks = st.cand, st.s.peer_masks
    found: list[_Als] = []
    open_cells = [i for i in group.cells if not st.placed[i]]
    for size in range(1, min(MAX_CELLS, len(open_cells) - 1) + 1):
        for chosen in combinations(open_cells, size):
            mask = 0
            for i in chosen:
                mask |= cand[i]
            if mask.bit_count() != size + 1:
                continue
            cells = sum(1 << i for i in chosen)
            holders: dict[int, int] = {}
            seeing: dict[int, int] = {}
            for d in bits(mask):
                held = [i for i in chosen if cand[i] >> d & 1]
                holders[d] = sum(1 << i for i in held)
                see = -1
                for i in held:
                    see &= peer_masks[i]
                seeing[d] = see & ~cells
            found.append(_Als(cells, mask, group.name, holders, seeing))
    return found


def als_xz(st: State) -> Step | None:
    """The first ALS-XZ that removes a candidate (ALSs in group order, pairs in that
    order, x then z ascending)."""
    digit_cells = st.digit_cells()
    by_digit: dict[int, list[tuple[_Als, int]]] = {}
    for als in _sets(st):
        # the values z for which some cell outside sees all of this ALS's z
        useful = 0
        for d, see in als.seeing.items():
            if see & digit_cells[d]:
                useful |= 1 << d
        for d in bits(als.mask):
            by_digit.setdefault(d, []).append((als, useful))
    for x, holding in sorted(by_digit.items()):
        check_deadline()
        # B's x must all see A's x: index each B by the lowest cell holding its x
        lowest: dict[int, list[int]] = {}
        for p, (b, _) in enumerate(holding):
            held = b.holders[x]
            lowest.setdefault((held & -held).bit_length() - 1, []).append(p)
        lows = sum(1 << c for c in lowest)
        not_x = ~(1 << x)
        for a, a_useful in holding:
            a_zs = a.mask & a_useful & not_x
            if not a_zs:
                continue
            a_cells, a_see = a.cells, a.seeing[x]
            near = [p for c in bits(a_see & lows) for p in lowest[c]]
            near.sort()
            for p in near:
                b, b_useful = holding[p]
                zs = a_zs & b.mask & b_useful
                if not zs or a_cells & b.cells or b.holders[x] & ~a_see:
                    continue
                for z in bits(zs):
                    targets = a.seeing[z] & b.seeing[z] & digit_cells[z]
                    if not targets:
                        continue
                    removes = st.removals(bits(targets), 1 << z)
                    text = (
                        f"ALS {st.names(bits(a.cells))} {st.values_text(a.mask)} in {a.where} "
                        f"and ALS {st.names(bits(b.cells))} {st.values_text(b.mask)} in "
                        f"{b.where}, restricted common {st.value(x)}: {st.value(z)} is in one "
                        "of them"
                    )
                    cells = bits(a.cells | b.cells)
                    return st.step("ALS-XZ", 7.0, cells, [x, z], text, removes=removes)
    return None
