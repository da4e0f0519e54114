"""The independent checker: does a grid obey every rule of its puzzle?

Written straight from the rules (each constraint's ``holds``); it shares no
code with any back end, and every grid a back end returns is re-verified here.
For a puzzle of units alone the same rules are first asked at once (:meth:`_Shape.screen`:
integers, the value range, no value twice in a unit), in one pass of a small C extension
(``cp_sudoku/model/_screen.c``, its own: built by ``pip install -e .``) or, without it,
in a few passes of Python's bytes operations; the givens are then compared, and the
rule-by-rule loop names what a grid breaks.  ``tests/test_model.py`` checks both screens
against the rules cell by cell on random and corrupted grids.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from importlib import import_module

from cp_sudoku.constraints import Unit
from cp_sudoku.errors import Cell, cell_name
from cp_sudoku.model.puzzle import Puzzle, Reader


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` (one value per cell, row-major; any sequence) breaks, in words;
    empty if none."""
    if type(grid) is not tuple and type(grid) is not list:  # the screens read these two alone
        grid = tuple(grid)
    if len(grid) != len(puzzle.cells):
        return [f"grid has {len(grid)} values, expected {len(puzzle.cells)}"]
    shape = _shape(puzzle)
    screened = shape.screen(grid)
    if screened is None:
        values, span = puzzle.values, f"{puzzle.min_value}..{puzzle.max_value}"
        return [
            f"{cell_name(cell)} is {v}, outside {span}"
            if type(v) is int
            else f"{cell_name(cell)} is {v!r} ({type(v).__name__}), expected an int in {span}"
            for cell, v in zip(puzzle.cells, grid, strict=True)
            if type(v) is not int or v not in values
        ]
    index = shape.index
    problems = [
        f"{cell_name(cell)} is {grid[index[cell]]}, but the given is {v}"
        for cell, v in puzzle.givens.items()
        if grid[index[cell]] != v
    ]
    if screened:
        return problems  # else the loop below names each unit that repeats a value
    for constraint, read in zip(puzzle.constraints, puzzle.readers, strict=True):
        if not constraint.holds(read(grid)):
            what = constraint.describe()
            broken = "repeats a value" if isinstance(constraint, Unit) else "does not hold"
            problems.append(f"{what} {broken}")
    return problems


class _Shape:
    """What the checker asks of every puzzle of one structure (cells, constraints) and
    value range, made once: the cell index, the values as bytes, and, for a puzzle of
    units alone, its units for the question "does any repeat a value?" (the rule is the
    same: no value twice in a unit): for the C screen, the cell places of each unit;
    without it, for a few passes of bytes operations, as follows.

    The units fall into *layers* of units that cover every cell once (a Sudoku's rows,
    its columns, its boxes).  In a layer, cell ``i`` with value ``v`` in its ``k``-th unit
    has the key ``k * span + v - min_value`` (``span`` values): two cells share a key
    exactly when they are in one unit with one value, so no unit of the layer repeats a
    value exactly when the layer's keys are distinct.  Layers whose keys together fit in
    a byte form a *group* (a 9x9 Sudoku's three layers: 243 keys), each layer's keys
    shifted past those of the layers before it, so the layers of a group never share a
    key.  A grid's keys in a group are one sum of integers: the grid's bytes, repeated
    once per layer, read as an integer, plus the group's ``offset`` (the sum of
    ``(base + k * span - min_value) * 256 ** j`` over the places ``j``); no byte carries,
    since each key is 0..255.  The keys are distinct when as many different ones occur as
    there are places: deleting the keys that occur from all the group's possible keys
    (``bytes.translate``) leaves the others.  The units in no full layer (a diagonal
    beside the rows, or keys past a byte) are read one by one.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.cells, self.constraints = puzzle.cells, puzzle.constraints
        self.low, self.high = puzzle.min_value, puzzle.max_value
        self.index: dict[Cell, int] = dict(puzzle.index)
        values = puzzle.values
        fits = values.start >= 0 and values.stop <= 256
        #: the values as bytes (None past a byte), and as a set
        self.allowed = bytes(values) if fits else None
        self.every = frozenset(values)
        self.only_units = puzzle.only_units
        self.size = len(puzzle.cells)
        self.ints = (int,) * self.size  # the types of a grid of integers (no bool)
        self.groups: tuple[tuple[int, int, bytes], ...] = ()  # (layers, offset, all keys)
        self.rest: tuple[Reader, ...] = ()
        #: the C screen and its units (:func:`_compiled_units`), None where it does not serve
        self.compiled = _compiled_units(puzzle, _SCREEN) if _SCREEN is not None else None
        if self.only_units and self.compiled is None:
            self._layer(puzzle, fits)

    def screen(self, grid: Sequence[int]) -> bool | None:
        """None when a value of ``grid`` (one per cell) is not an ``int`` (a bool is not
        one) in the value range; else whether no unit repeats a value, for a puzzle of
        units alone (False for any other: its rules are read one by one)."""
        if self.compiled is not None:
            screen, places, ends = self.compiled
            screened = screen(grid, self.low, self.high, places, ends)
            return screened and self.only_units if screened is not None else None
        if tuple(map(type, grid)) != self.ints or (packed := self.in_range(grid)) is None:
            return None
        return self.only_units and not self.repeat(grid, packed)

    def _layer(self, puzzle: Puzzle, fits: bool) -> None:
        size, low, span = self.size, self.low, self.high - self.low + 1
        index = self.index
        layers: list[tuple[list[int], list[int]]] = []  # (the unit of each cell, its units)
        for number, unit in enumerate(puzzle.units):
            places = [index[cell] for cell in unit.cells]
            layer = next((lay for lay in layers if all(lay[0][p] < 0 for p in places)), None)
            if layer is None:
                layer = ([-1] * size, [])
                layers.append(layer)
            for place in places:
                layer[0][place] = len(layer[1])
            layer[1].append(number)
        full = [lay for lay in layers if fits and min(lay[0]) >= 0 and len(lay[1]) * span <= 256]
        groups: list[tuple[list[tuple[list[int], int]], list[int]]] = []
        for unit_of, units in full:  # per group: (unit of each cell, base) per layer, its keys
            keys = len(units) * span
            if not groups or groups[-1][1][0] + keys > 256:
                groups.append(([], [0]))
            groups[-1][0].append((unit_of, groups[-1][1][0]))
            groups[-1][1][0] += keys
        self.groups = tuple(
            (
                len(group),
                sum(
                    (base + k * span - low) << (8 * (j * size + i))
                    for j, (unit_of, base) in enumerate(group)
                    for i, k in enumerate(unit_of)
                ),
                bytes(range(keys)),
            )
            for group, (keys,) in groups
        )
        kept = {number for _, units in full for number in units}
        self.rest = tuple(r for i, r in enumerate(puzzle.readers) if i not in kept)

    def in_range(self, grid: Sequence[int]) -> bytes | None:
        """Whether every value of ``grid`` (integers) is in the range: None when one is not;
        else, when the values fit in a byte, the grid as bytes (one C pass tells both: the
        bytes of the grid that are not values), and else ``b""``."""
        allowed = self.allowed
        if allowed is None:
            return b"" if self.every.issuperset(grid) else None
        try:
            packed = bytes(grid)
        except ValueError:  # a value outside 0..255
            return None
        return None if packed.translate(None, allowed) else packed

    def repeat(self, grid: Sequence[int], packed: bytes) -> bool:
        """Whether some unit repeats a value in ``grid``: integers in the value range,
        one per cell (checked before), ``packed`` as :meth:`in_range` gives them."""
        for layers, offset, keys in self.groups:  # the values fit in a byte: ``packed``
            places = layers * self.size
            found = (int.from_bytes(packed * layers, "little") + offset).to_bytes(places, "little")
            if len(keys) - len(keys.translate(None, found)) != places:
                return True  # fewer different keys than places
        if not self.rest:
            return False
        seen = [read(grid) for read in self.rest]
        return sum(map(len, map(set, seen))) != sum(map(len, seen))


def _load_screen() -> Callable[..., bool | None] | None:
    """The C screen (``cp_sudoku/model/_screen.c``, built by ``pip install -e .``), or None
    when it is not built or ``CP_SUDOKU_NO_KERNEL`` is set: the passes in Python serve."""
    if os.environ.get("CP_SUDOKU_NO_KERNEL"):
        return None
    try:
        screen: Callable[..., bool | None] = import_module("cp_sudoku.model._screen").screen
    except ImportError:
        return None
    return screen


_SCREEN = _load_screen()
#: The widest value range the C screen takes (it keeps a stamp per value).
_SCREEN_SPAN = 1 << 16


def _compiled_units(
    puzzle: Puzzle, screen: Callable[..., bool | None]
) -> tuple[Callable[..., bool | None], bytes, bytes] | None:
    """``screen`` with the cell places of ``puzzle``'s units one after the other, and where
    each unit ends, as native ints (no unit for a puzzle of other rules too: it screens the
    values alone); None when its values do not fit the screen."""
    low, high = puzzle.min_value, puzzle.max_value
    if not (-(1 << 30) < low <= high < 1 << 30) or high - low >= _SCREEN_SPAN:
        return None
    places, ends = array("i"), array("i")
    if puzzle.only_units:
        index = puzzle.index
        for unit in puzzle.units:
            places.extend(index[cell] for cell in unit.cells)
            ends.append(len(places))
    return screen, places.tobytes(), ends.tobytes()


#: id(constraints) -> the :class:`_Shape` of the puzzles met that hold them: the puzzles of
#: one structure share it (looked up by identity, as the structure is).
_SHAPES: dict[int, _Shape] = {}
_SHAPES_KEPT = 64


def _shape(puzzle: Puzzle) -> _Shape:
    """The :class:`_Shape` of ``puzzle``'s cells, constraints and value range, made once."""
    found = _SHAPES.get(id(puzzle.constraints))
    if (
        found is not None
        and found.constraints is puzzle.constraints
        and found.cells is puzzle.cells
        and found.low == puzzle.min_value
        and found.high == puzzle.max_value
    ):
        return found
    shape = _Shape(puzzle)
    if len(_SHAPES) >= _SHAPES_KEPT:
        _SHAPES.clear()
    _SHAPES[id(puzzle.constraints)] = shape
    return shape


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether ``grid`` (one value per cell, row-major) solves ``puzzle``."""
    return not violations(puzzle, grid)
