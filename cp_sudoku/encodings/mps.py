"""The 0-1 model (:mod:`cp_sudoku.encodings.mip`) in free MPS format: pure text.

Free MPS (names without spaces, fields separated by blanks), as read by
HiGHS, SCIP, CBC, CPLEX and Gurobi: ``ROWS`` (``N obj``, then ``E``, ``L``
or ``G`` per row), ``COLUMNS`` between ``INTORG``/``INTEND`` markers (every
variable is integer), ``RHS``, and ``BOUNDS`` making each variable binary
(``BV``).  The objective is 0.  Names are those of
:mod:`cp_sudoku.encodings.mip`.
"""

from __future__ import annotations

from cp_sudoku.encodings.mip import Mip, to_mip
from cp_sudoku.model import Puzzle

_ROW_TYPE = {"=": "E", "<=": "L", ">=": "G"}


def mps(puzzle: Puzzle) -> str:
    """The free MPS file text of ``puzzle``'s 0-1 model (reduced domains)."""
    return write_mps(to_mip(puzzle), "cp-sudoku")


def write_mps(mip: Mip, name: str = "cp-sudoku") -> str:
    """``mip`` in free MPS format under the problem name ``name`` (no spaces)."""
    entries: list[list[tuple[str, int]]] = [[] for _ in mip.names]
    for row in mip.rows:
        for index, coef in zip(row.indices, row.coefs, strict=True):
            if coef:
                entries[index].append((row.name, coef))
    lines = [f"NAME {name}", "ROWS", " N obj"]
    lines += [f" {_ROW_TYPE[row.sense]} {row.name}" for row in mip.rows]
    lines += ["COLUMNS", " MARKER 'MARKER' 'INTORG'"]
    for var, column in zip(mip.names, entries, strict=True):
        lines += [f" {var} {row} {coef}" for row, coef in column] or [f" {var} obj 0"]
    lines += [" MARKER 'MARKER' 'INTEND'", "RHS"]
    lines += [f" RHS {row.name} {row.rhs}" for row in mip.rows if row.rhs]
    lines.append("BOUNDS")
    lines += [f" BV BND {var}" for var in mip.names]
    lines.append("ENDATA")
    return "\n".join(lines) + "\n"
