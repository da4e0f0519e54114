"""Results as a table: one row per puzzle, written as JSON lines or Parquet.

The row of one puzzle (the same columns in both formats, in this order):

==========================  =========  ===============================================
column                      type       meaning
==========================  =========  ===============================================
``source``                  string     the input file as named on the command line
``line``                    int64      1-based line of the puzzle in it
``puzzle``                  string     the puzzle's text as read (the line, or the
                                       CSV field)
``status``                  string     ``unique``, ``multiple``, ``none``, ``unknown``,
                                       or ``invalid`` (the line is not a puzzle)
``solution``                string     the grid in the puzzle's alphabet when unique, else null
``agree``                   bool       no back end contradicted another and every grid
                                       passed the checker; null when invalid
``matches_stated``          bool       the stated solution is a solution the verdict
                                       does not contradict (``unique``: the one found;
                                       ``multiple``, ``unknown``: one of them); null
                                       when the source states none
``disagreements``           string     what the back ends contradicted (``; ``-joined), or null
``error``                   string     why the line is not a puzzle (``file:line:column:
                                       message``), or null
``grade``                   string     with ``--grade``: the band (``easy`` .. ``extreme``,
                                       ``unsolved``), else null
``rating``                  float64    with ``--grade``: the ER-like rating, else null
``<b>_status``              string     back end ``b``'s own status (``declined`` included
                                       as ``unknown``)
``<b>_seconds``             float64    its wall-clock seconds on this puzzle (a timing field)
``<b>_solutions``           int64      distinct solutions it found (at most the limit)
``<b>_<count>``             int64      each of its effort and size counts
                                       (:attr:`Backend.statistics`: ``conflicts``,
                                       ``decisions``, ``propagations``, ``tries``, ...)
==========================  =========  ===============================================

``<b>`` is the back-end name with ``-`` written ``_`` (``sat_naive``); the
back ends come in the order of the plan.  Every column is the same whatever
the slice size, the executor and the workers, except the times and a back
end's *history* counts (:func:`varying`: the ``sat`` back end's
``conflicts``, ``decisions`` and ``propagations`` on a compiled shape depend
on the puzzles its solver served before).  A back end's columns are null for
an invalid line.

A JSON-lines file holds one object per line with exactly these keys; a
Parquet file has this schema, one row group per slice of the input.
Whichever the format, the rows are in input order.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from cp_sudoku.backends import backend_class
from cp_sudoku.io import grid_string
from cp_sudoku.run.work import Checked, Outcome

#: A chunk of rows, column-wise: column name -> one value per row.
Columns = dict[str, list[Any]]

#: The columns before the back ends' own: name -> Arrow type name.
BASE_COLUMNS: dict[str, str] = {
    "source": "string",
    "line": "int64",
    "puzzle": "string",
    "status": "string",
    "solution": "string",
    "agree": "bool_",
    "matches_stated": "bool_",
    "disagreements": "string",
    "error": "string",
    "grade": "string",
    "rating": "float64",
}
#: Columns that hold a time (they differ between two runs of the same input).
TIMING_SUFFIX = "_seconds"


def prefix(backend: str) -> str:
    """A back-end name as a column prefix: ``sat-naive`` -> ``sat_naive``."""
    return backend.replace("-", "_")


def varying(backends: Sequence[str]) -> set[str]:
    """The columns that may differ between two runs of the same input: times, and the
    back ends' ``history_statistics`` (counts that depend on what a solver served before)."""
    found = set()
    for name in backends:
        found.add(f"{prefix(name)}{TIMING_SUFFIX}")
        for stat in getattr(backend_class(name), "history_statistics", ()):
            found.add(f"{prefix(name)}_{stat}")
    return found


def column_types(backends: Sequence[str]) -> dict[str, str]:
    """Every column of a run over ``backends`` -> its Arrow type name, in order."""
    types = dict(BASE_COLUMNS)
    for name in backends:
        p = prefix(name)
        types[f"{p}_status"] = "string"
        types[f"{p}{TIMING_SUFFIX}"] = "float64"
        types[f"{p}_solutions"] = "int64"
        for stat in backend_class(name).statistics:
            types[f"{p}_{stat}"] = "int64"
    return types


def _readable(text: str) -> str:
    """``text`` as a table stores it: a byte that was not UTF-8 (read as a lone surrogate,
    which neither Parquet nor JSON can hold) written as ``\\xff``."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def columns_of(outcomes: Iterable[Outcome[Checked]], backends: Sequence[str]) -> Columns:
    """The rows of ``outcomes`` (in order) as columns."""
    names = column_types(backends)
    columns: Columns = {name: [] for name in names}
    stats = {name: backend_class(name).statistics for name in backends}
    for outcome in outcomes:
        entry, checked = outcome.entry, outcome.value
        columns["source"].append(entry.source)
        columns["line"].append(entry.line)
        columns["puzzle"].append(_readable(entry.text))
        if checked is None or entry.puzzle is None:
            columns["status"].append("invalid")
            columns["error"].append(_readable(str(entry.error)))
            for name in names:
                if name not in ("source", "line", "puzzle", "status", "error"):
                    columns[name].append(None)
            continue
        verdict, alphabet = checked.verdict, entry.puzzle.alphabet
        columns["status"].append(verdict.status)
        columns["solution"].append(
            grid_string(verdict.solution, alphabet) if verdict.solution else None
        )
        columns["agree"].append(verdict.agree)
        columns["matches_stated"].append(
            None if entry.solution is None else checked.mismatch is None
        )
        columns["disagreements"].append("; ".join(verdict.disagreements) or None)
        columns["error"].append(None)
        graded = checked.grade
        columns["grade"].append(graded.band if graded else None)
        columns["rating"].append(graded.rating if graded else None)
        for name in backends:
            p, result = prefix(name), verdict.results.get(name)
            columns[f"{p}_status"].append(result.status if result else None)
            columns[f"{p}{TIMING_SUFFIX}"].append(round(result.seconds, 6) if result else None)
            columns[f"{p}_solutions"].append(result.count if result else None)
            for stat in stats[name]:
                columns[f"{p}_{stat}"].append(result.stats.get(stat) if result else None)
    return columns


def rows(columns: Columns) -> list[dict[str, Any]]:
    """The rows of ``columns`` as dictionaries (keys in column order)."""
    names = list(columns)
    return [dict(zip(names, values, strict=True)) for values in zip(*columns.values(), strict=True)]


# --- Files -----------------------------------------------------------------------------------


def table_format(path: str | Path) -> str:
    """The table format of an output path: ``parquet`` for a path ending in
    ``.parquet``, else ``jsonl`` (JSON lines)."""
    return "parquet" if str(path).lower().endswith(".parquet") else "jsonl"


def arrow_schema(backends: Sequence[str]) -> Any:
    """The ``pyarrow.Schema`` of a run over ``backends`` (needs the ``parquet`` extra)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    return pa.schema([(name, getattr(pa, kind)()) for name, kind in column_types(backends).items()])


#: Parquet compression of the parts and of the final file.
COMPRESSION = "zstd"


def ready(backends: Sequence[str], format: str) -> None:
    """Import now what writing a part of a run over ``backends`` in ``format`` needs: each
    back end's module (for its statistics' columns) and pyarrow.  A run keeps every
    finished slice when interrupted; importing them then (OR-Tools pulls in pandas: 1 to 3
    s on a busy machine) held a Ctrl-C's exit past its second."""
    column_types(backends)
    if format == "parquet":
        importlib.import_module("pyarrow.parquet")


def write_part(path: Path, columns: Columns, backends: Sequence[str], format: str) -> None:
    """Write one chunk of rows to ``path`` (a whole file: Parquet or JSON lines)."""
    if format == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        table = pa.Table.from_pydict(columns, schema=arrow_schema(backends))
        pq.write_table(table, path, compression=COMPRESSION)
        return
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows(columns):
            handle.write(json.dumps(row) + "\n")


def read_part(path: Path, format: str, names: Sequence[str]) -> Columns:
    """The columns ``names`` of one part file written by :func:`write_part`."""
    if format == "parquet":
        import pyarrow.parquet as pq

        found: Columns = pq.read_table(path, columns=list(names)).to_pydict()
        return found
    with open(path, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle]
    return {name: [row[name] for row in lines] for name in names}


def join_parts(parts: Sequence[Path], dest: Path, backends: Sequence[str], format: str) -> None:
    """Write the rows of ``parts``, in order, to ``dest``: one part in memory at a time.

    Parquet parts become one row group each of a single file; JSON-lines parts
    are concatenated.
    """
    if format == "parquet":
        import pyarrow.parquet as pq

        with pq.ParquetWriter(dest, arrow_schema(backends), compression=COMPRESSION) as writer:
            for part in parts:
                writer.write_table(pq.read_table(part))
        return
    with open(dest, "wb") as out:
        for part in parts:
            out.write(part.read_bytes())
