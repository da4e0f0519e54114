"""The service's limits: each has a default here and a flag of ``cp-sudoku serve``.

=====================  =======================  ===========  ==========================
limit                  flag                     default      past it
=====================  =======================  ===========  ==========================
request body           ``--max-body``           64 KiB       413
job upload             ``--max-upload``         16 MiB       413
puzzles per job        ``--max-puzzles``        100,000      413
``limit`` (solutions)  ``--max-limit``          10,000       422
``time_limit``         ``--max-time-limit``     10 s         422; also the default
queued jobs            ``--max-jobs``           8            503 with ``Retry-After``
waiting requests       ``--queue``              64           503 with ``Retry-After``
=====================  =======================  ===========  ==========================

``time_limit`` is seconds per back end and puzzle; a request that leaves it
null gets the cap, so that no request holds a worker for longer.  Queued jobs
count those queued or running.  Waiting requests are single requests beyond
the ``--workers`` being solved.
"""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Limits:
    """The limits of one server; see the module docstring for what each one bounds."""

    body_bytes: int = 64 * KIB
    upload_bytes: int = 16 * MIB
    puzzles_per_job: int = 100_000
    max_limit: int = 10_000
    max_time_limit: float = 10.0
    queued_jobs: int = 8
    queue: int = 64

    def time_limit(self, requested: float | None) -> float:
        """The time limit a request gets: its own, or the cap when it names none.

        Raises:
            OverLimit: over the cap (422).
        """
        if requested is None:
            return self.max_time_limit
        if requested > self.max_time_limit:
            raise OverLimit(
                422,
                f"time_limit {requested:g} s is over this server's cap of "
                f"{self.max_time_limit:g} s (--max-time-limit)",
            )
        return requested

    def limit(self, requested: int) -> int:
        """The solution limit, checked against the cap.

        Raises:
            OverLimit: over the cap (422).
        """
        if requested > self.max_limit:
            raise OverLimit(
                422,
                f"limit {requested:,} is over this server's cap of {self.max_limit:,} "
                "(--max-limit)",
            )
        return requested

    def puzzles(self, count: int) -> None:
        """Check a job's puzzle count.

        Raises:
            OverLimit: more than :attr:`puzzles_per_job` (413).
        """
        if count > self.puzzles_per_job:
            raise OverLimit(
                413,
                f"the job holds {count:,} puzzles, over this server's cap of "
                f"{self.puzzles_per_job:,} per job (--max-puzzles)",
            )


class OverLimit(Exception):
    """A request past one of the limits: the HTTP ``status`` (413 or 422) and the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
