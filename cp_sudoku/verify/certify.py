"""Prove one puzzle, write its certificate, and verify what was written.

:func:`certify` is what ``cp-sudoku prove`` does for each puzzle; it returns
a :class:`Certified` summary (the line the command prints, and a notebook row).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from cp_sudoku.deduction import Explanation, explain
from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.io import parse_text, to_text
from cp_sudoku.model import Puzzle, cell_name, clashes
from cp_sudoku.verify.certificate import update, write_files
from cp_sudoku.verify.check import CHECKER, checker_version, verify
from cp_sudoku.verify.proof import (
    DEFAULT_PROOF_SOLVER,
    PROOF_ENCODING,
    ProofRun,
    dimacs_text,
    prove,
    solver_version,
)


@dataclass(frozen=True)
class Certified:
    """The outcome of :func:`certify` for one puzzle.

    ``path`` is the certificate (None when the status is ``unknown``: nothing
    is written); ``clash`` says how the clues clash, when they do;
    ``proof_lines`` and ``proof_bytes`` are 0 without a proof;
    seconds are wall-clock; ``failures`` is what the verification of the
    written files rejected (empty when it holds); ``explanation`` is None
    unless asked for.
    """

    status: str
    path: Path | None
    proof_lines: int
    proof_bytes: int
    cnf_clauses: int
    prove_seconds: float
    check_seconds: float
    verify_seconds: float
    failures: tuple[str, ...]
    explanation: Explanation | None
    clash: str | None = None


def certify(
    puzzle: Puzzle,
    directory: Path,
    name: str,
    *,
    explain_steps: bool = False,
    time_limit: float | None = None,
    solver: str = DEFAULT_PROOF_SOLVER,
) -> Certified:
    """Prove ``puzzle``; write ``NAME.cert.json``, ``NAME.cnf`` and ``NAME.drat`` in ``directory``.

    The puzzle is proved as its variant text reads back, so the certificate
    is about exactly the puzzle it states.  Clues that clash
    (:func:`cp_sudoku.model.clashes`) are the certificate of ``none``
    themselves: no solver runs and no proof is written.  The written files are then
    verified from scratch (:func:`cp_sudoku.verify.check.verify`) and the
    certificate records the checker's answer and time.  ``time_limit`` in
    seconds bounds the solver; when it runs out nothing is written.  It also bounds the
    deduction of ``explain_steps``, in seconds of CPU (then its outcome is ``timeout``).

    Raises:
        PuzzleError: the puzzle has no variant text (see :func:`cp_sudoku.io.to_text`).
        OSError: the directory cannot be written.
    """
    text = to_text(puzzle)
    stated = parse_text(text, source=name)
    clash = next(iter(clashes(stated)), None)
    if clash is None:
        run = prove(stated, solver=solver, time_limit=time_limit)
    else:  # the clash is the certificate: no solver, no proof
        run = ProofRun("none", (), to_cnf(stated, PROOF_ENCODING), None, None, solver, 0.0)
    explanation = explain(stated, time_limit=time_limit) if explain_steps else None
    if run.status == "unknown" or run.cnf is None:
        return Certified("unknown", None, 0, 0, 0, run.seconds, 0.0, 0.0, (), explanation)
    proof_text = None if run.proof is None else "".join(line + "\n" for line in run.proof)
    record = {
        "status": run.status,
        "puzzle": text,
        "solutions": [list(grid) for grid in run.solutions],
        "encoding": PROOF_ENCODING,
        "solver": None if clash else run.solver,
        "solver_version": None if clash else solver_version(run.solver),
        "checker": CHECKER,
        "checker_version": checker_version(),
        "checked": False,
        "prove_seconds": round(run.seconds, 6),
        "check_seconds": None,
        "clash": None
        if clash is None
        else {
            "rule": clash.rule,
            "cells": [cell_name(c) for c in clash.cells],
            "message": clash.message,
        },
        "explanation": None if explanation is None else explanation.record(),
    }
    path = write_files(directory, name, record, dimacs_text(run.cnf, run.blocking), proof_text)
    start = time.perf_counter()
    report = verify(path)
    verify_seconds = time.perf_counter() - start
    update(path, checked=report.holds, check_seconds=round(report.check_seconds, 6))
    return Certified(
        status=run.status,
        path=path,
        proof_lines=len(run.proof or ()),
        proof_bytes=len(proof_text or ""),
        cnf_clauses=len(run.cnf.clauses) + (run.blocking is not None),
        prove_seconds=run.seconds,
        check_seconds=report.check_seconds,
        verify_seconds=verify_seconds,
        failures=report.failures,
        explanation=explanation,
        clash=None if clash is None else clash.message,
    )
