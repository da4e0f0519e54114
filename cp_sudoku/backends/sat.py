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
(never auxiliary ones), so only distinct grids are counted.

Two ways to solve (:class:`SatBackend`, option ``incremental``):

- *fresh*: the puzzle's own CNF in a fresh solver, used inside ``with`` and
  dropped with its blocking clauses;
- *incremental* (the default for batches): the clauses that do not depend on
  the givens are compiled once per shape (cells, units, values; puzzles with
  cages always go fresh) into one solver (:class:`CompiledShape`); each
  puzzle's givens are *assumptions*, and its blocking clauses carry a fresh
  *activation literal* ``a`` (clause ``[-a, ...]``, ``a`` assumed), switched
  off for good by the unit clause ``[-a]`` when the puzzle is done, so no
  puzzle's blocking clauses reach the next one.  Variable activities are
  reset before each puzzle where the solver allows it, and the solver is
  rebuilt after :data:`RECYCLE_PUZZLES` puzzles or
  :data:`RECYCLE_CONFLICTS` conflicts: the learnt clauses of earlier puzzles
  (which mention their givens) slow the later ones down.  A back end
  compiles a shape only once the clauses it wrote for fresh solves of that
  shape add up to the compiled formula's size (so a single puzzle never pays
  for a compilation), and never above :data:`MAX_COMPILED_CLAUSES`.

What was measured: CPU puzzles per second with uniqueness (limit 2) through
this back end, one process, on the first 10,000 royle-17clue puzzles, all
1,465 of magictour-top1465 and all 375 of forum-hardest-1106 (2-core AMD
EPYC, CPython 3.11, python-sat 1.9.dev24):

================================================  ========  =======  =======
approach                                          17-clue   top1465  hardest
================================================  ========  =======  =======
fresh Kwon-Jain CNF per puzzle, minisat22              564      686      488
fresh Kwon-Jain CNF per puzzle, glucose4               546      684      482
one solver, givens as assumptions, never rebuilt     2,218    1,684      459
rebuilt every 400 puzzles                            5,378    1,737      450
+ activities reset before each puzzle                6,883    1,979      497
+ rebuilt after 2,000 conflicts too (the default)    6,865    2,410      605
same, glucose4                                       6,616    2,325      551
same, cadical195 (cannot reset activities)           6,008    1,810      413
================================================  ========  =======  =======

Building the Kwon-Jain CNF in Python costs about 1 ms and loading it into a
solver about 0.5 ms, which caps the fresh path near 600 puzzles a second;
a compiled shape pays about 20 microseconds of propagation per solver call
instead, but its search is slower on hard puzzles (the givens are
assumptions, not simplified away), so the learnt clauses of earlier puzzles
must not pile up.  Also tried: dropping the cell-uniqueness clauses (17-clue
puzzles 20 times slower); adding locked-candidate clauses (486 auxiliary
variables, 8,748 clauses: a third to two thirds fewer conflicts, 20-45%
slower); setting the saved phases before each puzzle (no gain); rebuilding
after 500, 1,000 or 5,000 conflicts, or every 200 or 1,000 puzzles (no
better).  On fresh CNFs glucose4 is the default: on 200 generated 36x36
puzzles (45% blank) its slowest took 0.9 s against 8.4 s for minisat22.

Time limits: a timer interrupts solvers that support it (minisat22, glucose,
maple...); others (cadical) are solved in chunks of
:data:`CONFLICT_CHUNK` conflicts with the clock checked in between.  A
stopped search is ``unknown``; the solver is left usable either way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from itertools import combinations

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from cp_sudoku.backends.base import Result, status_of
from cp_sudoku.backends.common import (
    ShapeKey,
    cage_tuples,
    candidates,
    differ_pairs,
    digit_sets,
    is_distinct_sum,
    shape_key,
)
from cp_sudoku.model import Cell, Grid, Puzzle

ENCODINGS = ("minimal", "efficient", "extended", "optimised")
#: The default solver of compiled shapes (incremental), and of fresh CNFs.
DEFAULT_SOLVER = "minisat22"
DEFAULT_FRESH_SOLVER = "glucose4"


@cache
def solver_names() -> list[str]:
    """The python-sat solvers this back end can use (e.g. ``minisat22``, ``cadical195``).

    Of the names python-sat lists, those that build on this machine, answer
    a limited solve (needed for time limits) and report statistics: some
    (cryptosat, minisatgh) may not be built into the installed wheel,
    lingeling has no limited solve and kissat exposes no statistics.
    """
    usable = []
    for name in sorted(name for name in vars(SolverNames) if not name.startswith("_")):
        try:
            with Solver(name=name, bootstrap_with=[[1, 2]]) as probe:
                probe.solve_limited()
                probe.accum_stats()
        except (NoSuchSolverError, NotImplementedError):
            continue
        usable.append(name)
    return usable


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

    @cached_property
    def _cell_of(self) -> list[tuple[int, int] | None]:
        """Per variable (index = variable): its (cell index, value), None if auxiliary."""
        found: list[tuple[int, int] | None] = [None] * (self.num_vars + 1)
        for i, lits in enumerate(self.literal):
            for value, var in lits.items():
                found[var] = (i, value)
        return found

    def decode(self, model: Iterable[int]) -> Grid:
        """The grid a satisfying assignment describes (a cell's lowest true value).

        ``model`` lists literals (``v`` true, ``-v`` false), as python-sat's
        ``get_model`` does; variables above ``num_vars`` are ignored.
        """
        cell_of = self._cell_of
        grid = [0] * len(self.literal)
        for i, value in self.fixed.items():
            grid[i] = value
        top = self.num_vars
        if isinstance(model, list) and len(model) >= top > 0 and abs(model[top - 1]) == top:
            model = model[:top]  # in variable order, as get_model gives it: skip the rest
        for var in sorted([x for x in model if x > 0]):
            place = cell_of[var] if var <= top else None
            if place is not None and not grid[place[0]]:
                grid[place[0]] = place[1]
        return tuple(grid)

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


#: A compiled shape's solver is rebuilt after this many puzzles ...
RECYCLE_PUZZLES = 400
#: ... or this many conflicts, whichever comes first (see the module docstring).
RECYCLE_CONFLICTS = 2000
#: Shapes whose compiled formula would be larger are always solved fresh
#: (an empty 16x16 has 123,136 clauses; an empty 25x25 has 765,075).
MAX_COMPILED_CLAUSES = 200_000
#: Conflicts between two looks at the clock, for solvers that cannot be interrupted.
CONFLICT_CHUNK = 1000
#: Solvers that python-sat runs without assumptions (it warns and ignores them).
_NO_ASSUMPTIONS = frozenset({"kissat404"})


def compiled_clauses(puzzle: Puzzle, encoding: str = "extended") -> int:
    """The number of clauses of ``puzzle``'s shape without givens (no cages), unbuilt.

    Equals ``len(to_cnf(puzzle_without_givens, encoding).clauses)``; an empty
    9x9 has 11,988 under ``extended``.
    """
    n = puzzle.max_value
    pairs = n * (n - 1) // 2
    count = puzzle.size  # cell definedness
    if encoding != "minimal":
        count += puzzle.size * pairs  # cell uniqueness
    for unit in puzzle.units:
        size = len(unit.cells)
        count += n * (size * (size - 1) // 2)  # unit uniqueness
        if encoding in ("extended", "optimised") and size == n:
            count += n  # unit definedness
    return count


class _Stopper:
    """Stops a solver call after ``time_limit`` seconds: by interrupt, or in conflict chunks."""

    def __init__(self, sat: Solver, time_limit: float) -> None:
        self.sat = sat
        self.deadline = time.perf_counter() + time_limit
        try:
            sat.clear_interrupt()
            self.timer: threading.Timer | None = threading.Timer(time_limit, sat.interrupt)
            self.timer.start()
        except NotImplementedError:
            self.timer = None

    def solve(self, assumptions: list[int]) -> bool | None:
        """The solver's answer, or None when the time ran out first."""
        if time.perf_counter() >= self.deadline:  # an interrupt between two calls is lost
            return None
        if self.timer is not None:
            return self.sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
        while time.perf_counter() < self.deadline:
            self.sat.conf_budget(CONFLICT_CHUNK)
            answer = self.sat.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
        return None

    def close(self) -> None:
        """Stop the timer and leave the solver usable for the next call."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer.join()
            self.sat.clear_interrupt()


def count_solutions(
    sat: Solver,
    cnf: Cnf,
    limit: int,
    time_limit: float | None = None,
    assumptions: list[int] | None = None,
    activation: int | None = None,
) -> tuple[list[Grid], bool]:
    """Find up to ``limit`` distinct grids of ``cnf`` loaded in ``sat``, blocking each one.

    Returns the grids and whether the search space was exhausted.  With
    ``activation``, each blocking clause carries ``-activation`` and the
    activation literal is assumed, so that the caller can switch the blocking
    clauses off with the unit clause ``[-activation]``.
    """
    assumed = list(assumptions or ())
    if activation is not None:
        assumed.append(activation)
    stopper = _Stopper(sat, time_limit) if time_limit is not None else None
    found: list[Grid] = []
    complete = False
    try:
        while len(found) < limit:
            answer = sat.solve(assumptions=assumed) if stopper is None else stopper.solve(assumed)
            if answer is None:  # stopped by the time limit
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
            sat.add_clause(blocking if activation is None else [-activation, *blocking])
    finally:
        if stopper is not None:
            stopper.close()
    return found, complete


def _effort(stats: dict[str, int], before: dict[str, int] | None = None) -> dict[str, int]:
    before = before or {}
    return {
        key: stats.get(key, 0) - before.get(key, 0)
        for key in ("conflicts", "decisions", "propagations")
    }


class CompiledShape:
    """One solver serving every puzzle of one shape, the givens passed as assumptions.

    Args:
        puzzle: any puzzle of the shape (its givens are ignored); no cages.
        solver: a python-sat solver name that honours assumptions.
        encoding: ``minimal``, ``efficient`` or ``extended`` (``optimised``
            without givens is ``extended``).

    Use it inside ``with`` (or call :meth:`close`) so the solver's native
    memory is freed.  See the module docstring for the activation literals
    and the recycling.

    Raises:
        ValueError: a puzzle with cages, a solver without assumptions, or an
            unknown encoding.
    """

    def __init__(
        self, puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER, encoding: str = "extended"
    ) -> None:
        key = shape_key(puzzle)
        if key is None:
            raise ValueError("a puzzle with cages has no compiled shape: its clauses depend on it")
        if solver in _NO_ASSUMPTIONS:
            raise ValueError(f"{solver} ignores assumptions; it can only solve fresh")
        self.key = key
        self.solver = solver
        self.cnf = to_cnf(replace(puzzle, givens={}, name=""), encoding)
        self._index = puzzle.index()
        self._sat: Solver | None = None
        self._resets = True
        self._top = self._puzzles = self._conflicts = 0

    def solve(
        self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None
    ) -> tuple[list[Grid], bool, dict[str, int]]:
        """Up to ``limit`` grids of ``puzzle`` (of this shape), completeness, effort counts."""
        sat = self._ready()
        literal, index = self.cnf.literal, self._index
        assumptions = [literal[index[cell]][value] for cell, value in puzzle.givens.items()]
        self._top += 1
        activation = self._top
        if self._resets:
            sat.set_activities({})
        before = sat.accum_stats()
        try:
            found, complete = count_solutions(
                sat, self.cnf, limit, time_limit, assumptions, activation
            )
        finally:
            sat.add_clause([-activation])
        effort = _effort(sat.accum_stats(), before)
        self._puzzles += 1
        self._conflicts += effort["conflicts"]
        return found, complete, {**effort, "assumptions": len(assumptions)}

    def _ready(self) -> Solver:
        """The solver, rebuilt when it has served its share of puzzles or conflicts."""
        if self._sat is not None and (
            self._puzzles >= RECYCLE_PUZZLES or self._conflicts >= RECYCLE_CONFLICTS
        ):
            self.close()
        if self._sat is None:
            self._sat = Solver(name=self.solver, bootstrap_with=self.cnf.clauses)
            self._top = self.cnf.num_vars
            self._puzzles = self._conflicts = 0
            try:
                self._sat.set_activities({})
            except (NotImplementedError, AttributeError):
                self._resets = False
        return self._sat

    def close(self) -> None:
        """Free the solver (a later :meth:`solve` builds a new one)."""
        if self._sat is not None:
            self._sat.delete()
            self._sat = None

    def __enter__(self) -> CompiledShape:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class SatBackend:
    """A CNF encoding (see the module docstring) solved by a python-sat solver.

    Args:
        solver: a python-sat solver name (:func:`solver_names`) for every
            solve; default (None): :data:`DEFAULT_SOLVER` (minisat22) on
            compiled shapes and :data:`DEFAULT_FRESH_SOLVER` (glucose4) on
            fresh CNFs, the fastest of each measured (module docstring).
        encoding: one of :data:`ENCODINGS`; default ``optimised``.  A
            compiled shape uses it without givens (``optimised`` is then
            ``extended``).
        incremental: reuse one solver per shape across puzzles (default);
            ``False`` builds a fresh CNF and solver for every puzzle.

    Statistics: ``variables``, ``clauses`` (formula size; for a compiled
    shape, the shared formula's), the solver's ``conflicts``, ``decisions``
    and ``propagations`` for this puzzle, and ``assumptions`` (givens passed
    as assumptions; 0 when solved fresh).

    A back end holding a compiled shape keeps a native solver: use it inside
    ``with`` or call :meth:`close` when done (it is also freed when the back
    end is garbage-collected).

    Raises:
        ValueError: an unknown solver or encoding name.
    """

    def __init__(
        self,
        *,
        solver: str | None = None,
        encoding: str = "optimised",
        incremental: bool = True,
        name: str = "sat",
    ) -> None:
        if solver is not None and solver not in solver_names():
            raise ValueError(f"unknown SAT solver {solver!r}; choose one of {solver_names()}")
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose one of {ENCODINGS}")
        self.name = name
        self.solver = solver or DEFAULT_SOLVER
        self.fresh_solver = solver or DEFAULT_FRESH_SOLVER
        self.encoding = encoding
        self.incremental = incremental and self.solver not in _NO_ASSUMPTIONS
        self._shape: CompiledShape | None = None
        self._pending: ShapeKey | None = None
        self._written = 0  # clauses written fresh for the pending shape

    def solve(self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None) -> Result:
        """Up to ``limit`` (>= 1) distinct grids of ``puzzle``, each a tuple of
        values in ``puzzle.cells`` order (row-major); ``time_limit`` in seconds.
        See :class:`~cp_sudoku.backends.base.Backend` for the statuses."""
        start = time.perf_counter()
        shape = self._compiled(puzzle)
        if shape is not None:
            found, complete, effort = shape.solve(puzzle, limit, time_limit)
            size = {"variables": shape.cnf.num_vars, "clauses": len(shape.cnf.clauses)}
        else:
            cnf = to_cnf(puzzle, self.encoding)
            self._written += len(cnf.clauses)
            with Solver(name=self.fresh_solver, bootstrap_with=cnf.clauses) as sat:
                found, complete = count_solutions(sat, cnf, limit, time_limit)
                effort = {**_effort(sat.accum_stats()), "assumptions": 0}
            size = {"variables": cnf.num_vars, "clauses": len(cnf.clauses)}
        return Result(
            backend=self.name,
            status=status_of(len(found), complete),
            solutions=tuple(found),
            complete=complete,
            seconds=time.perf_counter() - start,
            stats={**size, **effort},
        )

    def _compiled(self, puzzle: Puzzle) -> CompiledShape | None:
        """The compiled shape for ``puzzle``, once compiling it has paid off; else None."""
        if not self.incremental:
            return None
        key = shape_key(puzzle)
        if key is None:
            self._pending = None
            return None
        if self._shape is not None and self._shape.key == key:
            return self._shape
        if key != self._pending:
            self._pending, self._written = key, 0
        base = "extended" if self.encoding == "optimised" else self.encoding
        size = compiled_clauses(puzzle, base)
        if size > MAX_COMPILED_CLAUSES or self._written < size:
            return None
        self.close()
        self._shape = CompiledShape(puzzle, solver=self.solver, encoding=base)
        return self._shape

    def close(self) -> None:
        """Free the compiled shape's solver, if any."""
        if self._shape is not None:
            self._shape.close()
            self._shape = None

    def __enter__(self) -> SatBackend:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
