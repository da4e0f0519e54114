"""The 0-1 model (:mod:`cp_sudoku.encodings.mip`) as pseudo-Boolean constraints (OPB).

The format of the Pseudo-Boolean Competition (Roussel and Manquinho,
"Input/Output Format and Solver Requirements for the Competitions of
Pseudo-Boolean Solvers", 2016): a header comment
``* #variable= N #constraint= M``, then one constraint per line,
``+3 x1 -2 x2 >= 1 ;``, with the relations ``>=`` and ``=`` only (a ``<=``
row is written negated).  Every variable of the MIP model is already
Boolean and every coefficient an integer, so its rows are written as they
stand; variables are numbered ``x1..xN`` in the model's order, and comment
lines map each to its name (``* x7 x_r1c2_5``: r1c2 holds 5).
"""

from __future__ import annotations

from cp_sudoku.encodings.mip import Mip, to_mip
from cp_sudoku.model import Puzzle


def opb(puzzle: Puzzle) -> str:
    """The OPB file text of ``puzzle``'s 0-1 model (reduced domains)."""
    return write_opb(to_mip(puzzle), f"cp-sudoku: {puzzle!r}")


def write_opb(mip: Mip, title: str = "") -> str:
    """``mip`` in OPB format, with ``title`` and the variable names as comments."""
    lines = [f"* #variable= {len(mip.names)} #constraint= {len(mip.rows)}"]
    if title:
        lines.append(f"* {title}")
    lines += [f"* x{j + 1} {name}" for j, name in enumerate(mip.names)]
    for row in mip.rows:
        flip = -1 if row.sense == "<=" else 1
        terms = " ".join(
            f"{flip * coef:+d} x{index + 1}"
            for index, coef in zip(row.indices, row.coefs, strict=True)
        )
        relation = "=" if row.sense == "=" else ">="
        lines.append(f"{terms} {relation} {flip * row.rhs} ;")
    return "\n".join(lines) + "\n"
