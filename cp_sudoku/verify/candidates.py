"""Certificates of true candidates: witnesses for the kept ones, one DRAT proof for the rest.

Each kept candidate is used by a stated solution (a *witness*, re-checked by
:func:`cp_sudoku.verify.check.verify` with the rule checker).  The removed
ones are refuted all at once: the formula is the puzzle's CNF (``optimised``)
plus the clause "some removed candidate holds" (the literal of each removed
value that has a variable; a value without one is removed by the encoding,
because a given peer holds it).  That formula is unsatisfiable exactly when
every removed candidate is in no solution, and a proof-logging solver's DRAT
refutation of it is checked by dratify, as the certificates of ``prove`` are.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from pysat.solvers import Solver

from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.io import parse_text, to_text
from cp_sudoku.model import Puzzle, cell_name
from cp_sudoku.verify.certificate import update, write_files
from cp_sudoku.verify.check import (
    CANDIDATES,
    CHECKER,
    candidates_text,
    checker_version,
    refuted_candidates,
    verify,
)
from cp_sudoku.verify.proof import DEFAULT_PROOF_SOLVER, PROOF_ENCODING, solver_version
from cp_sudoku.workbench.candidates import TrueCandidates, true_candidates


@dataclass(frozen=True)
class CertifiedCandidates:
    """A written candidates certificate: its path, the candidates, the proof's size, the
    seconds to prove (wall-clock) and to check, and what verification rejected."""

    path: Path
    found: TrueCandidates
    refuted: int
    proof_lines: int
    prove_seconds: float
    check_seconds: float
    failures: tuple[str, ...]


def certify_candidates(
    puzzle: Puzzle, directory: Path, name: str, *, solver: str = DEFAULT_PROOF_SOLVER
) -> CertifiedCandidates:
    """Compute the true candidates of ``puzzle`` and write ``NAME.cert.json``, ``NAME.cnf``
    and ``NAME.drat`` in ``directory``; then verify the files from scratch.

    The puzzle is taken as its variant text reads back, so the certificate is
    about exactly the puzzle it states.

    Raises:
        PuzzleError: the puzzle has no variant text.
        OSError: the directory cannot be written.
        RuntimeError: the refutation came out satisfiable (a bug).
    """
    text = to_text(puzzle)
    stated = parse_text(text, source=name)
    start = time.perf_counter()
    found = true_candidates(stated)
    cnf = to_cnf(stated, PROOF_ENCODING)
    kept = [found.values[cell] for cell in stated.cells]
    refuted = refuted_candidates(cnf, kept)
    proof_text = None
    if refuted:
        with Solver(name=solver, bootstrap_with=[*cnf.clauses, refuted], with_proof=True) as sat:
            if sat.solve():
                raise RuntimeError("a removed candidate has a solution: the candidates are wrong")
            proof_text = "".join(line + "\n" for line in sat.get_proof())
    seconds = time.perf_counter() - start
    record = {
        "status": CANDIDATES,
        "puzzle": text,
        "solutions": [list(grid) for grid in found.grids],
        "encoding": PROOF_ENCODING,
        "solver": solver if refuted else None,
        "solver_version": solver_version(solver) if refuted else None,
        "checker": CHECKER,
        "checker_version": checker_version(),
        "checked": False,
        "prove_seconds": round(seconds, 6),
        "check_seconds": None,
        "clash": None,
        "explanation": None,
        "candidates": {cell_name(c): list(v) for c, v in found.values.items()},
    }
    path = write_files(directory, name, record, candidates_text(cnf, refuted), proof_text)
    report = verify(path)
    update(path, checked=report.holds, check_seconds=round(report.check_seconds, 6))
    return CertifiedCandidates(
        path=path,
        found=found,
        refuted=len(refuted),
        proof_lines=proof_text.count("\n") if proof_text else 0,
        prove_seconds=seconds,
        check_seconds=report.check_seconds,
        failures=report.failures,
    )
