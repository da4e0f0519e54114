"""Exporters: a puzzle written in another tool's input format, by name.

:data:`EXPORTERS` maps a name (``cp-sudoku export --to NAME``) to an
:class:`Exporter`: where its function is (``"module:function"``, imported
when used), the file suffix it writes, the options it takes, and a summary.
The function is ``(puzzle, **options) -> str``, the whole file's text.  A
new format is one module with that function plus one entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from cp_sudoku.model import Puzzle, UsageError


@dataclass(frozen=True)
class Exporter:
    """One export format: ``target`` ``"module:function"``, ``suffix`` of its files
    (``.cnf``), ``options`` it accepts (keyword names), and a one-line ``summary``."""

    target: str
    suffix: str
    summary: str
    options: tuple[str, ...] = ()

    def function(self) -> Callable[..., str]:
        """The exporting function, imported."""
        module, _, attribute = self.target.partition(":")
        found: Callable[..., str] = getattr(import_module(module), attribute)
        return found


EXPORTERS: dict[str, Exporter] = {
    "dimacs": Exporter(
        "cp_sudoku.encodings.exporters:dimacs",
        ".cnf",
        "CNF in DIMACS, with comments mapping each variable to (row, column, value)",
        ("encoding",),
    ),
    "cpsat": Exporter(
        "cp_sudoku.encodings.exporters:cpsat",
        ".pbtxt",
        "the CP-SAT model as a text proto",
    ),
    "minizinc": Exporter(
        "cp_sudoku.encodings.minizinc:minizinc",
        ".mzn",
        "MiniZinc with the data inline (all_different, cage and clue rules)",
    ),
    "xcsp3": Exporter(
        "cp_sudoku.encodings.xcsp3:xcsp3",
        ".xml",
        "XCSP3 XML (allDifferent, sum, intension, extension tables)",
    ),
    "opb": Exporter(
        "cp_sudoku.encodings.opb:opb",
        ".opb",
        "pseudo-Boolean constraints (PB competition format) of the 0-1 model",
    ),
    "lp": Exporter(
        "cp_sudoku.encodings.lp:lp",
        ".lp",
        "the 0-1 model in CPLEX LP format",
    ),
    "fpuzzles": Exporter(
        "cp_sudoku.io.fpuzzles_write:fpuzzles",
        ".fpuzzles.txt",
        "f-puzzles JSON, with the f-puzzles link on a '#' line above it",
    ),
    "mps": Exporter(
        "cp_sudoku.encodings.mps:mps",
        ".mps",
        "the 0-1 model in free MPS format",
    ),
}


def export(puzzle: Puzzle, name: str, **options: Any) -> str:
    """``puzzle`` written by exporter ``name`` with ``options``.

    Raises:
        UsageError: an unknown exporter, or an option it does not take.
    """
    if name not in EXPORTERS:
        raise UsageError(f"unknown export format {name!r}; choose one of {', '.join(EXPORTERS)}")
    exporter = EXPORTERS[name]
    extra = sorted(set(options) - set(exporter.options))
    if extra:
        takes = ", ".join(exporter.options) or "no option"
        raise UsageError(f"--to {name} takes {takes}, not {extra[0]}")
    return exporter.function()(puzzle, **options)


def dimacs(puzzle: Puzzle, encoding: str = "optimised") -> str:
    """The CNF of ``puzzle`` (:func:`cp_sudoku.encodings.cnf.to_cnf`) as DIMACS text."""
    from cp_sudoku.encodings.cnf import to_cnf

    return "\n".join(to_cnf(puzzle, encoding).dimacs_lines()) + "\n"


def cpsat(puzzle: Puzzle) -> str:
    """The CP-SAT model of ``puzzle`` (:func:`cp_sudoku.backends.cpsat.build_model`) as a
    text proto."""
    from cp_sudoku.backends.cpsat import build_model

    return str(build_model(puzzle)[0].proto)
