"""Where two solutions differ, and the count of solutions in words that say what is known."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cp_sudoku.crosscheck import Verdict
from cp_sudoku.model import Cell, Grid, Puzzle, cell_name


@dataclass(frozen=True)
class Difference:
    """A cell where two grids differ: ``values`` is (first grid's, second grid's)."""

    cell: Cell
    values: tuple[int, int]

    def record(self) -> dict[str, Any]:
        """``{"cell": "r3c2", "values": [1, 3]}``."""
        return {"cell": cell_name(self.cell), "values": list(self.values)}


def differences(puzzle: Puzzle, first: Grid, second: Grid) -> list[Difference]:
    """The cells (row-major) where grids ``first`` and ``second`` (``Puzzle.cells`` order) differ.

    Raises:
        ValueError: a grid that does not hold one value per cell.
    """
    size = len(puzzle.cells)
    if len(first) != size or len(second) != size:
        raise ValueError(f"grids must hold {size} values, got {len(first)} and {len(second)}")
    return [
        Difference(cell, (a, b))
        for cell, a, b in zip(puzzle.cells, first, second, strict=True)
        if a != b
    ]


def verdict_differences(puzzle: Puzzle, verdict: Verdict) -> list[Difference]:
    """The differences between the two first solutions of a verdict in grid order (so the
    same grids found in another order give the same answer); empty with fewer than two."""
    if len(verdict.solutions) < 2:
        return []
    first, second = sorted(verdict.solutions)[:2]
    return differences(puzzle, first, second)


def exact_count(verdict: Verdict) -> int | None:
    """The exact number of solutions when a back end exhausted its search and every
    back end agrees (no disagreement, the distinct grids are all it found), else None."""
    if not verdict.agree:
        return None
    found = len(verdict.solutions)
    for result in verdict.results.values():
        if result.complete and result.stopped is None and result.count == found:
            return found
    return None


def count_words(verdict: Verdict) -> str:
    """What is known of the number of solutions: ``no solution``, ``exactly 2 solutions``,
    ``at least 2 solutions (search stopped at the limit)``, ``no solution found before
    the search stopped``.

    A lower bound is what one back end found, never the sum over back ends:
    with ``--limit 2`` and three back ends that each found two different
    grids, it is "at least 2".  The count is exact when a back end exhausted
    its search and found exactly the distinct grids of the verdict.
    """
    if verdict.status == "none":
        return "no solution"
    exact = exact_count(verdict)
    if exact is not None:
        return f"exactly {exact:,} solution{'s' if exact != 1 else ''}"
    counted = [r for r in verdict.results.values() if r.stopped != "declined"]
    found = max((r.count for r in counted), default=0)
    stopped = {r.stopped for r in counted if r.stopped is not None}
    if not found:
        return "no solution found before the search stopped"
    why = "at the limit" if stopped <= {"solution limit"} else "before the end"
    return f"at least {found:,} solution{'s' if found != 1 else ''} (search stopped {why})"
