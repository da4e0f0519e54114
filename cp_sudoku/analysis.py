"""Helpers for comparing the back ends on puzzle sets: samples, result records, tables.

This is what ``notebooks/compare_paradigms.ipynb`` runs; it defines no solver.
Data flows one way: puzzles (:class:`~cp_sudoku.io.Entry` lists) ->
flat records (plain dicts, one per puzzle and back end or per puzzle and
method) -> pandas tables.  Every function takes any
:class:`~cp_sudoku.model.Puzzle`, not only Sudoku.

pandas is imported only by the functions that return a DataFrame, so
``import cp_sudoku.analysis`` needs nothing beyond the core install.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cp_sudoku.backends import Backend, available, backend_class
from cp_sudoku.backends.base import STATUSES
from cp_sudoku.crosscheck import crosscheck, resolve
from cp_sudoku.datasets import dataset_path
from cp_sudoku.deduction.propagation import unit_propagation
from cp_sudoku.deduction.singles import solve_singles
from cp_sudoku.encodings.cnf import ENCODINGS, to_cnf
from cp_sudoku.generate.blanked import generated_sudoku
from cp_sudoku.io import Entry, parse_line, puzzle_string, read_file
from cp_sudoku.kinds.grid import default_box
from cp_sudoku.model import Grid, Puzzle, PuzzleError, cell_name, is_solution
from cp_sudoku.run import Checked, Outcome, Plan, check, run

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")
Record = dict[str, Any]


def effort_statistic(backend: str) -> str | None:
    """The statistic that measures ``backend``'s search effort: the first of its
    :attr:`~cp_sudoku.backends.base.Backend.statistics` that is not an encoding size
    (the backtrackers' tries, CP-SAT's branches, the SAT solver's conflicts); None
    when it reports none."""
    declared = backend_class(backend)
    effort = [name for name in declared.statistics if name not in declared.size_statistics]
    return effort[0] if effort else None


def effort_measures(backends: Iterable[str] | None = None) -> dict[str, str]:
    """Back-end name -> its effort statistic (:func:`effort_statistic`), for
    :func:`effort_frame` and :func:`cp_sudoku.figures.effort_bars`: every registered
    back end (or those of ``backends``, in that order) that reports one."""
    names = available() if backends is None else list(backends)
    return {name: stat for name in names if (stat := effort_statistic(name)) is not None}


#: Deduction methods compared by :func:`deduction_records`, in display order.
SINGLES_METHODS = ("naked singles", "naked + hidden singles")


# -- puzzle samples ------------------------------------------------------------------------


def spread(items: Sequence[T], count: int | None) -> list[T]:
    """``count`` items spread evenly over ``items``, first one included, order kept.

    ``None`` or a count at least ``len(items)`` keeps them all.  Deterministic,
    so a sample is the same on every run.

    Raises:
        ValueError: a negative count.
    """
    if count is None or count >= len(items):
        return list(items)
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [items[i * len(items) // count] for i in range(count)]


def puzzle_lines(path: str | Path) -> list[tuple[int, str]]:
    """``(line number, text)`` of every puzzle line of a line file.

    Blank lines and ``#`` comments are skipped, as :func:`cp_sudoku.io.read_file`
    skips them; nothing is parsed, so picking a sample from a large file is cheap.

    Raises:
        OSError: the file cannot be read.
    """
    with open(path, encoding="utf-8") as handle:
        return [
            (number, line.rstrip("\r\n"))
            for number, line in enumerate(handle, start=1)
            if line.strip() and not line.lstrip().startswith("#")
        ]


def load_set(
    name: str | Path,
    count: int | None = None,
    *,
    parse: Callable[..., Puzzle] = parse_line,
) -> list[Entry]:
    """A sample of ``count`` puzzles (all when None) of a shared set or a line file.

    Args:
        name: a shared set's name (``royle-17clue``, see
            :func:`cp_sudoku.datasets.dataset_path`) or a file path.
        count: how many puzzles, spread evenly over the file by :func:`spread`.
        parse: turns one line into a puzzle; called as
            ``parse(text, source=..., line=...)`` and may raise
            :class:`PuzzleError` (default :func:`cp_sudoku.io.parse_line`,
            9x9 and smaller Sudoku).

    Returns:
        One :class:`Entry` per sampled line, in file order; a line that does
        not parse is an entry with its ``error`` set, and the others still load.

    Raises:
        PuzzleError: no such set, or the file holds no puzzle line.
    """
    path = dataset_path(str(name))
    lines = puzzle_lines(path)
    if not lines:
        raise PuzzleError("no puzzle found: the file is empty or only comments", source=str(path))
    entries = []
    for number, text in spread(lines, count):
        try:
            puzzle = parse(text, source=path.name, line=number)
            entries.append(Entry(path.name, number, text, puzzle=puzzle))
        except PuzzleError as error:
            entries.append(Entry(path.name, number, text, error=error))
    return entries


def load_collection(names: Iterable[str | Path], count: int | None = None) -> list[Entry]:
    """A sample of ``count`` puzzles (all when None) of each of ``names``, in any format.

    Each name is a shared set (``arithmatrix-6x6``, ``kuso-SumasCruzadas_93``)
    or a file path, read by :func:`cp_sudoku.io.read_file` with the
    format detected (KenKen JSON lines, Kakuro JSON or CSV, the ``kind:``
    text format, Sudoku lines...); the sample is spread evenly by
    :func:`spread`.  Entries keep the solution a collection states.

    Raises:
        PuzzleError: no such set, or a file that holds no puzzle.
        OSError: a file cannot be read.
    """
    entries: list[Entry] = []
    for name in names:
        entries += spread(list(read_file(dataset_path(str(name)))), count)
    return entries


def generated_entries(
    sizes: Iterable[int], per_size: int, blank_fraction: float = 0.45, seed: int = 0
) -> list[Entry]:
    """Generated Sudoku, ``per_size`` of each n x n size (usual box shape for n).

    Puzzle ``k`` of size ``n`` comes from
    :func:`cp_sudoku.generate.blanked.generated_sudoku` with seed ``seed + k``; its
    entry's source is ``generated nxn`` and its line is ``seed + k``.  With
    many blanks a generated puzzle may have several solutions.

    Raises:
        PuzzleError: a size with no box shape (a prime n > 1).
    """
    entries = []
    for n in sizes:
        box = default_box(n)
        for k in range(seed, seed + per_size):
            puzzle, _ = generated_sudoku(box, blank_fraction, seed=k)
            entries.append(Entry(f"generated {n}x{n}", k, puzzle_string(puzzle), puzzle=puzzle))
    return entries


def encoding_size_records(sizes: Iterable[int], blank_fraction: float = 0.45) -> list[Record]:
    """The size of each paradigm's encoding of one generated n x n Sudoku per size.

    Built by the pure encoders, no solving: ``cpsat`` (integer variables,
    constraints of the model), ``sat`` (Boolean variables, clauses of the
    optimised CNF), ``mip`` (binaries, rows), ``dlx`` (options, columns of the
    shape's exact cover matrix, givens not in it) and ``minizinc`` (cell
    variables, ``constraint`` items).  Records: ``n``, ``backend``,
    ``variables``, ``constraints`` (counts) and what each counts
    (``variables are``, ``constraints are``).
    """
    from cp_sudoku.backends.cpsat import build_model
    from cp_sudoku.encodings.exact_cover import to_exact_cover
    from cp_sudoku.encodings.minizinc import minizinc
    from cp_sudoku.encodings.mip import to_mip

    records: list[Record] = []
    for n in sizes:
        puzzle, _ = generated_sudoku(default_box(n), blank_fraction, seed=0)
        proto = build_model(puzzle)[0].proto
        cnf = to_cnf(puzzle, "optimised")
        mip = to_mip(puzzle)
        cover = to_exact_cover(puzzle)
        text = minizinc(puzzle)
        found = {
            "cpsat": (len(proto.variables), len(proto.constraints), "int vars", "constraints"),
            "sat": (cnf.num_vars, len(cnf.clauses), "Boolean vars", "clauses"),
            "mip": (len(mip.names), len(mip.rows), "binaries", "rows"),
            "dlx": (len(cover.options), len(cover.columns), "options", "columns"),
            "minizinc": (
                len(puzzle.cells),
                text.count("\nconstraint "),
                "int vars",
                "constraint items",
            ),
        }
        for backend, (variables, constraints, var_kind, con_kind) in found.items():
            records.append(
                {
                    "n": n,
                    "backend": backend,
                    "variables": variables,
                    "constraints": constraints,
                    "variables are": var_kind,
                    "constraints are": con_kind,
                }
            )
    return records


def with_effort(frame: pd.DataFrame, measures: Mapping[str, str] | None = None) -> pd.DataFrame:
    """``frame`` (:func:`run_records` rows) with an ``effort`` column: each row's
    back end's own effort count (``measures``, default :func:`effort_measures`),
    NaN for back ends without one and for puzzles a back end declined."""
    if measures is None:
        measures = effort_measures(frame["backend"].drop_duplicates())
    effort = [
        row.get(measures.get(row["backend"], ""), float("nan"))
        if row.get("stopped") != "declined"
        else float("nan")
        for row in frame.to_dict("records")
    ]
    return frame.assign(effort=effort)


def entries_frame(entries: Iterable[Entry], set_name: str | None = None) -> pd.DataFrame:
    """One row per puzzle: ``set``, ``puzzle`` (``file:line``), ``n``, ``cells``,
    ``givens``, ``text``, ``error`` (message or None) and the ``entry`` itself."""
    import pandas as pd

    rows = [
        {
            "set": set_name or entry.source,
            "puzzle": entry.label,
            "n": entry.puzzle.max_value if entry.puzzle else None,
            "cells": len(entry.puzzle.cells) if entry.puzzle else None,
            "givens": len(entry.puzzle.givens) if entry.puzzle else None,
            "text": entry.text,
            "error": str(entry.error) if entry.error else None,
            "entry": entry,
        }
        for entry in entries
    ]
    return pd.DataFrame(
        rows, columns=["set", "puzzle", "n", "cells", "givens", "text", "error", "entry"]
    )


# -- running the back ends -----------------------------------------------------------------


def build_backends(
    names: Iterable[str], options: Mapping[str, Mapping[str, Any]] | None = None
) -> list[Backend]:
    """Back ends by registry name, each built with ``options[name]`` if given.

    Raises:
        ValueError: an unknown name or option.
    """
    return Plan(tuple(names), options or {}).build()


def run_records(
    entries: Iterable[Entry],
    backends: Sequence[str | Backend],
    *,
    limit: int = 2,
    time_limit: float | None = None,
    set_name: str | None = None,
    progress: bool = False,
) -> list[Record]:
    """Cross-check each puzzle with ``backends``: one flat record per (puzzle, back end).

    Each back end solves the puzzle with ``limit`` (2 proves uniqueness) and
    ``time_limit`` seconds; :func:`cp_sudoku.crosscheck.crosscheck` re-checks
    every grid it returns.  A record holds

    - ``set``, ``puzzle`` (``file:line``), ``n`` (values 1..n), ``cells``, ``givens``;
    - ``backend``, its ``status``, ``stopped`` (what stopped an incomplete
      search: ``declined`` for a puzzle it does not compile), ``solutions``
      (distinct grids found),
      ``seconds`` (wall clock, building included);
    - ``verdict`` (the agreed status) and ``agree`` (no contradiction, every grid checked);
    - ``matches_stated``: whether the verdict agrees with the solution the
      source states (:func:`cp_sudoku.run.stated_mismatch`), None when it
      states none;
    - every statistic of the back end under its own name (``tries``,
      ``branches``, ``conflicts`` ...), absent for back ends without it;
    - ``error``: None, or the message of a puzzle that did not parse (then
      ``status`` is ``error`` and the other puzzles still run).

    ``progress`` shows a progress bar (rich) over the puzzles.
    """
    built = resolve(backends)
    plan = Plan(tuple(b.name for b in built), limit=limit, time_limit=time_limit)
    items = list(entries) if progress else entries
    outcomes: Iterable[Outcome[Checked]] = run(items, check, plan, backends=built)
    if progress:
        from rich.progress import track

        total = len(items) if isinstance(items, list) else None
        outcomes = track(outcomes, total=total, description=set_name or "puzzles")
    records: list[Record] = []
    for outcome in outcomes:
        entry, checked = outcome.entry, outcome.value
        where = {"set": set_name or entry.source, "puzzle": entry.label}
        if entry.puzzle is None or checked is None:
            records += [
                {**where, "backend": b.name, "status": "error", "error": str(entry.error)}
                for b in built
            ]
            continue
        puzzle, verdict = entry.puzzle, checked.verdict
        for name, result in verdict.results.items():
            records.append(
                {
                    **where,
                    "n": puzzle.max_value,
                    "cells": len(puzzle.cells),
                    "givens": len(puzzle.givens),
                    "backend": name,
                    "status": result.status,
                    "stopped": result.stopped,
                    "solutions": len(result.solutions),
                    "seconds": result.seconds,
                    "verdict": verdict.status,
                    "agree": verdict.agree,
                    **result.stats,
                    "matches_stated": None if entry.solution is None else checked.mismatch is None,
                    "error": None,
                }
            )
    return records


def records_frame(records: Iterable[Record]) -> pd.DataFrame:
    """Records as a DataFrame, one column per key (missing keys are NaN)."""
    import pandas as pd

    return pd.DataFrame(list(records))


def time_summary(frame: pd.DataFrame, by: Sequence[str] = ("set", "backend")) -> pd.DataFrame:
    """Time per puzzle for each group: ``puzzles``, ``median ms``, ``p95 ms``,
    ``max ms`` (milliseconds) and ``per second`` (puzzles / total seconds).

    Rows without a time (puzzles that did not parse) are left out.
    """
    timed = frame.dropna(subset=["seconds"])
    grouped = timed.groupby(list(by), sort=False)["seconds"]
    table = grouped.agg(
        puzzles="count",
        median=lambda s: s.median() * 1000,
        p95=lambda s: s.quantile(0.95) * 1000,
        max=lambda s: s.max() * 1000,
        total="sum",
    )
    table["per second"] = table["puzzles"] / table["total"]
    return table.drop(columns="total").rename(
        columns={"median": "median ms", "p95": "p95 ms", "max": "max ms"}
    )


def status_mix(frame: pd.DataFrame, by: str = "backend") -> pd.DataFrame:
    """Puzzle counts per ``by`` value (rows) and status (columns).

    Columns are ``unique``, ``multiple``, ``none``, ``unknown``, then
    ``error`` when a puzzle did not parse; a status nobody reached counts 0.
    """
    import pandas as pd

    columns = [*STATUSES, *(["error"] if (frame["status"] == "error").any() else [])]
    table = pd.crosstab(frame[by], frame["status"])
    return table.reindex(columns=columns, fill_value=0).rename_axis(columns="status")


def effort_frame(frame: pd.DataFrame, measures: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Search effort per puzzle, one column per ``backend stat`` pair of ``measures``
    (default: :func:`effort_measures` of the back ends in ``frame``, in order).

    Rows are puzzles (index ``set``, ``puzzle``), with their ``givens``;
    columns such as ``backtrack tries``, ``cpsat branches``, ``sat conflicts``
    (counts).  Back ends missing from ``frame`` are left out.
    """
    import pandas as pd

    if measures is None:
        measures = effort_measures(frame["backend"].drop_duplicates())
    columns = {}
    for backend, stat in measures.items():
        rows = frame[frame["backend"] == backend]
        if not rows.empty:
            columns[f"{backend} {stat}"] = rows.set_index(["set", "puzzle"])[stat]
    givens = frame.dropna(subset=["givens"]).drop_duplicates(["set", "puzzle"])
    table = pd.DataFrame(columns)
    return table.join(givens.set_index(["set", "puzzle"])["givens"].astype(int))


# -- encodings -----------------------------------------------------------------------------


def cnf_size_records(
    sizes: Iterable[int] = (4, 9, 16, 25, 36),
    *,
    blank_fraction: float = 0.45,
    seed: int = 0,
    encodings: Sequence[str] = ENCODINGS,
) -> list[Record]:
    """CNF size under each encoding for a generated n x n Sudoku of each size.

    The puzzle is :func:`cp_sudoku.generate.blanked.generated_sudoku` (usual box,
    ``blank_fraction`` blanks, ``seed``); every encoding is built by
    :func:`cp_sudoku.backends.sat.to_cnf` from the same puzzle.  A record:
    ``n``, ``box`` (``rxc``), ``givens``, ``encoding``, ``variables``,
    ``clauses``, ``literals`` (total clause length).  The unsimplified
    encodings hold one unit clause per given; ``optimised`` holds none.
    Building the 36x36 extended encoding takes a few seconds and about a
    gigabyte of memory, released before the next one.
    """
    records = []
    for n in sizes:
        box = default_box(n)
        puzzle, _ = generated_sudoku(box, blank_fraction, seed=seed)
        for encoding in encodings:
            cnf = to_cnf(puzzle, encoding)
            records.append(
                {
                    "n": n,
                    "box": f"{box[0]}x{box[1]}",
                    "givens": len(puzzle.givens),
                    "encoding": encoding,
                    "variables": cnf.num_vars,
                    "clauses": len(cnf.clauses),
                    "literals": sum(map(len, cnf.clauses)),
                }
            )
            del cnf
    return records


def deduction_records(
    entries: Iterable[Entry],
    encodings: Sequence[str] = ENCODINGS,
    *,
    set_name: str | None = None,
) -> list[Record]:
    """What each deduction without search achieves on each puzzle.

    Methods: ``naked singles`` and ``naked + hidden singles``
    (:func:`cp_sudoku.deduction.singles.solve_singles`), then ``UP <encoding>``
    for each encoding (:func:`cp_sudoku.deduction.propagation.unit_propagation`).
    One record per (puzzle, method): ``set``, ``puzzle``, ``givens``, ``method``, ``status``
    (``solved``, ``open``, ``contradiction``), ``solved`` (bool),
    ``decided`` (cells decided, givens included) and ``cells``.  Puzzles
    that did not parse are left out.
    """
    records = []
    for entry in entries:
        puzzle = entry.puzzle
        if puzzle is None:
            continue
        outcomes = {
            SINGLES_METHODS[0]: solve_singles(puzzle, hidden=False),
            SINGLES_METHODS[1]: solve_singles(puzzle, hidden=True),
        }
        outcomes.update({f"UP {e}": unit_propagation(puzzle, e) for e in encodings})
        for method, outcome in outcomes.items():
            records.append(
                {
                    "set": set_name or entry.source,
                    "puzzle": entry.label,
                    "givens": len(puzzle.givens),
                    "method": method,
                    "status": outcome.status,
                    "solved": outcome.status == "solved",
                    "decided": outcome.decided,
                    "cells": len(puzzle.cells),
                }
            )
    return records


def solved_share(frame: pd.DataFrame) -> pd.DataFrame:
    """Share (0..1) of each set's puzzles that each method solves: sets as rows,
    methods as columns, in the order they first appear."""
    table = frame.pivot_table(index="set", columns="method", values="solved", aggfunc="mean")
    return table.reindex(
        index=list(dict.fromkeys(frame["set"])), columns=list(dict.fromkeys(frame["method"]))
    )


def method_agreement(frame: pd.DataFrame, left: str, right: str) -> pd.DataFrame:
    """How often two methods solve the same puzzles: counts of puzzles by
    (``left`` solved, ``right`` solved), one row per set."""
    import pandas as pd

    wide = frame.pivot_table(index=["set", "puzzle"], columns="method", values="solved")
    both = wide[left].astype(bool), wide[right].astype(bool)
    cases = {
        "both solve": both[0] & both[1],
        f"only {left}": both[0] & ~both[1],
        f"only {right}": ~both[0] & both[1],
        "neither": ~both[0] & ~both[1],
    }
    table = {name: mask.groupby(level="set", sort=False).sum() for name, mask in cases.items()}
    return pd.DataFrame(table).reindex(list(dict.fromkeys(frame["set"])))


# -- several solutions ---------------------------------------------------------------------


def solution_records(
    puzzle: Puzzle, backends: Sequence[str | Backend], *, limit: int = 2
) -> list[Record]:
    """How each back end shows that ``puzzle`` has several solutions.

    Each back end looks for ``limit`` solutions; a record per back end:
    ``backend``, ``status``, ``found`` (distinct grids), ``all checked``
    (every grid passes :func:`cp_sudoku.model.is_solution`), ``grids`` (the
    grids themselves), and ``differing cells`` (rXcY names of the cells
    where its first two grids differ, empty with fewer than two).
    """
    built = resolve(backends)
    verdict = crosscheck(puzzle, built, limit=limit)
    records = []
    for name, result in verdict.results.items():
        grids = result.solutions
        records.append(
            {
                "backend": name,
                "status": result.status,
                "verdict": verdict.status,
                "found": len(set(grids)),
                "all checked": all(is_solution(puzzle, g) for g in grids),
                "differing cells": differing_cells(puzzle, *grids[:2]) if len(grids) > 1 else [],
                "grids": grids,
            }
        )
    return records


def differing_cells(puzzle: Puzzle, first: Grid, second: Grid) -> list[str]:
    """rXcY names (1-based) of the cells where two grids of ``puzzle`` differ."""
    return [cell_name(c) for c, a, b in zip(puzzle.cells, first, second, strict=True) if a != b]


# -- proofs and grades ---------------------------------------------------------------------

#: The grade of a puzzle that the deduction engine cannot finish (its techniques stall).
NEEDS_SEARCH = "beyond the scale (stalls)"


def proof_records(samples: Mapping[str, Iterable[Entry]]) -> list[Record]:
    """Certify, verify and explain every puzzle of each named sample: one record each.

    The rows of :func:`cp_sudoku.verify.records` (proof lines, prove and
    check seconds, outcome, techniques...) with ``set`` (the sample's name),
    ``check_ms`` (dratify's check, milliseconds) and ``grade``: the hardest
    technique the deduction engine needed when it solved the puzzle, else
    :data:`NEEDS_SEARCH`.  Entries that could not be read are skipped.
    """
    from cp_sudoku.verify import records

    rows = []
    for name, entries in samples.items():
        for row in records(entries):
            solved = row["outcome"] == "solved"
            grade = (row["hardest"] or "none needed") if solved else NEEDS_SEARCH
            rows.append(
                {"set": name, **row, "check_ms": row["check_seconds"] * 1000, "grade": grade}
            )
    return rows


def grade_order(grades: Iterable[str]) -> list[str]:
    """The grades present in ``grades``, easiest first: techniques in the order of
    :data:`cp_sudoku.deduction.LEVEL`, then :data:`NEEDS_SEARCH`."""
    from cp_sudoku.deduction import LEVEL

    rank = {"none needed": 0, **LEVEL, NEEDS_SEARCH: len(LEVEL) + 1}
    return sorted(set(grades), key=rank.__getitem__)


def technique_mix(frame: pd.DataFrame) -> pd.DataFrame:
    """Share (0..1) of each set's deduction steps taken by each technique: sets as
    rows (in order of appearance), techniques as columns (easiest first); each
    row sums to 1.  ``frame``: :func:`proof_records` rows."""
    import pandas as pd

    from cp_sudoku.deduction import LEVEL

    counts = pd.DataFrame(
        [row["techniques"] for row in frame.to_dict("records")], index=frame["set"]
    ).fillna(0)
    table = counts.groupby(level="set", sort=False).sum()
    table = table[sorted(table.columns, key=LEVEL.__getitem__)]
    return table.div(table.sum(axis=1), axis=0)


def logic_share(frame: pd.DataFrame) -> pd.Series:
    """Share (0..1) of each set's puzzles that the deduction engine solves by logic
    alone (outcome ``solved``), sets in order of appearance; ``frame``:
    :func:`proof_records` rows."""
    solved = frame["outcome"] == "solved"
    return solved.groupby(frame["set"], sort=False).mean().rename("solved by logic")


def grade_records(samples: Mapping[str, Iterable[Entry]], time_limit: float = 10.0) -> list[Record]:
    """Grade every puzzle of each named sample (:func:`cp_sudoku.deduction.grade`, at most
    ``time_limit`` CPU seconds each): one record per puzzle with ``set``, ``line``,
    ``rating``, ``band``, ``hardest``, ``solved``, ``steps`` and ``techniques`` (technique ->
    steps).  Entries that could not be read are skipped."""
    from cp_sudoku.deduction import grade

    return [
        {"set": name, "line": entry.line, **grade(entry.puzzle, time_limit=time_limit).record()}
        for name, entries in samples.items()
        for entry in entries
        if entry.puzzle is not None
    ]


def band_technique_mix(frame: pd.DataFrame) -> pd.DataFrame:
    """Share (0..1) of the steps each technique took, per band: bands as rows (easiest
    first, ``unsolved`` last), techniques as columns (easiest first); each row sums to 1.
    ``frame``: :func:`grade_records` rows."""
    import pandas as pd

    from cp_sudoku.deduction import BANDS, LEVEL, UNSOLVED

    counts = pd.DataFrame(list(frame["techniques"]), index=frame["band"]).fillna(0)
    table = counts.groupby(level="band").sum()
    order = [name for name, _, _ in BANDS] + [UNSOLVED]
    table = table.reindex([band for band in order if band in table.index])
    table = table[sorted(table.columns, key=LEVEL.__getitem__)]
    return table.div(table.sum(axis=1), axis=0)
