"""Cage: cells whose values combine to a target (Killer, Kakuro, KenKen)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import ClassVar

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    cell_token,
    cells_text,
    parse_cells,
    parse_int,
    register,
)
from cp_sudoku.errors import Cell, PuzzleError
from cp_sudoku.numbers import MAX_TARGET_DIGITS

#: Bits of the largest cage target (:data:`MAX_TARGET_DIGITS` decimal digits).
_TARGET_BITS = (10**MAX_TARGET_DIGITS).bit_length()

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


@register
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

    type_name: ClassVar[str] = "cage"
    symmetric: ClassVar[bool] = True
    summary: ClassVar[str] = "the cells' values combine to the target (+ - * / = ?)"
    fpuzzles_key: ClassVar[str | None] = "killercage"

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
        return f"cage {self.target}{op} {cells_text(self.cells)}"

    def marks(self) -> tuple[Mark, ...]:
        """A dashed outline with the clue at its top-left: ``11`` for a sum with distinct
        values (Killer) or a given value (``=``), else the target and operation (``11+``,
        ``6?``)."""
        plain = self.op == "=" or (self.distinct and self.op == "+")
        return (Mark("cage", self.cells, str(self.target) if plain else f"{self.target}{self.op}"),)

    def to_text(self) -> str:
        """``cage <target><op> [distinct] <cell> ...`` (``cage 11+ distinct r1c1 r2c1``)."""
        head = [self.type_name, f"{self.target}{self.op}"] + (["distinct"] if self.distinct else [])
        return " ".join(head + [cell_token(c) for c in self.cells])

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Cage:
        """``<target><op> [distinct] <cell> ...``."""
        if len(tokens) < 2 or not tokens[0] or tokens[0][-1] not in OPERATIONS:
            raise PuzzleError(f"{where}: expected cage <target><op> [distinct] <cell> ...")
        target = parse_int(tokens[0][:-1], where, "a cage target")
        distinct = tokens[1] == "distinct"
        cells = parse_cells(tokens[1 + distinct :], where)
        try:
            return cls(cells, tokens[0][-1], target, distinct)
        except PuzzleError as error:
            raise PuzzleError(f"{where}: {error.message}", cells=error.cells) from None

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Cage, ...]:
        """A Killer sum, a KenKen product and a difference."""
        return (
            cls(((0, 0), (1, 0)), "+", 5, distinct=True),
            cls(((0, 1), (0, 2), (1, 1)), "*", 12),
            cls(((rows - 1, 0), (rows - 1, 1)), "-", 1),
        )
