"""A whole ``check`` run: the input, the executor, the optional table, the summary.

:func:`check_run` is the one pipeline behind ``check`` (and
:func:`check_to_file`): it chooses the chunks (a file cut into slices that
the workers read themselves, or entries read here), the executor
(:func:`cp_sudoku.run.cluster.executor`), and yields every puzzle's outcome in
input order, a chunk's at a time as each chunk is done, counting each in the run's
:class:`~cp_sudoku.run.summary.Summary`.
With a table (``--output``) each finished slice is also written to its
part file as soon as it is done, in whatever order, and the parts are
joined at the end (:mod:`cp_sudoku.run.resume`); a resumed run counts the
parts an earlier run left and runs the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from cp_sudoku.io import Alphabet, same_file
from cp_sudoku.io.entry import Entry
from cp_sudoku.model import UsageError
from cp_sudoku.run.chunks import Chunk, run_chunk
from cp_sudoku.run.cluster import executor
from cp_sudoku.run.loop import capped, chunks_for, ordered, window
from cp_sudoku.run.output import columns_of, read_part, table_format
from cp_sudoku.run.plan import Plan
from cp_sudoku.run.pool import Executor, InProcess, cores, workers
from cp_sudoku.run.progress import Finished
from cp_sudoku.run.resume import Spool
from cp_sudoku.run.slices import Part, SlicedFile, cut, describe, slice_lines
from cp_sudoku.run.summary import Summary
from cp_sudoku.run.work import Checked, Outcome, check

#: Most input lines per slice (a task): a few seconds of work for the fast back ends.
SLICE_LINES = 3000


@dataclass(frozen=True)
class Input:
    """How the input is read: its path (None: not a file, e.g. stdin or an argument),
    the entries of any input (read lazily), and the options a worker reading a
    slice needs."""

    entries: Callable[[], Iterable[Entry]]
    path: str | None = None
    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
    format: str | None = None


@contextmanager
def check_run(
    reading: Input,
    plan: Plan,
    summary: Summary,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    output: str | None = None,
    resume: bool = False,
    lines: int | None = None,
    note: Callable[[str], None] = lambda text: None,
    advance: Callable[[int], None] | None = None,
    stopped: Callable[[], bool] | None = None,
) -> Iterator[Iterator[list[Outcome[Checked]]]]:
    """The outcomes of checking every puzzle of ``reading``, in input order, one list
    per chunk (a writer flushes once per chunk rather than once per puzzle).

    ``jobs`` worker processes (capped at the cores and the puzzles; the cap is
    said through ``note``) or the Dask ``cluster``; ``advance(n)``: n more puzzles finished,
    told as the workers report them, within a chunk still running too
    (:class:`~cp_sudoku.run.progress.Finished`: over the run, the counts add up to the
    puzzles checked in it); ``stopped()`` true: an interrupt came (the loop raises
    ``KeyboardInterrupt`` while it waits, :func:`~cp_sudoku.run.loop.ordered`); ``output``:
    also write the
    table there (``resume``: continue an interrupted one); ``lines``: input
    lines per slice (None: sized to the file and the workers, at least four
    slices per worker, at most :data:`SLICE_LINES`).  A file is cut into
    slices when there is a table or a cluster; otherwise, and for inputs
    that cannot be cut, entries are read here and sent in chunks.  Leaving
    the block early (an interrupt) ends the workers; every slice finished by
    then is in the spool.

    Raises:
        UsageError: ``resume`` without ``output``, ``output`` naming the input, an input
            that cannot be cut for a table, a spool of another run, a bad ``--cluster``,
            Dask or pyarrow missing.
        PuzzleError, OSError: an unreadable input.
    """
    if resume and output is None:
        raise UsageError("--resume needs --output PATH")
    if output is not None and reading.path is not None and same_file(output, reading.path):
        raise UsageError(
            f"--output {output} is the input file: the table would replace the puzzles; "
            f"name another file"
        )
    if output is not None and table_format(output) == "parquet" and find_spec("pyarrow") is None:
        raise UsageError(
            'Parquet output needs pyarrow: pip install -e ".[parquet]" in the project folder'
        )
    if output is not None and reading.path is None:
        raise UsageError(
            "--output needs a regular file (one puzzle per line, or CSV), not stdin or a pipe"
        )
    if resume and output is not None and Spool.complete(output):
        summary.add_columns(read_part(Path(output), table_format(output), _names(plan)), plan.names)
        summary.earlier = summary.kept = summary.total
        yield iter(())
        return
    wanted = min(jobs, cores()) if cluster is None else jobs
    file = _sliced(reading, wanted, output, resume, lines, cluster is not None)
    if file is None:
        entries, chosen = capped(reading.entries(), jobs)
        if chosen.note:
            note(f"cp-sudoku: {chosen.note}")
        summary.workers = chosen.count
        with executor(chosen.count, cluster) as running:
            chunks = chunks_for(entries, isinstance(running, InProcess), check, plan)
            yield _outcomes(chunks, running, summary, advance, stopped)
        return
    spool = None
    done: set[int] = set()
    if output is not None:
        spool = Spool(output, described(file, plan, reading), plan.names, resume=resume)
        done = spool.done()
        for index in sorted(done):
            summary.add_columns(spool.columns(index, _names(plan)), plan.names)
        summary.earlier = summary.kept = summary.total
    first = _first_puzzle(reading)
    chunks = (
        Chunk(
            part.index,
            check,
            plan,
            part=Part(
                file.source,
                part,
                reading.box,
                reading.alphabet,
                size=first[1] if first is not None and first[0] < part.first_line else None,
            ),
        )
        for part in file.slices
        if part.index not in done
    )
    count = workers(jobs, len(file.slices)).count if cluster is None else jobs
    summary.workers = count
    with executor(count, cluster) as running:
        yield _outcomes(chunks, running, summary, advance, stopped, spool, len(file.slices))


def _first_puzzle(reading: Input) -> tuple[int, int] | None:
    """The line of the input's first puzzle and its n (None: no line is a puzzle).

    One file holds one size: a line whose n differs from that of the first puzzle is an
    error.  A slice read alone is told this n when the first puzzle lies before it, so
    that its lines read as the whole file's do whatever the slice size or the executor.
    """
    for entry in reading.entries():
        if entry.puzzle is not None:
            return entry.line, entry.puzzle.rows
    return None


def _outcomes(
    chunks: Iterable[Chunk[Checked]],
    running: Executor,
    summary: Summary,
    advance: Callable[[int], None] | None,
    stopped: Callable[[], bool] | None,
    spool: Spool | None = None,
    slices: int = 0,
) -> Iterator[list[Outcome[Checked]]]:
    """Every chunk's outcomes, the chunks in order, each outcome counted; progress told to
    ``advance`` as it is reported; a table's parts written as they are done and joined at
    the end."""
    finished = Finished(advance) if advance is not None else None

    def kept(chunk: Chunk[Checked], outcomes: list[Outcome[Checked]]) -> None:
        if spool is not None:
            spool.put(chunk.index, columns_of(outcomes, chunk.plan.names))
            summary.kept += len(outcomes)
        if finished is not None:
            finished.ended(chunk.index, len(outcomes))

    found = ordered(
        chunks,
        running,
        run_chunk,
        window=window(running),
        kept=kept if spool or finished else None,
        heard=finished.reported if finished else None,
        stopped=stopped,
    )
    with closing(found):
        for _, outcomes in found:
            for outcome in outcomes:
                summary.add(outcome)
            yield outcomes
    if spool is not None:
        spool.finish(slices)


def _sliced(
    reading: Input,
    wanted: int,
    output: str | None,
    resume: bool,
    lines: int | None,
    cluster: bool,
) -> SlicedFile | None:
    """The input cut into slices when a table or a cluster wants them (and it can be cut)."""
    if reading.path is None or (output is None and not cluster):
        return None
    if lines is None and resume and output is not None:
        lines = Spool.recorded(output).get("slice_lines")
    try:
        return cut(
            reading.path, lines or slice_lines(reading.path, wanted, SLICE_LINES), reading.format
        )
    except UsageError:
        if output is not None:
            raise
        return None  # a cluster reads the other formats here and sends the entries


def _names(plan: Plan) -> tuple[str, ...]:
    from cp_sudoku.run.output import TIMING_SUFFIX, prefix

    return (*Summary.COLUMNS, *(f"{prefix(name)}{TIMING_SUFFIX}" for name in plan.names))


def described(file: SlicedFile, plan: Plan, reading: Input) -> dict[str, Any]:
    """What the run is, for its spool: a resume must match it."""
    return describe(file) | {
        "slice_lines": file.lines,
        "plan": {
            "backends": None if plan.backends is None else list(plan.backends),  # None: default
            "options": {name: dict(options) for name, options in plan.options.items()},
            "limit": plan.limit,
            "time_limit": plan.time_limit,
        },
        "box": list(reading.box) if reading.box else None,
        "alphabet": reading.alphabet.symbols if reading.alphabet else None,
    }


def check_to_file(
    path: str,
    output: str,
    plan: Plan,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    resume: bool = False,
    slice_lines: int | None = None,
    box: tuple[int, int] | None = None,
    alphabet: Alphabet | None = None,
    format: str | None = None,
) -> Summary:
    """Check every puzzle of the file ``path`` into the table ``output`` (Parquet when it
    ends in ``.parquet``, else JSON lines); the run's summary.  See :func:`check_run`.
    """
    from cp_sudoku.io import read_file

    reading = Input(
        lambda: read_file(path, box=box, alphabet=alphabet, format=format),
        path,
        box,
        alphabet,
        format,
    )
    summary = Summary()
    with check_run(
        reading,
        plan,
        summary,
        jobs=jobs,
        cluster=cluster,
        output=output,
        resume=resume,
        lines=slice_lines,
    ) as outcomes:
        for _ in outcomes:
            pass
    return summary
