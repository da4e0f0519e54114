"""The basic techniques: singles, constraint tuples, locked candidates, subsets, fish, wings.

Definitions are Sudopedia's and HoDoKu's; ratings are Sudoku Explainer's (Juillerat).
Each finder takes a :class:`~cp_sudoku.deduction.state.State` and returns the first
:class:`~cp_sudoku.deduction.state.Step` it finds, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from cp_sudoku.constraints import TableTooLarge
from cp_sudoku.deduction.groups import Group
from cp_sudoku.deduction.state import State, Step, bits
from cp_sudoku.encodings.sums import digit_sets, is_distinct_sum
from cp_sudoku.model import Cage, Constraint

Finder = Callable[[State], "Step | None"]
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
#: Constraints are enumerated only up to this many cells (distinct sums at any size).
ENUMERATED_CELLS = 6
#: The roles whose units are boxes: a hidden single there rates 1.2, pointing starts there.
BOX_ROLES = ("box", "region")


def _once(st: State, group: Group) -> int:
    """The digits with exactly one open place in ``group``, none placed there."""
    once = twice = placed = 0
    cand, done = st.cand, st.placed
    for i in group.cells:
        m = cand[i]
        if done[i]:
            placed |= m
        else:
            twice |= once & m
            once |= m
    return once & ~twice & ~placed


def hidden_single(boxes: bool) -> Finder:
    """A value with one place in a full group goes there (in boxes 1.2, else 1.5)."""
    rating = 1.2 if boxes else 1.5

    def find(st: State) -> Step | None:
        groups = st.shared.get(find)
        if groups is None:
            groups = st.shared[find] = [g for g in st.s.full if (g.role in BOX_ROLES) == boxes]
        for group in groups:
            single = _once(st, group)
            if single:
                digit = bits(single)[0]
                (i,) = st.where(group, digit)
                text = f"in {group.name}, {st.value(digit)} fits only at {st.names([i])}"
                return st.step("hidden single", rating, [i], [digit], text, places=[(i, digit)])
        return None

    return find


def naked_single(st: State) -> Step | None:
    """A cell with one candidate takes it (2.3)."""
    cand, placed = st.cand, st.placed
    for i in range(len(cand)):
        m = cand[i]
        if not placed[i] and m and not m & (m - 1):
            digit = m.bit_length() - 1
            text = f"{st.names([i])} can only be {st.value(digit)}"
            return st.step("naked single", 2.3, [i], [digit], text, places=[(i, digit)])
    return None


def constraint_tuples(st: State) -> Step | None:
    """Values that no tuple a constraint allows gives a cell are removed (2.4).

    Generic over constraint types: a constraint's ``allowed(domains, differ)``
    enumerates its tuples; distinct sums go through their digit sets.  A constraint
    already examined with the same candidates is skipped.
    """
    seen = st.memo.setdefault("tuples", {})
    index = st.puzzle.index
    for rule in st.s.rules:
        members = [index[c] for c in rule.cells]
        masks = tuple(st.cand[i] for i in members)
        if seen.get(id(rule)) == masks or all(st.placed[i] for i in members):
            continue
        seen[id(rule)] = masks
        if len(members) > ENUMERATED_CELLS and not (
            isinstance(rule, Cage) and is_distinct_sum(rule)
        ):
            continue
        ok = _allowed(st, rule, masks)
        removes = st.removals_each(members, [m & ~a for m, a in zip(masks, ok, strict=True)])
        if removes:
            technique = "cage combinations" if isinstance(rule, Cage) else "constraint tuples"
            text = f"{rule.describe()}: no combination allows them"
            return st.step(technique, 2.4, members, [], text, removes=removes)
    return None


def _allowed(st: State, rule: Constraint, masks: tuple[int, ...]) -> list[int]:
    """Per cell of ``rule``: the mask of values some allowed tuple gives it."""
    values = st.s.values
    first = values[0]
    ok = [0] * len(masks)
    if isinstance(rule, Cage) and is_distinct_sum(rule):
        for digits in digit_sets(len(masks), rule.target, values[-1]):
            need = 0
            for v in digits:
                need |= 1 << (v - first)
            for i, m in enumerate(masks):
                for d in bits(m & need):
                    rest = [masks[j] & need & ~(1 << d) for j in range(len(masks)) if j != i]
                    if _matches(rest):
                        ok[i] |= 1 << d
        return ok
    domains = [[values[d] for d in bits(m)] for m in masks]
    try:
        rows = rule.allowed_in(st.puzzle, domains)
    except TableTooLarge:  # too many to list: the rule removes nothing here
        return list(masks)
    for row in rows:
        for i, v in enumerate(row):
            ok[i] |= 1 << (v - first)
    return ok


def _matches(masks: list[int]) -> bool:
    """Whether each mask can take a different one of its bits (a perfect matching)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for d in bits(masks[i]):
            if d not in seen:
                seen.add(d)
                if d not in owner or augment(owner[d], seen):
                    owner[d] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(masks)))


def locked_candidates(pointing: bool) -> Finder:
    """A value confined, in a full group, to cells that all lie in another group leaves
    the rest of that group: *pointing* from a box (2.6), *claiming* into one (2.8)."""
    rating = 2.6 if pointing else 2.8
    kind = "pointing" if pointing else "claiming"

    def find(st: State) -> Step | None:
        s = st.s
        digit_cells = st.digit_cells()
        # a digit's places alone decide whether it gives a step
        barren = st.barren(("locked candidates", pointing))
        todo = [
            (digit, cells)
            for digit, cells in enumerate(digit_cells)
            if (digit, cells) not in barren
        ]
        for k, base in enumerate(s.full):
            if (base.role in BOX_ROLES) != pointing:
                continue
            base_mask = s.masks[k]
            for digit, cells in todo:
                places = cells & base_mask
                if places & (places - 1) == 0:
                    continue  # none or one place
                for other in s.crossings[k]:
                    mask = s.masks[other]
                    if places & ~mask or not cells & mask & ~base_mask:
                        continue
                    rest = bits(cells & mask & ~base_mask)
                    removes = st.removals(rest, 1 << digit)
                    held = bits(places)
                    text = (
                        f"in {base.name}, {st.value(digit)} lies only in "
                        f"{st.names(held)}, all in {s.full[other].name}"
                    )
                    name = f"locked candidates ({kind})"
                    return st.step(name, rating, held, [digit], text, removes=removes)
        barren.update(todo)
        return None

    return find


def naked_subset(size: int, rating: float) -> Finder:
    """``size`` cells of a group holding only ``size`` values between them: those values
    leave the group's other cells."""

    def find(st: State) -> Step | None:
        cand, placed = st.cand, st.placed
        barren = st.barren(("naked subset", size))
        for _, group, key in _unsearched(st, barren, full=False):
            open_cells = [i for i in group.cells if not placed[i]]
            small = [i for i in open_cells if 2 <= cand[i].bit_count() <= size]
            if len(small) >= size and len(open_cells) > size:
                for chosen, union in _locked(small, cand, size):
                    removes = st.removals([i for i in open_cells if i not in chosen], union)
                    if removes:
                        text = (
                            f"in {group.name}, {st.names(chosen)} hold only {st.values_text(union)}"
                        )
                        name = f"naked {SUBSET_NAMES[size]}"
                        return st.step(name, rating, chosen, bits(union), text, removes=removes)
            barren.add(key)
        return None

    return find


def _unsearched(st: State, barren: set[Any], full: bool) -> list[tuple[int, Group, int]]:
    """Each group (each full group if ``full``) with its index and its
    :meth:`State.group_ids` id (distinct within a state), but those whose id is in
    ``barren``."""
    groups = enumerate(zip(st.s.full if full else st.s.groups, st.group_ids(full), strict=True))
    return [(k, group, key) for k, (group, key) in groups if key not in barren]


def _locked(
    items: Sequence[int], masks: Mapping[int, int] | Sequence[int], size: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """The ``size``-combinations of ``items`` (in ``combinations``' order) whose masks
    together have exactly ``size`` bits, each with that union."""
    for chosen in combinations(items, size):
        union = 0
        for k in chosen:
            union |= masks[k]
        if union.bit_count() == size:
            yield chosen, union


def hidden_subset(size: int, rating: float) -> Finder:
    """``size`` values with only ``size`` places in a full group: those cells lose their
    other candidates."""

    def find(st: State) -> Step | None:
        barren = st.barren(("hidden subset", size))
        digit_cells, placed_cells = st.digit_cells(), st.placed_cells()
        masks, digits = st.s.masks, len(st.s.values)
        for k, group, key in _unsearched(st, barren, full=True):
            barren.add(key)  # taken back below if the group gives a step
            home = masks[k]
            # digit -> its places (bit set), for the digits not placed in the group
            places = {d: digit_cells[d] & home for d in range(digits) if not placed_cells[d] & home}
            if len(places) <= size:
                continue
            few = [d for d, cells in places.items() if 2 <= cells.bit_count() <= size]
            for chosen, union in _locked(few, places, size):
                cells = bits(union)
                mask = sum(1 << d for d in chosen)
                removes = st.removals(cells, st.all & ~mask)
                if removes:
                    barren.discard(key)
                    text = f"in {group.name}, {st.values_text(mask)} fit only in {st.names(cells)}"
                    name = f"hidden {SUBSET_NAMES[size]}"
                    return st.step(name, rating, cells, chosen, text, removes=removes)
        return None

    return find


def fish(size: int, rating: float) -> Finder:
    """A value confined in ``size`` rows to ``size`` columns leaves those columns' other
    cells (and with rows and columns swapped): X-Wing, Swordfish, Jellyfish."""

    def find(st: State) -> Step | None:
        cells = st.s.cells
        barren = st.barren(("fish", size))
        digit_cells, placed_cells = st.digit_cells(), st.placed_cells()
        for axis, bases, covers, covered in _fish_lines(st):
            if len(bases) < 2 * size or not covers:
                continue
            for digit in range(len(st.s.values)):
                key = (axis, digit, digit_cells[digit], placed_cells[digit])
                if key in barren:
                    continue
                barren.add(key)  # taken back below if the digit gives a step
                lines = [line for count, line in _fish_bases(st, key, bases) if count <= size]
                for chosen in combinations(lines, size):
                    spread = 0
                    for _, _, line in chosen:
                        spread |= line
                    if spread.bit_count() != size or spread & ~covered:
                        continue
                    across = {cells[i][axis] for _, places, _ in chosen for i in places}
                    used = {i for _, places, _ in chosen for i in places}
                    rest = [i for k in across for i in covers[k].cells if i not in used]
                    removes = st.removals(rest, 1 << digit)
                    if removes:
                        barren.discard(key)
                        text = (
                            f"{st.value(digit)} in {', '.join(g.name for g, _, _ in chosen)} lies "
                            f"only in {', '.join(covers[k].name for k in sorted(across))}"
                        )
                        return st.step(
                            FISH_NAMES[size], rating, sorted(used), [digit], text, removes=removes
                        )
        return None

    return find


def _fish_bases(
    st: State, key: tuple[int, int, int, int], bases: list[tuple[Group, int]]
) -> list[tuple[int, tuple[Group, Sequence[int], int]]]:
    """The bases where the digit of ``key`` (axis, digit, its open and placed cells) is
    open with at least two places: each with its count of places and the line of
    :func:`fish` (base, its places, their covers as a bit set); once per key, for the
    three sizes."""
    known = st.shared.setdefault("fish bases", {})
    found: list[tuple[int, tuple[Group, Sequence[int], int]]] | None = known.get(key)
    if found is None:
        axis, _, open_cells, placed_cells = key
        cells = st.s.cells
        found = []
        known[key] = found
        for group, mask in bases:
            places = open_cells & mask
            count = places.bit_count()
            if count >= 2 and not placed_cells & mask:
                held = bits(places)
                spread = 0
                for i in held:
                    spread |= 1 << cells[i][axis]
                found.append((count, (group, held, spread)))
    return found


def _fish_lines(
    st: State,
) -> list[tuple[int, list[tuple[Group, int]], dict[int, Group], int]]:
    """Per orientation: the axis of the covers' coordinate, the bases with their cells
    (bit set), the covers by coordinate and those coordinates as a bit set (once per
    puzzle)."""
    found = st.shared.get("fish lines")
    if found is None:
        full, cells = st.s.full, st.s.cells
        found = st.shared["fish lines"] = []
        for base_role, cover_role, axis in (("row", "column", 1), ("column", "row", 0)):
            bases = [(g, st.s.masks[k]) for k, g in enumerate(full) if g.role == base_role]
            covers = {cells[g.cells[0]][axis]: g for g in full if g.role == cover_role}
            found.append((axis, bases, covers, sum(1 << k for k in covers)))
    return found


def xy_wing(st: State) -> Step | None:
    """A pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves every cell seeing both
    pincers (4.2).  After a grid that gave none, only wings with a cell whose candidates
    changed since are tried (the others are the same wings, with fewer targets)."""
    cand, peers, peer_masks = st.cand, st.s.peers, st.s.peer_masks
    pairs = [i for i in st.open() if cand[i].bit_count() == 2]
    pair_cells = 0
    for i in pairs:
        pair_cells |= 1 << i
    fresh = _changed_cells(st, "xy-wing none")
    for pivot in pairs:
        near = pair_cells & peer_masks[pivot]
        old_pivot = not fresh >> pivot & 1
        if old_pivot and not near & fresh:
            continue
        mp = cand[pivot]
        for a, b in combinations(bits(near), 2):
            if old_pivot and not (fresh >> a | fresh >> b) & 1:
                continue
            ma, mb = cand[a], cand[b]
            z = ma & mb
            if z.bit_count() != 1 or z & mp or (ma | mb) & ~z != mp:
                continue
            seeing = (peers[a] & peers[b]) - {pivot}
            removes = st.removals(seeing, z)
            if removes:
                text = (
                    f"pivot {st.names([pivot])} {st.values_text(mp)} with pincers "
                    f"{st.names([a])} {st.values_text(ma)} and {st.names([b])} "
                    f"{st.values_text(mb)}: one pincer is {st.value(bits(z)[0])}"
                )
                return st.step("XY-Wing", 4.2, [pivot, a, b], bits(mp | z), text, removes=removes)
    st.remember("xy-wing none", tuple(cand))
    return None


def _changed_cells(st: State, name: str) -> int:
    """The cells whose candidates changed since the grid :meth:`State.remember` kept under
    ``name`` (a bit set; every cell when there is none to narrow)."""
    before = st.since(name)
    if before is None:
        return -1
    changed = 0
    for i, (now, then) in enumerate(zip(st.cand, before, strict=True)):
        if now != then:
            changed |= 1 << i
    return changed


def xyz_wing(st: State) -> Step | None:
    """A pivot {x,y,z} seeing pincers {x,z} and {y,z}: z leaves every cell seeing all
    three (4.4)."""
    cand, peers = st.cand, st.s.peers
    fresh = _changed_cells(st, "xyz-wing none")
    for pivot in st.open():
        mp = cand[pivot]
        if mp.bit_count() != 3:
            continue
        near = [i for i in peers[pivot] if cand[i].bit_count() == 2 and cand[i] & ~mp == 0]
        old_pivot = not fresh >> pivot & 1
        for a, b in combinations(near, 2):
            if old_pivot and not (fresh >> a | fresh >> b) & 1:
                continue
            z = cand[a] & cand[b]
            if z.bit_count() != 1 or cand[a] | cand[b] != mp:
                continue
            seeing = peers[a] & peers[b] & peers[pivot]
            removes = st.removals(seeing, z)
            if removes:
                text = (
                    f"pivot {st.names([pivot])} {st.values_text(mp)} with pincers "
                    f"{st.names([a])} and {st.names([b])}: one of the three is "
                    f"{st.value(bits(z)[0])}"
                )
                return st.step("XYZ-Wing", 4.4, [pivot, a, b], bits(mp), text, removes=removes)
    st.remember("xyz-wing none", tuple(cand))
    return None
