"""The one definition of groups and peers that the deduction engine, singles and the
backtracker read.

A *group* is a set of cells whose values all differ: every unit (row, column, box,
region, diagonal, run ...) and every other constraint whose values are distinct (a
Killer cage).  A group is *full* when it has as many cells as there are values: then
each value has exactly one place in it (hidden singles, locked candidates and fish
reason only in full groups).  Two cells are *group peers* when some group holds both.
:attr:`cp_sudoku.model.Puzzle.peers` is the base definition over units only.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from cp_sudoku.constraints.base import check_deadline, checked
from cp_sudoku.model import Cell, Constraint, Puzzle, Unit


@dataclass(frozen=True)
class Group:
    """Cells whose values differ: ``cells`` as indices into ``Puzzle.cells``.

    ``name`` is how messages call it (``row 1``, ``box 5``, ``killer cage r1c1+r1c2=3``);
    ``role`` is the unit's role (``row``, ``column``, ``box``, ``region`` ...) or
    ``""``; ``full`` says it holds every value.
    """

    name: str
    cells: tuple[int, ...]
    role: str
    full: bool

    @property
    def mask(self) -> int:
        """The cells as a bit set over cell indices."""
        return sum(1 << i for i in self.cells)


@dataclass(frozen=True)
class Structure:
    """What the deduction engine reads of a puzzle, its givens aside.

    - ``cells``: ``Puzzle.cells`` (row-major); everything else names cells by index;
    - ``values``: the values, in order (bit ``k`` of a candidate mask is ``values[k]``);
    - ``groups`` (all of them) and ``full`` (the full ones);
    - ``peers``: per cell, the indices of its group peers;
    - ``houses``: per cell, the full groups it is in;
    - ``rules``: the constraints that are not units (cages, relations, clues), reasoned
      about through the values they allow;
    - ``masks``: per full group, its cells as a bit set; ``crossings``: per full group,
      the other full groups sharing at least two of its cells;
    - ``peer_masks``: per cell, its group peers as a bit set over cell indices.
    """

    cells: tuple[Cell, ...]
    values: tuple[int, ...]
    groups: tuple[Group, ...]
    full: tuple[Group, ...]
    peers: tuple[frozenset[int], ...]
    houses: tuple[tuple[Group, ...], ...]
    rules: tuple[Constraint, ...]
    masks: tuple[int, ...] = ()
    crossings: tuple[tuple[int, ...], ...] = ()
    peer_masks: tuple[int, ...] = ()


_CACHE: dict[tuple[object, ...], Structure] = {}
_KEPT = 64
_LOCK = threading.Lock()


def structure(puzzle: Puzzle) -> Structure:
    """The :class:`Structure` of ``puzzle``, shared by puzzles with the same rules."""
    key = (puzzle.cells, puzzle.constraints, puzzle.min_value, puzzle.max_value)
    found = _CACHE.get(key)
    if found is not None:
        return found
    index = puzzle.index
    values = tuple(puzzle.values)
    groups = tuple(
        Group(
            getattr(c, "name", "") or c.describe(),
            tuple(index[cell] for cell in c.cells),
            getattr(c, "role", ""),
            len(c.cells) == len(values),
        )
        for c in puzzle.constraints
        if c.distinct_values
    )
    members: list[set[int]] = [set() for _ in puzzle.cells]
    houses: list[list[Group]] = [[] for _ in puzzle.cells]
    for group in groups:
        check_deadline()  # a 100 x 100 grid's peers take a second: a time limit holds
        for i in group.cells:
            members[i].update(group.cells)
            if group.full:
                houses[i].append(group)
    full = tuple(g for g in groups if g.full)
    masks = tuple(g.mask for g in full)
    crossings = tuple(
        checked(
            tuple(
                k
                for k, other in enumerate(masks)
                if other != mask and (other & mask).bit_count() > 1
            )
        )
        for mask in masks
    )
    found = Structure(
        cells=puzzle.cells,
        values=values,
        groups=groups,
        full=full,
        masks=masks,
        crossings=crossings,
        peers=tuple(checked(frozenset(m - {i})) for i, m in enumerate(members)),
        peer_masks=tuple(checked(sum(1 << p for p in m - {i})) for i, m in enumerate(members)),
        houses=tuple(tuple(h) for h in houses),
        rules=tuple(c for c in puzzle.constraints if not isinstance(c, Unit)),
    )
    with _LOCK:
        if len(_CACHE) >= _KEPT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def group_peers(puzzle: Puzzle) -> tuple[frozenset[int], ...]:
    """Per cell index (``Puzzle.cells`` order): the indices of the cells sharing a group."""
    return structure(puzzle).peers
