"""The 0-1 model (:mod:`cp_sudoku.encodings.mip`) in CPLEX LP format: pure text.

The LP format as read by CPLEX, Gurobi, HiGHS, SCIP and CBC: a ``Minimize``
section (the objective is 0: a feasibility problem), ``Subject To`` with
one named row per line (long rows continue on the next line), and every
variable listed under ``Binary``.  Variable and row names are those of
:mod:`cp_sudoku.encodings.mip` (``x_r1c2_5``: r1c2 holds 5).
"""

from __future__ import annotations

from collections.abc import Iterator

from cp_sudoku.encodings.mip import Mip, Row, to_mip
from cp_sudoku.model import Puzzle

#: Line length the writer wraps at (the format allows 255 and more).
WIDTH = 100


def lp(puzzle: Puzzle) -> str:
    """The LP file text of ``puzzle``'s 0-1 model (reduced domains)."""
    return write_lp(to_mip(puzzle), f"cp-sudoku: {puzzle!r}")


def write_lp(mip: Mip, title: str = "") -> str:
    """``mip`` in LP format, with ``title`` as a leading comment."""
    lines = [f"\\ {title}"] if title else []
    lines += ["Minimize", f" obj: 0 {mip.names[0]}", "Subject To"]
    for row in mip.rows:
        lines += _wrapped(f" {row.name}:", _terms(mip, row), f"{row.sense} {row.rhs}")
    lines.append("Binary")
    lines += _wrapped("", iter(mip.names), "")
    lines.append("End")
    return "\n".join(lines) + "\n"


def _terms(mip: Mip, row: Row) -> Iterator[str]:
    for k, (index, coef) in enumerate(zip(row.indices, row.coefs, strict=True)):
        sign = "-" if coef < 0 else ("+" if k else "")
        size = abs(coef)
        yield f"{sign} {'' if size == 1 else f'{size} '}{mip.names[index]}".strip()


def _wrapped(head: str, words: Iterator[str], tail: str) -> list[str]:
    lines, line = [], head
    for word in [*words, tail] if tail else words:
        if len(line) + 1 + len(word) > WIDTH and line.strip():
            lines.append(line)
            line = "  " + word
        else:
            line = f"{line} {word}" if line else f" {word}"
    lines.append(line)
    return lines
