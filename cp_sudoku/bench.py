"""``cp-sudoku bench``: throughput, latency, memory and verdict mix of each back end.

Every puzzle is solved with solution limit 2, so every figure includes the
proof of uniqueness.  For each (data set, back end) pair one back end is
built and solves the whole set (so a back end that reuses a solver across
puzzles does so, as in a batch check); puzzles are parsed before the clock
starts, and only the ``solve`` calls are timed.

A data set is a file, the name of a shared collection
(:func:`cp_sudoku.datasets.dataset_path`, e.g. ``royle-17clue``), a directory
of f-puzzles files (every ``*.fpuzzles.txt`` in it: one puzzle or link per
line; ``fpuzzles`` names the shared folder of 22 variant puzzles), or
``generated:RxC[:COUNT[:BLANK_FRACTION]]``: COUNT puzzles (default 10) from
:func:`cp_sudoku.generate.blanked.generated_sudoku` with box RxC, seeds 0..COUNT-1
and BLANK_FRACTION (default 0.45) of the cells blank.

Figures per pair (the JSON ``records``; times in milliseconds unless named
``seconds``):

- ``dataset``, ``backend``, ``puzzles`` (distinct puzzles), ``solves``
  (``puzzles * repeat``);
- ``seconds`` (wall clock, sum of the timed solves), ``cpu_seconds``
  (process CPU time over the same solves), ``per_second`` (solves per
  wall-clock second), ``cpu_per_second`` (solves per CPU second: on a busy
  machine the two differ);
- ``read_cpu_seconds``: CPU time of reading the pair's puzzles into
  ``Puzzle`` objects (of making them, for ``generated:``), once, outside
  every other figure; with it, ``puzzles / (cpu_seconds / repeat +
  read_cpu_seconds)`` is the rate of reading and solving, the work a
  ``check --backend B`` run does before it judges (docs/performance.md);
- ``median_ms``, ``p95_ms``, ``max_ms``: wall-clock time of one solve;
- ``peak_rss_mib``: the process's peak resident memory during the pair
  (``rss_scope`` says ``pair`` when the peak could be reset first through
  ``/proc/self/clear_refs``, else ``process``: the peak since start), and
  ``start_rss_mib``, the resident memory when the pair started, which
  includes the parsed puzzles of the data set (about 6 KiB each): the back
  end's own share is the difference;
- ``verdicts``: counts of ``unique``, ``multiple``, ``none``, ``unknown``;
- ``rejected``: returned grids that fail the independent checker (checked
  outside the timed region; anything but 0 is a bug);
- ``baseline``: true for the baselines ``cpsat-naive``, ``sat-naive`` and
  ``backtrack-plain`` (tries capped: :data:`BASELINES`, past the cap:
  ``unknown``), which run on the first ``baseline_puzzles`` puzzles of each set.

The JSON also holds ``machine`` (CPU model, cores, Python and library
versions), ``settings``, and ``errors`` (puzzles that could not be read: one
bad line is reported and the rest still run).
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from itertools import chain
from pathlib import Path

from rich import box
from rich.table import Table

from cp_sudoku.backends import DEFAULT_BACKENDS, available
from cp_sudoku.backends.base import STATUSES
from cp_sudoku.datasets import data_dir, dataset_alphabet, dataset_path
from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import Entry, read_file
from cp_sudoku.model import Grid, Puzzle, PuzzleError, UsageError, is_solution
from cp_sudoku.run import Plan, run, solve_each

#: Baselines run beside the chosen back ends, with their options.
BASELINES: dict[str, dict[str, int]] = {
    "cpsat-naive": {},
    "sat-naive": {},
    "backtrack-plain": {"max_tries": 10_000},
}
_GENERATED = "generated:"


@dataclass
class Dataset:
    """Puzzles of one data set, and the errors of the lines that could not be read."""

    name: str
    puzzles: list[Puzzle]
    errors: list[str] = field(default_factory=list)
    #: CPU seconds taken to read (or make) the puzzles.
    read_cpu_seconds: float = 0.0

    def head(self, count: int) -> Dataset:
        """The first ``count`` puzzles, with their share of the reading time."""
        puzzles = self.puzzles[:count]
        share = len(puzzles) / len(self.puzzles) if self.puzzles else 0.0
        return Dataset(self.name, puzzles, read_cpu_seconds=self.read_cpu_seconds * share)


@dataclass(frozen=True)
class Record:
    """The figures of one (data set, back end) pair; see the module docstring."""

    dataset: str
    backend: str
    baseline: bool
    puzzles: int
    solves: int
    seconds: float
    cpu_seconds: float
    per_second: float
    cpu_per_second: float
    read_cpu_seconds: float
    median_ms: float
    p95_ms: float
    max_ms: float
    peak_rss_mib: float
    start_rss_mib: float
    rss_scope: str
    verdicts: dict[str, int]
    rejected: int

    @property
    def settled(self) -> bool:
        """Some solve ended in a verdict (not all ``unknown``): its rate and times mean
        something.  A baseline past its cap on every puzzle settles none."""
        return self.verdicts.get("unknown", 0) < self.solves


def load_dataset(spec: str, limit: int | None = None) -> Dataset:
    """The first ``limit`` puzzles (all when None) of a data set; see the module docstring.

    Raises:
        UsageError: a directory without ``*.fpuzzles.txt`` files.
        PuzzleError: no such file or collection; a malformed ``generated:`` spec.
        OSError: the file cannot be read.
    """
    start = time.process_time()
    found = _generated(spec, limit) if spec.startswith(_GENERATED) else _read(spec, limit)
    found.read_cpu_seconds = time.process_time() - start
    return found


def _read(spec: str, limit: int | None) -> Dataset:
    folder = Path(spec) if Path(spec).is_dir() else _data_folder(spec)
    paths = sorted(folder.glob("*.fpuzzles.txt")) if folder else [dataset_path(spec)]
    if folder and not paths:
        raise UsageError(f"{spec} is a directory without *.fpuzzles.txt files")
    found = Dataset(folder.name if folder else paths[0].stem, [])
    for path in paths:
        for entry in read_file(path, alphabet=dataset_alphabet(path)):
            if limit is not None and len(found.puzzles) >= limit:
                return found
            if entry.puzzle is None:
                found.errors.append(str(entry.error))
            else:
                found.puzzles.append(entry.puzzle)
    return found


def _data_folder(name: str) -> Path | None:
    """A folder of the shared data named ``name`` (``fpuzzles``), when there is one."""
    if "/" in name or Path(name).exists():
        return None
    try:
        folder = data_dir() / name
    except UsageError:
        return None
    return folder if folder.is_dir() else None


def _generated(spec: str, limit: int | None) -> Dataset:
    parts = spec[len(_GENERATED) :].split(":")
    try:
        rows, cols = (int(x) for x in parts[0].lower().split("x"))
        count = int(parts[1]) if len(parts) > 1 else 10
        fraction = float(parts[2]) if len(parts) > 2 else 0.45
        if len(parts) > 3 or rows < 1 or cols < 1 or count < 1:
            raise ValueError
    except ValueError:
        raise PuzzleError(
            f"expected generated:RxC[:COUNT[:BLANK_FRACTION]] such as generated:6x6:10, "
            f"got {spec!r}"
        ) from None
    if limit is not None:
        count = min(count, limit)
    n = rows * cols
    puzzles = [generated_sudoku((rows, cols), fraction, seed)[0] for seed in range(count)]
    return Dataset(f"generated-{n}x{n}-{fraction:.0%}", puzzles)


def _reset_peak_rss() -> str:
    """Reset the kernel's peak-RSS mark when possible: ``pair`` if done, else ``process``."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return "process"
    return "pair"


def _peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def measure(
    dataset: Dataset,
    backend: str,
    *,
    repeat: int = 1,
    options: dict[str, int] | None = None,
    baseline: bool = False,
    time_limit: float | None = None,
) -> Record:
    """Solve every puzzle of ``dataset`` ``repeat`` times with one back end; its figures.

    ``time_limit``: seconds per solve (None: none); past it the verdict is ``unknown``.

    Each solve's time is the back end's own clock (:attr:`Result.seconds`,
    compiling included); the CPU time is the process's over the same call.

    Raises:
        UsageError: an unknown back end or option, ``repeat < 1``, or an empty data set.
    """
    if repeat < 1:
        raise UsageError(f"repeat must be at least 1, got {repeat}")
    if not dataset.puzzles:
        raise UsageError(f"data set {dataset.name} has no puzzle to measure")
    plan = Plan((backend,), {backend: options or {}}, limit=2, time_limit=time_limit)
    entries = [
        Entry(dataset.name, number, "", puzzle=puzzle)
        for number, puzzle in enumerate(dataset.puzzles, start=1)
    ]
    scope = _reset_peak_rss()
    start_rss = _peak_rss_mib()  # just reset: the current resident size
    times: list[float] = []
    cpu = 0.0
    verdicts: Counter[str] = Counter()
    returned: list[tuple[Puzzle, tuple[Grid, ...]]] = []
    for outcome in run(chain.from_iterable([entries] * repeat), solve_each, plan):
        assert outcome.value is not None and outcome.entry.puzzle is not None
        result = outcome.value.results[backend]
        times.append(result.seconds)
        cpu += outcome.value.cpu_seconds[backend]
        verdicts[result.status] += 1
        returned.append((outcome.entry.puzzle, result.solutions))
    # The grids are checked once the clock has stopped: the process CPU time around a solve
    # counts whatever this thread does meanwhile (docs/performance.md: about a tenth of a
    # `sat` solve when the checker ran here).
    rejected = sum(not is_solution(puzzle, grid) for puzzle, grids in returned for grid in grids)
    wall = sum(times)
    times.sort()
    return Record(
        dataset=dataset.name,
        backend=backend,
        baseline=baseline,
        puzzles=len(dataset.puzzles),
        solves=len(times),
        seconds=wall,
        cpu_seconds=cpu,
        per_second=len(times) / wall if wall else float("inf"),
        cpu_per_second=len(times) / cpu if cpu else float("inf"),
        read_cpu_seconds=dataset.read_cpu_seconds,
        median_ms=statistics.median(times) * 1000,
        p95_ms=times[min(len(times) - 1, int(0.95 * len(times)))] * 1000,
        max_ms=times[-1] * 1000,
        peak_rss_mib=_peak_rss_mib(),
        start_rss_mib=start_rss,
        rss_scope=scope,
        verdicts={status: verdicts[status] for status in STATUSES},
        rejected=rejected,
    )


def machine() -> dict[str, object]:
    """Where the figures were measured: CPU, cores, Python and solver-library versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next(
                line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")
            )
    except (OSError, StopIteration):
        pass
    versions: dict[str, str | None] = {}
    for package in ("ortools", "python-sat"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        **versions,
    }


def run_bench(
    datasets: Sequence[str],
    backends: Sequence[str] = DEFAULT_BACKENDS,
    *,
    limit_puzzles: int | None = None,
    repeat: int = 1,
    baselines: bool = True,
    baseline_puzzles: int = 300,
    time_limit: float | None = None,
    on_record: Callable[[Record], None] | None = None,
) -> dict[str, object]:
    """Measure each back end (and the baselines) on each data set; the JSON-ready report.

    ``on_record`` is called with each :class:`Record` as soon as it is measured.

    Raises:
        PuzzleError: a data set that cannot be found, or that holds no puzzle.
        UsageError: an unknown back end or ``repeat < 1``.
    """
    unknown = [name for name in backends if name not in available()]
    if unknown:
        raise UsageError(f"unknown back end {unknown[0]!r}; choose from {', '.join(available())}")
    extra = [name for name in BASELINES if baselines and name not in backends]
    records: list[Record] = []
    errors: list[str] = []
    for spec in datasets:
        dataset = load_dataset(spec, limit_puzzles)
        errors += dataset.errors
        if not dataset.puzzles:
            raise PuzzleError(f"data set {spec!r} holds no puzzle that could be read")
        runs = [(name, dataset, False) for name in backends]
        sample = dataset.head(baseline_puzzles)
        runs += [(name, sample, True) for name in extra]
        for name, puzzles, is_baseline in runs:
            record = measure(
                puzzles,
                name,
                repeat=repeat,
                options=BASELINES.get(name),
                baseline=is_baseline,
                time_limit=time_limit,
            )
            records.append(record)
            if on_record is not None:
                on_record(record)
    return {
        "machine": machine(),
        "settings": {
            "datasets": list(datasets),
            "backends": list(backends),
            "baselines": extra,
            "baseline_options": {name: BASELINES[name] for name in extra},
            "baseline_puzzles": baseline_puzzles,
            "limit_puzzles": limit_puzzles,
            "repeat": repeat,
            "time_limit": time_limit,
            "solution_limit": 2,
        },
        "records": [asdict(record) for record in records],
        "errors": errors,
    }


def table(records: Iterable[Record]) -> Table:
    """The records as a rich table, one row per (data set, back end).

    ``verdicts`` reads unique/multiple/none/unknown; baselines are marked ``*``;
    the peak RSS is followed by its growth during the pair (the back end's share).
    A pair that settled none of its puzzles (every one ``unknown``: a cap or a time
    limit stopped each) shows ``-`` for its rates and times, which measure no solve.
    """
    grid = Table(title="cp-sudoku bench: solution limit 2 (uniqueness proven)", box=box.SIMPLE)
    grid.add_column("data set", no_wrap=True)
    grid.add_column("back end", no_wrap=True)
    for header in ("puzzles", "/s", "CPU /s", "median ms", "p95 ms", "max ms", "peak RSS MiB"):
        grid.add_column(header, justify="right", no_wrap=True)
    grid.add_column("verdicts u/m/n/?", justify="right", no_wrap=True)
    for record in records:
        repeats = record.solves // record.puzzles
        timed = [
            f"{record.per_second:,.0f}",
            f"{record.cpu_per_second:,.0f}",
            f"{record.median_ms:.2f}",
            f"{record.p95_ms:.2f}",
            f"{record.max_ms:.1f}",
        ]
        grid.add_row(
            record.dataset,
            record.backend + (" *" if record.baseline else ""),
            f"{record.puzzles:,}" + (f" x{repeats}" if repeats > 1 else ""),
            *(timed if record.settled else ["-"] * len(timed)),
            f"{record.peak_rss_mib:.0f} (+{record.peak_rss_mib - record.start_rss_mib:.0f})",
            "/".join(f"{record.verdicts[status]:,}" for status in STATUSES),
        )
    return grid


def footnotes(records: Sequence[Record], baseline_puzzles: int) -> list[str]:
    """The lines under :func:`table`: what ``*`` (a baseline, and its cap) and ``-`` mean,
    for the rows shown."""
    notes = []
    baselines = [record for record in records if record.baseline]
    shown = {record.backend for record in baselines}
    if shown:
        # --limit-puzzles can hold them to fewer than baseline_puzzles: say what ran
        first = min(baseline_puzzles, max(record.puzzles for record in baselines))
        caps = [
            f"{name} capped at " + ", ".join(f"{key} {value:,}" for key, value in options.items())
            for name, options in BASELINES.items()
            if name in shown and options
        ]
        capped = f"; {'; '.join(caps)} (past it: unknown)" if caps else ""
        notes.append(f"* baseline, on the first {first:,} puzzles of each set{capped}")
    if not all(record.settled for record in records):
        notes.append("- settled none of its puzzles (all unknown): no rate or time to show")
    return notes
