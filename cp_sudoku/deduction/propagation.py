"""Unit propagation in a CNF encoding: what it decides without search, beside singles.

Lynce and Ouaknine ("Sudoku as a SAT Problem", AIMATH 2006) show that unit propagation
decides exactly what naked singles decide under the minimal and efficient encodings, and
what naked plus hidden singles decide under the extended encoding
(:func:`cp_sudoku.deduction.singles.solve_singles`).
"""

from __future__ import annotations

from pysat.solvers import Solver

from cp_sudoku.deduction.singles import Deduction
from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.model import Puzzle, is_solution

PROPAGATION_SOLVER = "minisat22"  # a MiniSat-like solver: python-sat's propagate() needs one


def unit_propagation(puzzle: Puzzle, encoding: str) -> Deduction:
    """What unit propagation alone decides in the CNF of ``puzzle`` under ``encoding``.

    The CNF comes from :func:`cp_sudoku.backends.sat.to_cnf`.  Its unit
    clauses are passed as assumptions to python-sat's ``Solver.propagate()``
    (MiniSat 2.2) and the other clauses loaded, so the returned trail is the
    whole fixpoint of unit propagation (a MiniSat solver does not report
    what it propagated at level 0 when clauses are added).  A cell is decided
    when one of its value literals is true (a given cell of the ``optimised``
    encoding has no variable and is decided).

    Returns:
        ``contradiction`` when propagation meets an empty clause;
        ``solved`` when every cell is decided and the grid passes the
        checker (``contradiction`` if it fails it: propagation is sound);
        else ``open``, with ``0`` for undecided cells.

    Raises:
        ValueError: an unknown encoding.
    """
    cnf = to_cnf(puzzle, encoding)
    units = list(dict.fromkeys(clause[0] for clause in cnf.clauses if len(clause) == 1))
    others = [clause for clause in cnf.clauses if len(clause) != 1]
    with Solver(name=PROPAGATION_SOLVER, bootstrap_with=others) as solver:
        consistent, trail = solver.propagate(assumptions=units)
    true = {lit for lit in trail if lit > 0}
    grid = tuple(
        cnf.fixed.get(i) or next((v for v, x in lits.items() if x in true), 0)
        for i, lits in enumerate(cnf.literal)
    )
    if not consistent:
        return Deduction("contradiction", grid)
    if 0 in grid:
        return Deduction("open", grid)
    return Deduction("solved" if is_solution(puzzle, grid) else "contradiction", grid)
