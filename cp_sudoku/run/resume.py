"""Resumable output: finished slices are kept as part files until the run is complete.

While ``check FILE --output PATH`` runs, each finished slice of the input is
written to its own file in the spool directory ``PATH.parts/``: first under a
temporary name, then renamed (an atomic step), so that a part file either
holds every row of its slice or does not exist.  A Ctrl-C, a crash or a
SIGKILL at any moment leaves the finished parts whole; a half-written part
keeps its temporary name and is ignored.  ``run.json`` in the spool records
what the run was (the input file's path, size and modification time, how it
was cut and read, the plan), so a resume refuses a run that would not match.

When every slice is done, the parts are joined in input order into
``PATH.tmp`` (Parquet: one row group per slice; JSON lines: concatenated),
which is renamed to ``PATH``, and the spool is deleted.  A run killed while
joining still has its spool and joins again when resumed.  So the final file
holds the same rows, in the same order and the same row groups, as an
uninterrupted run: no row missing, none twice.  (Renames survive the death
of the process; surviving a power cut would need an fsync, not done.)
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cp_sudoku.model import UsageError
from cp_sudoku.numbers import is_number
from cp_sudoku.run.output import (
    Columns,
    join_parts,
    read_part,
    ready,
    table_format,
    write_part,
)

#: The spool's description of the run.
RUN_FILE = "run.json"


class Spool:
    """The part files of one run writing to ``path``.

    Args:
        path: the final output file (``.parquet`` for Parquet, else JSON lines).
        run: what the run is (JSON-serialisable: input, slices, plan, reading
            options); a resumed spool must describe the same run.
        backends: the plan's back-end names (the columns).
        resume: continue from the parts already in the spool.

    Raises:
        UsageError: ``resume`` is False and a spool from an interrupted run
            is there, or ``resume`` is True and the spool describes another run.
    """

    def __init__(
        self, path: str | Path, run: dict[str, Any], backends: Sequence[str], *, resume: bool
    ) -> None:
        self.path = Path(path)
        self.format = table_format(self.path)
        self.dir = self.path.with_name(self.path.name + ".parts")
        self.backends = tuple(backends)
        self.run = run
        description = self.dir / RUN_FILE
        if description.exists():
            if not resume:
                raise UsageError(
                    f"{self.dir} holds an interrupted run: add --resume to continue it, "
                    f"or delete it to start again"
                )
            before = json.loads(description.read_text(encoding="utf-8"))
            if before != run:
                raise UsageError(
                    f"{self.dir} was written by another run ("
                    f"{'; '.join(_differences(before, run))}): delete it to start again"
                )
        else:
            self.dir.mkdir(parents=True, exist_ok=True)
            temporary = description.with_suffix(".tmp")
            temporary.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
            os.replace(temporary, description)
        ready(self.backends, self.format)  # a slice kept on a Ctrl-C then imports nothing

    @staticmethod
    def complete(path: str | Path) -> bool:
        """Whether ``path`` holds a finished run (the file is there and no spool beside it)."""
        path = Path(path)
        return path.exists() and not path.with_name(path.name + ".parts").exists()

    @staticmethod
    def recorded(path: str | Path) -> dict[str, Any]:
        """What the spool beside ``path`` says of its run (empty when there is none)."""
        path = Path(path)
        description = path.with_name(path.name + ".parts") / RUN_FILE
        if not description.exists():
            return {}
        found: dict[str, Any] = json.loads(description.read_text(encoding="utf-8"))
        return found

    def part(self, index: int) -> Path:
        """The part file of slice ``index``."""
        return self.dir / f"{index:08d}.{self.format}"

    def done(self) -> set[int]:
        """The indices of the slices whose part file is complete."""
        suffix = f".{self.format}"
        return {
            int(name.removesuffix(suffix))
            for name in os.listdir(self.dir)
            if name.endswith(suffix) and is_number(name.removesuffix(suffix))
        }

    def columns(self, index: int, names: Sequence[str]) -> Columns:
        """The columns ``names`` of slice ``index``'s part (a slice already done)."""
        return read_part(self.part(index), self.format, names)

    def put(self, index: int, columns: Columns) -> None:
        """Write slice ``index``'s rows as a whole part file (atomically)."""
        final = self.part(index)
        temporary = final.with_name(final.name + ".tmp")
        write_part(temporary, columns, self.backends, self.format)
        os.replace(temporary, final)

    def finish(self, slices: int) -> None:
        """Join the parts of slices ``0..slices-1`` into the output file; remove the spool.

        Raises:
            RuntimeError: a part is missing (a bug: every slice must be put first).
        """
        missing = sorted(set(range(slices)) - self.done())
        if missing:
            raise RuntimeError(f"slices {missing[:5]} are not done; cannot finish {self.path}")
        temporary = self.path.with_name(self.path.name + ".tmp")
        join_parts([self.part(i) for i in range(slices)], temporary, self.backends, self.format)
        os.replace(temporary, self.path)
        shutil.rmtree(self.dir)


def _differences(before: dict[str, Any], now: dict[str, Any], prefix: str = "") -> list[str]:
    """What differs between two run descriptions, key by key (nested keys dotted):
    ``plan.backends: ["sat"] then, ["sat", "cpsat"] now``."""
    found = []
    for key in sorted(set(before) | set(now)):
        was, is_ = before.get(key), now.get(key)
        if was == is_:
            continue
        if isinstance(was, dict) and isinstance(is_, dict):
            found += _differences(was, is_, f"{prefix}{key}.")
        else:
            found.append(f"{prefix}{key}: {json.dumps(was)} then, {json.dumps(is_)} now")
    return found
