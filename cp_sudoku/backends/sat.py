"""The ``sat`` back end: a CNF encoding (:mod:`cp_sudoku.encodings.cnf`) solved by python-sat.

Two ways to solve (option ``incremental``):

- *fresh*: the puzzle's own CNF in a fresh solver, used inside ``with`` and
  dropped with its blocking clauses;
- *incremental* (the default for batches): the clauses that do not depend on
  the givens are compiled once per shape (cells, units, values; puzzles with
  other constraints always go fresh) into one solver (:class:`ShapeSolver`);
  each puzzle's givens are *assumptions*, and its blocking clauses carry a
  fresh *activation literal* ``a`` (clause ``[-a, ...]``, ``a`` assumed),
  switched off for good by the unit clause ``[-a]`` when the puzzle is done,
  so no puzzle's blocking clauses reach the next one.  Variable activities
  are reset before each puzzle where the solver allows it, and the solver is
  rebuilt after :data:`RECYCLE_PUZZLES` puzzles or :data:`RECYCLE_CONFLICTS`
  conflicts, since the learnt clauses of earlier puzzles slow later ones
  down.  Every shape of units alone up to :data:`MAX_COMPILED_CLAUSES` is
  compiled on its first puzzle (the last :data:`KEPT_SHAPES` shapes are
  kept), so which formula a puzzle is solved with, and its ``variables`` and
  ``clauses``, depend on the puzzle alone, never on what came before (a
  9x9 compiles in about 10 ms, against 2 ms for one puzzle's fresh CNF).
  The effort counts of a compiled shape do depend on the puzzles its solver
  served before (its learnt clauses).

Time limits: a timer interrupts solvers that support it (minisat22,
glucose, maple...); others (cadical) are solved in chunks of
:data:`CONFLICT_CHUNK` conflicts with the clock checked in between.
Measurements behind the defaults are in ``docs/performance.md``.
"""

from __future__ import annotations

import threading
from array import array
from dataclasses import replace
from functools import cache
from typing import ClassVar, cast

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from cp_sudoku.backends.base import Backend, Clock, Option, Sink
from cp_sudoku.encodings.cnf import ENCODINGS, Cnf, compiled_clauses, to_cnf
from cp_sudoku.encodings.shapes import Shape, shape_of
from cp_sudoku.model import Grid, Puzzle, UsageError

#: The default solver of compiled shapes (incremental), and of fresh CNFs.
DEFAULT_SOLVER = "minisat22"
DEFAULT_FRESH_SOLVER = "glucose4"
#: A compiled shape's solver is rebuilt after this many puzzles ...
RECYCLE_PUZZLES = 400
#: ... or this many conflicts, whichever comes first.
RECYCLE_CONFLICTS = 2000
#: Shapes whose compiled formula would be larger are always solved fresh
#: (an empty 16x16 has 123,136 clauses; an empty 25x25 has 765,075).
MAX_COMPILED_CLAUSES = 200_000
#: Compiled shapes a back end keeps (a file that mixes shapes does not recompile them).
KEPT_SHAPES = 4
#: Conflicts between two looks at the clock, for solvers that cannot be interrupted.
CONFLICT_CHUNK = 1000
#: Solvers that python-sat runs without assumptions (it warns and ignores them).
_NO_ASSUMPTIONS = frozenset({"kissat404"})


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


class Stopper:
    """Stops a solver call after ``time_limit`` seconds: by interrupt, or in conflict chunks."""

    def __init__(self, sat: Solver, clock: Clock) -> None:
        self.sat = sat
        self.clock = clock
        remaining = clock.remaining()
        self.timer: threading.Timer | None = None
        if remaining is None:
            return
        try:
            sat.clear_interrupt()
            self.timer = threading.Timer(remaining, sat.interrupt)
            self.timer.daemon = True
            self.timer.start()
        except NotImplementedError:
            self.timer = None

    def solve(self, assumptions: list[int]) -> bool | None:
        """The solver's answer, or None when the time ran out first."""
        if self.clock.deadline is None:
            return cast(bool, self.sat.solve(assumptions=assumptions))
        if self.clock.expired():  # an interrupt between two calls is lost
            return None
        if self.timer is not None:
            answer: bool | None = self.sat.solve_limited(
                assumptions=assumptions, expect_interrupt=True
            )
            return answer
        while not self.clock.expired():
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


#: Grids one cube of an enumeration blocks at most; past it the cube is split.
MAX_BLOCKING = 5_000


def enumerate_models(
    sat: Solver,
    cnf: Cnf,
    sink: Sink,
    clock: Clock,
    assumptions: list[int] | None = None,
    activation: int | None = None,
) -> bool:
    """Hand each distinct grid of ``cnf`` (loaded in ``sat``) to ``sink``; whether the
    search space was exhausted.

    Each grid found is excluded by a blocking clause.  So that the solver's
    memory stays flat however many grids there are (a ``count`` of an empty
    9x9 to a million), the blocking clauses of the search hold at most
    :data:`MAX_BLOCKING` grids: the space is searched in *cubes* (cell values
    assumed), first the whole space; a cube that has found that many grids
    has its blocking clauses switched off for good (the solver then drops
    them as satisfied) and is split on its next free cell into one cube per
    value, each of which blocks again only the grids found so far inside it
    (kept packed, two bytes a cell, until its turn comes).  Every cube's
    blocking clauses carry its own activation literal ``-a`` (``a`` assumed
    while it runs); ``activation`` is the caller's, assumed throughout and
    switched off by the caller.
    """
    outer = list(assumptions or ())
    if activation is not None:
        outer.append(activation)
    free: list[int] | None = None  # the cells a cube may split on, found at the first split
    stopper = Stopper(sat, clock)
    cubes: list[tuple[list[int], list[array[int]]]] = [([], [])]  # cell literals, grids in it
    top = max([sat.nof_vars(), cnf.num_vars, *(abs(lit) for lit in outer)])
    own = 0
    try:
        while cubes:
            cube, found = cubes.pop()
            top += 1
            own = top
            for packed in found:
                sat.add_clause([-own, *cnf.blocking_clause(tuple(packed))])
            while True:
                answer = stopper.solve([*outer, *cube, own])
                if answer is None:  # stopped by the time limit
                    return False
                if not answer:
                    break
                grid = cnf.decode(sat.get_model())
                stop = sink.add(grid)
                blocking = cnf.blocking_clause(grid)
                if not blocking:  # every cell given: nothing else to find
                    return True
                sat.add_clause([-own, *blocking])
                if stop:
                    return False
                found.append(array("H", grid))
                if len(found) >= MAX_BLOCKING:
                    free = _free_cells(cnf, outer) if free is None else free
                    if len(cube) < len(free):
                        cell = free[len(cube)]
                        cubes.extend(
                            ([*cube, var], [packed for packed in found if packed[cell] == value])
                            for value, var in cnf.literal[cell].items()
                        )
                        break
            sat.add_clause([-own])  # this cube's blocking clauses, off for good
            own = 0
        return True
    finally:
        if own:  # stopped inside a cube
            sat.add_clause([-own])
        stopper.close()


def _free_cells(cnf: Cnf, assumptions: list[int]) -> list[int]:
    """The cells with a choice of values that no assumption fixes, in order."""
    cell_of = cnf._cell_of
    assumed = {pair[0] for lit in assumptions if 0 < lit < len(cell_of) and (pair := cell_of[lit])}
    return [i for i, lits in enumerate(cnf.literal) if len(lits) > 1 and i not in assumed]


def _effort(stats: dict[str, int], before: dict[str, int] | None = None) -> dict[str, int]:
    before = before or {}
    return {
        key: stats.get(key, 0) - before.get(key, 0)
        for key in ("conflicts", "decisions", "propagations")
    }


class ShapeSolver:
    """One solver serving every puzzle of one shape, the givens passed as assumptions.

    Args:
        puzzle: any puzzle of the shape (its givens are ignored); units only.
        solver: a python-sat solver name that honours assumptions.
        encoding: ``minimal``, ``efficient`` or ``extended``.

    Call :meth:`close` when done so the solver's native memory is freed.

    Raises:
        UsageError: a puzzle with other constraints than units, or a solver
            without assumptions.
    """

    def __init__(
        self, puzzle: Puzzle, *, solver: str = DEFAULT_SOLVER, encoding: str = "extended"
    ) -> None:
        shape = shape_of(puzzle)
        if shape is None:
            raise UsageError("only a puzzle of units alone has a compiled shape")
        if solver in _NO_ASSUMPTIONS:
            raise UsageError(f"{solver} ignores assumptions; it can only solve fresh")
        self.shape = shape
        self.solver = solver
        self.cnf = to_cnf(replace(puzzle, givens={}), encoding)
        self._sat: Solver | None = None
        self._resets = True
        self._top = self._puzzles = self._conflicts = 0

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock) -> tuple[bool, dict[str, int]]:
        """Grids of ``puzzle`` (of this shape) into ``sink``; completeness and effort counts."""
        sat = self._ready()
        literal, index = self.cnf.literal, puzzle.index
        assumptions = [literal[index[cell]][value] for cell, value in puzzle.givens.items()]
        activation = self._top = max(self._top, sat.nof_vars()) + 1  # past every cube's
        if self._resets:
            sat.set_activities({})
        before = sat.accum_stats()
        try:
            complete = enumerate_models(sat, self.cnf, sink, clock, assumptions, activation)
        finally:
            sat.add_clause([-activation])
        effort = _effort(sat.accum_stats(), before)
        self._puzzles += 1
        self._conflicts += effort["conflicts"]
        return complete, {**effort, "assumptions": len(assumptions)}

    def solve(
        self, puzzle: Puzzle, limit: int = 2, time_limit: float | None = None
    ) -> tuple[list[Grid], bool, dict[str, int]]:
        """Up to ``limit`` grids of ``puzzle`` (of this shape), completeness, effort counts."""
        sink = Sink(limit, limit)
        complete, effort = self.search(puzzle, sink, Clock(time_limit))
        return sink.kept, complete and not sink.full, effort

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
        """Free the solver (a later :meth:`search` builds a new one)."""
        if self._sat is not None:
            self._sat.delete()
            self._sat = None

    def __enter__(self) -> ShapeSolver:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class SatBackend(Backend):
    """A CNF encoding solved by a python-sat solver (see the module docstring).

    Options: ``solver`` (a name from :func:`solver_names`; default: minisat22
    on compiled shapes, glucose4 on fresh CNFs), ``encoding`` (one of
    :data:`~cp_sudoku.encodings.cnf.ENCODINGS`, default ``optimised``),
    ``incremental`` (reuse one solver per shape, default True).

    Statistics: ``variables``, ``clauses`` (formula size; for a compiled
    shape, the shared formula's), the solver's ``conflicts``, ``decisions``
    and ``propagations`` for this puzzle, and ``assumptions`` (givens passed
    as assumptions; 0 when solved fresh).
    """

    name = "sat"
    summary = "CNF (Kwon-Jain optimised direct encoding) solved by python-sat"
    statistics: ClassVar[tuple[str, ...]] = (
        "variables",
        "clauses",
        "conflicts",
        "decisions",
        "propagations",
        "assumptions",
    )
    size_statistics: ClassVar[tuple[str, ...]] = ("variables", "clauses")
    distinct_grids: ClassVar[bool] = True  # each grid found is blocked in its cube
    #: Counts that depend on what the compiled shape's solver solved before (its learnt
    #: clauses), so on the order and grouping of a run's puzzles, as times do.
    history_statistics: ClassVar[tuple[str, ...]] = ("conflicts", "decisions", "propagations")
    options: ClassVar[dict[str, Option]] = {
        "solver": Option(str, None, "python-sat solver name", solver_names),
        "encoding": Option(str, "optimised", "CNF encoding", ENCODINGS),
        "incremental": Option(bool, True, "one solver per shape, givens as assumptions"),
    }

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        solver = self.settings["solver"]
        self.solver: str = solver or DEFAULT_SOLVER
        self.fresh_solver: str = solver or DEFAULT_FRESH_SOLVER
        self.encoding: str = self.settings["encoding"]
        self.incremental = self.settings["incremental"] and self.solver not in _NO_ASSUMPTIONS
        self._shapes: dict[Shape, ShapeSolver] = {}  # oldest first

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """Enumerate models with blocking clauses over the cell variables."""
        shape = self._compiled(puzzle)
        if shape is not None:
            complete, effort = shape.search(puzzle, sink, clock)
            stats.update(variables=shape.cnf.num_vars, clauses=len(shape.cnf.clauses), **effort)
            return complete
        cnf = to_cnf(puzzle, self.encoding)
        with Solver(name=self.fresh_solver, bootstrap_with=cnf.clauses) as sat:
            complete = enumerate_models(sat, cnf, sink, clock)
            effort = _effort(sat.accum_stats())
        stats.update(variables=cnf.num_vars, clauses=len(cnf.clauses), **effort, assumptions=0)
        return complete

    def _compiled(self, puzzle: Puzzle) -> ShapeSolver | None:
        """The compiled shape for ``puzzle`` (compiled now if new), or None to solve fresh."""
        if not self.incremental:
            return None
        shape = shape_of(puzzle)
        if shape is None:
            return None
        for known, compiled in self._shapes.items():  # a few shapes, compared without hashing
            if known == shape:  # shared tuples: compared by identity, element by element
                return compiled
        base = "extended" if self.encoding == "optimised" else self.encoding
        if compiled_clauses(puzzle, base) > MAX_COMPILED_CLAUSES:
            return None
        if len(self._shapes) >= KEPT_SHAPES:
            self._shapes.pop(next(iter(self._shapes))).close()
        self._shapes[shape] = ShapeSolver(puzzle, solver=self.solver, encoding=base)
        return self._shapes[shape]

    def close(self) -> None:
        """Free the compiled shapes' solvers and start over as if just built.

        After it, the same puzzles give the same effort counts whatever was solved before.
        """
        for compiled in self._shapes.values():
            compiled.close()
        self._shapes.clear()


class NaiveSatBackend(SatBackend):
    """Baseline: the extended encoding, a fresh minisat22 per puzzle, no compiled shapes."""

    name = "sat-naive"
    summary = "baseline: extended encoding, fresh minisat22 per puzzle"

    def __init__(self, **options: object) -> None:
        super().__init__(
            **{"solver": "minisat22", "encoding": "extended", "incremental": False, **options}
        )
