"""The record every reader yields: a puzzle, or the error that stopped it (a leaf module)."""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.model import Grid, Puzzle, PuzzleError


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a source: the puzzle, or the error that stopped it.

    ``line`` is 1-based (the first row's line for a grid); ``text`` is the
    puzzle's text as read (rows joined by newlines for a grid);
    ``solution`` is the grid the source states for the puzzle (CSV solution
    column, stored solutions of a collection), when it states one.
    """

    source: str
    line: int
    text: str
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    solution: Grid | None = None

    @property
    def label(self) -> str:
        """``file:line``, the way messages name this puzzle."""
        return f"{self.source}:{self.line}"
