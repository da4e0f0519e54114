"""The one cache of built back ends in a process: a back end is built once per name
and options, then reused.

A built back end keeps what is worth keeping between puzzles (a compiled
shape, a warm solver), so every caller that runs many puzzles takes its back
ends from here: :func:`cp_sudoku.crosscheck.crosscheck` for back ends named
by string, and the run core's workers (:meth:`cp_sudoku.run.plan.Plan.built`)
in a thread, a process pool, a Dask worker or the service's workers.  Threads
that share a back end take turns (:meth:`~cp_sudoku.backends.base.Backend.solve`
takes a lock); every back end is closed when the process ends normally.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Mapping
from typing import Any

from cp_sudoku.backends import Backend, get_backend

_BUILT: dict[tuple[str, str], Backend] = {}
_LOCK = threading.Lock()


def built(name: str, options: Mapping[str, Any] | None = None) -> Backend:
    """The back end ``name`` built with ``options`` in this process (built on first use).

    Raises:
        UsageError: an unknown name, or an option the back end rejects.
    """
    options = options or {}
    key = (name, repr(sorted(options.items())))
    with _LOCK:
        if key not in _BUILT:
            backend = _BUILT[key] = get_backend(name, **options)
            atexit.register(backend.close)
        return _BUILT[key]
