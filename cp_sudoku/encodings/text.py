"""What the writers of a puzzle as a text model (MiniZinc, XCSP3) share: the
order of the text (opening, one rule per constraint, closing), the array ``x`` of
the cells, a cell's reference into it, a relation's rule, and the table of the
steps each writes natively (:meth:`TextWriter.native`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from cp_sudoku.constraints import AllDifferent, Linear, Pair, Table
from cp_sudoku.encodings.dispatch import Step, compile_rules
from cp_sudoku.model import Cage, Cell, Constraint, Puzzle, Relation, SparseUnit, Unit, Visibility


class TextWriter:
    """Writes ``puzzle`` over one array ``x``: a rows x columns matrix when the
    cells fill the grid (:attr:`grid_shaped`), else a list in ``Puzzle.cells`` order.

    The text (:attr:`text`, one line per entry of :attr:`lines`, each ended by a newline)
    is the :meth:`opening`, then each constraint compiled through :meth:`native`, then
    :attr:`CLOSING`.

    Raises:
        Unsupported: a constraint the language cannot take (see
            :func:`~cp_sudoku.encodings.dispatch.compile_rules`).
    """

    #: The language's name, for the reason of a decline.
    LANGUAGE: ClassVar[str]
    #: The lines after the rules.
    CLOSING: ClassVar[tuple[str, ...]]

    #: A cell's reference in the matrix (``{row}``, ``{col}``); in the list it is ``x[index]``.
    MATRIX_REF: ClassVar[str]
    #: The index of the first row, column or list element in the language (0 or 1).
    FIRST: ClassVar[int]
    #: Each relation operator's rule over the references ``{a}``, ``{b}`` and the value ``{k}``.
    RELATIONS: ClassVar[Mapping[str, str]]

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.grid_shaped = len(puzzle.cells) == puzzle.rows * puzzle.cols
        self.lines = self.opening()
        compile_rules(puzzle, self, self.native(), self.LANGUAGE)
        self.lines += self.CLOSING
        self.text = "\n".join(self.lines) + "\n"

    def opening(self) -> list[str]:
        """The lines before the rules: a header, the declaration of ``x``, the givens."""
        raise NotImplementedError

    def ref(self, cell: Cell) -> str:
        """The reference to ``cell`` in ``x``."""
        if self.grid_shaped:
            return self.MATRIX_REF.format(row=cell[0] + self.FIRST, col=cell[1] + self.FIRST)
        return f"x[{self.puzzle.index[cell] + self.FIRST}]"

    def rule(self, text: str, note: str) -> None:
        """Write the rule ``text`` (in the language's expression syntax), saying ``note``."""
        raise NotImplementedError

    def relation(self, relation: Relation) -> None:
        """Write ``relation`` from the language's template for its op (:attr:`RELATIONS`)."""
        a, b = (self.ref(c) for c in relation.cells)
        text = self.RELATIONS[relation.op].format(a=a, b=b, k=relation.value)
        self.rule(text, relation.describe())

    def unit(self, unit: Unit | AllDifferent) -> None:
        """Write an all-different rule."""
        raise NotImplementedError

    def sparse_unit(self, unit: SparseUnit) -> None:
        """Write a sparse unit: each height 1..top once, the other cells 0."""
        raise NotImplementedError

    def cage(self, cage: Cage) -> None:
        """Write a cage."""
        raise NotImplementedError

    def visibility(self, clue: Visibility) -> None:
        """Write a Skyscrapers clue."""
        raise NotImplementedError

    def linear(self, linear: Linear) -> None:
        """Write a linear (in)equality."""
        raise NotImplementedError

    def table(self, constraint: Constraint) -> None:
        """Write the allowed tuples of ``constraint`` (a Pair, a Table, or any type)."""
        raise NotImplementedError

    @classmethod
    def native(cls) -> dict[type[Constraint], Step]:
        """The step of each constraint class the language writes natively (the
        ``NATIVE`` table of :func:`~cp_sudoku.encodings.dispatch.compile_rules`); other
        types go through their decomposition."""
        return {
            Unit: cls.unit,
            AllDifferent: cls.unit,
            SparseUnit: cls.sparse_unit,
            Cage: cls.cage,
            Relation: cls.relation,
            Visibility: cls.visibility,
            Linear: cls.linear,
            Pair: cls.table,
            Table: cls.table,
        }
