"""How large a puzzle's encodings get, estimated before they are built, and their bounds.

Memory is bounded by the encoding, not by the input: a 440-byte Skyscrapers file
describes a 100 x 100 grid, whose pairwise CNF would hold some 150 million clauses.
So each back end estimates its encoding from the puzzle before building it, and past
its bound declines the puzzle (``unknown``, stopped ``declined``) with a reason that
names the bound, instead of running out of memory.  The measures:

- *cell values*: the candidates of every cell summed (:func:`cell_values`; at most
  cells x values, 1,000,000 for a 100 x 100 grid).  CP-SAT's presolve makes one Boolean
  per cell value and expands each all-different over them (about 2 KiB each); exact
  cover has one option each.  Bound: :data:`MAX_CELL_VALUES`.  The MIP has one binary
  per cell value, and SCIP takes about 9 KiB for each: :data:`MAX_MIP_CELL_VALUES`.
- *MIP nonzeros*: the terms of its rows, counted after each rule and each part of a
  decomposition (a table's binaries, one per allowed tuple, are only known as they are
  built).  Bound: :data:`MAX_MIP_NONZEROS`.
- *CNF clauses*: the pairwise at-most-one of every cell and of every value in every unit
  (:func:`unit_clauses`), before any clause is written; the clauses of cages, clues and
  tables are counted as they are written, after each constraint.  Bound:
  :data:`MAX_CLAUSES`.
- Tables: at most :data:`~cp_sudoku.constraints.base.TABLE_CAP` tuples over at most
  :data:`~cp_sudoku.constraints.base.TABLE_CELLS` cells (enumerated lazily, refused past it).

With these bounds one puzzle's check stays under about 1 GiB of resident memory, the
solver libraries' 140 MiB included, and runs in a 2 GiB address space (``ulimit -v
2097152``); the measurements behind the bounds are in ``docs/performance.md`` (issue 20).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import chain

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.model import Puzzle, Unsupported, candidates

#: The most cell values (candidates summed over the cells) CP-SAT, MIP and exact cover take:
#: an empty 64 x 64 grid has 262,144.
MAX_CELL_VALUES = 300_000
#: The most cell values the MIP takes (SCIP holds about 9 KiB for each): an empty 36 x 36
#: grid has 46,656.
MAX_MIP_CELL_VALUES = 50_000
#: The most nonzeros (terms summed over the rows) the MIP may hold, counted as its rules are
#: built: one binary per allowed tuple of a table makes a 7 x 7 Skyscrapers of 100 bytes
#: 18.6 million (600 MB of rows in Python; the MPS text passed 2 GiB, SCIP ran out of memory);
#: SCIP peaked at 1.5 GiB on 2.55 million.
MAX_MIP_NONZEROS = 3_000_000
#: The most clauses a CNF may hold: an empty 36 x 36 Sudoku has 3.3 million.
MAX_CLAUSES = 4_000_000


class EncodingTooLarge(Unsupported):
    """A puzzle's encoding would pass its back end's bound: the back end declines it."""


def cell_values(puzzle: Puzzle, domains: Sequence[Sequence[int]] | None = None) -> int:
    """The candidates of every cell summed (``domains``: the candidates, computed if None)."""
    return sum(map(len, candidates(puzzle) if domains is None else domains))


def unit_clauses(puzzle: Puzzle, domains: Sequence[Sequence[int]]) -> int:
    """Clauses of the pairwise CNF's cells and units over ``domains`` (the candidates per
    cell, ``puzzle.cells`` order): each cell's definedness and at-most-one, each unit's
    at-most-one per value (an upper bound: givens shorten the encoding that is built)."""
    index = puzzle.index
    count = sum(1 + len(d) * (len(d) - 1) // 2 for d in domains)
    for unit in puzzle.units:
        check_deadline()
        holders = Counter(chain.from_iterable(domains[index[cell]] for cell in unit.cells))
        count += sum(k * (k - 1) // 2 + 1 for k in holders.values())
    return count


def check_clauses(puzzle: Puzzle, domains: Sequence[Sequence[int]], name: str) -> None:
    """Raise :class:`EncodingTooLarge` when :func:`unit_clauses` passes :data:`MAX_CLAUSES`.

    A bound from the sizes alone (every cell holding every value) is tried first, so a
    puzzle far below the bound (any Sudoku up to 25 x 25) costs no count per value.
    """
    n = len(puzzle.values)
    rough = len(domains) * (1 + n * (n - 1) // 2) + sum(
        n * (len(unit.cells) * (len(unit.cells) - 1) // 2 + 1) for unit in puzzle.units
    )
    if rough > MAX_CLAUSES:
        within(unit_clauses(puzzle, domains), MAX_CLAUSES, "clauses", name)


def within(count: int, bound: int, what: str, name: str, *, so_far: bool = False) -> None:
    """Raise :class:`EncodingTooLarge` when ``count`` passes ``bound``.

    ``what`` names the measure (``clauses``), ``name`` the encoding (``CNF``);
    ``so_far``: ``count`` was taken while building, so the whole would hold at least it.
    """
    if count > bound:
        raise EncodingTooLarge(
            f"the {name} would hold {'at least ' if so_far else ''}{count:,} {what}, "
            f"over the bound of {bound:,} (docs/backends.md, 'Size bounds')"
        )


def measures(puzzle: Puzzle) -> dict[str, int]:
    """The puzzle's ``cells``, ``cell_values`` and pairwise ``unit_clauses`` (for benchmarks)."""
    domains = candidates(puzzle)
    return {
        "cells": len(puzzle.cells),
        "cell_values": cell_values(puzzle, domains),
        "unit_clauses": unit_clauses(puzzle, domains),
    }
