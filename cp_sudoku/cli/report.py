"""Words shared by the commands' text output: times, statuses, what stopped a search."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cp_sudoku.backends import Result
from cp_sudoku.crosscheck import Verdict
from cp_sudoku.workbench.differ import count_words


def ms(seconds: float) -> str:
    """``12.3 ms`` below ten seconds (``1,234.5 ms``), ``12.3 s`` above."""
    if seconds < 0.999:  # below 999 ms: no thousands to group (the plain format, 40% less work)
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def stopped(results: Mapping[str, Result]) -> str:
    """What ended each incomplete search, from :attr:`Result.stopped`:
    ``cpsat: time limit, backtrack: effort limit`` (only what did happen)."""
    return ", ".join(
        f"{name}: {result.reason or result.stopped}"
        for name, result in results.items()
        if result.stopped is not None
    )


def status_sentence(verdict: Verdict) -> str:
    """One sentence for ``solve``: the status, and why when it is none or unknown."""
    found = len(verdict.solutions)
    if verdict.status == "unique":
        return "Unique: exactly one solution."
    if verdict.status == "multiple":
        return f"Multiple: {count_words(verdict)}; two are shown, differing cells in []."
    if verdict.status == "none":
        return "None: the puzzle has no solution" + (
            f": {verdict.reason}." if verdict.reason else "."
        )
    why = "the back ends disagree" if not verdict.agree else f"stopped ({stopped(verdict.results)})"
    shown = f" {found} solution(s) found; one is shown." if found else ""
    return f"Unknown: {why}.{shown}"


def problems(label: str, verdict: Verdict, mismatch: str | None) -> Iterator[str]:
    """The stderr lines of a verdict: each disagreement, and a stated-solution mismatch."""
    for problem in verdict.disagreements:
        yield f"cp-sudoku: DISAGREEMENT at {label}: {problem}"
    if mismatch:
        yield f"cp-sudoku: MISMATCH at {label}: {mismatch}"


def plural(count: int, noun: str) -> str:
    """``1 puzzle``, ``2,000 puzzles``."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"
