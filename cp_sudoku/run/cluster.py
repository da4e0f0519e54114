"""Where the slices run: this process, a process pool, or a Dask cluster.

``--cluster local[:N]`` starts a Dask ``LocalCluster`` of N worker processes
(default: all cores) of one thread each; ``--cluster tcp://HOST:8786``
connects to a running Dask scheduler (``dask scheduler`` and ``dask worker
tcp://HOST:8786 --nthreads 1`` on each machine; see docs/scale.md).  Each
task is one slice of the input, read by the worker from the file itself by
byte offsets (so every worker must see the input at the same path), and a
worker process builds its back ends once
(:func:`cp_sudoku.run.slices.built`).

A worker that dies mid-slice loses nothing: the scheduler hands the slice to
another worker (up to Dask's ``distributed.scheduler.allowed-failures``
deaths per slice, 3 by default; past that the run stops with an error and
``--resume`` continues it).  Dask comes with the ``cluster`` extra.
"""

from __future__ import annotations

import multiprocessing
import os
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cp_sudoku.model import UsageError
from cp_sudoku.model.numbers import is_number
from cp_sudoku.run.pool import cores, exit_with_parent
from cp_sudoku.run.slices import Task, check_slice
from cp_sudoku.run.table import Inline, Submitter


@dataclass(frozen=True)
class Cluster:
    """A parsed ``--cluster`` value: a local cluster of ``workers``, or a scheduler ``address``."""

    workers: int | None = None
    address: str | None = None


def parse_cluster(spec: str) -> Cluster:
    """``local``, ``local:N`` or a scheduler address ``tcp://HOST:PORT``.

    Raises:
        UsageError: anything else, or N < 1.
    """
    if spec == "local":
        return Cluster(workers=cores())
    if spec.startswith("local:"):
        count = spec.removeprefix("local:")
        if not is_number(count) or len(count) > 4 or int(count) < 1:
            raise UsageError(f"--cluster local:N needs a number of workers >= 1, got {spec!r}")
        return Cluster(workers=int(count))
    if "://" in spec:
        return Cluster(address=spec)
    raise UsageError(
        f"--cluster takes local, local:N or a scheduler address like tcp://HOST:8786, got {spec!r}"
    )


@dataclass
class Runner:
    """An executor, how many tasks it runs at once, and how a task is sent to it."""

    executor: Submitter
    workers: int
    dask: bool = False

    def submit(self, executor: Submitter, task: Task) -> Any:
        """Send one slice; a Dask task is keyed by its slice (not hashed from its arguments)."""
        if self.dask:
            key = f"check-slice-{task.part.index}-{uuid.uuid4().hex[:8]}"
            return executor.submit(check_slice, task, key=key, pure=False)
        return executor.submit(check_slice, task)


@contextmanager
def runner(jobs: int, cluster: str | None) -> Iterator[Runner]:
    """The executor of ``--jobs`` (a spawn process pool, or this process for 1) or ``--cluster``.

    Raises:
        UsageError: a bad ``--cluster`` value, or Dask is not installed.
        OSError: the scheduler cannot be reached.
    """
    if cluster is None:
        if jobs == 1:
            yield Runner(Inline(), 1)
            return
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            jobs, mp_context=context, initializer=exit_with_parent, initargs=(os.getpid(),)
        ) as pool:
            yield Runner(pool, jobs)
        return
    found = parse_cluster(cluster)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'cp-sudoku[cluster]'") from None
    if found.address is not None:
        with Client(found.address, timeout="20s") as client:  # type: ignore[no-untyped-call]
            workers = sum(client.nthreads().values()) or 1
            yield Runner(client, workers, dask=True)
        return
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=found.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: several runs may share a machine
            env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        ) as local,
        Client(local) as client,  # type: ignore[no-untyped-call]
    ):
        yield Runner(client, found.workers or 1, dask=True)
