"""The constraint types of the model: one class each, each able to check values and list tuples.

=================  =============================================================
type               rule
=================  =============================================================
:class:`Unit`      all-different: row, column, box, region, diagonal, window, run
:class:`SparseUnit` each of ``1..K`` exactly once, the other cells empty (``0``):
                   Skyscraper rows, columns and diagonals with heights up to K < n
:class:`Cage`      values combine to a target: ``+`` (optionally distinct, Killer
                   and Kakuro), ``- * /``, ``=`` (one cell), ``?`` (any of the
                   four operations: KenKen with a hidden operator)
:class:`Relation`  between two cells: ``<`` (Futoshiki), ``non-consecutive``
                   (differ by more than 1), ``difference`` k, ``ratio`` k
:class:`Visibility` a Skyscraper clue: ``count`` buildings seen along ``cells``,
                   a building hiding every lower one behind it
=================  =============================================================

Every type has ``cells`` (a tuple of ``(row, column)``, 0-based), :meth:`holds`
on full values (one per cell, in ``cells`` order), :meth:`describe` (the
constraint in words, cells as rXcY) and :meth:`allowed` (the tuples it allows
over given domains, for back ends without a native encoding of the type).
Validation of the structure (cell counts, operators) happens when a constraint
is built; whether its clues can be met is a question for
:func:`cp_sudoku.model.checker.clashes`, since a contradiction is a valid puzzle
with no solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import prod
from typing import ClassVar

from cp_sudoku.model.errors import Cell, PuzzleError, cell_name
from cp_sudoku.model.numbers import MAX_TARGET_DIGITS

#: Bits of the largest cage target (:data:`MAX_TARGET_DIGITS` decimal digits).
_TARGET_BITS = (10**MAX_TARGET_DIGITS).bit_length()


def _cells_text(cells: Sequence[Cell]) -> str:
    return "{" + ",".join(cell_name(c) for c in cells) + "}"


@dataclass(frozen=True)
class Constraint:
    """The base of every constraint type: cells, a check, and allowed tuples."""

    cells: tuple[Cell, ...]

    #: Whether values inside the constraint must differ (lets :meth:`allowed` prune).
    distinct_values: ClassVar[bool] = False

    def holds(self, values: Sequence[int]) -> bool:
        """Whether full ``values`` (one per cell, ``cells`` order) meet the constraint."""
        raise NotImplementedError

    def describe(self) -> str:
        """The constraint in words, naming cells as rXcY."""
        raise NotImplementedError

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Whether values for the first ``len(prefix)`` cells can still be completed.

        Sound pruning only: True is always allowed.
        """
        return True

    def allowed(
        self, domains: Sequence[Sequence[int]], differ: Sequence[tuple[int, int]] = ()
    ) -> list[tuple[int, ...]]:
        """Every tuple of values, one per cell from its domain, that :meth:`holds`.

        ``differ`` lists positions ``(i, j)`` that must take different values
        (cells that share a unit); they prune the enumeration.  Its cost is the
        number of tuples that survive the pruning of :meth:`prefix_ok`.
        """
        size = len(self.cells)
        before: list[list[int]] = [[] for _ in range(size)]
        pairs = combinations(range(size), 2) if self.distinct_values else differ
        for i, j in pairs:
            before[max(i, j)].append(min(i, j))
        found: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def extend(pos: int) -> None:
            if pos == size:
                if self.holds(chosen):
                    found.append(tuple(chosen))
                return
            for value in domains[pos]:
                if any(chosen[i] == value for i in before[pos]):
                    continue
                chosen.append(value)
                if self.prefix_ok(chosen):
                    extend(pos + 1)
                chosen.pop()

        extend(0)
        return found


@dataclass(frozen=True)
class Unit(Constraint):
    """Cells whose values all differ.

    ``name`` is how messages call it (``row 1``, ``box 5``, ``region A``);
    ``role`` says what it is (``row``, ``column``, ``box``, ``region``,
    ``diagonal``, ``window``), for display, and never parsed from the name.
    """

    name: str = ""
    role: str = ""

    distinct_values: ClassVar[bool] = True

    def __init__(self, name: str, cells: Sequence[Cell], role: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "role", role)

    def holds(self, values: Sequence[int]) -> bool:
        """No value twice."""
        return len(set(values)) == len(values)

    def describe(self) -> str:
        """The unit's name."""
        return self.name


@dataclass(frozen=True)
class SparseUnit(Constraint):
    """Each height ``1..top`` exactly once; the other cells empty (value 0).

    A Skyscraper row, column or diagonal when the heights stop at ``top`` < n.
    """

    name: str = ""
    top: int = 0
    role: str = ""

    def __init__(self, name: str, cells: Sequence[Cell], top: int, role: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "role", role)
        if not 1 <= top <= len(self.cells):
            raise PuzzleError(
                f"{name}: heights 1..{top} do not fit {len(self.cells)} cells", cells=self.cells
            )

    def holds(self, values: Sequence[int]) -> bool:
        """Heights ``1..top`` once each, zeros elsewhere."""
        heights = sorted(v for v in values if v)
        return heights == list(range(1, self.top + 1))

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No height twice, and no more empty cells than there is room for."""
        heights = [v for v in prefix if v]
        empty = len(prefix) - len(heights)
        return len(set(heights)) == len(heights) and empty <= len(self.cells) - self.top

    def describe(self) -> str:
        """The unit's name."""
        return self.name


#: Cage operations: sum, difference, product, quotient, ``=`` for a one-cell
#: cage that gives its value, ``?`` for a hidden operator (any of ``+ - * /``).
OPERATIONS = ("+", "-", "*", "/", "=", "?")


def _meets(op: str, target: int, values: Sequence[int]) -> bool:
    if op == "+":
        return sum(values) == target
    if op == "*":
        return prod(values) == target
    if op == "=":
        return values[0] == target
    if op == "?":
        ops = "+*-/" if len(values) == 2 else "+*"
        return any(_meets(o, target, values) for o in ops)
    high, low = max(values), min(values)
    if op == "-":
        return high - low == target
    return low > 0 and high == low * target  # "/": exact, so 7/2 is not 3


@dataclass(frozen=True)
class Cage(Constraint):
    """Cells whose values combine to ``target`` under ``op`` (one of :data:`OPERATIONS`).

    ``+``, ``*`` and ``?`` take any number of cells (``?`` over more than two
    cells means ``+`` or ``*``); ``-`` and ``/`` exactly two (the published
    KenKen rules: larger cages are refused, not generalised); ``=`` one.
    ``-``: the larger value minus the smaller; ``/``: the larger divided by
    the smaller, exactly.  With ``distinct`` the values also differ (Killer,
    Kakuro); without it they may repeat where no unit forbids it (KenKen).

    Raises:
        PuzzleError: an unknown operation, a target that is not an integer (or
            has more than 4,000 digits), or a cell count the operation does not take.
    """

    op: str = "+"
    target: int = 0
    distinct: bool = False

    def __init__(self, cells: Sequence[Cell], op: str, target: int, distinct: bool = False) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "distinct", distinct)
        self._validate()

    def _validate(self) -> None:
        size = len(self.cells)
        fault = None
        if self.op not in OPERATIONS:
            fault = f"operation must be one of {' '.join(OPERATIONS)}"
        elif isinstance(self.target, bool) or not isinstance(self.target, int):
            fault = f"target must be an integer, got {self.target!r}"
        elif self.target.bit_length() > _TARGET_BITS:  # said without the number: it may not print
            raise PuzzleError(
                f"a cage target of {self.target.bit_length():,} bits: targets have at most "
                f"{MAX_TARGET_DIGITS:,} digits",
                cells=self.cells,
            )
        elif self.op == "=" and size != 1:
            fault = f"'=' needs exactly one cell, got {size}"
        elif size == 1 and self.op not in "=?":
            fault = f"a one-cell cage gives its value; use '=', not '{self.op}'"
        elif self.op in ("-", "/") and size != 2:
            fault = f"'{self.op}' takes exactly two cells (published KenKen rules), got {size}"
        if fault:
            raise PuzzleError(f"{self.describe()}: {fault}", cells=self.cells)

    @property
    def distinct_values(self) -> bool:  # type: ignore[override]
        """Whether the cage's own rule makes its values differ."""
        return self.distinct

    def holds(self, values: Sequence[int]) -> bool:
        """The operation on ``values`` gives the target (and they differ, if distinct)."""
        if self.distinct and len(set(values)) != len(values):
            return False
        if self.op == "?" and len(values) == 1:
            return values[0] == self.target
        return _meets(self.op, self.target, values)

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """A partial sum not past the target; a partial product that divides it."""
        if self.op == "+":
            return sum(prefix) + (len(self.cells) - len(prefix)) <= self.target
        if self.op == "*":
            part = prod(prefix)
            return part != 0 and self.target % part == 0
        return True

    def describe(self) -> str:
        """The cage as messages name it: ``cage 11+ {r1c1,r2c1}``."""
        op = "" if self.op in "=?" else self.op
        return f"cage {self.target}{op} {_cells_text(self.cells)}"


#: Relations between two cells, with the meaning of ``value``.
RELATIONS = ("<", "non-consecutive", "difference", "ratio")


@dataclass(frozen=True)
class Relation(Constraint):
    """A rule between two cells ``cells = (first, second)``.

    - ``<``: first < second (Futoshiki; ``a > b`` is written ``b < a``);
    - ``non-consecutive``: the values differ by more than 1;
    - ``difference``: the values differ by exactly ``value`` (Kropki white dot);
    - ``ratio``: one value is ``value`` times the other (Kropki black dot).

    Raises:
        PuzzleError: not two distinct cells, or an unknown relation.
    """

    op: str = "<"
    value: int = 0

    def __init__(self, first: Cell, second: Cell, op: str, value: int = 0) -> None:
        object.__setattr__(self, "cells", (first, second))
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "value", value)
        if op not in RELATIONS:
            raise PuzzleError(
                f"unknown relation {op!r}: expected one of {', '.join(RELATIONS)}",
                cells=self.cells,
            )
        if first == second:
            raise PuzzleError(f"a relation needs two cells, got {cell_name(first)} twice")

    def holds(self, values: Sequence[int]) -> bool:
        """The relation between the two values."""
        a, b = values
        if self.op == "<":
            return a < b
        if self.op == "non-consecutive":
            return abs(a - b) > 1
        if self.op == "difference":
            return abs(a - b) == self.value
        return a == b * self.value or b == a * self.value

    def describe(self) -> str:
        """``r1c1 < r1c2``, ``r1c1 and r1c2 differ by more than 1``, ..."""
        a, b = (cell_name(c) for c in self.cells)
        if self.op == "<":
            return f"{a} < {b}"
        if self.op == "non-consecutive":
            return f"{a} and {b} differ by more than 1"
        if self.op == "difference":
            return f"{a} and {b} differ by {self.value}"
        return f"{a} and {b} are in ratio {self.value}:1"


@dataclass(frozen=True)
class Visibility(Constraint):
    """A Skyscraper clue: looking along ``cells`` (nearest first), ``count`` buildings are seen.

    A building is seen when it is taller than every building before it;
    empty cells (value 0) are not counted and hide nothing.  ``side`` says
    where the clue stands (``top``, ``bottom``, ``left``, ``right``), for
    display and messages.
    """

    count: int = 0
    side: str = ""

    def __init__(self, cells: Sequence[Cell], count: int, side: str = "") -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "side", side)
        if isinstance(count, bool) or not isinstance(count, int):
            raise PuzzleError(f"{self.describe()}: the clue must be an integer", cells=self.cells)
        if not 1 <= count <= len(self.cells):
            raise PuzzleError(
                f"{self.describe()}: a clue counts 1 to {len(self.cells)} buildings "
                f"along {len(self.cells)} cells",
                cells=self.cells,
            )

    @staticmethod
    def seen(values: Sequence[int]) -> int:
        """How many buildings of ``values`` (nearest first) are seen."""
        tallest = seen = 0
        for value in values:
            if value > tallest:
                tallest, seen = value, seen + 1
        return seen

    def holds(self, values: Sequence[int]) -> bool:
        """Exactly ``count`` buildings seen."""
        return self.seen(values) == self.count

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No more than ``count`` seen so far."""
        return self.seen(prefix) <= self.count

    def describe(self) -> str:
        """``clue 3 seen from the left of r2c1``."""
        where = f" from the {self.side}" if self.side else ""
        return f"clue {self.count} seen{where} of {cell_name(self.cells[0])}"


#: Every constraint type of the model.
CONSTRAINT_TYPES: frozenset[type[Constraint]] = frozenset(
    {Unit, SparseUnit, Cage, Relation, Visibility}
)
