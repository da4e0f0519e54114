"""ALS-XZ: two almost locked sets joined by a restricted common value.

An *almost locked set* (ALS) is ``k`` open cells of one group holding ``k + 1``
candidates between them.  Two disjoint ALSs A and B with a *restricted common* value x
(every x of A sees every x of B, so x is not in both) cannot both lose x; so one of
them is locked without x, and any other common value z is then true in A or in B:
z leaves every cell that sees all the z of A and of B (Sudopedia, HoDoKu).  Rated 7.0,
at a short Sudoku Explainer forcing chain (SE has no ALS).
"""

from __future__ import annotations

from bisect import bisect_right
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
    content: tuple[int, tuple[int, ...]]  # its cells and their candidates


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
    cand, placed = st.cand, st.placed
    open_cells = [i for i in group.cells if not placed[i]]
    top = min(MAX_CELLS, len(open_cells) - 1)
    by_size: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(top + 1)]
    if top >= 1:
        # a cell with more values than the largest ALS has is in none
        fitting = [i for i in open_cells if cand[i].bit_count() <= top + 1]
        _extend(cand, fitting, 0, (), 0, top, by_size)
    # an ALS depends on its cells' candidates alone: kept per content (and group name)
    made = st.shared.setdefault("als of content", {})
    found: list[_Als] = []
    for size_sets in by_size:
        for chosen, mask in size_sets:
            content_key = (group.name, chosen, tuple(cand[i] for i in chosen))
            als = made.get(content_key)
            if als is None:
                als = made[content_key] = _make(st, group, chosen, mask)
            found.append(als)
    return found


def _make(st: State, group: Group, chosen: tuple[int, ...], mask: int) -> _Als:
    cand, peer_masks = st.cand, st.s.peer_masks
    cells = 0
    for i in chosen:
        cells |= 1 << i
    holders: dict[int, int] = {}
    seeing: dict[int, int] = {}
    for d in bits(mask):
        holders[d] = 0
        seeing[d] = ~cells
    for i in chosen:
        cell, peers = 1 << i, peer_masks[i]
        for d in bits(cand[i]):
            holders[d] |= cell
            seeing[d] &= peers
    content = (cells, tuple(cand[i] for i in chosen))
    return _Als(cells, mask, group.name, holders, seeing, content)


def _extend(
    cand: list[int],
    cells: list[int],
    start: int,
    chosen: tuple[int, ...],
    union: int,
    top: int,
    by_size: list[list[tuple[tuple[int, ...], int]]],
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
            by_size[len(grown)].append((grown, mask))
        if len(grown) < top:
            _extend(cand, cells, j + 1, grown, mask, top, by_size)


def als_xz(st: State) -> Step | None:
    """The first ALS-XZ that removes a candidate (ALSs in group order, pairs in that
    order, x then z ascending).

    Every pair is tried, past the first that removes something, to know which ALSs are
    in none that does: a pair of such ALSs still present, with the same candidates, in a
    later grid gives none there either (the same restricted commons, fewer targets), so
    a later call tries only the pairs with another ALS."""
    digit_cells = st.digit_cells()
    sets = _sets(st)
    settled = st.since("als-xz settled") or frozenset()
    by_digit: dict[int, list[tuple[_Als, int, bool]]] = {}
    for als in sets:
        # the values z for which some cell outside sees all of this ALS's z
        useful = 0
        for d, see in als.seeing.items():
            if see & digit_cells[d]:
                useful |= 1 << d
        fresh = als.content not in settled
        for d in bits(als.mask):
            by_digit.setdefault(d, []).append((als, useful, fresh))
    first: tuple[_Als, _Als, int, int, int] | None = None
    productive: set[tuple[int, tuple[int, ...]]] = set()
    for x, holding in sorted(by_digit.items()):
        check_deadline()
        # B's x must all see A's x: index each B by the lowest cell holding its x, for
        # every B (the partners of a new A) and for the new ones (those of an old A)
        lowest: dict[int, list[int]] = {}
        lowest_fresh: dict[int, list[int]] = {}
        lows = lows_fresh = 0
        for p, (b, _, fresh) in enumerate(holding):
            held = b.holders[x]
            c = (held & -held).bit_length() - 1
            lowest.setdefault(c, []).append(p)
            lows |= 1 << c
            if fresh:
                lowest_fresh.setdefault(c, []).append(p)
                lows_fresh |= 1 << c
        not_x = ~(1 << x)
        # a pair and its reverse give the same removals: the first pair met has A first
        for q, (a, a_useful, a_fresh) in enumerate(holding):
            a_zs = a.mask & a_useful & not_x
            a_cells, a_see = a.cells, a.seeing[x]
            index, seen = (lowest, a_see & lows) if a_fresh else (lowest_fresh, a_see & lows_fresh)
            if not a_zs or not seen:
                continue
            near = []
            while seen:  # the bits of seen, highest first
                c = seen.bit_length() - 1
                partners = index[c]
                near.extend(partners[bisect_right(partners, q) :])
                seen ^= 1 << c
            near.sort()
            for p in near:
                b, b_useful, _ = holding[p]
                zs = a_zs & b.mask & b_useful
                if not zs or a_cells & b.cells or b.holders[x] & ~a_see:
                    continue
                for z in bits(zs):
                    targets = a.seeing[z] & b.seeing[z] & digit_cells[z]
                    if targets:
                        if first is None:
                            first = (a, b, x, z, targets)
                        productive.add(a.content)
                        productive.add(b.content)
                        break
    st.remember("als-xz settled", frozenset(als.content for als in sets) - productive)
    if first is None:
        return None
    a, b, x, z, targets = first
    removes = st.removals(bits(targets), 1 << z)
    text = (
        f"ALS {st.names(bits(a.cells))} {st.values_text(a.mask)} in {a.where} "
        f"and ALS {st.names(bits(b.cells))} {st.values_text(b.mask)} in "
        f"{b.where}, restricted common {st.value(x)}: {st.value(z)} is in one "
        "of them"
    )
    cells = bits(a.cells | b.cells)
    return st.step("ALS-XZ", 7.0, cells, [x, z], text, removes=removes)
