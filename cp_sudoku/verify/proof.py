"""Refutations written by a proof-logging SAT solver: the formula, and the DRAT proof.

The formula refuted is the puzzle's CNF (rules, with the givens applied: the
``optimised`` encoding has no variable for a given cell or for a value a
given peer has taken, so the givens are part of the formula, never
assumptions) plus, for ``unique``, the *blocking clause* of the solution
found: "some cell differs from this grid".  An unsatisfiable formula and a
clausal proof that ends in the empty clause are a refutation anyone can check
with a DRAT checker (Heule, Hunt and Wetzler, "DRAT-trim", SAT 2014).

One solver call finds a grid; its blocking clause is added and a second call,
in the same solver, must fail.  The proof then covers both calls: lemmas
learnt before the blocking clause are implied by the smaller formula, so they
hold in the larger one too.  A second grid means ``multiple``; no grid at all
means ``none`` with the proof of that.

python-sat's ``with_proof`` works for CaDiCaL 1.5.3 and 1.9.5, Glucose,
Lingeling and MapleChrono; not for Minisat or Kissat, and Maplesat's proofs
fail checkers (pysat issue 139).  CaDiCaL 1.9.5 is the default (measured in
``docs/certificates.md``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast

import pysat
from pysat.solvers import Solver

from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.model import Grid, Puzzle

#: Proof-logging solvers python-sat offers, and what each is.
PROOF_SOLVERS = {
    "cadical195": "CaDiCaL 1.9.5",
    "cadical153": "CaDiCaL 1.5.3",
    "glucose4": "Glucose 4.1",
    "glucose42": "Glucose 4.2.1",
    "lingeling": "Lingeling bbc",
    "maplechrono": "MapleLCMDistChronoBT",
}
DEFAULT_PROOF_SOLVER = "cadical195"
#: The encoding every certificate uses: the smallest sound CNF we have.
PROOF_ENCODING = "optimised"
#: Conflicts between two looks at the clock when a time limit is set.
_CONFLICT_CHUNK = 1000


@dataclass(frozen=True)
class ProofRun:
    """What the proof-logging solver found for one puzzle.

    - ``status``: ``unique``, ``multiple``, ``none``, or ``unknown`` (the time
      limit stopped it);
    - ``solutions``: the grids found (0, 1 or 2), row-major in ``Puzzle.cells`` order;
    - ``cnf``: the puzzle's CNF, without the blocking clause (None when the time limit
      came before it was written);
    - ``blocking``: the blocking clause of the one solution (``unique``), else None;
    - ``proof``: the DRAT proof lines (``unique`` and ``none``), else None;
    - ``seconds``: wall-clock time to encode and solve.
    """

    status: str
    solutions: tuple[Grid, ...]
    cnf: Cnf | None
    blocking: list[int] | None
    proof: list[str] | None
    solver: str
    seconds: float


def solver_version(solver: str) -> str:
    """``cadical195`` -> ``CaDiCaL 1.9.5 (python-sat 1.9.dev24)``."""
    return f"{PROOF_SOLVERS[solver]} (python-sat {pysat.__version__})"


def refuted_formula(cnf: Cnf, blocking: list[int] | None) -> list[list[int]]:
    """The clauses a proof refutes: the CNF's, then the blocking clause if any."""
    return [*cnf.clauses, blocking] if blocking is not None else cnf.clauses


def dimacs_text(cnf: Cnf, blocking: list[int] | None) -> str:
    """The refuted formula as DIMACS text, variables mapped to cells in comment lines.

    The comment ``c variable V rXcY = K`` says that variable V is true when
    the cell holds K; the last clause is the blocking clause when there is one.
    """
    extra = [blocking] if blocking is not None else []
    head = "c the last clause is the blocking clause of the stated solution\n" if extra else ""
    return head + "".join(line + "\n" for line in cnf.dimacs_lines(extra))


def prove(
    puzzle: Puzzle, *, solver: str = DEFAULT_PROOF_SOLVER, time_limit: float | None = None
) -> ProofRun:
    """Find up to two grids of ``puzzle`` with a proof-logging solver; see the module docstring.

    ``time_limit`` in seconds (None: no limit) bounds writing the CNF and the solver;
    when it runs out the status is ``unknown`` and there is no proof.

    Raises:
        ValueError: ``solver`` is not one of :data:`PROOF_SOLVERS`.
    """
    if solver not in PROOF_SOLVERS:
        raise ValueError(
            f"unknown proof solver {solver!r}; choose one of {', '.join(PROOF_SOLVERS)}"
        )
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    try:
        with compile_deadline(deadline):  # writing the CNF counts against the limit too
            cnf = to_cnf(puzzle, PROOF_ENCODING)
    except OutOfTime:
        return ProofRun("unknown", (), None, None, None, solver, time.perf_counter() - start)
    found: list[Grid] = []
    blocking: list[int] | None = None
    status = "unknown"
    proof = None
    with Solver(name=solver, bootstrap_with=cnf.clauses, with_proof=True) as sat:
        while status == "unknown":
            answer = _solve(sat, deadline)
            if answer is None:
                break
            if not answer:
                status = "unique" if found else "none"
                proof = list(sat.get_proof())
                break
            found.append(cnf.decode(sat.get_model()))
            if len(found) == 2:
                status, blocking = "multiple", None
                break
            blocking = cnf.blocking_clause(found[0])
            if not blocking:  # every cell given: the empty clause is the refutation
                status, proof = "unique", []
                break
            sat.add_clause(blocking)
    return ProofRun(
        status=status,
        solutions=tuple(found),
        cnf=cnf,
        blocking=blocking if status == "unique" else None,
        proof=proof,
        solver=solver,
        seconds=time.perf_counter() - start,
    )


def _solve(sat: Solver, deadline: float | None) -> bool | None:
    """The solver's answer, or None when the deadline passed first."""
    if deadline is None:
        return cast(bool, sat.solve())
    while time.perf_counter() < deadline:
        sat.conf_budget(_CONFLICT_CHUNK)
        answer: bool | None = sat.solve_limited()
        if answer is not None:
            return answer
    return None
