"""Showing puzzles and results: pretty grids, side by side, and JSON records.

The pretty grid draws the puzzle's ``rows`` x ``cols`` positions, one text
per position, in the puzzle's alphabet (:func:`cp_sudoku.io.alphabet_of`):
a value, ``.`` for an empty cell, and for a position that is not a cell its
label (``Puzzle.labels``: Kakuro clue and black squares).  When the puzzle
has a box shape, ``|`` separates the boxes of a band and a line of ``-`` and
``+`` separates the bands, as puzzle books print them::

    5 3 . | . 7 . | . . .
    6 . . | 1 9 5 | . . .
    . 9 8 | . . . | . 6 .
    ------+-------+------

The grid reader of :mod:`cp_sudoku.io` reads these grids back.

A kind that shows more (KenKen cage targets, Kakuro clues, jigsaw outlines,
Futoshiki signs, Skyscraper clues, the marks of extras) draws itself: its
:attr:`~cp_sudoku.kinds.base.Kind.draw` (:mod:`cp_sudoku.kinds.drawing`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cp_sudoku.backends.base import Result
from cp_sudoku.crosscheck import Count, Verdict
from cp_sudoku.deduction import Grade
from cp_sudoku.io import Entry, alphabet_of, grid_string
from cp_sudoku.kinds import KINDS
from cp_sudoku.model import Cell, Puzzle, cell_name
from cp_sudoku.workbench.differ import count_words, verdict_differences


def cell_texts(puzzle: Puzzle, grid: Sequence[int] | None = None) -> dict[Cell, str]:
    """Position -> text for every position of the ``rows`` x ``cols`` grid.

    Values come from ``grid`` (one per cell, ``Puzzle.cells`` order; ``0``
    for empty) or, without it, from the givens.
    """
    alphabet = alphabet_of(puzzle)
    if grid is None:
        values: Mapping[Cell, int] = puzzle.givens
    else:
        values = dict(zip(puzzle.cells, grid, strict=True))
    cells = set(puzzle.cells)
    return {
        (r, c): alphabet.symbol(values.get((r, c), 0))
        if (r, c) in cells
        else puzzle.labels.get((r, c), "")
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
    }


def layout(puzzle: Puzzle, texts: Mapping[Cell, str]) -> list[str]:
    """The grid's lines: texts right-aligned to one width, box separators when boxed."""
    width = max((len(t) for t in texts.values()), default=1)
    band, stack = puzzle.box or (puzzle.rows, puzzle.cols)
    lines: list[str] = []
    for r in range(puzzle.rows):
        if r and r % band == 0:
            lines.append(_separator(lines[-1]))
        groups = [
            " ".join(
                texts[(r, c)].rjust(width) for c in range(start, min(start + stack, puzzle.cols))
            )
            for start in range(0, puzzle.cols, stack)
        ]
        lines.append(" | ".join(groups))
    return lines


def _separator(row: str) -> str:
    """``------+-------+------`` under a row ``5 3 . | . 7 . | . . .``."""
    return "".join("+" if ch == "|" else "-" for ch in row)


def render_grid(puzzle: Puzzle, grid: Sequence[int] | None = None) -> str:
    """The pretty grid of ``puzzle`` (its givens, or the full ``grid``, ``Puzzle.cells`` order).

    A kind that draws itself (cage targets, Kakuro clues, region outlines,
    signs, outside clues) is drawn by its :attr:`~cp_sudoku.kinds.base.Kind.draw`.

    Raises:
        ValueError: ``grid`` does not hold one value per cell.
    """
    if grid is not None and len(grid) != len(puzzle.cells):
        raise ValueError(f"grid has {len(grid)} values, expected {len(puzzle.cells)}")
    draw = KINDS[puzzle.kind].draw if puzzle.kind in KINDS else None
    if draw is not None:
        values = dict(puzzle.givens)
        if grid is not None:
            values.update(zip(puzzle.cells, grid, strict=True))
        drawn = draw(puzzle, values)
        if drawn is not None:
            return drawn
    return "\n".join(layout(puzzle, cell_texts(puzzle, grid)))


def grid_text(puzzle: Puzzle, grid: Sequence[int], marks: Iterable[str] = ()) -> str:
    """A grid of any puzzle as text, one line per row.

    Values are right-aligned, ``.`` for 0 (undecided); a cell named in
    ``marks`` (rXcY) is shown between brackets; a position that is not a
    cell (Kakuro clue or black square) is ``#``.  With a box shape, boxes
    are separated by ``|`` and ``-`` lines.
    """
    width = len(str(puzzle.max_value))
    value = dict(zip(puzzle.cells, grid, strict=True))
    marked = set(marks)
    rows = []
    for r in range(puzzle.rows):
        parts = []
        for c in range(puzzle.cols):
            if puzzle.box and c and c % puzzle.box[1] == 0:
                parts.append("|")
            v = value.get((r, c))
            shown = ("#" if v is None else str(v) if v else ".").rjust(width)
            parts.append(f"[{shown}]" if cell_name((r, c)) in marked else f" {shown} ")
        rows.append("".join(parts))
    lines = []
    for r, row in enumerate(rows):
        if puzzle.box and r and r % puzzle.box[0] == 0:
            lines.append("".join("+" if ch == "|" else "-" for ch in row))
        lines.append(row.rstrip())
    return "\n".join(lines)


def side_by_side(
    puzzle: Puzzle,
    grid: Sequence[int] | None,
    *,
    headings: tuple[str, str] = ("Puzzle", "Solution"),
    gap: int = 4,
) -> str:
    """The puzzle on the left and ``grid`` on the right, each under its heading.

    Without ``grid`` only the puzzle is shown, under the first heading.
    """
    if grid is None:
        return beside([render_grid(puzzle)], headings[:1], gap)
    return beside([render_grid(puzzle), render_grid(puzzle, grid)], headings, gap)


def beside(blocks: Sequence[str], titles: Sequence[str] = (), gap: int = 4) -> str:
    """Multi-line texts set next to each other, ``gap`` spaces apart.

    Each block is padded to its widest line and stands under its title when
    ``titles`` (one per block) are given; a shorter block is padded with
    blank lines.  Trailing spaces are stripped.
    """
    columns = [
        ([title] if titles else []) + block.split("\n")
        for title, block in zip(titles or [""] * len(blocks), blocks, strict=True)
    ]
    widths = [max(map(len, column)) for column in columns]
    height = max(map(len, columns))
    return "\n".join(
        (" " * gap)
        .join(
            (column[i] if i < len(column) else "").ljust(width)
            for column, width in zip(columns, widths, strict=True)
        )
        .rstrip()
        for i in range(height)
    )


def format_count(value: float) -> str:
    """Thousands separated: ``4208`` -> ``4,208``."""
    return f"{value:,}"


def format_stats(stats: Mapping[str, int]) -> str:
    """``tries 4,208, backtracks 4,115`` from a back end's statistics."""
    return ", ".join(f"{name.replace('_', ' ')} {format_count(v)}" for name, v in stats.items())


def verdict_record(
    entry: Entry, verdict: Verdict, mismatch: str | None = None, graded: Grade | None = None
) -> dict[str, Any]:
    """The JSON object of one checked puzzle (one line of ``check --json``).

    Keys: ``source``, ``line``, ``name`` (the puzzle's own title, e.g. an f-puzzles
    ``Title by Author``; null when it has none), ``status``, ``solution`` (in the puzzle's
    alphabet, or null), ``agree``, ``disagreements``, ``matches_stated``
    (the stated solution is a solution the verdict does not contradict: for ``unique``
    the one found, for ``multiple`` or ``unknown`` one of them, as
    :func:`cp_sudoku.run.work.stated_mismatch` judges; null when the source states
    no solution), ``mismatch`` (how the verdict
    contradicts the stated solution, or null), ``reason`` (for ``none``: the
    clues that clash, when seen without search; else null) and ``backends``:
    name -> ``status``, ``seconds``, ``solutions`` (count), ``stopped`` (what
    ended an incomplete search, or null; ``declined`` with a ``reason`` for a back end
    that does not compile the puzzle) and the back end's own statistics; ``declined``
    lists the back ends that declined (they took no part in the verdict);
    ``count``: what is known of the number of solutions, in words
    (:func:`cp_sudoku.workbench.differ.count_words`); ``differ``: for two
    solutions or more, the cells where the first two differ, each
    ``{"cell": "r3c2", "values": [1, 3]}`` (first solution's value, second's), else ``[]``.
    With ``graded``: ``grade``, its :meth:`cp_sudoku.deduction.Grade.record`.
    """
    alphabet = entry.puzzle.alphabet if entry.puzzle else None
    record = {
        "source": entry.source,
        "line": entry.line,
        "name": _title(entry),
        "status": verdict.status,
        "solution": grid_string(verdict.solution, alphabet) if verdict.solution else None,
        "agree": verdict.agree,
        "disagreements": list(verdict.disagreements),
        "declined": list(verdict.declined),
        "matches_stated": None if entry.solution is None else mismatch is None,
        "mismatch": mismatch,
        "reason": verdict.reason,
        "count": count_words(verdict),
        "differ": [d.record() for d in verdict_differences(entry.puzzle, verdict)]
        if entry.puzzle
        else [],
        "backends": {name: result_record(result) for name, result in verdict.results.items()},
    }
    if graded is not None:
        record["grade"] = graded.record()
    return record


def _title(entry: Entry) -> str | None:
    """The puzzle's own name (an f-puzzles title and author), or None when it has none but
    where it was read."""
    name = entry.puzzle.name if entry.puzzle else ""
    return name if name and name != entry.label else None


def result_record(result: Result) -> dict[str, Any]:
    """One back end's part of a JSON record: status, seconds, solutions, what stopped it
    (``stopped``, null when complete; with ``reason`` when it declined), statistics."""
    record: dict[str, Any] = {
        "status": result.status,
        "seconds": round(result.seconds, 6),
        "solutions": len(result.solutions),
        "stopped": result.stopped,
    }
    if result.reason:
        record["reason"] = result.reason
    record.update(result.stats)
    return record


def error_record(entry: Entry) -> dict[str, Any]:
    """The JSON object of an entry that could not be read: status ``invalid`` and the error."""
    return {
        "source": entry.source,
        "line": entry.line,
        "status": "invalid",
        "solution": None,
        "agree": None,
        "disagreements": [],
        "matches_stated": None,
        "mismatch": None,
        "reason": None,
        "count": None,
        "differ": [],
        "error": str(entry.error),
        "backends": {},
    }


def count_record(entry: Entry, counted: Count, limit: int) -> dict[str, Any]:
    """The JSON object of one counted puzzle (one line of ``count --json``).

    Keys: ``source``, ``line``, ``count`` (distinct solutions, at most
    ``limit``), ``exact``, ``limit``, ``proved_by`` (the back ends whose
    finished search proved the count exact), ``disagreement`` (null, or what
    the back ends disagree on: then ``count`` is not to be trusted) and
    ``backends``: name -> :func:`result_record` plus ``count`` (its own
    figure) and ``complete``.
    """
    return {
        "source": entry.source,
        "line": entry.line,
        "count": counted.value,
        "exact": counted.exact,
        "limit": limit,
        "proved_by": list(counted.proved_by),
        "disagreement": counted.disagreement,
        "backends": {
            name: result_record(r) | {"count": r.count, "complete": r.complete}
            for name, r in counted.results.items()
        },
    }
