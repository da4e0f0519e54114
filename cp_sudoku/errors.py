"""The project's exceptions: one root, and one class per kind of fault.

=====================  ==========================================================
class                  raised for
=====================  ==========================================================
:class:`CpSudokuError` the root: catch it to catch every error of this package
:class:`PuzzleError`   text or arguments that do not describe a puzzle (exit 2)
:class:`UsageError`    a bad option or argument: unknown back end, a time limit
                       that is not a positive number, a missing data folder (exit 2)
:class:`Unsupported`   a back end asked for a constraint type it does not compile
=====================  ==========================================================

Anything else that escapes the package is a bug, and the CLI says so (exit 70).
"""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    """``(0, 0)`` -> ``"r1c1"``: the 1-based rXcY name used in messages."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


class CpSudokuError(Exception):
    """The root of every error this package raises on purpose."""


class UsageError(CpSudokuError, ValueError):
    """A bad option or argument (not a puzzle): an unknown back end or format,
    a limit out of range, a data folder that is not there."""


class Unsupported(CpSudokuError):
    """A back end does not compile a constraint type the puzzle uses."""


class PuzzleError(CpSudokuError, ValueError):
    """Bad puzzle input: a message that says where and what was expected.

    Attributes:
        message: what is wrong, naming cells as rXcY.
        source, line, column: where, in a file (1-based), when read from one.
        cells: the cells at fault, 0-based ``(row, column)`` pairs (may be empty),
            for an app to highlight.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        cells: Iterable[Cell] = (),
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.cells: tuple[Cell, ...] = tuple(cells)
        super().__init__(str(self))

    def located(
        self, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> PuzzleError:
        """A copy of this error with a location filled in where it was missing."""
        return PuzzleError(
            self.message,
            source=self.source or source,
            line=self.line or line,
            column=self.column or column,
            cells=self.cells,
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.message, self.source, self.line, self.column, self.cells))

    def __str__(self) -> str:
        where = ":".join(
            str(part) for part in (self.source, self.line, self.column) if part is not None
        )
        return f"{where}: {self.message}" if where else self.message


def _rebuild(
    message: str, source: str | None, line: int | None, column: int | None, cells: tuple[Cell, ...]
) -> PuzzleError:
    return PuzzleError(message, source=source, line=line, column=column, cells=cells)
