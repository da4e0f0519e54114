"""What a puzzle kind is: a builder, its keys in the text format, and how it is drawn.

A kind module defines one :class:`Kind` and the registry
(:mod:`cp_sudoku.kinds`) lists it.  The text format
(:mod:`cp_sudoku.io.text`) reads each key a kind declares with the key's
grammar and hands the values to :attr:`Kind.build`; :attr:`Kind.text` gives
them back from a puzzle, so that writing and reading again gives an equal
puzzle.  Kinds know no file format and no back end.

Grammars (the values :attr:`Kind.build` receives, by grammar name):

==============  ===============================================================
``size``        a positive int (``size: 9``); ``heights`` the same
``box``         ``(rows, columns)`` (``box: 2x3``)
``extras``      a tuple of extra names (``extras: diagonals windows``)
``grid``        :class:`GridText`: values row-major, 0 for a blank, and the
                alphabet they were written in (a section of n rows)
``labels``      a list of n * n labels, row-major (jigsaw regions)
``squares``     rows of Kakuro squares (``_``, ``x``, ``D\\A``)
``cages``       a list of :class:`CageText`, one per cage
``relations``   a list of :class:`RelationText`
``clues``       a list of ints or None (no clue), one per row or column
==============  ===============================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cp_sudoku.model import Cell, Puzzle

#: A kind's keys: key -> grammar name.
Keys = Mapping[str, str]


@dataclass(frozen=True)
class CageText:
    """A cage as written: target, operation (None when left out), cells, and its line."""

    target: int
    op: str | None
    cells: tuple[Cell, ...]
    line: int | None = None


@dataclass(frozen=True)
class RelationText:
    """A relation as written (``r1c1 < r1c2``): first cell, sign, second cell, its line."""

    first: Cell
    op: str
    second: Cell
    line: int | None = None


@dataclass(frozen=True)
class GridText:
    """A grid as read: ``n * n`` values row-major (0 for a blank) and their alphabet.

    ``alphabet`` is the value of ``Puzzle.alphabet`` (None for digits or numbers).
    """

    values: tuple[int, ...]
    alphabet: str | None = None


@dataclass(frozen=True)
class Kind:
    """A puzzle kind.

    - ``name``: the ``kind:`` of the text format and ``Puzzle.kind``.
    - ``summary``: the rules in one line.
    - ``keys``: key -> grammar name, the keys its text may hold.
    - ``build(values, name)``: the puzzle from the keys' values (only the
      keys present); raises :class:`~cp_sudoku.model.PuzzleError`.
    - ``text(puzzle)``: the keys' values that build ``puzzle`` again.
    - ``draw(puzzle, values)``: the puzzle as text, ``values`` cell -> value
      (givens or a solution); None draws the plain boxed grid of
      :mod:`cp_sudoku.display`.
    - ``extras``: the extras it accepts (:mod:`cp_sudoku.kinds.extras`).
    """

    name: str
    summary: str
    keys: Keys
    build: Callable[[Mapping[str, Any], str], Puzzle]
    text: Callable[[Puzzle], dict[str, Any]]
    draw: Callable[[Puzzle, Mapping[Cell, int]], str | None] | None = None
    extras: Sequence[str] = field(default_factory=tuple)
