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
    known = st.shared.setdefault("als", {})
    found: dict[int, _Als] = {}
    for group, key in zip(st.s.groups, st.group_ids(False), strict=True):
        sets = known.get(key)
        if sets is None:
            sets = known[key] = _group_sets(st, group)
        for als in sets:
            found.setdefault(als.cells, als)
    return list(found.values())


def _group_sets(st: State, group: Group) -> list[_Als]:
    """The ALSs of one group, by size, each size's in the order of ``combinations``."""
    cand, peer_masks = st.cand, st.s.peer_masks
    open_cells = [i for i in group.cells if not st.placed[i]]
    top = min(MAX_CELLS, len(open_cells) - 1)
    by_size: list[list[tuple[int, ...]]] = [[] for _ in range(top + 1)]
    if top >= 1:
        # a cell with more values than the largest ALS has is in none
        fitting = [i for i in open_cells if cand[i].bit_count() <= top + 1]
        _extend(cand, fitting, 0, (), 0, top, by_size)
    digit_cells = st.digit_cells()
    found: list[_Als] = []
    for size_sets in by_size:
        for chosen in size_sets:
            mask = 0
            cells = 0
            for i in chosen:
                mask |= cand[i]
                cells |= 1 << i
            holders: dict[int, int] = {}
            seeing: dict[int, int] = {}
            for d in bits(mask):
                held = holders[d] = cells & digit_cells[d]
                see = ~cells
                for i in bits(held):
                    see &= peer_masks[i]
                seeing[d] = see
            found.append(_Als(cells, mask, group.name, holders, seeing))
    return found


def _extend(
    cand: list[int],
    cells: list[int],
    start: int,
    chosen: tuple[int, ...],
    union: int,
    top: int,
    by_size: list[list[tuple[int, ...]]],
) -> None:
    """Depth first in prefix order, so each size's sets come out as ``combinations``
    gives them: every ALS of at most ``top`` cells extending ``chosen`` (values
    ``union``) with cells from ``cells[start:]``, into ``by_size``."""
    for j in range(start, len(cells)):
        i = cells[j]
        mask = union | cand[i]
        if mask.bit_count() > top + 1:
            continue  # more cells only add values
        grown = (*chosen, i)
        if mask.bit_count() == len(grown) + 1:
            by_size[len(grown)].append(grown)
        if len(grown) < top:
            _extend(cand, cells, j + 1, grown, mask, top, by_size)


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
        # a pair and its reverse give the same removals: the first pair met has A first
        for q, (a, a_useful) in enumerate(holding):
            a_zs = a.mask & a_useful & not_x
            a_cells, a_see = a.cells, a.seeing[x]
            if not a_zs or not a_see & lows:
                continue
            near = []
            seen = a_see & lows
            while seen:  # the bits of seen, highest first
                c = seen.bit_length() - 1
                near.extend(p for p in lowest[c] if p > q)
                seen ^= 1 << c
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
