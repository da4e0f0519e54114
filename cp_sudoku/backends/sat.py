"""CNF encodings of a puzzle, and a back end solving them through python-sat.

The direct encoding: one Boolean variable ``x(cell, value)`` per cell and
candidate value, true when the cell holds the value.  From Lynce and
Ouaknine, "Sudoku as a SAT Problem" (AIMATH 2006), the clause families are

- *cell definedness*: every cell takes at least one value (one clause per cell);
- *cell uniqueness*: no cell takes two values (pairwise, ``C(n, 2)`` per cell);
- *unit uniqueness*: no value twice in a unit (pairwise, ``C(|unit|, 2)`` per
  unit and value);
- *unit definedness*: every value appears in a unit (one clause per unit and
  value; only for units that hold every value, that is ``|unit| = n``).

and the three encodings are

==============  ==========================================  =====================
encoding        families                                    empty 9x9 (clauses)
==============  ==========================================  =====================
``minimal``     cell definedness + unit uniqueness          81 + 8,748 = 8,829
``efficient``   minimal + cell uniqueness                   11,745
``extended``    efficient + unit definedness                11,988
==============  ==========================================  =====================

with one unit clause per given.  ``optimised`` is Kwon and Jain's optimised
encoding ("Optimized CNF Encoding for Sudoku Puzzles", LPAR 2006): the
extended encoding with the givens applied before writing it, so a given cell
has no variable, a value taken by a given peer has no variable, and a value
already given in a unit needs no definedness clause.  It is the default: it
is smaller by an order of magnitude on a typical 9x9 puzzle and the fastest
to build and solve.

Cages are encoded with selector variables (one auxiliary variable per
alternative):

- a sum cage with distinct values: one selector per valid digit set (few per
  (size, sum) pair: at most 12 for 9 values); ``OR(selectors)``; a selector
  forbids every value outside its set in every cage cell
  (``|cells| * (n - |set|)`` binary clauses) and requires each of its values
  somewhere in the cage (``|set|`` clauses); a cell value implies a selector
  whose set holds it; plus unit uniqueness over the cage cells;
- every other cage: one selector per allowed tuple; ``OR(selectors)``; a
  selector implies each of its cell values (``|cells|`` binary clauses per
  tuple); a cell value implies one of the selectors that use it.

Counting blocks a found solution with one clause over the *cell* variables
(never auxiliary ones), so only distinct grids are counted; each solve uses a
fresh solver inside ``with``, so no solver is left holding blocking clauses.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from pysat.solvers import Solver, SolverNames

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import (
    cage_tuples,
    candidates,
    differ_pairs,
    digit_sets,
    is_distinct_sum,
)
from cp_sudoku.model import Cell, Grid, Puzzle

ENCODINGS = ("minimal", "efficient", "extended", "optimised")
DEFAULT_SOLVER = "minisat22"


def solver_names() -> list[str]:
    """The SAT solver names python-sat offers (e.g. ``minisat22``, ``cadical195``)."""
    return sorted(name for name in vars(SolverNames) if not name.startswith("_"))


@dataclass
class Cnf:
    """A CNF formula over integer literals (DIMACS style: ``-v`` negates ``v``).

    ``literal[i]`` maps each candidate value of cell ``i`` (``Puzzle.cells``
    order) to its variable; a cell with an empty map is fixed by a given
    (``fixed[i]``).  Variables above the cell variables are auxiliary
    (cage selectors).
    """

    num_vars: int
    clauses: list[list[int]]
    literal: list[dict[int, int]]
    fixed: dict[int, int] = field(default_factory=dict)
    cells: tuple[Cell, ...] = ()

    def decode(self, model: list[int] | set[int]) -> Grid:
        """The grid a satisfying assignment describes."""
        true = set(model) if not isinstance(model, set) else model
        return tuple(
            self.fixed[i] if i in self.fixed else next(v for v, x in lits.items() if x in true)
            for i, lits in enumerate(self.literal)
        )

    def blocking_clause(self, grid: Grid) -> list[int]:
        """A clause over cell variables that excludes exactly ``grid``."""
        return [-lits[grid[i]] for i, lits in enumerate(self.literal) if i not in self.fixed]

    def dimacs_lines(self) -> Iterator[str]:
        """DIMACS CNF text, with a comment header mapping variables to cells."""
        yield "c cp_sudoku direct encoding; variable -> (row, column, value), 1-based"
        for i, lits in enumerate(self.literal):
            r, c = self.cells[i]
            for value, var in lits.items():
                yield f"c {var} r{r + 1}c{c + 1} = {value}"
        for i, value in self.fixed.items():
            r, c = self.cells[i]
            yield f"c given r{r + 1}c{c + 1} = {value} (no variable)"
        yield f"p cnf {self.num_vars} {len(self.clauses)}"
        for clause in self.clauses:
            yield " ".join(map(str, clause)) + " 0"


def to_cnf(puzzle: Puzzle, encoding: str = "optimised") -> Cnf:
    """The CNF of ``puzzle`` under ``encoding`` (one of :data:`ENCODINGS`).

    Pure: no solver involved.  An empty 9x9 under ``extended`` has 729
    variables and 11,988 clauses.

    Raises:
        ValueError: an unknown encoding name.
    """
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    n = puzzle.max_value
    index = puzzle.index()
    simplify = encoding == "optimised"
    domains = candidates(puzzle) if simplify else [list(range(1, n + 1))] * puzzle.size
    fixed = {index[c]: v for c, v in puzzle.givens.items()} if simplify else {}
    literal: list[dict[int, int]] = []
    top = 0
    for i, values in enumerate(domains):
        lits = {}
        if i not in fixed:
            for value in values:
                top += 1
                lits[value] = top
        literal.append(lits)
    clauses: list[list[int]] = []
    for i, lits in enumerate(literal):
        if i in fixed:
            continue
        clauses.append(list(lits.values()))  # definedness (empty: no candidate)
        if encoding != "minimal":
            clauses.extend([-a, -b] for a, b in combinations(lits.values(), 2))
    if not simplify:
        clauses.extend([literal[index[c]][v]] for c, v in puzzle.givens.items())
    for unit in puzzle.units:
        members = [index[c] for c in unit.cells]
        _unit_clauses(clauses, literal, fixed, members, n, encoding)
    for cage in puzzle.cages:
        members = [index[c] for c in cage.cells]
        if cage.distinct:
            _unit_clauses(clauses, literal, fixed, members, n, "efficient")
        top = _cage_clauses(puzzle, clauses, literal, fixed, cage, members, top)
    return Cnf(top, clauses, literal, fixed, puzzle.cells)


def _unit_clauses(
    clauses: list[list[int]],
    literal: list[dict[int, int]],
    fixed: dict[int, int],
    members: list[int],
    n: int,
    encoding: str,
) -> None:
    given_here = {fixed[i] for i in members if i in fixed}
    for value in range(1, n + 1):
        lits = [literal[i][value] for i in members if value in literal[i]]
        clauses.extend([-a, -b] for a, b in combinations(lits, 2))
        if encoding in ("extended", "optimised") and len(members) == n and value not in given_here:
            clauses.append(lits)


def _cage_clauses(
    puzzle: Puzzle,
    clauses: list[list[int]],
    literal: list[dict[int, int]],
    fixed: dict[int, int],
    cage,
    members: list[int],
    top: int,
) -> int:
    def lit_of(i: int, value: int) -> int | None:
        """The literal of ``cell i = value``; None when it is decided."""
        if i in fixed:
            return None
        return literal[i].get(value, 0)  # 0: impossible value

    support: dict[tuple[int, int], list[int]] = {}
    selectors: list[int] = []
    if is_distinct_sum(cage):
        for digits in digit_sets(len(members), cage.target, puzzle.max_value):
            if any(i in fixed and fixed[i] not in digits for i in members):
                continue
            top += 1
            selectors.append(top)
            for i in members:
                for value, x in literal[i].items():
                    if value in digits:
                        support.setdefault((i, value), []).append(top)
                    else:
                        clauses.append([-top, -x])
            for value in digits:
                if any(fixed.get(i) == value for i in members):
                    continue
                clauses.append([-top] + [literal[i][value] for i in members if value in literal[i]])
    else:
        domains = [[fixed[i]] if i in fixed else list(literal[i]) for i in members]
        for values in cage_tuples(cage, domains, differ_pairs(puzzle, cage.cells)):
            top += 1
            selectors.append(top)
            for i, value in zip(members, values, strict=True):
                x = lit_of(i, value)
                if x:
                    clauses.append([-top, x])
                    support.setdefault((i, value), []).append(top)
    clauses.append(selectors)  # empty when the cage allows nothing: unsatisfiable
    for i in members:
        for value, x in literal[i].items():
            clauses.append([-x, *support.get((i, value), [])])
    return top


class SatBackend:
    """A CNF encoding (see the module docstring) solved by a python-sat solver.

    Args:
        solver: a python-sat solver name (:func:`solver_names`); default
            ``minisat22``.
        encoding: one of :data:`ENCODINGS`; default ``optimised``.

    Statistics: ``variables``, ``clauses`` (formula size), and the solver's
    ``conflicts``, ``decisions`` and ``propagations``, summed over the calls.

    Raises:
        ValueError: an unknown solver or encoding name.
    """

    def __init__(
        self, *, solver: str = DEFAULT_SOLVER, encoding: str = "optimised", name: str = "sat"
    ) -> None:
        if solver not in solver_names():
            raise ValueError(f"unknown SAT solver {solver!r}; choose one of {solver_names()}")
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose one of {ENCODINGS}")
        self.name = name
        self.solver = solver
        self.encoding = encoding

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        cnf = to_cnf(puzzle, self.encoding)
        found: list[Grid] = []
        complete = False
        with Solver(name=self.solver, bootstrap_with=cnf.clauses) as sat:
            timer = None
            if time_limit is not None:
                timer = threading.Timer(time_limit, sat.interrupt)
                timer.start()
            try:
                while len(found) < limit:
                    answer = (
                        sat.solve_limited(expect_interrupt=True)
                        if timer is not None
                        else sat.solve()
                    )
                    if answer is None:  # interrupted by the time limit
                        break
                    if not answer:
                        complete = True
                        break
                    grid = cnf.decode(sat.get_model())
                    found.append(grid)
                    blocking = cnf.blocking_clause(grid)
                    if not blocking:  # every cell given: nothing else to find
                        complete = True
                        break
                    sat.add_clause(blocking)
            finally:
                if timer is not None:
                    timer.cancel()
            stats = sat.accum_stats()
        return Result(
            backend=self.name,
            status=status_of(len(found), complete),
            solutions=tuple(found),
            complete=complete,
            seconds=time.perf_counter() - start,
            stats={
                "variables": cnf.num_vars,
                "clauses": len(cnf.clauses),
                "conflicts": stats.get("conflicts", 0),
                "decisions": stats.get("decisions", 0),
                "propagations": stats.get("propagations", 0),
            },
        )
