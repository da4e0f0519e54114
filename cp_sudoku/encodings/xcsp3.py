"""A puzzle as an XCSP3 instance (XML): pure text, no solver involved.

XCSP3 (Audemard, Boussemart, Lecoutre, Piette, Roussel, "XCSP3: An
Integrated Format for Benchmarking Combinatorial Constrained Problems",
arXiv:1611.03398), the format of the XCSP competitions, read by ACE, Choco,
PicatSAT and others.  The instance is a ``CSP``:

- ``x``: one integer variable per cell, an array ``[R][C]`` when the cells
  fill the grid (``x[r][c]``, 0-based as XCSP3 indexes), else ``[N]`` in
  ``Puzzle.cells`` order;
- givens: one ``<instantiation>``;
- a :class:`~cp_sudoku.model.Unit`: ``<allDifferent>``;
- a :class:`~cp_sudoku.model.SparseUnit`: ``<cardinality>`` (each height
  once, the rest 0);
- a ``+`` cage: ``<sum>`` with condition ``(eq,target)``, and for a distinct
  cage an ``<allDifferent>``;
- a :class:`~cp_sudoku.model.Relation`: ``<intension>`` (``lt``, ``dist``,
  the ratio disjunction);
- an :class:`~cp_sudoku.constraints.AllDifferent`: ``<allDifferent>``; a
  :class:`~cp_sudoku.constraints.Linear`: ``<sum>`` with ``<coeffs>`` and the
  condition (``eq``, ``le``, ``ge``, ``ne``);
- every other constraint (``- * / = ?`` cages, Skyscraper clues, a
  :class:`~cp_sudoku.constraints.Pair` or :class:`~cp_sudoku.constraints.Table`):
  its allowed tuples as ``<extension>`` supports.

Steps by class (:meth:`~cp_sudoku.encodings.text.TextWriter.native`); any other type
through its decomposition.

Each constraint carries a ``note`` attribute saying what it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import ClassVar
from xml.sax.saxutils import quoteattr

from cp_sudoku.constraints import AllDifferent, Linear, Visibility
from cp_sudoku.encodings.text import TextWriter
from cp_sudoku.model import (
    Cage,
    Constraint,
    Puzzle,
    SparseUnit,
    Unit,
    candidates,
)

#: The XCSP3 condition operator of each :class:`Linear` comparison.
CONDITIONS = {"==": "eq", "<=": "le", ">=": "ge", "!=": "ne"}


def xcsp3(puzzle: Puzzle) -> str:
    """The XCSP3 XML text of ``puzzle`` (see the module docstring)."""
    return _Writer(puzzle).text


class _Writer(TextWriter):
    LANGUAGE = "xcsp3"
    CLOSING = ("  </constraints>", "</instance>")
    MATRIX_REF = "x[{row}][{col}]"
    FIRST = 0
    RELATIONS: ClassVar[Mapping[str, str]] = {
        "<": "lt({a},{b})",
        "non-consecutive": "gt(dist({a},{b}),1)",
        "difference": "eq(dist({a},{b}),{k})",
        "ratio": "or(eq({a},mul({k},{b})),eq({b},mul({k},{a})))",
    }

    def opening(self) -> list[str]:
        puzzle = self.puzzle
        size = f"[{puzzle.rows}][{puzzle.cols}]" if self.grid_shaped else f"[{len(puzzle.cells)}]"
        values = f"{puzzle.min_value}..{puzzle.max_value}"
        lines = [
            f"<!-- cp-sudoku: {_comment(repr(puzzle))} -->",
            '<instance format="XCSP3" type="CSP">',
            "  <variables>",
            f'    <array id="x" size="{size}"> {values} </array>',
            "  </variables>",
            "  <constraints>",
        ]
        if puzzle.givens:
            given = sorted(puzzle.givens.items())
            lines += [
                '    <instantiation note="givens">',
                f"      <list> {' '.join(self.ref(c) for c, _ in given)} </list>",
                f"      <values> {' '.join(str(v) for _, v in given)} </values>",
                "    </instantiation>",
            ]
        return lines

    @cached_property
    def domains(self) -> list[list[int]]:
        """Each cell's candidates (``Puzzle.cells`` order), for the tables' supports."""
        return candidates(self.puzzle)

    def refs(self, constraint: Constraint) -> str:
        return " ".join(self.ref(c) for c in constraint.cells)

    def element(self, tag: str, note: str, body: str) -> None:
        self.lines.append(f"    <{tag} note={quoteattr(note)}>{body}</{tag}>")

    def unit(self, unit: Unit | AllDifferent) -> None:
        self.element("allDifferent", unit.describe(), f" {self.refs(unit)} ")

    def linear(self, linear: Linear) -> None:
        self.element(
            "sum",
            linear.describe(),
            f"\n      <list> {self.refs(linear)} </list>"
            f"\n      <coeffs> {' '.join(map(str, linear.coeffs))} </coeffs>"
            f"\n      <condition> ({CONDITIONS[linear.op]},{linear.rhs}) </condition>\n    ",
        )

    def sparse_unit(self, unit: SparseUnit) -> None:
        heights = range(unit.top + 1)
        occurs = [len(unit.cells) - unit.top] + [1] * unit.top
        self.element(
            "cardinality",
            unit.name,
            f"\n      <list> {self.refs(unit)} </list>"
            f'\n      <values closed="true"> {" ".join(map(str, heights))} </values>'
            f"\n      <occurs> {' '.join(map(str, occurs))} </occurs>\n    ",
        )

    def cage(self, cage: Cage) -> None:
        if cage.op != "+":
            self.table(cage)
            return
        self.element(
            "sum",
            cage.describe(),
            f"\n      <list> {self.refs(cage)} </list>"
            f"\n      <condition> (eq,{cage.target}) </condition>\n    ",
        )
        if cage.distinct and len(cage.cells) > 1:
            self.element("allDifferent", cage.describe(), f" {self.refs(cage)} ")

    def rule(self, text: str, note: str) -> None:
        self.element("intension", note, f" {text} ")

    def visibility(self, clue: Visibility) -> None:
        self.table(clue)

    def table(self, constraint: Constraint) -> None:
        index = self.puzzle.index
        domains = [self.domains[index[c]] or list(self.puzzle.values) for c in constraint.cells]
        tuples = constraint.allowed_in(self.puzzle, domains)
        if len(constraint.cells) == 1:
            supports = " ".join(str(t[0]) for t in tuples)
        else:
            supports = "".join("(" + ",".join(map(str, t)) + ")" for t in tuples)
        self.element(
            "extension",
            constraint.describe(),
            f"\n      <list> {self.refs(constraint)} </list>"
            f"\n      <supports> {supports} </supports>\n    ",
        )


def _comment(text: str) -> str:
    """``text`` safe inside an XML comment (no ``--``)."""
    return text.replace("--", "- -")
