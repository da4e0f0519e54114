"""A puzzle as a MiniZinc model with its data inline: pure text, no solver involved.

The model the CP community would write (MiniZinc 2.x, ``globals.mzn``):

- ``x``: one integer variable per cell, ``array[1..R, 1..C]`` when the cells
  fill the grid (``x[r, c]``, 1-based), else ``array[1..N]`` in
  ``Puzzle.cells`` order (row-major), with the cell names in comments;
- a given: ``x[r, c] = v``;
- a :class:`~cp_sudoku.model.Unit`: ``all_different`` (the global, included
  alone: Debian's Gecode 6.2 library no longer type-checks against all of
  MiniZinc 2.6's ``globals.mzn``);
- a :class:`~cp_sudoku.model.SparseUnit`: ``count`` of each height 1 and of
  0 (empty) the cells left over;
- a cage: ``sum``, ``product``, ``abs(a - b)``, ``a = k * b \\/ b = k * a``,
  ``=``; a hidden operator (``?``) as the disjunction of the operations it
  may stand for; a distinct cage adds ``all_different``.  A product whose
  bound (the largest value to the power of the cells) reaches 2**62 is
  chained through partial products in ``1..target`` (values >= 1): MiniZinc
  would otherwise write bounds past 64 bits, which Gecode cannot read.  Such
  a cage with a target past Gecode's integers (:data:`GECODE_MAX`) is declined,
  as is a hidden operator that may be such a product (a chain bounded by the
  target would also bind when the cage is its sum), and any rule holding a
  number past them (a linear coefficient, a ratio);
- a :class:`~cp_sudoku.model.Relation`: ``<``, ``abs(a - b) > 1``,
  ``abs(a - b) = k``, the ratio disjunction;
- a :class:`~cp_sudoku.model.Visibility` clue: the buildings seen, each a
  cell taller than every cell before it, summed with ``bool2int``;
- the core primitives: ``all_different``; a linear (in)equality ``sum([k *
  x, ...]) op rhs``; a :class:`~cp_sudoku.constraints.Pair` or
  :class:`~cp_sudoku.constraints.Table` as the ``table`` global;
- ``solve satisfy``.

Every constraint is written by the step of its class
(:meth:`~cp_sudoku.encodings.text.TextWriter.native`); any other
type goes through its decomposition into those primitives (a bounded table at
worst, :class:`~cp_sudoku.constraints.TableTooLarge` past the cap).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from cp_sudoku.constraints import AllDifferent, Linear
from cp_sudoku.encodings.text import TextWriter
from cp_sudoku.model import (
    Cage,
    Constraint,
    Puzzle,
    SparseUnit,
    Unit,
    Unsupported,
    Visibility,
    cell_name,
)

#: The largest integer Gecode holds (``Gecode::Int::Limits::max``).
GECODE_MAX = 2**31 - 2
#: An integer literal in a rule (not the digits of a name such as ``p_12``).
_NUMBER = re.compile(r"(?<![\w.])\d+")


@dataclass(frozen=True)
class MiniZincModel:
    """The model text, and how to read a grid back from the solver's ``x``."""

    text: str
    grid_shaped: bool

    def decode(self, x: list[int] | list[list[int]], puzzle: Puzzle) -> tuple[int, ...]:
        """The grid (``Puzzle.cells`` order) of the solver's value of ``x``."""
        if self.grid_shaped:
            return tuple(x[r][c] for r, c in puzzle.cells)  # type: ignore[index]
        return tuple(x)  # type: ignore[arg-type]


def minizinc(puzzle: Puzzle) -> str:
    """The ``.mzn`` file text of ``puzzle``, its data inline."""
    return to_minizinc(puzzle).text


def to_minizinc(puzzle: Puzzle) -> MiniZincModel:
    """The MiniZinc model of ``puzzle`` with its data inline (see the module docstring)."""
    writer = _Writer(puzzle)
    return MiniZincModel(writer.text, writer.grid_shaped)


class _Writer(TextWriter):
    LANGUAGE = "minizinc"
    CLOSING = ("solve satisfy;",)
    MATRIX_REF = "x[{row}, {col}]"
    FIRST = 1
    RELATIONS: ClassVar[Mapping[str, str]] = {
        "<": "{a} < {b}",
        "non-consecutive": "abs({a} - {b}) > 1",
        "difference": "abs({a} - {b}) = {k}",
        "ratio": "({a} = {k} * {b} \\/ {b} = {k} * {a})",
    }

    def opening(self) -> list[str]:
        puzzle = self.puzzle
        low, high = puzzle.min_value, puzzle.max_value
        lines = [
            f"% cp-sudoku: {puzzle!r}",
            'include "all_different.mzn";',
            'include "table.mzn";',
        ]
        if self.grid_shaped:
            lines.append(f"array[1..{puzzle.rows}, 1..{puzzle.cols}] of var {low}..{high}: x;")
        else:
            lines.append(f"array[1..{len(puzzle.cells)}] of var {low}..{high}: x;")
            lines += [f"% x[{i + 1}] is {cell_name(c)}" for i, c in enumerate(puzzle.cells)]
        for cell, value in sorted(puzzle.givens.items()):
            lines.append(f"constraint {self.ref(cell)} = {value};")
        return lines

    def array(self, constraint: Constraint) -> str:
        return "[" + ", ".join(self.ref(c) for c in constraint.cells) + "]"

    def rule(self, text: str, note: str) -> None:
        """``constraint text;``, declined when it holds a number past Gecode's integers
        (Gecode's FlatZinc parser refused one, a 12-digit linear coefficient or ratio:
        exit 70 before)."""
        if any(abs(int(number)) > GECODE_MAX for number in _NUMBER.findall(text)):
            raise Unsupported(
                f"not supported by minizinc: {note}: a number past Gecode's integers "
                f"(at most {GECODE_MAX:,})"
            )
        self.lines.append(f"constraint {text};  % {note}")

    def unit(self, unit: Unit | AllDifferent) -> None:
        self.rule(f"all_different({self.array(unit)})", unit.describe())

    def linear(self, linear: Linear) -> None:
        terms = ", ".join(
            f"{k} * {self.ref(c)}" for k, c in zip(linear.coeffs, linear.cells, strict=True)
        )
        op = "=" if linear.op == "==" else linear.op
        self.rule(f"sum([{terms}]) {op} {linear.rhs}", linear.describe())

    def table(self, constraint: Constraint) -> None:
        rows = constraint.allowed([list(self.puzzle.values)] * len(constraint.cells))
        flat = ", ".join(str(v) for row in rows for v in row)
        matrix = f"array2d(1..{len(rows)}, 1..{len(constraint.cells)}, [{flat}])"
        self.rule(f"table({self.array(constraint)}, {matrix})", constraint.describe())

    def sparse_unit(self, unit: SparseUnit) -> None:
        cells = self.array(unit)
        empty = len(unit.cells) - unit.top
        self.rule(
            f"forall(h in 1..{unit.top})(count({cells}, h) = 1) /\\ count({cells}, 0) = {empty}",
            unit.name,
        )

    def cage(self, cage: Cage) -> None:
        refs = [self.ref(c) for c in cage.cells]
        low, high = self.puzzle.min_value, self.puzzle.max_value
        products = cage.op == "*" or (cage.op == "?" and len(refs) > 1)
        if products and max(abs(low), abs(high)) ** len(refs) >= 2**62:
            # MiniZinc bounds product([...]) by high ** len, past 64 bits here, and Gecode
            # reads no integer past GECODE_MAX.  A product of values >= 1 to a target
            # Gecode holds is chained through partial products in 1..target; a hidden
            # operator cannot be (the chain would bind when its sum holds instead).
            why = ""
            if cage.op == "?":
                why = "as a hidden operator (the product cannot be chained apart from the sum)"
            elif low < 1 or not 1 <= cage.target <= GECODE_MAX:
                why = f"to a target past Gecode's integers (at most {GECODE_MAX:,})"
            if why:
                raise Unsupported(
                    f"not supported by minizinc: {cage.describe()}: a product that may reach "
                    f"{high}**{len(refs)}, past 64 bits, {why}"
                )
            refs = self.partial_products(refs, cage.target)
        text = _operation(cage.op, refs, cage.target)
        if cage.distinct and len(refs) > 1:
            text += f" /\\ all_different({self.array(cage)})"
        self.rule(text, cage.describe())

    def partial_products(self, refs: list[str], target: int) -> list[str]:
        """``[p, x_last]`` with ``p`` the product of every reference but the last, chained
        through new variables ``p_k`` in ``1..target`` (``p_1 = x_1 * x_2``, ...)."""
        partial = refs[0]
        for x in refs[1:-1]:
            name = f"p_{len(self.lines)}"
            self.lines.append(f"var 1..{target}: {name};")
            self.rule(f"{name} = {partial} * {x}", "partial product")
            partial = name
        return [partial, refs[-1]]

    def visibility(self, clue: Visibility) -> None:
        cells = self.array(clue)
        size = len(clue.cells)
        seen = (
            f"let {{ array[1..{size}] of var int: v = {cells} }} in "
            f"sum(i in 1..{size})(bool2int(v[i] > 0 /\\ forall(j in 1..i-1)(v[j] < v[i]))) "
            f"= {clue.count}"
        )
        self.rule(seen, clue.describe())


def _operation(op: str, refs: list[str], target: int) -> str:
    """The cage rule over the cell references ``refs``."""
    if op == "?":
        if len(refs) == 1:
            return f"{refs[0]} = {target}"
        ops = "+*-/" if len(refs) == 2 else "+*"
        return "(" + " \\/ ".join(_operation(o, refs, target) for o in ops) + ")"
    if op == "+":
        return f"sum([{', '.join(refs)}]) = {target}"
    if op == "*":
        return f"product([{', '.join(refs)}]) = {target}"
    if op == "=":
        return f"{refs[0]} = {target}"
    a, b = refs
    if op == "-":
        return f"abs({a} - {b}) = {target}"
    return f"{a} > 0 /\\ {b} > 0 /\\ ({a} = {target} * {b} \\/ {b} = {target} * {a})"
