"""Reading and writing puzzles.  Errors say file, line, column and what was expected.

The line format: one puzzle per line, ``n * n`` symbols row-major; digits
``1-9`` are givens, ``.``, ``0`` or ``_`` are blanks.  In files, blank lines
and lines starting with ``#`` are skipped, and each puzzle keeps its line
number for messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from cp_sudoku.model import Grid, Puzzle, PuzzleError
from cp_sudoku.puzzles import sudoku

BLANKS = ".0_"
DIGITS = "123456789"


@dataclass(frozen=True)
class Entry:
    """One puzzle read from a source: the puzzle, or the error that stopped it.

    ``line`` is 1-based; ``text`` is the line as read (without newline);
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


def parse_line(
    text: str,
    *,
    box: tuple[int, int] | None = None,
    source: str | None = None,
    line: int | None = None,
) -> Puzzle:
    """A Sudoku from one line of ``n * n`` symbols (digits, blanks ``.0_``).

    Raises:
        PuzzleError: an empty line; a length that is not a square (the
            message gives the expected and the actual count); a symbol that
            is neither a digit nor a blank (with its column); a box that does
            not fit; givens that clash.
    """
    body = text.strip()
    if not body:
        raise PuzzleError("empty puzzle: expected n*n symbols", source=source, line=line)
    values = []
    for column, symbol in enumerate(body, start=1):
        if symbol in BLANKS:
            values.append(0)
        elif symbol in DIGITS:
            values.append(int(symbol))
        else:
            raise PuzzleError(
                f"unexpected symbol {symbol!r}: expected a digit 1-9 or a blank ({BLANKS})",
                source=source,
                line=line,
                column=column,
            )
    name = f"{source}:{line}" if source and line else (source or "")
    try:
        return sudoku(values, box, name=name)
    except PuzzleError as error:
        raise error.located(source, line) from None


def read_lines(
    lines: Iterable[str], source: str = "<input>", *, box: tuple[int, int] | None = None
) -> Iterator[Entry]:
    """Each puzzle line of ``lines`` as an :class:`Entry` (errors included, in order)."""
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            yield Entry(
                source, number, text, puzzle=parse_line(text, box=box, source=source, line=number)
            )
        except PuzzleError as error:
            yield Entry(source, number, text, error=error)


def read_file(path: str | Path, *, box: tuple[int, int] | None = None) -> Iterator[Entry]:
    """The puzzles of a file, streamed one line at a time.

    Raises:
        PuzzleError: the file holds no puzzle at all.
        OSError: the file cannot be read.
    """
    name = str(path)
    count = 0
    with open(path, encoding="utf-8") as handle:
        for entry in read_lines(handle, name, box=box):
            count += 1
            yield entry
    if count == 0:
        raise PuzzleError("no puzzle found: the file is empty or only comments", source=name)


def grid_string(grid: Sequence[int]) -> str:
    """A grid as one line: digits for n <= 9, else whitespace-separated numbers."""
    if max(grid, default=0) <= 9:
        return "".join(map(str, grid))
    return " ".join(map(str, grid))


def puzzle_string(puzzle: Puzzle) -> str:
    """The givens of a square puzzle as one line, ``.`` for blanks."""
    index = puzzle.index()
    grid = [0] * puzzle.size
    for cell, value in puzzle.givens.items():
        grid[index[cell]] = value
    if puzzle.max_value <= 9:
        return "".join(str(v) if v else "." for v in grid)
    return " ".join(str(v) if v else "." for v in grid)
