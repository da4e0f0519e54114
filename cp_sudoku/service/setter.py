"""The service's adapter to the setter's workbench (:mod:`cp_sudoku.workbench`).

Beside :mod:`cp_sudoku.service.solving` (whose reading and records it
reuses), these functions run in the worker processes of
:mod:`cp_sudoku.service.runner`; they take and return plain picklable values.
"""

from __future__ import annotations

from typing import Any

from cp_sudoku.backends.base import Clock
from cp_sudoku.constraints.base import compile_deadline
from cp_sudoku.display import verdict_record
from cp_sudoku.io import alphabet_of
from cp_sudoku.model import Puzzle
from cp_sudoku.run import check
from cp_sudoku.service.solving import Options, _one_puzzle, drawing
from cp_sudoku.workbench import suggest, true_candidates, why_none
from cp_sudoku.workbench.core import Core


def candidates_one(text: str, options: Options, per_candidate: int = 0) -> dict[str, Any]:
    """The record of ``candidates --json``: every cell's true candidates (and counts).

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    _, puzzle = _one_puzzle(text, options)
    return true_candidates(
        puzzle, per_candidate=per_candidate, time_limit=options.time_limit
    ).record()


def suggest_one(text: str, options: Options) -> dict[str, Any]:
    """The record of ``suggest --json``: givens that make the puzzle unique, checked by the
    request's back ends.

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    _, puzzle = _one_puzzle(text, options)
    plan = options.plan()
    lineup = plan.lineup(puzzle, plan.built())
    return suggest(puzzle, lineup, time_limit=options.time_limit).record()


def why_one(text: str, options: Options) -> dict[str, Any]:
    """The core and deduction steps of a puzzle without solution (empty core otherwise).

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    _, puzzle = _one_puzzle(text, options)
    return why_none(puzzle, time_limit=options.time_limit).record()


def workbench_one(text: str, options: Options, per_candidate: int = 0) -> dict[str, Any]:
    """Everything the page's workbench view shows of one puzzle.

    ``check`` (the ``check --json`` record: status, ``count`` in words,
    ``differ``), ``drawing`` (as ``/v1/check?drawing=true``, with the
    first solution in grid order), ``second`` (the second one's values in
    the drawing's layout, for multiple: ``differ`` compares these two),
    ``candidates`` (true candidates), ``suggestion`` (for multiple), ``core``
    (for none; its ``cells`` are the ones to highlight).

    ``options.time_limit`` is one deadline for the whole request: the check's back ends
    share it (each at most the limit), then the candidates and the suggestion or the core
    get what is left.  A part the deadline leaves no time for says so: a back end not
    run is ``unknown``, stopped by the ``time limit``, as are the candidates, the
    suggestion and the core (each in its record's ``status`` or ``stopped``).

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    clock = Clock(options.time_limit)
    entry, puzzle = _one_puzzle(text, options)
    plan = options.plan()
    backends = plan.built()
    with compile_deadline(clock.deadline):
        checked = check(entry, backends, plan)
    verdict = checked.verdict
    found = sorted(verdict.solutions)  # the pair whose differing cells ``differ`` names
    record: dict[str, Any] = {
        "check": verdict_record(entry, verdict, checked.mismatch),
        "drawing": drawing(puzzle, found[0] if found else None),
        "second": _layout(puzzle, found[1]) if len(found) > 1 else None,
        "candidates": true_candidates(
            puzzle, per_candidate=per_candidate, time_limit=_left(clock)
        ).record(),
        "suggestion": None,
        "core": None,
    }
    if verdict.status == "multiple":
        lineup = plan.lineup(puzzle, backends)
        record["suggestion"] = suggest(puzzle, lineup, time_limit=_left(clock)).record()
    elif verdict.status == "none" and verdict.agree:
        core: Core = why_none(puzzle, time_limit=_left(clock))
        record["core"] = core.record()
        if verdict.reason is None and core.members:
            record["check"]["reason"] = f"{core.sentence()}; deduction: {core.steps.summary()}"
    return record


def _left(clock: Clock) -> float | None:
    """What is left of the request's deadline, as a part's time limit (None: no limit); a
    part reached after it gets a millisecond, in which it stops and says so."""
    left = clock.remaining()
    return None if left is None else max(left, 0.001)


def _layout(puzzle: Puzzle, grid: tuple[int, ...]) -> list[str]:
    """A grid's values as the drawing's row-major text list ('' off the cells)."""
    alphabet = alphabet_of(puzzle)
    values = dict(zip(puzzle.cells, grid, strict=True))
    return [
        alphabet.symbol(values[(r, c)]) if (r, c) in values else ""
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
    ]
