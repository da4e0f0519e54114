"""One incremental SAT solver per rule set: random solutions and uniqueness checks.

The puzzle's rules without its givens are written once as CNF (the
``extended`` direct encoding of :mod:`cp_sudoku.encodings.cnf`, so every
cell keeps a variable for every value) and loaded into one python-sat
solver.  Givens are then *assumptions*, never clauses, so learnt clauses
stay valid from one check to the next and no solver is rebuilt.

Uniqueness against a known solution ``S`` (the digging test of QQWing and
most generators): the givens ``G``, all taken from ``S``, fix a unique
puzzle exactly when the formula plus ``G`` has no model other than ``S``.
Removing the given ``g`` from a unique ``G`` keeps it unique exactly when
``G - g`` plus "cell g differs from S" is unsatisfiable, since any second
solution of ``G - g`` must differ from ``S`` at ``g``.  Each test is one
solver call.

Time limits: an oracle made while a deadline is in force
(:func:`cp_sudoku.constraints.base.compile_deadline`, as
:func:`cp_sudoku.generate.making.make` sets for ``--time-limit``) interrupts its
solver at that deadline (the sat back end's :class:`~cp_sudoku.backends.sat.Stopper`)
and raises :class:`~cp_sudoku.constraints.base.OutOfTime`; compiling the rules reads
the same deadline.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import cast

from pysat.solvers import Solver

from cp_sudoku.backends.base import Clock
from cp_sudoku.backends.sat import Stopper
from cp_sudoku.constraints.base import OutOfTime, check_deadline, remaining_time
from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.model import Cell, Grid, Puzzle

#: The python-sat solver used (fastest of minisat22, glucose4 and cadical195 on
#: 9x9 digging; measured in docs/performance.md).
SOLVER = "minisat22"
#: Clauses loaded between two looks at the deadline (an empty 36x36 has 3.3 million).
LOAD_CHUNK = 100_000


class Oracle:
    """Random solutions and uniqueness tests for the rules of ``puzzle`` (givens ignored).

    Args:
        puzzle: any puzzle; its constraints are compiled, its givens dropped.
        cnf: the CNF of ``puzzle`` without givens when already written
            (``extended`` encoding).

    Each oracle is a new solver, so its answers (the models it returns) depend
    only on the calls made to it: a generator that makes one oracle per
    puzzle gives the same puzzle for a seed whatever ran before.  Call
    :meth:`close` (or use ``with``) to free the solver.
    """

    def __init__(self, puzzle: Puzzle, cnf: Cnf | None = None) -> None:
        self.puzzle = replace(puzzle, givens={})
        self.cnf = cnf or to_cnf(self.puzzle, "extended")
        self.index = self.puzzle.index
        self.sat = Solver(name=SOLVER)
        clauses = self.cnf.clauses
        try:  # in chunks, so that a deadline stops the loading of a large formula
            for start in range(0, len(clauses), LOAD_CHUNK):
                check_deadline()
                self.sat.append_formula(clauses[start : start + LOAD_CHUNK])
        except OutOfTime:
            self.sat.delete()
            raise
        self._top = self.cnf.num_vars  # the last variable in use (guards come after)
        left = remaining_time()
        self._stopper = None if left is None else Stopper(self.sat, Clock(left))

    def _solve(self, assumptions: list[int]) -> bool:
        """The solver's answer under ``assumptions``.

        Raises:
            OutOfTime: the deadline in force when the oracle was made passed first.
        """
        if self._stopper is None:
            return cast(bool, self.sat.solve(assumptions=assumptions))
        answer = self._stopper.solve(assumptions)
        if answer is None:
            raise OutOfTime("generating passed the time limit")
        return answer

    def literal(self, cell: Cell, value: int) -> int:
        """The variable of ``cell = value``."""
        return self.cnf.literal[self.index[cell]][value]

    def _assumed(self, givens: Iterable[tuple[Cell, int]]) -> list[int]:
        literal, index = self.cnf.literal, self.index
        return [literal[index[cell]][value] for cell, value in givens]

    def random_solution(
        self,
        rng: random.Random,
        givens: Sequence[tuple[Cell, int]] = (),
        extra: Sequence[int] = (),
    ) -> Grid | None:
        """A solution with ``givens`` (and the ``extra`` literals assumed) drawn by ``rng``,
        or None when there is none.

        Random phases: each cell prefers a random value.  Not uniform over all
        solutions, but every solution can come out.
        """
        phases: list[int] = []
        for lits in self.cnf.literal:
            values = list(lits)
            chosen = rng.choice(values)
            phases.extend(lits[v] if v == chosen else -lits[v] for v in values)
        self.sat.set_phases(phases)
        if not self._solve([*self._assumed(givens), *extra]):
            return None
        return self.cnf.decode(self.sat.get_model())

    def other_solution(
        self, givens: Iterable[tuple[Cell, int]], solution: Grid, extra: Sequence[int] = ()
    ) -> Grid | None:
        """A solution of ``givens`` (and the ``extra`` literals assumed) that differs from
        ``solution``, or None when there is none.

        Uses a blocking clause guarded by a fresh activation literal, switched
        off for good afterwards.
        """
        blocking = self.cnf.blocking_clause(solution)
        guard = self.fresh()
        self.sat.add_clause([-guard, *blocking])
        try:
            if not self._solve([*self._assumed(givens), *extra, guard]):
                return None
            return self.cnf.decode(self.sat.get_model())
        finally:
            self.sat.add_clause([-guard])

    def fresh(self) -> int:
        """A variable no clause has used yet (an activation literal, a selector)."""
        self._top += 1
        return self._top

    def removable(
        self, givens: Sequence[tuple[Cell, int]], removed: Sequence[Cell], solution: Grid
    ) -> bool:
        """Whether ``givens`` (a unique puzzle, values from ``solution``) minus the cells
        ``removed`` stays unique."""
        gone = set(removed)
        kept = [(cell, value) for cell, value in givens if cell not in gone]
        index = self.index
        differs = [-self.literal(cell, solution[index[cell]]) for cell in removed]
        if len(differs) == 1:
            return not self._solve([*self._assumed(kept), differs[0]])
        guard = self.fresh()
        self.sat.add_clause([-guard, *differs])
        try:
            return not self._solve([*self._assumed(kept), guard])
        finally:
            self.sat.add_clause([-guard])

    def close(self) -> None:
        """Free the solver (and stop its timer)."""
        if self._stopper is not None:
            self._stopper.close()
        self.sat.delete()

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
