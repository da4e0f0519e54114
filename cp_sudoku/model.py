"""The puzzle model: cells, values, units, cages and givens, and a checker.

Glossary (the field's standard terms, used throughout the package):

- **cell**: a position ``(row, column)``, 0-based in code; messages write it
  ``rXcY``, 1-based, the way puzzle people do.
- **value**: an integer in ``1..max_value`` (``n`` for an n x n Sudoku or
  KenKen, 9 for Kakuro).
- **unit**: a group of cells whose values must all differ (row, column, box,
  jigsaw region, diagonal, Kakuro run ...).
- **peers** of a cell: the other cells of the units it belongs to.
- **candidate**: a value a cell may still take.
- **given** (clue): a cell whose value is fixed by the puzzle.
- **cage**: cells whose values combine to a target under an operation.
- **grid**: a full assignment, a tuple of values in the order of
  ``Puzzle.cells`` (row-major).

A :class:`Puzzle` is validated when it is built; every back end trusts a
built puzzle.  :func:`is_solution` is the independent checker, written
straight from the rules and used to re-verify every grid a back end returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from types import MappingProxyType

Cell = tuple[int, int]
Grid = tuple[int, ...]

#: Cage operations: sum, difference, product, quotient, and ``=`` for a
#: one-cell cage that gives its value.
OPERATIONS = ("+", "-", "*", "/", "=")


class PuzzleError(ValueError):
    """Bad puzzle input: a message that says where and what was expected.

    ``source``, ``line`` and ``column`` (1-based) locate the problem in a file
    when it was read from one; the message always names cells as rXcY.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(str(self))

    def located(
        self, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> PuzzleError:
        """A copy of this error with a location filled in where it was missing."""
        return PuzzleError(
            self.message,
            source=self.source or source,
            line=self.line or line,
            column=self.column or column,
        )

    def __str__(self) -> str:
        where = ":".join(
            str(part) for part in (self.source, self.line, self.column) if part is not None
        )
        return f"{where}: {self.message}" if where else self.message


def cell_name(cell: Cell) -> str:
    """``(0, 0)`` -> ``"r1c1"``: the 1-based rXcY name used in messages."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


@dataclass(frozen=True)
class Unit:
    """Cells whose values must all differ (row, column, box, region, run...)."""

    name: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Cage:
    """Cells whose values combine to ``target`` under ``op``.

    ``op`` is one of :data:`OPERATIONS`.  ``+`` and ``*`` take any number of
    cells; ``-`` and ``/`` take exactly two cells (the published KenKen rules:
    larger cages are refused, see :func:`cage_holds`); ``=`` takes one cell and
    gives its value.  With ``distinct`` the cage's values must also differ
    (Killer Sudoku, Kakuro); without it values may repeat when the other
    units allow it (KenKen).
    """

    cells: tuple[Cell, ...]
    op: str
    target: int
    distinct: bool = False

    def describe(self) -> str:
        """The cage as messages name it: ``cage 11+ {r1c1,r2c1}``."""
        cells = ",".join(cell_name(c) for c in self.cells)
        op = "" if self.op == "=" else self.op
        return f"cage {self.target}{op} {{{cells}}}"


def cage_holds(cage: Cage, values: Sequence[int]) -> bool:
    """Whether full ``values`` (one per cage cell, in order) satisfy the cage.

    ``-``: the larger value minus the smaller equals the target;
    ``/``: the larger divided by the smaller equals the target exactly (no
    truncation, so 7/2 is not 3).
    """
    if cage.distinct and len(set(values)) != len(values):
        return False
    if cage.op == "+":
        return sum(values) == cage.target
    if cage.op == "*":
        return prod(values) == cage.target
    if cage.op == "=":
        return values[0] == cage.target
    high, low = max(values), min(values)
    if cage.op == "-":
        return high - low == cage.target
    return high == low * cage.target  # "/"


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A validated puzzle: cells, values ``1..max_value``, units, cages, givens.

    - ``rows`` x ``cols``: the shape of the displayed grid.  Every variable
      cell is inside it; positions that are not cells (Kakuro clue and black
      squares) are display only, described by ``labels``.
    - ``cells``: the variable cells, sorted row-major.  A grid (solution) is a
      tuple of values in this order.
    - ``units``: all-different groups; ``cages``: arithmetic constraints.
    - ``givens``: cell -> value, each in ``1..max_value``.
    - ``kind``, ``box``, ``alphabet``, ``labels``, ``name``: description and
      display only; no back end reads them.

    Raises:
        PuzzleError: a cell outside the grid or repeated; a unit or cage over
            a position that is not a cell; a given out of range; a value
            repeated in a unit (naming the value, both cells and the unit); a
            malformed cage.  Givens that do not clash but leave a cell with no
            candidate are *valid*: that puzzle simply has no solution.
    """

    rows: int
    cols: int
    cells: tuple[Cell, ...]
    max_value: int
    units: tuple[Unit, ...] = ()
    cages: tuple[Cage, ...] = ()
    givens: Mapping[Cell, int] = field(default_factory=dict)
    kind: str = "sudoku"
    box: tuple[int, int] | None = None
    alphabet: str | None = None
    labels: Mapping[Cell, str] = field(default_factory=dict)
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))
        object.__setattr__(self, "givens", MappingProxyType(dict(self.givens)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))
        self._validate()

    def __getstate__(self) -> dict[str, object]:
        """Plain values for pickling (the mappings are read-only proxies)."""
        state = dict(self.__dict__)
        state["givens"], state["labels"] = dict(self.givens), dict(self.labels)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore a pickled puzzle, validated when it was first built."""
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "givens", MappingProxyType(dict(self.givens)))
        object.__setattr__(self, "labels", MappingProxyType(dict(self.labels)))

    @property
    def size(self) -> int:
        """Number of variable cells."""
        return len(self.cells)

    def index(self) -> dict[Cell, int]:
        """Cell -> its position in :attr:`cells` (and in a grid)."""
        return {cell: i for i, cell in enumerate(self.cells)}

    def _validate(self) -> None:
        if self.max_value < 1:
            raise PuzzleError(f"values must be 1..n with n >= 1, got n = {self.max_value}")
        cells = set(self.cells)
        if len(cells) != len(self.cells):
            raise PuzzleError("a cell is listed twice")
        for cell in self.cells:
            if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
                raise PuzzleError(f"{cell_name(cell)} is outside the {self.rows}x{self.cols} grid")
        for unit in self.units:
            _check_cells(unit.cells, cells, unit.name)
        for cage in self.cages:
            _check_cells(cage.cells, cells, cage.describe())
            _check_cage(cage, self.max_value)
        for cell, value in self.givens.items():
            if cell not in cells:
                raise PuzzleError(f"given at {cell_name(cell)}, which is not a cell")
            if not (isinstance(value, int) and 1 <= value <= self.max_value):
                raise PuzzleError(
                    f"given {value!r} at {cell_name(cell)} is out of range 1..{self.max_value}"
                )
        for unit in self.units:
            seen: dict[int, Cell] = {}
            for cell in unit.cells:
                value = self.givens.get(cell)
                if value is None:
                    continue
                if value in seen:
                    raise PuzzleError(
                        f"{value} repeats at {cell_name(seen[value])} and "
                        f"{cell_name(cell)} in {unit.name}"
                    )
                seen[value] = cell


def _check_cells(group: Sequence[Cell], cells: set[Cell], what: str) -> None:
    if not group:
        raise PuzzleError(f"{what} has no cells")
    if len(set(group)) != len(group):
        raise PuzzleError(f"{what} lists a cell twice")
    for cell in group:
        if cell not in cells:
            raise PuzzleError(f"{what} covers {cell_name(cell)}, which is not a cell")


def _check_cage(cage: Cage, max_value: int) -> None:
    if cage.op not in OPERATIONS:
        raise PuzzleError(f"{cage.describe()}: operation must be one of {' '.join(OPERATIONS)}")
    if not isinstance(cage.target, int) or cage.target < 0:
        raise PuzzleError(f"{cage.describe()}: target must be a non-negative integer")
    size = len(cage.cells)
    if cage.op == "=" and size != 1:
        raise PuzzleError(f"{cage.describe()}: '=' needs exactly one cell, got {size}")
    if size == 1 and cage.op != "=":
        raise PuzzleError(
            f"{cage.describe()}: a one-cell cage gives its value; use '=', not '{cage.op}'"
        )
    if cage.op in "-/" and size != 2:
        raise PuzzleError(
            f"{cage.describe()}: '{cage.op}' takes exactly two cells (published KenKen rules), "
            f"got {size}"
        )
    if not _reachable(cage, max_value):
        raise PuzzleError(f"{cage.describe()}: target out of reach with values 1..{max_value}")


def _reachable(cage: Cage, max_value: int) -> bool:
    """Whether some values in ``1..max_value`` meet the cage, ignoring units."""
    size = len(cage.cells)
    if cage.distinct and size > max_value:
        return False
    if cage.op == "=":
        return 1 <= cage.target <= max_value
    if cage.op == "+":
        if cage.distinct:
            low = size * (size + 1) // 2
            high = size * (2 * max_value - size + 1) // 2
        else:
            low, high = size, size * max_value
        return low <= cage.target <= high
    if cage.op == "-":
        return 1 <= cage.target <= max_value - 1
    if cage.op == "/":
        return 2 <= cage.target <= max_value
    # "*": the target must factor into `size` values of 1..max_value.
    return _factorable(cage.target, size, max_value, distinct=cage.distinct)


def _factorable(target: int, size: int, max_value: int, *, distinct: bool, low: int = 1) -> bool:
    """Whether ``target`` is a product of ``size`` values in ``low..max_value``."""
    if size == 0:
        return target == 1
    for value in range(low, max_value + 1):
        following = value + 1 if distinct else value
        if target % value == 0 and _factorable(
            target // value, size - 1, max_value, distinct=distinct, low=following
        ):
            return True
    return False


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Whether ``grid`` (one value per cell, row-major) solves ``puzzle``.

    Written straight from the rules and sharing no code with the back ends.
    """
    return not violations(puzzle, grid)


def violations(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Every rule ``grid`` breaks, in words (empty when it is a solution)."""
    if len(grid) != puzzle.size:
        return [f"grid has {len(grid)} values, expected {puzzle.size}"]
    value = dict(zip(puzzle.cells, grid, strict=True))
    problems = [
        f"{cell_name(cell)} is {v}, outside 1..{puzzle.max_value}"
        for cell, v in value.items()
        if not (isinstance(v, int) and 1 <= v <= puzzle.max_value)
    ]
    problems += [
        f"{cell_name(cell)} is {value[cell]}, but the given is {v}"
        for cell, v in puzzle.givens.items()
        if value[cell] != v
    ]
    for unit in puzzle.units:
        values = [value[cell] for cell in unit.cells]
        if len(set(values)) != len(values):
            problems.append(f"{unit.name} repeats a value")
    for cage in puzzle.cages:
        if not cage_holds(cage, [value[cell] for cell in cage.cells]):
            problems.append(f"{cage.describe()} does not hold")
    return problems


def cells_of(rows: int, cols: int, skip: Iterable[Cell] = ()) -> tuple[Cell, ...]:
    """All positions of a ``rows`` x ``cols`` grid, row-major, minus ``skip``."""
    skipped = set(skip)
    return tuple((r, c) for r in range(rows) for c in range(cols) if (r, c) not in skipped)
