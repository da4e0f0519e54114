"""The workbench's words in the text output of ``solve`` and ``check --explain``:
two solutions side by side with the cells where they differ, and why there is none."""

from __future__ import annotations

from typing import Any

from cp_sudoku.crosscheck import Verdict
from cp_sudoku.display import beside, grid_text, render_grid
from cp_sudoku.model import Puzzle, cell_name
from cp_sudoku.workbench.core import Core
from cp_sudoku.workbench.differ import verdict_differences


def two_solutions(puzzle: Puzzle, verdict: Verdict) -> str:
    """The puzzle and its first two solutions side by side, differing cells in ``[]``,
    then ``Differ at r3c2 (1 | 3), ...``."""
    found = verdict_differences(puzzle, verdict)
    marks = [cell_name(d.cell) for d in found]
    first, second = sorted(verdict.solutions)[:2]
    grids = beside(
        [render_grid(puzzle), grid_text(puzzle, first, marks), grid_text(puzzle, second, marks)],
        ("Puzzle", "Solution 1", "Solution 2"),
    )
    cells = ", ".join(f"{cell_name(d.cell)} ({d.values[0]} | {d.values[1]})" for d in found)
    return f"{grids}\nDiffer at {len(found)} cells: {cells}"


def why_lines(core: Core) -> list[str]:
    """The core in one sentence (with what the check found), then the deduction steps."""
    lines = []
    if core.members:
        checked = ""
        if core.checked_by:
            said: dict[bool | None, str] = {True: "confirmed", False: "NOT confirmed"}
            verdict = said.get(core.minimal, "not all confirmed: a check ended unknown")
            checked = f" ({verdict} by {core.checked_by})"
        lines.append(f"Core: {core.sentence()}{checked}.")
        lines.append("  cells: " + " ".join(cell_name(c) for c in core.cells))
    elif core.stopped:
        lines.append(f"Core: none found (stopped: {core.stopped}).")
    lines.append(f"Deduction: {core.steps.summary()}.")
    if core.steps.outcome == "contradiction":
        lines.extend(f"  {n}. {step.text}" for n, step in enumerate(core.steps.steps, start=1))
    return lines


def explained(verdict: Verdict) -> bool:
    """Whether a verdict gets a core: ``none``, agreed, and no clash seen without search
    (a clash is its own reason)."""
    return verdict.status == "none" and verdict.agree and verdict.reason is None


def with_core(record: dict[str, Any], core: Core) -> dict[str, Any]:
    """A JSON record with the core: ``reason`` in words (the core's sentence and the
    deduction's summary), ``core`` (:meth:`Core.record`)."""
    words = f"{core.sentence()}; deduction: {core.steps.summary()}" if core.members else None
    return record | {"reason": words or record["reason"], "core": core.record()}
