"""The executor of a run: this process, a process pool (``--jobs``), or Dask (``--cluster``).

``--cluster local[:N]`` starts a Dask ``LocalCluster`` of N worker processes
(default: all cores) of one thread each; ``--cluster tcp://HOST:8786``
connects to a running Dask scheduler (``dask scheduler`` and ``dask worker
tcp://HOST:8786 --nthreads 1`` on each machine; see docs/scale.md).  A task
is one chunk (:func:`cp_sudoku.run.chunks.run_chunk`): a slice of the input,
read by the worker from the file itself by byte offsets (so every worker
must see the input at the same path), or entries read here; a worker
process builds its back ends once (:meth:`cp_sudoku.run.plan.Plan.built`).

A worker that dies mid-slice loses nothing: the scheduler hands the slice to
another worker (up to Dask's ``distributed.scheduler.allowed-failures``
deaths per slice, 3 by default; past that the run stops with an error and
``--resume`` continues it).  On a Ctrl-C the workers of a local cluster are
killed at once, and none is started again (:mod:`cp_sudoku.run.launches`); those of a
remote one have their tasks cancelled.  A local
cluster's processes start with SIGINT blocked (:func:`_local_cluster`), so the
Ctrl-C a terminal sends to the whole process group never reaches a worker still
importing, which would print its traceback.  Dask comes with the ``cluster`` extra.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import resource_tracker
from typing import Any, TypeVar

from cp_sudoku.model import UsageError
from cp_sudoku.numbers import is_number
from cp_sudoku.run.launches import Launches
from cp_sudoku.run.pool import (
    Executor,
    InProcess,
    ProcessPool,
    cores,
    drained,
    exit_with_parent,
    sigint_blocked,
)
from cp_sudoku.run.progress import Report, reporting

A = TypeVar("A")
R = TypeVar("R")


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


class Dask:
    """An :class:`~cp_sudoku.run.pool.Executor` over a Dask client.

    Each task is keyed by a fresh name (not hashed from its arguments, so
    two equal chunks are two tasks).  ``launches``: the gate a local cluster's
    processes start through, closed on an interrupt (its processes killed, no new
    one started); None for a remote cluster, whose tasks are cancelled instead.
    A task's progress reports are Dask worker events on the topic :data:`TOPIC`,
    tagged with this run's id (runs may share a scheduler), which the client
    hears on its own thread.
    """

    def __init__(
        self,
        client: Any,
        workers: int,
        launches: Launches | None = None,
    ) -> None:
        self.client = client
        self.workers = workers
        self.launches = launches
        self._futures: list[Any] = []
        self._run = uuid.uuid4().hex
        self._reports: queue.SimpleQueue[Report] = queue.SimpleQueue()
        client.subscribe_topic(TOPIC, self._heard)

    def _heard(self, event: tuple[float, list[Any]]) -> None:
        """On the client's thread: one worker event ``(time, [run, index, count])``."""
        run, index, count = event[1]
        if run == self._run:
            self._reports.put((index, count))

    def submit(self, fn: Callable[[A], R], arg: A) -> Future[R]:
        """Send ``fn(arg)`` to the cluster; a ``concurrent.futures`` future of its result."""
        index = getattr(arg, "index", "")
        key = f"cp-sudoku-{index}-{uuid.uuid4().hex[:8]}"
        remote = self.client.submit(_reporting, self._run, fn, arg, key=key, pure=False)
        self._futures = [f for f in self._futures if not f.done()] + [remote]
        future: Future[R] = Future()
        future.set_running_or_notify_cancel()

        def settle(done: Any) -> None:
            if future.done():
                return
            try:
                future.set_result(done.result())
            except BaseException as error:  # the task's error, or its cancellation
                with contextlib.suppress(Exception):  # set already by a race
                    future.set_exception(error)

        remote.add_done_callback(settle)
        return future

    def reports(self) -> list[Report]:
        """The workers' progress reports heard since the last call."""
        return drained(self._reports)

    def stop(self, *, interrupted: bool) -> None:
        """Stop hearing reports; on an interrupt, kill a local cluster's workers or cancel a
        remote one's tasks."""
        with contextlib.suppress(Exception):  # a client closed already
            self.client.unsubscribe_topic(TOPIC)
        if not interrupted:
            return
        if self.launches is not None:
            self.launches.close()
        elif self._futures:
            with contextlib.suppress(Exception):
                self.client.cancel(self._futures, asynchronous=False)


#: The Dask event topic of progress reports.
TOPIC = "cp-sudoku-progress"


def _reporting(run: str, fn: Callable[[A], R], arg: A) -> R:
    """On a Dask worker: ``fn(arg)``, its progress reports logged as events of this worker
    on :data:`TOPIC`, tagged with the ``run``."""
    from distributed import get_worker

    worker = get_worker()

    def send(report: Report) -> None:
        worker.log_event(TOPIC, [run, *report])

    with reporting(send):
        return fn(arg)


@contextmanager
def executor(jobs: int, cluster: str | None = None) -> Iterator[Executor]:
    """The executor of ``--jobs`` (this process for 1, else a spawn process pool of
    ``jobs`` workers: cap them first, :func:`cp_sudoku.run.pool.workers`) or of ``--cluster``.

    Leaving the block normally lets the workers finish; leaving it by an
    exception (an interrupt) ends them at once.

    Raises:
        UsageError: a bad ``--cluster`` value, or Dask is not installed.
        OSError: the scheduler cannot be reached.
    """
    if cluster is None:
        with _stopped(InProcess() if jobs <= 1 else ProcessPool(jobs)) as chosen:
            yield chosen
        return
    found = parse_cluster(cluster)
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            '--cluster needs Dask: pip install -e ".[cluster]" in the project folder'
        ) from None
    if found.address is not None:
        with _quiet(), Client(found.address, timeout="20s") as client:  # type: ignore[no-untyped-call]
            workers = sum(client.nthreads().values()) or 1
            with _stopped(Dask(client, workers)) as chosen:
                yield chosen
        return
    workers = found.workers or 1
    with (  # left in reverse: the client closes first, then the cluster, then _quiet ends
        _quiet(),
        _local_cluster(workers) as (local, launches),
        Client(local) as client,  # type: ignore[no-untyped-call]
    ):
        client.run(_watch_parent, os.getpid())  # a worker outlives no killed run, logs no noise
        with _stopped(Dask(client, workers, launches)) as chosen:
            yield chosen


@contextmanager
def _local_cluster(workers: int) -> Iterator[tuple[Any, Launches]]:
    """A Dask ``LocalCluster`` of ``workers`` single-threaded processes, closed on leaving,
    and the gate its processes start through (:mod:`cp_sudoku.run.launches`), which an
    interrupt closes.

    A Ctrl-C on a terminal reaches the whole process group; a worker still importing
    would die of it with a ``KeyboardInterrupt`` traceback on the run's stderr.  So the
    cluster is started on a thread with SIGINT blocked: Dask's threads, started from it,
    inherit the mask, and so do the processes they start (a signal mask survives fork
    and exec, and Python does not unblock it).  This thread still takes a Ctrl-C at
    once; one that comes during the start closes the gate (the processes started so far
    are killed), and the starting thread closes the cluster when its start ends.
    """
    from distributed import LocalCluster

    _start_resource_tracker()
    launches = Launches()
    launches.install()
    started: Future[Any] = Future()

    def start() -> None:
        with sigint_blocked():
            try:
                local = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: runs may share a machine
                    env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
                )
            except BaseException as error:  # handed to the waiting thread
                launches.uninstall()
                started.set_exception(error)
                return
            if launches.hand_over():
                started.set_result(local)
                return
            with contextlib.suppress(Exception):  # the run was interrupted meanwhile
                local.close()
            launches.uninstall()

    threading.Thread(target=start, name="cp-sudoku-cluster-start", daemon=True).start()
    try:
        local = started.result()
    except BaseException:
        launches.close()
        if launches.handed_over:  # just before the interrupt; else the starting thread closes it
            with contextlib.suppress(Exception):
                started.result().close()
            launches.uninstall()
        raise
    try:
        _no_gc_diagnosis()
        with local:
            yield local, launches
    finally:
        launches.uninstall()


def _no_gc_diagnosis() -> None:
    """Switch off the garbage-collection timing that Dask's scheduler, in this process,
    turns on (``distributed.gc``: a Python callback at every collection, for log lines a
    run silences anyway).  A Ctrl-C whose ``KeyboardInterrupt`` is raised inside that
    callback is not raised at all: Python prints "Exception ignored in ..." with a
    traceback on the run's stderr."""
    from distributed.gc import disable_gc_diagnosis

    disable_gc_diagnosis(force=True)  # type: ignore[no-untyped-call]


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker here, deaf to its ``UserWarning``.

    Started by a Dask thread instead, it would unblock SIGINT in that thread
    (``resource_tracker.ensure_running`` does).  A Ctrl-C while a nanny starts its
    worker can end the run while a Dask thread is finalizing a semaphore; the
    tracker then unlinks it, and would warn of a leak on stderr after the run's last
    line.  The tracker takes its warning filters from ``sys.warnoptions``.
    """
    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(quiet)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(quiet)


@contextmanager
def _stopped(chosen: Executor) -> Iterator[Executor]:
    """``chosen``, stopped on leaving: gently at the end, at once on an exception (an
    interrupt), so that no worker outlives the run and nothing waits for one."""
    try:
        yield chosen
    except BaseException:
        chosen.stop(interrupted=True)
        raise
    chosen.stop(interrupted=False)


def _watch_parent(parent: int) -> None:
    """On a local cluster's worker, whose parent is this run's process: end with it, and
    keep ``distributed``'s log off stderr (:func:`_silence`)."""
    _silence()
    if os.getppid() == parent:
        exit_with_parent(parent)


def _silence() -> list[tuple[logging.Logger, int]]:
    """Raise ``distributed``'s loggers in this process to CRITICAL; their levels before.

    Dask logs the noise of an ordinary end on stderr: a worker's heartbeat cut by the
    scheduler's shutdown (an ERROR and a traceback), keys "forgotten" after an interrupt.
    The run's own messages say what happened; these would read as failures.  Tornado's
    ``tornado.application`` logs a failed callback of Dask's event loop (a cluster's state
    correction meeting workers an interrupt killed: ``AssertionError: Status.starting``).
    """
    roots = ("distributed", "tornado")
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in roots]
    loggers = [*map(logging.getLogger, roots), *map(logging.getLogger, names)]
    before = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    return before


@contextmanager
def _quiet() -> Iterator[None]:
    """:func:`_silence` in this process while the block runs (the scheduler and the
    nannies of a local cluster live here), the levels restored after, unless an interrupt
    ends it: the run's process then ends with its interrupt line, and Dask's threads, still
    running until then, would log after it (a nanny's "Restarting worker" for a worker the
    interrupt killed)."""
    before = _silence()
    try:
        yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        _restore(before)
        raise
    _restore(before)


def _restore(levels: list[tuple[logging.Logger, int]]) -> None:
    for logger, level in levels:
        logger.setLevel(level)
