"""The core every constraint type decomposes into, and every back end compiles natively.

=====================  =========================================================
primitive              rule
=====================  =========================================================
:class:`AllDifferent`  the cells' values all differ
:class:`Linear`        ``sum(coeffs[i] * x[cells[i]]) op rhs``, op in ``== <= >= !=``
:class:`Pair`          the two cells take one of the value pairs ``pairs``
:class:`Table`         the cells take one of the tuples ``tuples`` (bounded by
                       :data:`~cp_sudoku.constraints.base.TABLE_CAP`; defined in
                       :mod:`~cp_sudoku.constraints.base`, the default decomposition)
=====================  =========================================================

Each is a constraint type too (registered, with a text form), so a puzzle may
hold them directly; its :meth:`decompose` is itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from cp_sudoku.constraints.base import (
    Constraint,
    Mark,
    Rules,
    Table,
    cell_token,
    cells_text,
    parse_cells,
    parse_int,
    parse_values,
    register,
    values_token,
)
from cp_sudoku.errors import Cell, PuzzleError, cell_name

#: The comparison operators of :class:`Linear`.
LINEAR_OPS = ("==", "<=", ">=", "!=")


@register
@dataclass(frozen=True)
class AllDifferent(Constraint):
    """The values of ``cells`` all differ."""

    type_name: ClassVar[str] = "all-different"
    summary: ClassVar[str] = "the cells' values all differ"
    fpuzzles_key: ClassVar[str | None] = "extraregion"
    distinct_values: ClassVar[bool] = True

    def __init__(self, cells: Iterable[Cell]) -> None:
        object.__setattr__(self, "cells", tuple(cells))

    def holds(self, values: Sequence[int]) -> bool:
        """No value twice."""
        return len(set(values)) == len(values)

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """No value twice so far."""
        return len(set(prefix)) == len(prefix)

    def describe(self) -> str:
        """``all-different {r1c1,r2c2}``."""
        return f"all-different {cells_text(self.cells)}"

    def decompose(self, puzzle: Rules) -> tuple[AllDifferent, ...]:
        """Itself."""
        return (self,)

    def marks(self) -> tuple[Mark, ...]:
        """The cells shaded."""
        return (Mark("shade", self.cells),)

    def to_text(self) -> str:
        """``all-different r1c1 r2c2 ...``."""
        return self.text_line()

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> AllDifferent:
        """Cells ``rXcY ...``."""
        return cls(parse_cells(tokens, where))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[AllDifferent, ...]:
        """The main diagonal."""
        return (cls((i, i) for i in range(min(rows, cols))),)


@register
@dataclass(frozen=True)
class Linear(Constraint):
    """``sum(coeffs[i] * value of cells[i]) op rhs``, ``op`` in :data:`LINEAR_OPS`.

    Raises:
        PuzzleError: an unknown operator, or not one integer coefficient per cell.
    """

    coeffs: tuple[int, ...] = ()
    op: str = "=="
    rhs: int = 0

    type_name: ClassVar[str] = "linear"
    summary: ClassVar[str] = "a weighted sum of the cells compares with a number"

    def __init__(self, cells: Iterable[Cell], coeffs: Iterable[int], op: str, rhs: int) -> None:
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "coeffs", tuple(coeffs))
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "rhs", rhs)
        if op not in LINEAR_OPS:
            raise PuzzleError(f"linear: operator must be one of {' '.join(LINEAR_OPS)}, got {op!r}")
        if len(self.coeffs) != len(self.cells) or not all(
            isinstance(k, int) and not isinstance(k, bool) for k in (*self.coeffs, rhs)
        ):
            raise PuzzleError(
                f"{self.describe()}: one integer coefficient per cell", cells=self.cells
            )

    def holds(self, values: Sequence[int]) -> bool:
        """The sum compares with ``rhs`` as ``op`` says."""
        total = sum(k * v for k, v in zip(self.coeffs, values, strict=True))
        if self.op == "==":
            return total == self.rhs
        if self.op == "<=":
            return total <= self.rhs
        if self.op == ">=":
            return total >= self.rhs
        return total != self.rhs

    def describe(self) -> str:
        """``linear 1*r1c1 + 2*r1c2 == 7``."""
        terms = " + ".join(
            f"{k}*{cell_name(c)}" for k, c in zip(self.coeffs, self.cells, strict=True)
        )
        return f"linear {terms} {self.op} {self.rhs}"

    def decompose(self, puzzle: Rules) -> tuple[Linear, ...]:
        """Itself."""
        return (self,)

    def to_text(self) -> str:
        """``linear <coeff> <cell> ... <op> <rhs>``."""
        terms = [f"{k} {cell_token(c)}" for k, c in zip(self.coeffs, self.cells, strict=True)]
        return " ".join([self.type_name, *terms, self.op, str(self.rhs)])

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Linear:
        """``<coeff> <cell> ... <op> <rhs>``."""
        if len(tokens) < 4 or len(tokens) % 2:
            raise PuzzleError(f"{where}: expected linear <coeff> <cell> ... <op> <rhs>")
        *terms, op, rhs = tokens
        coeffs = [parse_int(t, where, "a coefficient") for t in terms[0::2]]
        return cls(parse_cells(terms[1::2], where), coeffs, op, parse_int(rhs, where))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Linear, ...]:
        """A weighted sum and an inequality."""
        return (
            cls(((0, 0), (0, 1)), (1, 2), "==", 7),
            cls(((1, 0), (2, 0), (3, 1)), (1, 1, -1), ">=", 4),
        )


@register
@dataclass(frozen=True)
class Pair(Constraint):
    """Two cells ``(first, second)`` take one of the value pairs ``pairs``.

    Raises:
        PuzzleError: the same cell twice.
    """

    pairs: frozenset[tuple[int, int]] = frozenset()

    type_name: ClassVar[str] = "pair"
    summary: ClassVar[str] = "two cells take one of the listed value pairs"

    def __init__(self, first: Cell, second: Cell, pairs: Iterable[tuple[int, int]]) -> None:
        object.__setattr__(self, "cells", (first, second))
        object.__setattr__(self, "pairs", frozenset(tuple(p) for p in pairs))
        if first == second:
            raise PuzzleError(f"a pair needs two cells, got {cell_name(first)} twice")

    def holds(self, values: Sequence[int]) -> bool:
        """``(a, b)`` is one of the pairs."""
        return (values[0], values[1]) in self.pairs

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Some pair starts with the first value."""
        return not prefix or any(a == prefix[0] for a, _ in self.pairs)

    def allowed(
        self, domains: Sequence[Sequence[int]], differ: Sequence[tuple[int, int]] = ()
    ) -> list[tuple[int, ...]]:
        """The pairs whose values lie in ``domains``, sorted."""
        first, second = (frozenset(d) for d in domains)
        return sorted(p for p in self.pairs if p[0] in first and p[1] in second)

    def describe(self) -> str:
        """``pair r1c1 r1c2 in {1-2, 2-1}``."""
        shown = ", ".join(f"{a}-{b}" for a, b in sorted(self.pairs))
        return f"pair {cell_name(self.cells[0])} {cell_name(self.cells[1])} in {{{shown}}}"

    def decompose(self, puzzle: Rules) -> tuple[Pair, ...]:
        """Itself."""
        return (self,)

    def to_text(self) -> str:
        """``pair r1c1 r1c2 1,2 2,1``."""
        shown = [values_token(p) for p in sorted(self.pairs)]
        return " ".join([self.type_name, *map(cell_token, self.cells), *shown])

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Pair:
        """``<cell> <cell> a,b ...``."""
        if len(tokens) < 2:
            raise PuzzleError(f"{where}: expected pair <cell> <cell> a,b ...")
        first, second = parse_cells(tokens[:2], where)
        pairs = (cast("tuple[int, int]", parse_values(t, 2, where)) for t in tokens[2:])
        return cls(first, second, pairs)

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Pair, ...]:
        """Consecutive values on two cells of a row."""
        return (cls((0, 0), (0, 1), {(a, b) for a in range(1, 7) for b in (a - 1, a + 1)}),)


__all__ = ["PRIMITIVES", "AllDifferent", "Linear", "Pair", "Primitive", "Table"]

#: A core primitive.
Primitive = AllDifferent | Linear | Pair | Table
#: The four primitive classes.
PRIMITIVES: tuple[type[Constraint], ...] = (AllDifferent, Linear, Pair, Table)
