"""The setter's workbench on a puzzle file: speed (CPU seconds per puzzle) and evidence.

Per puzzle of FILE (every ``--step``-th, at most ``--count``), with
``time.process_time`` around each call:

- ``candidates``: all true candidates; with ``--enumerate``, compared cell by
  cell with the backtracker's exhaustive enumeration (no limit reached);
- ``core``: the puzzle made contradictory by one added given (a value some
  peer-free cell cannot take in any solution, so no clue clashes), its
  smallest core (OptUx) and, with ``--musx``, MUSX's; each core checked by
  ``--check-backend`` (the backtracker by default: never the SAT solver that found it):
  unsatisfiable, and satisfiable with any one member dropped;
- ``suggest``: the proposal, the cross-check of the default back ends on the
  puzzle with it (``unique`` for every proposal), the givens added.

Prints one JSON object of medians, maxima and counts, and with ``--out`` writes
one JSON line per puzzle.

Usage::

    python bench/workbench.py ../shared/data/sudoku/serg-benchmark-multi.txt --count 200 \\
        --enumerate
    python bench/workbench.py ../shared/data/sudoku/serg-benchmark-multi.txt --only suggest
"""

from __future__ import annotations

import json
import os
import statistics
from itertools import islice
from typing import Any

import click

from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import read_file
from cp_sudoku.model import Puzzle, violations
from cp_sudoku.workbench import suggest, true_candidates, why_none
from cp_sudoku.workbench.core import check_core

QUESTIONS = ("candidates", "core", "suggest")


def enumerated_candidates(puzzle: Puzzle) -> dict[Any, tuple[int, ...]]:
    """Cell -> values over every solution, by the backtracker with no limit reached."""
    from cp_sudoku.backends import get_backend

    result = get_backend("backtrack").solve(puzzle, limit=10**6)
    assert result.complete
    grids = result.solutions
    assert all(not violations(puzzle, g) for g in grids)
    return {c: tuple(sorted({g[i] for g in grids})) for i, c in enumerate(puzzle.cells)}


def contradictory(puzzle: Puzzle, values: dict[Any, tuple[int, ...]]) -> Puzzle | None:
    """One given added that no solution has and no peer given clashes with."""
    from dataclasses import replace

    from cp_sudoku.crosscheck import clash_reason
    from cp_sudoku.model import candidates

    domains = candidates(puzzle)
    for i, cell in enumerate(puzzle.cells):
        if cell in puzzle.givens:
            continue
        for value in domains[i]:
            if value not in values[cell]:
                made = replace(puzzle, givens={**puzzle.givens, cell: value})
                if clash_reason(made) is None:
                    return made
    return None


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (``why_none`` runs OptUx
    in a forked child)."""
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


def run_one(puzzle: Puzzle, only: tuple[str, ...], options: dict[str, Any]) -> dict[str, Any]:
    """Every asked question on one puzzle: CPU seconds (the forked OptUx child's included)
    and the evidence."""
    clock = _cpu
    row: dict[str, Any] = {}
    start = clock()
    found = true_candidates(puzzle)
    row["candidates_s"] = clock() - start
    row["status"] = found.status
    if options["enumerate"]:
        row["candidates_equal"] = dict(found.values) == enumerated_candidates(puzzle)
    if "core" in only:
        made = contradictory(puzzle, dict(found.values))
        if made is not None:
            start = clock()
            core = why_none(made, check_backend=None)
            row["core_s"] = clock() - start
            row["core_size"] = len(core.members)
            row["core_deduction"] = core.steps.outcome
            checks = check_core(made, core.members, options["check_backend"])
            row["core_checked"] = checks["core"] == "unsatisfiable" and all(
                s == "satisfiable" for s in checks["dropped"]
            )
            if options["musx"]:
                start = clock()
                musx = why_none(made, check_backend=None, smallest=False)
                row["musx_s"] = clock() - start
                row["musx_size"] = len(musx.members)
    if "suggest" in only and found.status == "multiple":
        start = clock()
        proposal = suggest(puzzle)
        row["suggest_s"] = clock() - start
        row["added"] = len(proposal.givens)
        row["optimal"] = proposal.optimal
        row["unique"] = proposal.status == "unique" and proposal.agree
    return row


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and maxima of the timings and sizes; counts of the evidence."""
    out: dict[str, Any] = {"puzzles": len(rows)}
    for key in ("candidates_s", "core_s", "musx_s", "suggest_s", "core_size", "musx_size", "added"):
        values = [r[key] for r in rows if key in r]
        if values:
            out[key] = {
                "n": len(values),
                "median": round(statistics.median(values), 4),
                "p90": round(sorted(values)[int(0.9 * (len(values) - 1))], 4),
                "max": round(max(values), 4),
            }
    for key in ("candidates_equal", "core_checked", "unique", "optimal"):
        values = [r[key] for r in rows if key in r]
        if values:
            out[key] = f"{sum(values)} of {len(values)}"
    return out


@click.command()
@click.argument("path", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--count", default=200, show_default=True, type=click.IntRange(min=1))
@click.option("--step", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--generated", type=click.IntRange(min=1), help="N generated 6x6 puzzles instead.")
@click.option("--only", multiple=True, type=click.Choice(QUESTIONS), help="Questions to ask.")
@click.option("--enumerate", "enumerate_", is_flag=True, help="Compare with enumeration.")
@click.option("--musx", is_flag=True, help="Also time MUSX's core.")
@click.option("--check-backend", default="backtrack", show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), help="One JSON line per puzzle.")
def main(
    path: str | None,
    count: int,
    step: int,
    generated: int | None,
    only: tuple[str, ...],
    enumerate_: bool,
    musx: bool,
    check_backend: str,
    out: str | None,
) -> None:
    """Print the summary JSON of the workbench on PATH (or generated 6x6 puzzles)."""
    if generated:
        puzzles = [generated_sudoku((2, 3), 0.6, seed=s)[0] for s in range(generated)]
    else:
        assert path, "give a puzzle file or --generated N"
        entries = islice(read_file(path), 0, None, step)
        puzzles = [e.puzzle for e in islice(entries, count) if e.puzzle is not None]
    options = {"enumerate": enumerate_, "musx": musx, "check_backend": check_backend}
    rows = []
    sink = open(out, "w") if out else None  # noqa: SIM115
    try:
        for number, puzzle in enumerate(puzzles, start=1):
            row = run_one(puzzle, only or QUESTIONS, options)
            rows.append(row)
            if sink:
                sink.write(json.dumps({"n": number, **row}) + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    print(json.dumps(summary(rows), indent=1))


if __name__ == "__main__":
    main()
