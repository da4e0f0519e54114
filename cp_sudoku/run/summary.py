"""The summary of a run, and the one mapping from verdicts to exit codes.

Every way a ``check`` run reports (lines on stdout, a table with
``--output``, a resumed table's finished parts, a service job's records) feeds one
:class:`Summary`:
counts by status, disagreements, contradicted stated solutions, time per
back end, and the exit code of the whole run.

==== ==========================================================================
code meaning
==== ==========================================================================
0    every puzzle is unique
1    some puzzle has no solution or several
2    bad input (a line that is not a puzzle)
3    ``unknown`` (a limit stopped the search), back ends that disagree, or a
     verdict that contradicts a stated solution
==== ==========================================================================

When several apply, the highest wins; the command line's other codes are in
:mod:`cp_sudoku.cli.exits`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cp_sudoku.crosscheck import Verdict
from cp_sudoku.run.output import TIMING_SUFFIX, Columns, prefix
from cp_sudoku.run.work import Checked, Outcome

OK, NOT_UNIQUE, BAD_INPUT, UNKNOWN = 0, 1, 2, 3
_OF_STATUS: dict[str, int] = {"unique": OK, "multiple": NOT_UNIQUE, "none": NOT_UNIQUE}
#: The order statuses are shown in.
STATUSES = ("unique", "multiple", "none", "unknown", "invalid")


def of_status(status: str) -> int:
    """The exit code of one puzzle's status (``unknown``: 3, ``invalid``: 2)."""
    return BAD_INPUT if status == "invalid" else _OF_STATUS.get(status, UNKNOWN)


def of_verdict(verdict: Verdict, mismatch: str | None = None) -> int:
    """The exit code of one verdict: 3 when back ends disagree or a stated solution is
    contradicted, else that of its status."""
    if mismatch or not verdict.agree:
        return UNKNOWN
    return of_status(verdict.status)


@dataclass
class Summary:
    """Counts by status and seconds per back end over a run, and its exit code.

    ``seconds``/``slowest``: back-end name -> total and largest seconds of
    its solves (wall clock).  ``start`` is the run's start on
    ``time.perf_counter``.  With a table (``--output``), ``earlier`` counts the
    puzzles an earlier run left in it (a resume: counted, not checked again)
    and ``kept`` the rows its part files hold so far, the earlier ones included.
    ``workers`` is how many workers the run used (``--jobs`` after its cap at the
    cores and the puzzles; 0: not known).
    """

    statuses: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)
    disagreements: int = 0
    mismatches: int = 0
    code: int = OK
    earlier: int = 0
    kept: int = 0
    workers: int = 0
    start: float = field(default_factory=time.perf_counter)

    #: The columns :meth:`add_columns` reads, besides each back end's seconds.
    COLUMNS = ("status", "agree", "matches_stated")

    @property
    def total(self) -> int:
        """Puzzles counted (invalid lines included)."""
        return sum(self.statuses.values())

    @property
    def checked_now(self) -> int:
        """Puzzles counted in this run (not ``earlier``): those its rate is over."""
        return self.total - self.earlier

    def add(self, outcome: Outcome[Checked]) -> None:
        """Count one puzzle's outcome."""
        if outcome.value is None:
            self.statuses["invalid"] += 1
            self.code = max(self.code, BAD_INPUT)
            return
        verdict, mismatch = outcome.value.verdict, outcome.value.mismatch
        self.statuses[verdict.status] += 1
        self.disagreements += not verdict.agree
        self.mismatches += mismatch is not None
        for name, result in verdict.results.items():
            self._time(name, result.seconds)
        self.code = max(self.code, of_verdict(verdict, mismatch))

    def add_columns(self, columns: Columns, backends: tuple[str, ...]) -> None:
        """Count the rows of a table's part (:mod:`cp_sudoku.run.output`), as :meth:`add`
        counts outcomes; ``columns`` holds :attr:`COLUMNS` and each back end's seconds."""
        for row, status in enumerate(columns["status"]):
            self._count(status, columns["agree"][row], columns["matches_stated"][row])
            for name in backends:
                seconds = columns[f"{prefix(name)}{TIMING_SUFFIX}"][row]
                if seconds is not None:
                    self._time(name, seconds)

    def add_record(self, record: Mapping[str, Any]) -> None:
        """Count one line of ``check --json`` (the records a service job stores), as
        :meth:`add` counts outcomes."""
        self._count(record["status"], record["agree"], record["matches_stated"])
        for name, result in record["backends"].items():
            self._time(name, result["seconds"])

    def _count(self, status: str, agree: bool | None, matches_stated: bool | None) -> None:
        """Count a row: its status; ``False`` in ``agree`` or ``matches_stated`` makes it 3."""
        self.statuses[status] += 1
        disagree, mismatch = agree is False, matches_stated is False
        self.disagreements += disagree
        self.mismatches += mismatch
        self.code = max(self.code, UNKNOWN if disagree or mismatch else of_status(status))

    def _time(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds
        self.slowest[name] = max(self.slowest.get(name, 0.0), seconds)

    @property
    def wall(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.start
