"""The worker processes a local Dask cluster starts, through a gate that an interrupt closes.

A nanny of ``distributed`` starts its worker from a thread of this process with
``multiprocessing``'s spawn method: the child is created, then this process writes it
its pickled state (queues whose semaphores it opens by name); and a nanny starts a worker
again when one dies.  A run that ends between those two steps (a Ctrl-C while the cluster
starts, or while a nanny replaces a worker the interrupt killed) leaves a child that prints
a traceback on the run's stderr after the run's last line ("EOFError: Ran out of input", or
"FileNotFoundError" for a semaphore this process unlinked on leaving).

So while a local cluster lives, every spawn launch of this process passes through
:class:`Launches`: one at a time, under a lock.  :meth:`Launches.close` waits for a launch
under way, kills every process started, and makes any later launch fail at once, so no
child is left half started.  The gate replaces the ``_Popen`` hook of ``multiprocessing``'s
spawn process class (the one Dask's ``get_mp_context`` gives) while installed.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any


class Launches:
    """The gate: install it, let the cluster start through it, close it on an interrupt.

    ``handed_over`` is set by :meth:`hand_over` (the starting thread gives the started
    cluster to the run) unless the gate was closed first: whoever ends last of the two
    uninstalls the gate (:meth:`uninstall` is idempotent).
    """

    def __init__(self) -> None:
        from distributed.utils import get_mp_context

        self._hook_owner: Any = get_mp_context().Process  # type: ignore[no-untyped-call]
        self._original: Callable[[BaseProcess], Any] | None = None
        self._lock = threading.Lock()
        self._started: list[Any] = []  # the Popen objects of the processes started
        self.closed = False
        self.handed_over = False

    def install(self) -> None:
        """Route the spawn launches of this process through the gate."""
        self._original = self._hook_owner._Popen
        self._hook_owner._Popen = staticmethod(self._launch)

    def uninstall(self) -> None:
        """Give launches back to ``multiprocessing`` (again: nothing)."""
        with self._lock:
            if self._original is not None:
                self._hook_owner._Popen = staticmethod(self._original)
                self._original = None

    def _launch(self, process: BaseProcess) -> Any:
        with self._lock:
            if self.closed or self._original is None:
                raise RuntimeError("the run was interrupted: no new worker process")
            popen = self._original(process)
            self._started.append(popen)
            return popen

    def hand_over(self) -> bool:
        """True if the gate is still open: the started cluster now belongs to the run."""
        with self._lock:
            self.handed_over = not self.closed
            return self.handed_over

    def close(self) -> None:
        """Wait for a launch under way, refuse later ones, and SIGKILL every process
        started (one that has ended is passed over)."""
        with self._lock:
            self.closed = True
            for popen in self._started:
                with contextlib.suppress(OSError):
                    popen.kill()
