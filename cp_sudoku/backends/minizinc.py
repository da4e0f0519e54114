"""The ``minizinc`` back end: the model in MiniZinc (:mod:`cp_sudoku.encodings.minizinc`),
solved by Gecode through the ``minizinc`` executable and its Python package.

Classic finite-domain constraint programming: propagation and depth-first
search, no learning.  Each call writes the puzzle's model, runs the
``minizinc`` executable (which flattens it to FlatZinc and starts Gecode's
``fzn-gecode``) and reads the solutions back; counting asks for up to
``limit`` solutions (``nr_solutions``, Gecode's ``-n``).  Only the statuses
``ALL_SOLUTIONS`` and ``UNSATISFIABLE`` prove a count; a time limit, or a
limit reached, leaves the search incomplete.

The executable comes from the Debian packages ``minizinc`` and ``flatzinc``
(:data:`INSTALL`); without it building the back end raises
:class:`~cp_sudoku.model.UsageError` saying so.  Each call starts two
processes, which costs far more than Gecode's search on a Sudoku: the
statistics separate flattening and solving from the rest of the wall-clock
time (``docs/backends.md`` has the figures).
"""

from __future__ import annotations

import asyncio
import shutil
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from functools import cache
from typing import Any, ClassVar

from cp_sudoku.backends.base import Backend, Clock, Interrupted, Sink
from cp_sudoku.encodings.minizinc import to_minizinc
from cp_sudoku.model import Puzzle, UsageError

#: How to install the executable and the Gecode solver it runs.
INSTALL = "sudo apt-get install minizinc flatzinc"


@cache
def missing() -> str | None:
    """Why the back end cannot run here (with the install command), or None."""
    try:
        import minizinc
    except ImportError:
        return (
            "the minizinc Python package is missing: "
            'pip install -e ".[paradigms]" in the project folder'
        )
    if shutil.which("minizinc") is None:
        return f"the minizinc executable is not on PATH: {INSTALL}"
    try:
        minizinc.Solver.lookup("gecode")
    except (LookupError, minizinc.error.MiniZincError) as error:
        return f"minizinc has no Gecode solver ({error}): {INSTALL}"
    return None


#: The process is ended this long after the time limit it was given (seconds) when it has
#: not answered by then: starting ``minizinc`` alone takes 0.6 s on a loaded machine, and
#: its ``--time-limit`` does not count that.
GRACE = 0.05


def _solve(instance: Any, limit: int, seconds: float | None) -> Any:
    """``instance.solve_async`` run to its end, or ended ``seconds`` (+ :data:`GRACE`) after
    it started (None then); in a thread of its own when this thread runs an event loop
    (Jupyter, an async server)."""

    async def bounded() -> Any:
        if seconds is None:
            return await instance.solve_async(nr_solutions=limit)
        solving = instance.solve_async(nr_solutions=limit, time_limit=timedelta(seconds=seconds))
        try:  # a cancelled solve terminates the process and waits for it
            return await asyncio.wait_for(solving, seconds + GRACE)
        except TimeoutError:
            return None

    def run() -> Any:
        with warnings.catch_warnings():  # Debian's Gecode library overrides globals: noise
            warnings.simplefilter("ignore")
            return asyncio.run(bounded())

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def _micros(value: Any) -> int:
    return round(value.total_seconds() * 1e6) if isinstance(value, timedelta) else 0


class MiniZincBackend(Backend):
    """MiniZinc with Gecode; see the module docstring.

    Options: none.

    Statistics: ``nodes``, ``failures``, ``propagations`` (Gecode's),
    ``flatten_us`` and ``solve_us`` (MiniZinc's flattening and Gecode's
    solving time, microseconds; the rest of a call's time is starting the
    processes and passing text), ``variables`` and ``propagators`` (Gecode's
    model size after flattening).

    Raises:
        UsageError: the executable, its Gecode solver or the Python package is
            missing (the message gives the install command).
    """

    name = "minizinc"
    summary = "the model in MiniZinc (all_different, cage and clue rules) solved by Gecode"
    statistics: ClassVar[tuple[str, ...]] = (
        "nodes",
        "failures",
        "propagations",
        "flatten_us",
        "solve_us",
        "variables",
        "propagators",
    )
    size_statistics: ClassVar[tuple[str, ...]] = ("variables", "propagators")
    cube_grids: ClassVar[int | None] = 5000  # every solution of a run read back at once

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        reason = missing()
        if reason is not None:
            raise UsageError(f"minizinc back end: {reason}")
        import minizinc

        self._gecode = minizinc.Solver.lookup("gecode")

    def search(self, puzzle: Puzzle, sink: Sink, clock: Clock, stats: dict[str, int]) -> bool:
        """One ``minizinc`` run asking Gecode for up to the sink's limit of solutions."""
        import minizinc

        written = to_minizinc(puzzle)
        model = minizinc.Model()
        model.add_string(written.text)
        instance = minizinc.Instance(self._gecode, model)  # runs the interface's process
        if clock.expired():  # no time left to start the solve in
            return False
        remaining = clock.remaining()
        try:
            result = _solve(
                instance, sink.limit, None if remaining is None else max(remaining, 0.001)
            )
        except KeyboardInterrupt:
            raise Interrupted from None
        except minizinc.error.MiniZincError:
            if clock.expired():  # a solver started with no time left can fail to start
                return False
            raise
        if result is None:  # ended at the time limit, before it answered
            return False
        found = result.solution or []
        for solution in found if isinstance(found, list) else [found]:
            if sink.add(written.decode(solution.x, puzzle)):
                break
        figures = result.statistics
        stats.update(
            nodes=int(figures.get("nodes", 0)),
            failures=int(figures.get("failures", 0)),
            propagations=int(figures.get("propagations", 0)),
            flatten_us=_micros(figures.get("flatTime")),
            solve_us=_micros(figures.get("solveTime")),
            variables=int(figures.get("variables", 0)),
            propagators=int(figures.get("propagators", 0)),
        )
        status = minizinc.Status
        return result.status in (status.ALL_SOLUTIONS, status.UNSATISFIABLE)
