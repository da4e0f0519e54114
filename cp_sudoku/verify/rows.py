"""One row per puzzle for tables and notebooks: proof size, times, grade, techniques."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cp_sudoku.deduction import LEVEL, explain
from cp_sudoku.io import Entry
from cp_sudoku.verify.certificate import certificate_name
from cp_sudoku.verify.certify import certify
from cp_sudoku.verify.check import verify

#: CPU seconds the deduction engine may spend on one puzzle of :func:`records`.
EXPLAIN_SECONDS = 10.0


def records(
    entries: Iterable[Entry], directory: str | Path | None = None, *, explain_steps: bool = True
) -> list[dict[str, Any]]:
    """Prove, verify and (with ``explain_steps``) explain each readable entry: one row each.

    Certificates go to ``directory`` (default: a temporary directory, removed
    afterwards).  Row keys: ``source``, ``line``, ``status``,
    ``proof_lines``, ``proof_bytes``, ``cnf_clauses``; wall-clock seconds
    ``prove_seconds`` (encode and solve), ``check_seconds`` (dratify, within
    the verification ``prove`` runs), ``certify_seconds`` (all of ``prove``
    for the puzzle: solve, write, verify), ``verify_seconds`` (a second
    verification from scratch, as ``cp-sudoku verify`` does it); ``holds``;
    and, when explained (within :data:`EXPLAIN_SECONDS` of CPU), ``outcome`` (solved,
    stalled, contradiction, timeout),
    ``hardest`` (technique), ``level`` (its place in the scale, 0 for none
    needed, None when stalled), ``rating`` (its ER-like rating, None when stalled),
    ``steps``, ``techniques`` (technique -> step
    count) and ``explain_seconds``.  Entries that could not be read are skipped.
    """
    if directory is None:
        with tempfile.TemporaryDirectory() as temporary:
            return records(entries, temporary, explain_steps=explain_steps)
    rows = []
    for entry in entries:
        if entry.puzzle is None:
            continue
        start = time.perf_counter()
        name = certificate_name(entry.source, entry.line, entry.text)
        done = certify(entry.puzzle, Path(directory), name)
        certify_seconds = time.perf_counter() - start
        row: dict[str, Any] = {
            "source": entry.source,
            "line": entry.line,
            "status": done.status,
            "proof_lines": done.proof_lines,
            "proof_bytes": done.proof_bytes,
            "cnf_clauses": done.cnf_clauses,
            "prove_seconds": done.prove_seconds,
            "check_seconds": done.check_seconds,
            "certify_seconds": certify_seconds,
        }
        if done.path is not None:
            start = time.perf_counter()
            row["holds"] = verify(done.path).holds
            row["verify_seconds"] = time.perf_counter() - start
        if explain_steps:
            start = time.perf_counter()
            explanation = explain(entry.puzzle, time_limit=EXPLAIN_SECONDS)
            hardest = explanation.hardest.technique if explanation.hardest else None
            solved = explanation.outcome == "solved"
            row |= {
                "outcome": explanation.outcome,
                "hardest": hardest,
                "level": (LEVEL[hardest] if hardest else 0) if solved else None,
                "rating": explanation.rating if solved else None,
                "steps": len(explanation.steps),
                "techniques": explanation.techniques,
                "explain_seconds": time.perf_counter() - start,
            }
        rows.append(row)
    return rows
