"""The independent checker: does a grid obey every rule of its puzzle?

Written straight from the rules (each constraint's ``holds``); it shares no
code with any back end, and every grid a back end returns is re-verified here.
For a puzzle of units alone the same rules are first asked in a few passes in C
(integers, the value range, the givens, no value twice in a unit: :class:`_Layers`);
the rule-by-rule loop then names what a grid breaks.  ``tests/test_model.py`` checks
the two against the rules cell by cell on random and corrupted grids.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from cp_sudoku.constraints import Unit
from cp_sudoku.errors import cell_name
from cp_sudoku.model.puzzle import Puzzle


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` (one value per cell, row-major) breaks, in words; empty if none."""
    if len(grid) != len(puzzle.cells):
        return [f"grid has {len(grid)} values, expected {len(puzzle.cells)}"]
    values = puzzle.values
    if set(map(type, grid)) != {int} or (packed := _in_range(grid, values)) is None:
        return [
            f"{cell_name(cell)} is {v}, outside {puzzle.min_value}..{puzzle.max_value}"
            for cell, v in zip(puzzle.cells, grid, strict=True)
            if type(v) is not int or v not in values
        ]
    index = puzzle.index
    problems = [
        f"{cell_name(cell)} is {grid[index[cell]]}, but the given is {v}"
        for cell, v in puzzle.givens.items()
        if grid[index[cell]] != v
    ]
    if puzzle.only_units and not _layers(puzzle).repeat(grid, packed):
        return problems  # else the loop below names each unit that repeats a value
    for constraint, read in zip(puzzle.constraints, puzzle.readers, strict=True):
        if not constraint.holds(read(grid)):
            what = constraint.describe()
            broken = "repeats a value" if isinstance(constraint, Unit) else "does not hold"
            problems.append(f"{what} {broken}")
    return problems


class _Layers:
    """The units of a puzzle, for the question "does any repeat a value?" asked in a few
    passes in C (the rule is the same: no value twice in a unit).

    The units fall into *layers* of units that cover every cell once (a Sudoku's rows,
    its columns, its boxes).  In a layer, cell ``i`` with value ``v`` in its ``k``-th unit
    has the key ``k * span + v - min_value`` (``span`` values): two cells share a key
    exactly when they are in one unit with one value, so no unit of the layer repeats a
    value exactly when the keys are distinct.  When every key fits in a byte, a grid's keys
    are one sum of integers: the grid as bytes read as an integer, plus the layer's
    ``offset`` (the sum of ``(k * span - min_value) * 256 ** i``); no byte carries, since
    each key is 0..255.  The keys are distinct when as many different ones occur as there
    are cells: deleting the keys that occur from all the layer's possible keys
    (``bytes.translate``) leaves the others.  The units in no full layer (a diagonal beside
    the rows, or keys past a byte) are read one by one.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        size, low, span = len(puzzle.cells), puzzle.min_value, len(puzzle.values)
        index = puzzle.index
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
        fits = low >= 0 and low + span <= 256
        full = [lay for lay in layers if fits and min(lay[0]) >= 0 and len(lay[1]) * span <= 256]
        #: (offset, every possible key) per full layer
        self.layers = tuple(
            (
                sum((k * span - low) << (8 * i) for i, k in enumerate(unit_of)),
                bytes(range(len(units) * span)),
            )
            for unit_of, units in full
        )
        kept = {number for _, units in full for number in units}
        self.rest = tuple(r for i, r in enumerate(puzzle.readers) if i not in kept)
        self.size = size

    def repeat(self, grid: Sequence[int], packed: bytes) -> bool:
        """Whether some unit repeats a value in ``grid``: integers in the value range,
        one per cell (checked before), ``packed`` as :func:`_in_range` gives them."""
        size = self.size
        if self.layers:  # the values fit in a byte: ``packed`` is the grid's bytes
            values = int.from_bytes(packed, "little")
            for offset, keys in self.layers:
                absent = keys.translate(None, (values + offset).to_bytes(size, "little"))
                if len(keys) - len(absent) != size:  # fewer different keys than cells
                    return True
        if not self.rest:
            return False
        seen = [read(grid) for read in self.rest]
        return sum(map(len, map(set, seen))) != sum(map(len, seen))


#: id(units) -> (units, cells, values, their layers), for the tuples met: the puzzles of
#: one structure share their layers (looked up by identity, as the structure is).
_LAYERS: dict[int, tuple[tuple[object, ...], tuple[object, ...], range, _Layers]] = {}
_LAYERS_KEPT = 64


def _layers(puzzle: Puzzle) -> _Layers:
    """The :class:`_Layers` of ``puzzle``'s units, made once per structure and value range."""
    units, cells, values = puzzle.units, puzzle.cells, puzzle.values
    found = _LAYERS.get(id(units))
    if found is not None and found[0] is units and found[1] is cells and found[2] == values:
        return found[3]
    layers = _Layers(puzzle)
    if len(_LAYERS) >= _LAYERS_KEPT:
        _LAYERS.clear()
    _LAYERS[id(units)] = (units, cells, values, layers)
    return layers


def _in_range(grid: Sequence[int], values: range) -> bytes | None:
    """Whether every value of ``grid`` (integers) is in ``values``: None when one is not;
    else, when ``values`` fit in a byte, the grid as bytes (one C pass tells both: the
    bytes of the grid that are not values), and else ``b""``."""
    allowed, every = _value_set(values)
    if allowed is None:
        return b"" if every.issuperset(grid) else None
    try:
        packed = bytes(grid)
    except ValueError:  # a value outside 0..255
        return None
    return None if packed.translate(None, allowed) else packed


@cache
def _value_set(values: range) -> tuple[bytes | None, frozenset[int]]:
    """The values of a range as bytes (None past a byte) and as a set, made once per range."""
    fits = values.start >= 0 and values.stop <= 256
    return (bytes(values) if fits else None), frozenset(values)


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether ``grid`` (one value per cell, row-major) solves ``puzzle``."""
    return not violations(puzzle, grid)
