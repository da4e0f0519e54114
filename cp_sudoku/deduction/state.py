"""The candidate grid the techniques read, and the step they return.

Candidates are bit masks, one per cell (``Puzzle.cells`` order): bit ``k`` stands for
``values[k]``.  Techniques work on cell indices and bit positions (*digits*) and say what
they found as a :class:`Step` in the puzzle's own terms (cells, values).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, TypeVar, cast

from cp_sudoku.deduction.groups import Group, Structure
from cp_sudoku.model import Cell, Puzzle, cell_name

#: The value a :meth:`State.per_grid` memo holds.
T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One deduction: its technique and rating, the cells and values it uses, what it
    places and removes.

    ``places`` and ``removes`` hold ``(cell, value)`` pairs; placing a value also
    removes it from the cell's group peers (not listed).  ``rating`` is on Sudoku
    Explainer's scale (1.0 .. about 10).  ``text`` says it in words, cells as rXcY.
    """

    technique: str
    rating: float
    cells: tuple[Cell, ...]
    values: tuple[int, ...]
    places: tuple[tuple[Cell, int], ...]
    removes: tuple[tuple[Cell, int], ...]
    text: str

    def record(self) -> dict[str, Any]:
        """The step as JSON-ready values (cells as rXcY)."""
        return {
            "technique": self.technique,
            "rating": self.rating,
            "cells": [cell_name(c) for c in self.cells],
            "values": list(self.values),
            "places": [[cell_name(c), v] for c, v in self.places],
            "removes": [[cell_name(c), v] for c, v in self.removes],
            "text": self.text,
        }


#: bits() of every mask below _SMALL, filled as they are met (candidate masks repeat).
_SMALL = 1 << 16
_SMALL_BITS: dict[int, tuple[int, ...]] = {}


def bits(mask: int) -> Sequence[int]:
    """The positions of the set bits of ``mask``, lowest first (do not mutate: small
    masks share one cached tuple)."""
    if mask < _SMALL:
        known = _SMALL_BITS.get(mask)
        if known is None:
            known = _SMALL_BITS[mask] = tuple(_positions(mask))
        return known
    return _positions(mask)


def _positions(mask: int) -> list[int]:
    found = []
    while mask:
        high = mask.bit_length() - 1
        found.append(high)
        mask ^= 1 << high
    found.reverse()
    return found


@dataclass(frozen=True)
class Changes:
    """What changed between two candidate grids: the cells whose candidates or placed
    flag differ, and the earlier grid's candidates and flags (:meth:`State.per_grid`)."""

    cells: list[int]
    cand: tuple[int, ...]
    placed: tuple[bool, ...]


#: What a set of alternatives is: a cell (index), or a digit in a full group.
Option = int | tuple[int, Group]


class State:
    """The candidate grid: ``cand[i]`` is cell ``i``'s mask; ``placed[i]`` whether its
    value is settled (and removed from its peers)."""

    def __init__(
        self,
        puzzle: Puzzle,
        s: Structure,
        cand: list[int],
        placed: list[bool],
        shared: dict[Any, Any] | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.s = s
        self.cand = cand
        self.placed = placed
        self.all = (1 << len(s.values)) - 1
        #: what a technique remembers between calls (cleared by a copy)
        self.memo: dict[str, Any] = {}
        #: what holds in every state of this puzzle, so copies share it: facts keyed by
        #: the candidates they depend on (:meth:`barren`), readers of the structure
        self.shared: dict[Any, Any] = {} if shared is None else shared

    @classmethod
    def start(cls, puzzle: Puzzle, s: Structure) -> State:
        """Every value everywhere, then the givens placed."""
        every = (1 << len(s.values)) - 1
        state = cls(puzzle, s, [every] * len(s.cells), [False] * len(s.cells))
        index, first = puzzle.index, s.values[0]
        for cell, value in puzzle.givens.items():
            state.place(index[cell], value - first)
        return state

    def copy(self) -> State:
        return State(self.puzzle, self.s, list(self.cand), list(self.placed), self.shared)

    def place(self, i: int, digit: int) -> None:
        bit = 1 << digit
        self.cand[i] = bit
        self.placed[i] = True
        cand = self.cand
        for p in self.s.peers[i]:
            cand[p] &= ~bit

    def apply(self, step: Step, index: Mapping[Cell, int]) -> None:
        first = self.s.values[0]
        for cell, value in step.removes:
            self.cand[index[cell]] &= ~(1 << (value - first))
        for cell, value in step.places:
            self.place(index[cell], value - first)

    def alternatives(self) -> list[tuple[Option, list[tuple[int, int]]]]:
        """The sets of ``(cell, digit)`` options of which one must hold, each with what it
        is (:meth:`option_name` says it in words): every open cell's candidates (the
        cell), every value's places in a full group (digit and group); the branches of
        forcing chains and nets."""
        found: list[tuple[Option, list[tuple[int, int]]]] = []
        cand = self.cand
        for i in self.open():
            m = cand[i]
            if m & (m - 1):
                found.append((i, [(i, d) for d in bits(m)]))
        digit_cells, placed_cells = self._digit_sets()
        ascending = self.shared.get("ascending groups")
        if ascending is None:
            ascending = self.shared["ascending groups"] = [
                list(g.cells) == sorted(g.cells) for g in self.s.full
            ]
        for k, group in enumerate(self.s.full):
            home = self.s.masks[k]
            for d, cells in enumerate(digit_cells):
                places = cells & home
                if not places & (places - 1) or placed_cells[d] & home:
                    continue  # fewer than two places, or placed there
                if ascending[k]:
                    found.append(((d, group), [(i, d) for i in bits(places)]))
                else:  # in the group's order
                    found.append(((d, group), [(i, d) for i in group.cells if places >> i & 1]))
        return found

    def option_name(self, option: Option) -> str:
        """``r1c2`` for a cell's candidates, ``5 in row 3`` for a value's places."""
        if isinstance(option, int):
            return cell_name(self.s.cells[option])
        digit, group = option
        return f"{self.value(digit)} in {group.name}"

    def digit_cells(self) -> tuple[int, ...]:
        """Per digit, the open cells that may take it, as a bit set over cell indices."""
        return self._digit_sets()[0]

    def placed_cells(self) -> tuple[int, ...]:
        """Per digit, the cells where it is placed, as a bit set over cell indices."""
        return self._digit_sets()[1]

    def _digit_sets(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(digit_cells, placed_cells), computed once per candidate grid (from the last
        grid's, for the cells that changed)."""
        return self.per_grid("digit sets", self._count_digits, self._recount_digits)

    def _count_digits(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        found = [0] * len(self.s.values)
        done = [0] * len(self.s.values)
        placed = self.placed
        for i, m in enumerate(self.cand):
            into, cell = done if placed[i] else found, 1 << i
            for d in _SMALL_BITS.get(m) or bits(m):
                into[d] |= cell
        return tuple(found), tuple(done)

    def _recount_digits(
        self, old: tuple[tuple[int, ...], tuple[int, ...]], since: Changes
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        found, done = list(old[0]), list(old[1])
        cand, placed = self.cand, self.placed
        for i in since.cells:
            cell = 1 << i
            into = done if since.placed[i] else found
            for d in bits(since.cand[i]):
                into[d] &= ~cell
            into = done if placed[i] else found
            for d in bits(cand[i]):
                into[d] |= cell
        return tuple(found), tuple(done)

    def per_grid(
        self,
        name: str,
        compute: Callable[[], T],
        update: Callable[[T, Changes], T] | None = None,
    ) -> T:
        """``compute()``, once per candidate grid (kept in :attr:`memo` under ``name``);
        with ``update``, ``update(value, changes)`` from the value of the grid it was
        last asked in and what changed since (:class:`Changes`)."""
        cand, placed = tuple(self.cand), tuple(self.placed)
        known = self.memo.get(name)
        if known is None:
            value = compute()
        else:
            old_cand, old_placed, old = cast("tuple[tuple[int, ...], tuple[bool, ...], T]", known)
            if old_cand == cand and old_placed == placed:
                return old
            if update is None:
                value = compute()
            else:
                cells = [
                    i
                    for i, a, b, p, q in zip(
                        range(len(cand)), old_cand, cand, old_placed, placed, strict=True
                    )
                    if a != b or p != q
                ]
                value = update(old, Changes(cells, old_cand, old_placed))
        self.memo[name] = (cand, placed, value)
        return value

    def since(self, name: str) -> Any:
        """What :meth:`remember` kept under ``name`` at an earlier grid of which this one
        is a narrowing (no candidate added, no placed cell reopened), else None: a finder
        that found nothing there may skip what cannot have changed since."""
        known = self.memo.get(name)
        if known is None:
            return None
        old_cand, old_placed, value = known
        for now, then in zip(self.cand, old_cand, strict=True):
            if now & ~then:
                return None
        for now, then in zip(self.placed, old_placed, strict=True):
            if then and not now:
                return None
        return value

    def remember(self, name: str, value: Any) -> None:
        """Keep ``value`` for :meth:`since` in this grid's narrowings."""
        self.memo[name] = (tuple(self.cand), tuple(self.placed), value)

    def barren(self, finder: object) -> set[Any]:
        """The keys a finder recorded as giving no step: each key stands for the
        candidates that part of its search reads (a :meth:`group_ids` id, say), so the
        record is true in every state."""
        found = self.shared.get(finder)
        if found is None:
            found = self.shared[finder] = set()
        return found

    def group_ids(self, full: bool) -> list[int]:
        """Per group (per full group if ``full``): a number for its content (its cells'
        candidates and whether each is placed), the same in every state of this puzzle
        for the same group and content, and different for another group or content."""
        if not full and self._all_full():
            full = True  # the same groups: one numbering serves both
        return self.per_grid(
            f"group ids {full}",
            lambda: self._name_groups(full, None),
            lambda old, since: self._name_groups(full, (old, since)),
        )

    def _all_full(self) -> bool:
        found = self.shared.get("all groups full")
        if found is None:
            found = self.shared["all groups full"] = self.s.groups == self.s.full
        return found

    def _name_groups(self, full: bool, before: tuple[list[int], Changes] | None) -> list[int]:
        """The numbers of :meth:`group_ids`; ``before``: those of an earlier grid and what
        changed since (a group none of whose cells changed keeps its number)."""
        key = ("group contents", full)
        known = self.shared.get(key)
        if known is None:
            groups = self.s.full if full else self.s.groups
            # the first cell once more, so that a one-cell group gives a tuple too
            getters = [itemgetter(*g.cells, g.cells[0]) for g in groups]
            numbers: dict[tuple[int, object, object], int] = {}  # content -> its number
            known = self.shared[key] = (getters, [g.mask for g in groups], numbers)
        getters, masks, ids = known
        cand, placed = self.cand, self.placed
        if before is None:
            found, changed = [-1] * len(getters), -1
        else:
            found, changed = list(before[0]), 0
            for i in before[1].cells:
                changed |= 1 << i
        for k, contents in enumerate(getters):
            if not masks[k] & changed:
                continue
            content = (k, contents(cand), contents(placed))
            number = ids.get(content)
            if number is None:
                number = ids[content] = len(ids)
            found[k] = number
        return found

    def open(self) -> list[int]:
        placed = self.placed
        return [i for i in range(len(placed)) if not placed[i]]

    def placed_mask(self, group: Group) -> int:
        """The digits placed in ``group``."""
        mask = 0
        for i in group.cells:
            if self.placed[i]:
                mask |= self.cand[i]
        return mask

    def where(self, group: Group, digit: int) -> list[int]:
        """The open cells of ``group`` that may take ``digit``."""
        bit, cand, placed = 1 << digit, self.cand, self.placed
        return [i for i in group.cells if cand[i] & bit and not placed[i]]

    # ---- words: techniques describe their findings with these

    def cell(self, i: int) -> Cell:
        return self.s.cells[i]

    def value(self, digit: int) -> int:
        return self.s.values[digit]

    def names(self, cells: Iterable[int]) -> str:
        return ",".join(cell_name(self.s.cells[i]) for i in cells)

    def values_text(self, mask: int) -> str:
        return "{" + ",".join(str(self.s.values[d]) for d in bits(mask)) + "}"

    def removals(self, cells: Iterable[int], mask: int) -> tuple[tuple[Cell, int], ...]:
        """``(cell, value)`` for each candidate of ``mask`` that an open cell of ``cells`` holds."""
        return tuple(
            (self.s.cells[i], self.s.values[d])
            for i in sorted(cells)
            if not self.placed[i]
            for d in bits(self.cand[i] & mask)
        )

    def removals_each(
        self, cells: Sequence[int], masks: Sequence[int]
    ) -> tuple[tuple[Cell, int], ...]:
        """``(cell, value)`` for each candidate of ``masks[k]`` that open ``cells[k]`` holds."""
        return tuple(
            (self.s.cells[i], self.s.values[d])
            for i, m in zip(cells, masks, strict=True)
            if not self.placed[i]
            for d in bits(self.cand[i] & m)
        )

    def step(
        self,
        technique: str,
        rating: float,
        cells: Sequence[int],
        digits: Iterable[int],
        text: str,
        *,
        removes: tuple[tuple[Cell, int], ...] = (),
        places: Sequence[tuple[int, int]] = (),
    ) -> Step:
        """A :class:`Step` from cell indices and digits; ``text`` gets the removals appended."""
        if removes:
            text += "; removes " + ", ".join(f"{v} from {cell_name(c)}" for c, v in removes)
        return Step(
            technique,
            round(rating, 1),
            tuple(self.s.cells[i] for i in cells),
            tuple(self.s.values[d] for d in digits),
            tuple((self.s.cells[i], self.s.values[d]) for i, d in places),
            removes,
            text,
        )
