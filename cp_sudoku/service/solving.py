"""The service's one adapter to the rest of the package.

Every call the service makes into cp_sudoku (readers, cross-check, the JSON
records of ``check --json`` and ``count --json``, rendering, export, back-end
and kind listings) goes through this module, so that a change of the
package's layout changes only this file.  The functions named ``*_one`` and
:func:`check_chunk` run in the worker processes of
:mod:`cp_sudoku.service.runner`; they take and return plain picklable values.

Sources: a request body is read as ``<request>`` and a job's input as
``<upload>``; a name a client sends never reaches a reader, because the
readers of the shared collections open the path they are given.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cp_sudoku.backends import DEFAULT_BACKENDS, UNLESS_KERNEL_TAKES, available, backend_class
from cp_sudoku.backends.base import Clock
from cp_sudoku.constraints import REGISTRY, Mark
from cp_sudoku.constraints.base import OutOfTime, compile_deadline
from cp_sudoku.display import count_record, error_record, render_grid, verdict_record
from cp_sudoku.encodings.cnf import ENCODINGS
from cp_sudoku.encodings.exporters import EXPORTERS, export
from cp_sudoku.io import Entry, alphabet_of, detect_format, parse_alphabet, read_text
from cp_sudoku.io.registry import HEAD_LINES
from cp_sudoku.kinds import ALIASES, KINDS
from cp_sudoku.model import Cell, CpSudokuError, Puzzle, PuzzleError
from cp_sudoku.run import Plan, check, count_solutions

#: The formats a request may name: those read from text.  The shared
#: collections (arithmatrix, xcsp3, kuso) are read from a file path, which a
#: request never gives.
FORMATS = ("line", "grid", "csv", "variant", "fpuzzles")
#: Export targets: ``?to=`` names one.
EXPORTS = tuple(EXPORTERS)
REQUEST_SOURCE = "<request>"
UPLOAD_SOURCE = "<upload>"

InputError = PuzzleError
"""Bad client input: the message says where (source, line, column) and what was expected."""
ClientError = CpSudokuError
"""Every error the package raises on purpose: bad input, a bad option, a constraint a
chosen back end does not compile.  A client's request can cause these, so they are 4xx."""


@dataclass(frozen=True)
class Options:
    """How to read and check puzzles: the fields of a request body, validated.

    ``box`` is (rows, columns) of a box; ``alphabet`` as ``--alphabet`` spells
    it; ``limit`` solutions per back end (>= 1); ``time_limit`` seconds per
    back end and puzzle; ``grade``: also grade each puzzle (``check`` only);
    ``backends`` None: the default cross-check (:func:`cp_sudoku.crosscheck.lineup`).
    """

    format: str | None = None
    alphabet: str | None = None
    box: tuple[int, int] | None = None
    backends: tuple[str, ...] | None = None
    limit: int = 2
    time_limit: float | None = None
    grade: bool = False

    def validate(self) -> Options:
        """This options object, once every field is known good.

        Raises:
            InputError: an unknown format or back end, a bad alphabet or box,
                ``limit < 1`` or ``time_limit <= 0``.
        """
        if self.format is not None and self.format not in FORMATS:
            names = ", ".join(FORMATS)
            raise InputError(f"unknown format {self.format!r}; choose one of {names}")
        if self.alphabet is not None:
            parse_alphabet(self.alphabet)
        if self.box is not None and min(self.box) < 1:
            raise InputError(f"box must be ROWSxCOLUMNS of at least 1, got {self.box}")
        named = DEFAULT_BACKENDS if self.backends is None else self.backends
        unknown = [name for name in named if name not in available()]
        if unknown or not named:
            problem = f"unknown back end {unknown[0]!r}" if unknown else "no back end named"
            raise InputError(f"{problem}; choose from {', '.join(available())}")
        if self.limit < 1:
            raise InputError(f"limit must be at least 1, got {self.limit}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise InputError(
                f"time_limit must be a positive number of seconds, got {self.time_limit}"
            )
        return self

    def plan(self) -> Plan:
        """The plan of the solve loop for these options."""
        return Plan(self.backends, {}, self.limit, self.time_limit, grade=self.grade)


def read_entries(text: str, options: Options, source: str = UPLOAD_SOURCE) -> Iterator[Entry]:
    """The puzzles of ``text``, streamed, as ``check`` reads a file.

    Raises:
        InputError: no puzzle at all, or a layout no format reads.
    """
    return read_text(
        text, source, box=options.box, alphabet=options.alphabet, format=options.format
    )


def count_puzzles(text: str, options: Options) -> int:
    """How many puzzles ``text`` holds, as :func:`read_entries` would yield them.

    The ``line`` and ``csv`` formats are counted by their lines (one puzzle
    a line, less the CSV header), as ``check`` counts a file for its progress
    bar; the others are read.

    Raises:
        InputError: no puzzle at all, or a layout no format reads.
    """
    lines = text.splitlines()
    name = options.format or detect_format(lines[:HEAD_LINES], UPLOAD_SOURCE)
    if name not in ("line", "csv"):
        return sum(1 for _ in read_entries(text, options))
    count = sum(1 for line in lines if line.strip() and not line.lstrip().startswith("#"))
    if count == 0 or (name == "csv" and count == 1):
        raise InputError(
            "no puzzle found: the input is empty or only comments", source=UPLOAD_SOURCE
        )
    return count - (name == "csv")


def _one_puzzle(text: str, options: Options) -> tuple[Entry, Puzzle]:
    entries = list(read_entries(text, options, REQUEST_SOURCE))
    if len(entries) != 1:
        raise InputError(f"this endpoint takes one puzzle; the text holds {len(entries)}")
    entry = entries[0]
    if entry.puzzle is None:
        raise entry.error or InputError("unreadable puzzle")
    return entry, entry.puzzle


def error_fields(error: ClientError) -> dict[str, Any]:
    """The JSON of a refused input: the one-line ``error`` the CLI prints (after its
    ``cp-sudoku: error:`` prefix) and, for bad puzzle text, its parts ``message``,
    ``source``, ``line`` and ``column``."""
    fields: dict[str, Any] = {"error": str(error)}
    if isinstance(error, PuzzleError):
        fields |= {
            "message": error.message,
            "source": error.source,
            "line": error.line,
            "column": error.column,
        }
    return fields


# --- In the worker processes -----------------------------------------------------------------


def check_one(text: str, options: Options, with_drawing: bool = False) -> dict[str, Any]:
    """One puzzle's ``check --json`` record, plus the ``rendered`` grids (puzzle and
    solution, as ``solve`` prints them) and, ``with_drawing``, the page's ``drawing``.

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    entry, puzzle = _one_puzzle(text, options)
    plan = options.plan()
    checked = check(entry, plan.built(), plan)
    verdict = checked.verdict
    shown = verdict.solution or (verdict.solutions[0] if verdict.solutions else None)
    record = verdict_record(entry, verdict, checked.mismatch, checked.grade)
    record["rendered"] = {
        "puzzle": render_grid(puzzle),
        "solution": None if shown is None else render_grid(puzzle, shown),
    }
    if with_drawing:
        record["drawing"] = drawing(puzzle, shown)
    return record


def count_one(text: str, options: Options) -> dict[str, Any]:
    """One puzzle's ``count --json`` record: distinct solutions up to ``limit``, and
    which back end's finished search proved the count exact.

    Raises:
        InputError: the text is not exactly one readable puzzle.
    """
    entry, _ = _one_puzzle(text, options)
    plan = options.plan()
    return count_record(entry, count_solutions(entry, plan.built(), plan), plan.limit)


def export_one(text: str, options: Options, to: str, encoding: str = "optimised") -> str:
    """One puzzle's model as text: DIMACS CNF (``to="dimacs"``) or a CP-SAT text proto.
    Compiling stops at ``options.time_limit`` seconds, as a back end's does (a 25 x 25
    grid with a long between line held a worker for 33 s writing its MPS).

    Raises:
        InputError: the text is not exactly one readable puzzle; an unknown
            target or encoding.
        OutOfTime: compiling passed ``options.time_limit``.
    """
    if to not in EXPORTS:
        raise InputError(f"unknown export target {to!r}; choose one of {', '.join(EXPORTS)}")
    if encoding not in ENCODINGS:
        raise InputError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    _, puzzle = _one_puzzle(text, options)
    limit = options.time_limit
    try:
        with compile_deadline(Clock(limit).deadline):
            return export(puzzle, to, **({"encoding": encoding} if to == "dimacs" else {}))
    except OutOfTime:
        raise OutOfTime(f"compiling the {to} export passed the time limit of {limit:g} s") from None


def prove_one(text: str, options: Options) -> dict[str, Any]:
    """One puzzle's certificate (``cp-sudoku prove``), verified from scratch once written.

    The files are written in a folder this function makes and removes (the
    name is fixed; nothing of the request names a path) and returned as text:
    ``{"certificate": the NAME.cert.json object, "cnf": DIMACS text, "proof":
    DRAT text or None, "failures": what the verification rejected}``, or
    ``{"certificate": None, ...}`` with status ``unknown`` when the time limit
    stopped the solver (nothing is proved then), or status ``unavailable``
    and the ``error`` when the prover cannot be imported.

    Raises:
        InputError: the text is not exactly one readable puzzle, or its kind has
            no text format to state it in.
    """
    import tempfile
    from pathlib import Path

    _, puzzle = _one_puzzle(text, options)
    try:
        from cp_sudoku.verify.certify import certify
    except ImportError as error:  # the prover or its checker is not installed here
        return {"status": "unavailable", "certificate": None, "error": str(error)}
    with tempfile.TemporaryDirectory(prefix="cp-sudoku-prove-") as folder:
        done = certify(puzzle, Path(folder), "certificate", time_limit=options.time_limit)
        if done.path is None:
            return {"status": done.status, "certificate": None, "cnf": None, "proof": None}
        certificate = json.loads(done.path.read_text("utf-8"))
        proof = certificate["proof"]
        return {
            "status": done.status,
            "certificate": certificate,
            "cnf": (Path(folder) / certificate["cnf"]).read_text("utf-8"),
            "proof": None if proof is None else (Path(folder) / proof).read_text("utf-8"),
            "failures": list(done.failures),
        }


def check_chunk(entries: Sequence[Entry], options: Options) -> list[str]:
    """The JSON line per entry, in order: the lines ``check --json`` prints.

    An entry that could not be read gets its ``invalid`` record, as in the CLI.
    """
    plan = options.plan()
    backends = plan.built()
    lines = []
    for entry in entries:
        if entry.puzzle is None:
            record = error_record(entry)
        else:
            checked = check(entry, backends, plan)
            record = verdict_record(entry, checked.verdict, checked.mismatch, checked.grade)
        lines.append(json.dumps(record))
    return lines


def warm_up() -> None:
    """Build the default back ends in this process (a worker's initializer), so that
    the first request does not pay for importing and building them."""
    entry = next(read_text("......122..4.4..", "<warm-up>"))
    plan = Plan()
    check(entry, plan.built(), plan)
    for name in plan.names:  # those that join on some puzzles only (cpsat) too
        plan.backend(name)


# --- Drawing for the page --------------------------------------------------------------------


def drawing(puzzle: Puzzle, grid: Sequence[int] | None) -> dict[str, Any]:
    """What the page needs to draw a puzzle beside its solution.

    ``rows`` x ``cols`` positions, row-major lists: ``cells`` (1 for a
    variable cell), ``givens`` and ``solution`` (values, 0 blank, as text in
    the puzzle's alphabet), ``labels`` (Kakuro clues); and, from the marks of
    every constraint (:meth:`~cp_sudoku.constraints.Constraint.marks`, never
    from the kind): ``region`` (the ``region`` mark of each cell, -1 for none),
    ``shaded`` (cells of ``shade`` marks: diagonals, windows), ``cages`` (cells
    as [row, col], 0-based, and the label ``11+``) and ``marks``, every mark as
    data (shape, cells, label, style) for the page to draw.  A cage whose clue a
    label already shows (a Kakuro run beside its clue square) is not drawn again.
    """
    alphabet = alphabet_of(puzzle)
    positions = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    cells = set(puzzle.cells)
    values = dict(zip(puzzle.cells, grid, strict=True)) if grid else {}
    marks = [
        mark
        for constraint in puzzle.constraints
        for mark in constraint.marks()
        if not _labelled(puzzle, mark)
    ]
    region: dict[Cell, int] = {}
    shaded: set[Cell] = set()
    for number, mark in enumerate(marks):
        if mark.shape == "region":
            region.update(dict.fromkeys(mark.cells, number))
        elif mark.shape == "shade":
            shaded.update(mark.cells)
    return {
        "kind": puzzle.kind,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "cells": [int(p in cells) for p in positions],
        "givens": [
            alphabet.symbol(puzzle.givens[p]) if p in puzzle.givens else "" for p in positions
        ],
        "solution": [alphabet.symbol(values[p]) if p in values else "" for p in positions]
        if grid
        else None,
        "region": [region.get(p, -1) for p in positions],
        "shaded": [int(p in shaded) for p in positions],
        "labels": [puzzle.labels.get(p, "") for p in positions],
        "cages": [
            {"cells": [list(cell) for cell in mark.cells], "label": mark.label}
            for mark in marks
            if mark.shape == "cage"
        ],
        "marks": [mark.as_json() for mark in marks if mark.shape not in ("region", "shade")],
    }


def _labelled(puzzle: Puzzle, mark: Mark) -> bool:
    """Whether ``mark`` is a cage whose clue the square left of or above its first cell
    shows as a label."""
    if mark.shape != "cage" or not puzzle.labels:
        return False
    r, c = min(mark.cells)
    return (r, c - 1) in puzzle.labels or (r - 1, c) in puzzle.labels


# --- Listings --------------------------------------------------------------------------------


def _default_on(name: str) -> str | None:
    """Which puzzles the default cross-check runs back end ``name`` on, in words."""
    if name not in DEFAULT_BACKENDS:
        return None
    if name in UNLESS_KERNEL_TAKES:
        return "puzzles with rules the kernel declines (cages, relations, clues)"
    return "every puzzle"


def backends_listing() -> list[dict[str, Any]]:
    """Every back end: name, whether it runs by default, its summary, its own options
    (type, default, meaning, choices: set from the CLI, not per request), its statistics
    and the constraint types it compiles.  Imports the solver libraries: run in a worker."""
    listing = []
    for name in available():
        backend = backend_class(name)
        listing.append(
            {
                "name": name,
                "default": name in DEFAULT_BACKENDS,
                "default_on": _default_on(name),
                "summary": backend.summary,
                "options": {
                    key: {
                        "default": option.default,
                        "help": option.help,
                        "choices": _choices(option.choices),
                    }
                    for key, option in backend.options.items()
                },
                "statistics": list(backend.statistics),
                "supports": sorted(kind.__name__ for kind in backend.supports or REGISTRY.values()),
            }
        )
    return listing


def _choices(choices: Any) -> list[Any] | None:
    found = choices() if callable(choices) else choices
    return None if found is None else list(found)


def kinds() -> tuple[str, ...]:
    """The puzzle kinds the ``kind:`` text format names, old names included."""
    return (*KINDS, *ALIASES)
