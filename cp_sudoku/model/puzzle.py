"""The puzzle: cells, values, constraints and givens, validated once when built.

Glossary (the field's standard terms, used throughout the package):

- **cell**: a position ``(row, column)``, 0-based in code; messages write it
  ``rXcY``, 1-based, the way puzzle people do.
- **value**: an integer in ``min_value..max_value`` (``1..n`` for an n x n
  Sudoku or KenKen, ``1..9`` for Kakuro, ``0..K`` for a Skyscraper whose
  heights stop at K, 0 being an empty cell).
- **unit**: a group of cells whose values must all differ (row, column, box,
  jigsaw region, diagonal, Kakuro run ...).
- **peers** of a cell: the other cells of the units it belongs to.
- **candidate**: a value a cell may still take.
- **given** (clue): a cell whose value is fixed by the puzzle.
- **cage**: cells whose values combine to a target under an operation.
- **grid**: a full assignment, a tuple of values in the order of
  ``Puzzle.cells`` (row-major).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import compress
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

from cp_sudoku.constraints import Cage, Constraint, Unit
from cp_sudoku.constraints.base import check_deadline, checked
from cp_sudoku.errors import Cell, PuzzleError, cell_name

Grid = tuple[int, ...]
C = TypeVar("C", bound=Constraint)
T = TypeVar("T")


class _view(Generic[T]):
    """A view of a puzzle computed on first use and kept in the instance's ``__dict__``
    (so later reads are plain attribute look-ups): ``functools.cached_property``
    without the lock that Python 3.11 takes on every first use, about 0.3 us a view and
    puzzle.  Two threads may both compute a view: each gets an equal value."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, puzzle: None, owner: type | None = None) -> _view[T]: ...
    @overload
    def __get__(self, puzzle: object, owner: type | None = None) -> T: ...
    def __get__(self, puzzle: object, owner: type | None = None) -> T | _view[T]:
        if puzzle is None:
            return self
        value = puzzle.__dict__[self.name] = self.compute(puzzle)
        return value


@dataclass(frozen=True)
class Puzzle:
    """A validated puzzle.

    - ``rows`` x ``cols``: the shape of the drawn grid.  Every cell is inside
      it; positions that are not cells (Kakuro clue and black squares) are
      display only, described by ``labels``.
    - ``cells``: the variable cells, sorted row-major.  A grid (solution) is a
      tuple of values in this order.
    - ``max_value``, ``min_value``: the value range (``min_value`` is 1, or 0
      where empty cells are part of the rules).
    - ``constraints``: every rule, one tuple of
      :class:`~cp_sudoku.constraints.Constraint` (any registered type).  Views
      by type (:attr:`units`, :attr:`cages`, :meth:`of_type`) are derived from
      it, never stored.
    - ``givens``: cell -> value.
    - ``kind``, ``extras``, ``box``, ``alphabet``, ``labels``, ``name``:
      description and display; no back end reads them.

    Puzzles compare by value (every field but ``name``) and their repr is one line.

    Raises:
        PuzzleError: a cell outside the grid or repeated; a constraint over a
            position that is not a cell; a given out of range or not on a
            cell.  Clues that contradict each other (a value twice in a unit,
            a cage target out of reach) are *valid*: that puzzle has no
            solution, and :func:`cp_sudoku.model.clashes` names why.
    """

    rows: int
    cols: int
    cells: tuple[Cell, ...]
    max_value: int
    constraints: tuple[Constraint, ...] = ()
    givens: Mapping[Cell, int] = field(default_factory=dict)
    kind: str = "sudoku"
    box: tuple[int, int] | None = None
    alphabet: str | None = None
    labels: Mapping[Cell, str] = field(default_factory=dict)
    name: str = field(default="", compare=False)
    min_value: int = 1
    extras: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if _SORTED_CELLS.get(id(self.cells)) is not self.cells:  # not a tuple of cells_of
            ordered = tuple(sorted(self.cells))
            if ordered != self.cells:  # a sorted tuple stays the very tuple given (shared)
                object.__setattr__(self, "cells", ordered)
        object.__setattr__(self, "constraints", tuple(self.constraints))
        object.__setattr__(self, "extras", tuple(self.extras))
        object.__setattr__(self, "givens", MappingProxyType(dict(self.givens)))
        labels = MappingProxyType(dict(self.labels)) if self.labels else _NO_LABELS
        object.__setattr__(self, "labels", labels)
        self._validate()

    def __getstate__(self) -> dict[str, object]:
        """Plain values for pickling (the mappings are read-only proxies; derived views
        dropped).  Shared ``cells`` and ``constraints`` tuples (:func:`by_recipe`) travel
        as their recipe, so the receiving process gets its own shared tuples back."""
        state = {f.name: getattr(self, f.name) for f in fields(self)}
        state["givens"], state["labels"] = dict(self.givens), dict(self.labels)
        for name in ("cells", "constraints"):
            recipe = _RECIPES.get(id(state[name]))
            if recipe is not None and recipe[0] is state[name]:
                state[name] = _Recipe(recipe[1], recipe[2])
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore a pickled puzzle, validated when it was first built."""
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "givens", MappingProxyType(dict(self.givens)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))

    def __hash__(self) -> int:
        return hash(
            (self.kind, self.rows, self.cols, self.units, tuple(sorted(self.givens.items())))
        )

    def __repr__(self) -> str:
        extras = f"+{'+'.join(self.extras)}" if self.extras else ""
        name = f", name={self.name!r}" if self.name else ""
        return (
            f"Puzzle({self.kind}{extras} {self.rows}x{self.cols}, {len(self.cells)} cells, "
            f"{len(self.givens)} givens{name})"
        )

    @property
    def n(self) -> int:
        """The value count of a square grid puzzle: ``max_value`` (9 for a 9x9 Sudoku)."""
        return self.max_value

    @property
    def values(self) -> range:
        """Every value a cell may hold: ``min_value..max_value``."""
        return range(self.min_value, self.max_value + 1)

    @_view
    def units(self) -> tuple[Unit, ...]:
        """The :class:`Unit` constraints (all-different groups), in :attr:`constraints` order.

        When every constraint is a unit this is the very ``constraints`` tuple, so that
        puzzles sharing their units tuple share their structure (index, peers).
        """
        constraints = self.constraints
        if _ALL_UNITS.get(id(constraints)) is constraints:  # a shared tuple of units
            return constraints  # type: ignore[return-value]
        units = tuple(c for c in constraints if isinstance(c, Unit))
        if len(units) != len(constraints):
            return units
        if len(_ALL_UNITS) >= _STRUCTURES_KEPT:
            _ALL_UNITS.clear()
        _ALL_UNITS[id(constraints)] = constraints
        return constraints  # type: ignore[return-value]

    @_view
    def cages(self) -> tuple[Cage, ...]:
        """The :class:`Cage` constraints, in :attr:`constraints` order."""
        return () if self.only_units else self.of_type(Cage)

    def of_type(self, kind: type[C]) -> tuple[C, ...]:
        """The constraints that are instances of ``kind``, in :attr:`constraints` order."""
        return tuple(c for c in self.constraints if isinstance(c, kind))

    @property
    def only_units(self) -> bool:
        """Whether every constraint is a :class:`Unit` (a plain all-different puzzle)."""
        return self.units is self.constraints

    @property
    def index(self) -> Mapping[Cell, int]:
        """Cell -> its position in :attr:`cells` (and in a grid)."""
        return _structure(self.cells, self.units).index

    @property
    def peers(self) -> Mapping[Cell, frozenset[Cell]]:
        """Cell -> the other cells of every unit it is in.

        Computed once per structure: puzzles that share their ``cells`` and
        ``units`` tuples (every Sudoku of one size and box) share it.
        """
        return _structure(self.cells, self.units).peers()

    @_view
    def readers(self) -> tuple[Reader, ...]:
        """Per constraint (:attr:`constraints` order), grid -> the values of its cells.

        Each is one ``operator.itemgetter``; the units' are shared by the
        puzzles of one structure.
        """
        structure = _structure(self.cells, self.units)
        if self.only_units:
            return structure.readers
        index, units = structure.index, iter(structure.readers)
        return tuple(
            next(units) if isinstance(c, Unit) else _reader([index[cell] for cell in c.cells])
            for c in self.constraints
        )

    def differ_pairs(self, cells: Sequence[Cell]) -> list[tuple[int, int]]:
        """Positions ``(i, j)``, i < j, of ``cells`` that are peers (so must differ), sorted.

        Costs ``len(cells) x min(len(cells), peers)`` set look-ups: a 10,000-cell cage of a
        100 x 100 grid gives its 990,000 pairs without trying its 50 million.
        """
        peers = self.peers
        position = {cell: i for i, cell in enumerate(cells)}
        within = frozenset(position)
        return [
            (i, j)
            for i, cell in enumerate(cells)
            for j in sorted(position[peer] for peer in peers[cell] & within)
            if j > i
        ]

    def with_givens(self, givens: Mapping[Cell, int], name: str = "") -> Puzzle:
        """This puzzle with other ``givens`` (cell -> value) and ``name``: the same cells,
        constraints and description, shared and not checked again (they passed when this
        puzzle was built), and the new givens checked as when a puzzle is built.  Equal to
        the puzzle built from scratch with those givens.

        Raises:
            PuzzleError: a given out of range, or not on a cell.
        """
        puzzle = self._copy(dict(givens), name)
        cells = _known(self.cells, self.units, self.rows, self.cols)
        puzzle._check_givens(frozenset(self.cells) if cells is None else cells)
        return puzzle

    def with_grid(self, grid: bytes, name: str = "") -> Puzzle:
        """:meth:`with_givens` of the givens of ``grid``, one byte per cell in :attr:`cells`
        order, 0 for a blank (so a given 0 cannot be written this way): a byte is an integer
        and its place a cell, so only the largest value needs checking (a reader's path
        for the commonest lines: ``tests/test_io.py``).

        Raises:
            PuzzleError: not one byte per cell, or a value past ``max_value``.
        """
        if len(grid) != len(self.cells):
            raise PuzzleError(f"a grid of {len(grid)} values for {len(self.cells)} cells")
        if grid.translate(None, _bytes_upto(self.max_value)):  # a value past it
            place = next(i for i, value in enumerate(grid) if value > self.max_value)
            raise PuzzleError(
                f"given {grid[place]} at {cell_name(self.cells[place])} is out of range "
                f"{self.min_value}..{self.max_value}",
                cells=[self.cells[place]],
            )
        # as many cells kept as non-zero bytes: no zip(strict=True) needed (0.5 us a line)
        givens = zip(compress(self.cells, grid), grid.translate(None, b"\0"))  # noqa: B905
        return self._copy(dict(givens), name)

    def _copy(self, givens: dict[Cell, int], name: str) -> Puzzle:
        """This puzzle, with the fields and the views worked out so far, but ``givens`` and
        ``name`` (not checked here)."""
        puzzle = object.__new__(Puzzle)
        state = puzzle.__dict__
        state.update(self.__dict__)
        state["givens"] = MappingProxyType(givens)
        state["name"] = name
        return puzzle

    def _validate(self) -> None:
        if isinstance(self.max_value, bool) or not isinstance(self.max_value, int):
            raise PuzzleError(f"max_value must be an integer, got {self.max_value!r}")
        if self.max_value < max(1, self.min_value) or self.min_value not in (0, 1):
            raise PuzzleError(
                f"values must be {self.min_value}..n with n >= 1, got n = {self.max_value}"
            )
        cells: set[Cell] | frozenset[Cell] | None = _known(
            self.cells, self.units, self.rows, self.cols
        )
        if cells is None:  # cells and units not met before: check them too
            cells = set(self.cells)
            if len(cells) != len(self.cells):
                raise PuzzleError("a cell is listed twice")
            for cell in self.cells:
                if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
                    raise PuzzleError(
                        f"{cell_name(cell)} is outside the {self.rows}x{self.cols} grid",
                        cells=[cell],
                    )
            for unit in self.units:
                _check_cells(unit, cells)
            _validated(self.cells, self.units, self.rows, self.cols, cells)
        if not self.only_units:
            for constraint in self.constraints:
                if not isinstance(constraint, Constraint):
                    raise PuzzleError(f"not a constraint: {constraint!r}")
                if not isinstance(constraint, Unit):
                    _check_cells(constraint, cells)
        self._check_givens(cells)

    def _check_givens(self, cells: set[Cell] | frozenset[Cell]) -> None:
        given = self.givens
        if (
            set(map(type, given.values())) <= {int}
            and cells.issuperset(given)
            and min(given.values(), default=self.min_value) >= self.min_value
            and max(given.values(), default=self.max_value) <= self.max_value
        ):
            return  # every given an int in range on a cell, checked in C; else say which not
        values = self.values
        for cell, value in given.items():
            if cell not in cells:
                raise PuzzleError(f"given at {cell_name(cell)}, which is not a cell", cells=[cell])
            if isinstance(value, bool) or not isinstance(value, int) or value not in values:
                raise PuzzleError(
                    f"given {value!r} at {cell_name(cell)} is out of range "
                    f"{self.min_value}..{self.max_value}",
                    cells=[cell],
                )


@cache
def _bytes_upto(high: int) -> bytes:
    """The bytes ``0..high`` (to 255), for ``bytes.translate`` to delete."""
    return bytes(range(min(high, 255) + 1))


#: grid -> the values of a constraint's cells.
Reader = Callable[[Sequence[int]], tuple[int, ...]]


class _Structure:
    """Of one (cells, units) pair: the cell index, the units' readers, and the peers
    (computed on first use: 3 million pairs in a 100 x 100 Sudoku, which a compile that
    needs only the index does not wait for)."""

    def __init__(self, cells: tuple[Cell, ...], units: tuple[Unit, ...]) -> None:
        self.index: Mapping[Cell, int] = MappingProxyType({c: i for i, c in enumerate(cells)})
        self.readers = tuple(_reader([self.index[cell] for cell in unit.cells]) for unit in units)
        self.units = units
        self._peers: Mapping[Cell, frozenset[Cell]] | None = None

    def peers(self) -> Mapping[Cell, frozenset[Cell]]:
        """Cell -> the other cells of every unit it is in (read the time limit of
        :func:`~cp_sudoku.constraints.base.compile_deadline` in force, if any)."""
        if self._peers is None:
            members: dict[Cell, set[Cell]] = {cell: set() for cell in self.index}
            for unit in self.units:
                check_deadline()
                for cell in unit.cells:
                    members[cell].update(unit.cells)
            self._peers = MappingProxyType(
                {cell: checked(frozenset(found - {cell})) for cell, found in members.items()}
            )
        return self._peers


_STRUCTURES: dict[tuple[int, int], tuple[tuple[Cell, ...], tuple[Unit, ...], _Structure]] = {}
#: (id(cells), id(units), rows, cols) -> (cells, units, the cells as a set), for the
#: tuples a valid puzzle held: the next puzzle holding the very same ones skips their checks.
_VALIDATED: dict[
    tuple[int, int, int, int], tuple[tuple[Cell, ...], tuple[Unit, ...], frozenset[Cell]]
] = {}
#: The labels of a puzzle without any (most): one read-only empty mapping.
_NO_LABELS: Mapping[Cell, str] = MappingProxyType({})
#: id(cells) -> cells, for the tuples of :func:`cells_of` (sorted by construction).
_SORTED_CELLS: dict[int, tuple[Cell, ...]] = {}
#: id(constraints) -> constraints, for the constraint tuples met that hold units alone.
_ALL_UNITS: dict[int, tuple[Constraint, ...]] = {}
_STRUCTURES_KEPT = 64
_STRUCTURES_LOCK = threading.Lock()


def _structure(cells: tuple[Cell, ...], units: tuple[Unit, ...]) -> _Structure:
    """The index and peers of ``cells`` and ``units``, shared by the puzzles that hold
    these very tuples (looked up by identity, so the lookup costs no hashing)."""
    key = (id(cells), id(units))
    found = _STRUCTURES.get(key)
    if found is not None and found[0] is cells and found[1] is units:
        return found[2]
    structure = _Structure(cells, units)
    with _STRUCTURES_LOCK:
        if len(_STRUCTURES) >= _STRUCTURES_KEPT:
            _STRUCTURES.clear()
        _STRUCTURES[key] = (cells, units, structure)
    return structure


def _known(
    cells: tuple[Cell, ...], units: tuple[Unit, ...], rows: int, cols: int
) -> frozenset[Cell] | None:
    """The set of ``cells`` when these very tuples were validated in a ``rows`` x ``cols``
    grid before, else None (looked up by identity: no hashing)."""
    found = _VALIDATED.get((id(cells), id(units), rows, cols))
    if found is None or found[0] is not cells or found[1] is not units:
        return None
    return found[2]


def _validated(
    cells: tuple[Cell, ...], units: tuple[Unit, ...], rows: int, cols: int, members: set[Cell]
) -> None:
    """Remember that ``cells`` and ``units`` passed their checks in a ``rows`` x ``cols`` grid."""
    with _STRUCTURES_LOCK:
        if len(_VALIDATED) >= _STRUCTURES_KEPT:
            _VALIDATED.clear()
        _VALIDATED[(id(cells), id(units), rows, cols)] = (cells, units, frozenset(members))


def _reader(places: Sequence[int]) -> Reader:
    """grid -> its values at ``places`` as a tuple (one C call)."""
    if len(places) == 1:
        (only,) = places
        return lambda grid: (grid[only],)
    return itemgetter(*places)


def _check_cells(constraint: Constraint, cells: set[Cell] | frozenset[Cell]) -> None:
    group = constraint.cells
    if not group:
        raise PuzzleError(f"{constraint.describe()} has no cells")
    if len(set(group)) != len(group):
        raise PuzzleError(f"{constraint.describe()} lists a cell twice", cells=group)
    if not cells.issuperset(group):
        cell = next(c for c in group if c not in cells)
        raise PuzzleError(
            f"{constraint.describe()} covers {cell_name(cell)}, which is not a cell", cells=[cell]
        )


#: id(value) -> (value, a cached function, its arguments) for the shared tuples of
#: :func:`by_recipe`.
_RECIPES: dict[int, tuple[object, Callable[..., object], tuple[object, ...]]] = {}


def by_recipe(value: T, make: Callable[..., T], *args: object) -> T:
    """``value``, the result of the cached, module-level ``make(*args)``, marked so that a
    pickled puzzle holding it sends ``make`` and ``args`` instead (a reference and a few
    numbers, not 81 cells or 27 units).  Unpickled, the call gives the receiving process's
    own shared tuple, so its puzzles of one shape share their structure (index, peers, the
    back ends' compiled shapes) as the sender's do.  Called once per value (from inside
    ``make``); the values are kept for the life of the process, as ``make``'s cache keeps
    them."""
    with _STRUCTURES_LOCK:
        _RECIPES[id(value)] = (value, make, args)
    return value


class _Recipe:
    """A shared tuple in a pickle: unpickled as ``make(*args)``."""

    def __init__(self, make: Callable[..., object], args: tuple[object, ...]) -> None:
        self.make, self.args = make, args

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        return self.make, self.args


def cells_of(rows: int, cols: int, skip: Iterable[Cell] = ()) -> tuple[Cell, ...]:
    """All positions of a ``rows`` x ``cols`` grid, row-major, minus ``skip``.

    The same tuple object for the same arguments, so puzzles of one shape
    share their index and peers.
    """
    return _cells_of(rows, cols, frozenset(skip))


@cache
def _cells_of(rows: int, cols: int, skipped: frozenset[Cell]) -> tuple[Cell, ...]:
    cells = tuple((r, c) for r in range(rows) for c in range(cols) if (r, c) not in skipped)
    _SORTED_CELLS[id(cells)] = cells  # row-major: sorted already (kept, as the cache keeps it)
    return by_recipe(cells, _cells_of, rows, cols, skipped)
