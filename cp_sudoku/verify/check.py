"""Verify a certificate from scratch, trusting nothing it says about itself.

For each certificate (:mod:`cp_sudoku.verify.certificate`):

1. re-read the puzzle from its variant text;
2. re-check every stated solution with the rule checker
   (:func:`cp_sudoku.model.violations`), and the count the status needs
   (one for ``unique``, two distinct for ``multiple``, none for ``none``);
3. re-encode the puzzle (plus the blocking clause of the stated solution, for
   ``unique``) and compare the SHA-256 of that DIMACS text with
   ``cnf_sha256`` and with the CNF file, so a dropped or edited clause is caught;
4. for a clash, re-check it with the rules alone (:func:`confirm_clash`);
5. otherwise run the proof checker on the *re-encoded* formula against the
   proof file (whose SHA-256 must match ``proof_sha256``).

A ``candidates`` certificate (``candidates --certify``) states each cell's true
candidates: every kept one must be used by a stated solution the rule checker
accepts (and no stated solution uses another value), and the proof must refute the
re-encoded CNF plus one clause re-derived here from the statement, "some removed
candidate holds".

The trusted parts are the encoder (checked against the rule checker
exhaustively on small cases, ``tests/test_verify_encoder.py``) and the proof
checker, ``dratify`` (pure Python; an independent implementation of forward
DRAT checking, sharing no code with the solver).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.io import parse_text
from cp_sudoku.model import Cell, Puzzle, PuzzleError, Unit, UsageError, cell_name, violations
from cp_sudoku.numbers import read_number, shown
from cp_sudoku.verify.certificate import MAX_PROOF_BYTES, beside, read, read_bounded, sha256
from cp_sudoku.verify.proof import dimacs_text, refuted_formula

CHECKER = "dratify"
#: Assignments a clash check tries at most (a few seconds of Python): a real clash,
#: as ``prove`` writes it, needs far fewer.
MAX_CLASH_NODES = 1_000_000
#: Cells a clash may name, and of them cells without a given (each a level of the search).
MAX_CLASH_CELLS = 1_000
MAX_CLASH_FREE = 100
STATUSES = ("unique", "none", "multiple")
#: The status of a true-candidates certificate (:mod:`cp_sudoku.verify.candidates`).
CANDIDATES = "candidates"
#: The encodings a certificate may use: those whose models the encoder test
#: compares with the rule checker's grids (``minimal`` may give a cell two values).
CHECKED_ENCODINGS = ("optimised", "extended", "efficient")


def _dratify() -> ModuleType:
    """The proof checker, imported when first needed (it is an optional extra).

    Raises:
        UsageError: dratify is not installed.
    """
    try:
        import dratify
    except ImportError:
        raise UsageError(
            'proofs need the dratify checker: pip install -e ".[proof]" in the project folder'
        ) from None
    return dratify


def checker_version() -> str:
    """``0.1.10 (python engine)``: the version of dratify and the engine used.

    Raises:
        UsageError: dratify is not installed.
    """
    return f"{_dratify().__version__} (python engine)"


@dataclass(frozen=True)
class ProofCheck:
    """The proof checker's answer: accepted or not, why, and its wall-clock seconds."""

    ok: bool
    reason: str
    seconds: float


def check_proof(clauses: Sequence[Sequence[int]], num_vars: int, proof_text: str) -> ProofCheck:
    """Check a DRAT/DRUP ``proof_text`` refutes ``clauses`` (DIMACS literals) with dratify.

    The pure-Python engine is used, so the answer does not depend on what
    else is installed.  A malformed proof is a rejection, not an error.

    Raises:
        UsageError: dratify is not installed.
    """
    dratify = _dratify()
    start = time.perf_counter()
    formula = dratify.CNF(num_vars)
    for clause in clauses:
        formula.add_dimacs(clause)
    try:
        result = dratify.check_proof(formula, proof_text, engine="python")
        if not result.ok and result.failed_clause is not None:
            # CaDiCaL deletes clauses that are reasons of top-level units; a checker that
            # honours those deletions loses the units (drat-trim ignores them).  Checking
            # again with every deletion ignored is sound: more clauses stay, so every
            # lemma it accepts is still implied (RUP) or has the RAT property.
            again = dratify.check_proof(formula, proof_text, engine="python", apply_deletions=False)
            result = again if again.ok else result
    except ValueError as error:
        return ProofCheck(False, f"malformed proof: {error}", time.perf_counter() - start)
    reason = result.reason
    if not result.ok and result.failed_clause is not None:
        lemma = " ".join(str(dratify.to_dimacs(lit)) for lit in result.failed_clause)
        reason += f" (step {result.failed_step}: {lemma} 0)"
    return ProofCheck(result.ok, reason, time.perf_counter() - start)


@dataclass(frozen=True)
class Report:
    """The outcome of verifying one certificate.

    ``failures`` names what failed, in words (empty when it holds);
    ``check_seconds`` is the proof checker's wall-clock time (0 when no proof
    was checked).
    """

    path: Path
    status: str
    failures: tuple[str, ...]
    check_seconds: float

    @property
    def holds(self) -> bool:
        """Whether every check passed."""
        return not self.failures


def verify(path: Path) -> Report:
    """Verify the certificate at ``path`` from scratch (see the module docstring).

    Raises:
        PuzzleError: the certificate cannot be read (not a file, not JSON,
            a key missing); a certificate that reads but does not hold is a
            :class:`Report` with failures, never an exception.
    """
    record = read(path)
    status = str(record["status"])
    try:
        puzzle = parse_text(str(record["puzzle"]), source="puzzle")
    except PuzzleError as error:
        return Report(path, status, (f"the puzzle does not read: {error}",), 0.0)
    if status == CANDIDATES:
        return _verify_candidates(path, record, puzzle)
    failures = list(_statement_failures(puzzle, record))
    seconds = 0.0
    if record["encoding"] not in CHECKED_ENCODINGS:
        failures.append(
            f"encoding {record['encoding']!r} is not one verify accepts "
            f"({', '.join(CHECKED_ENCODINGS)})"
        )
    if failures:  # the files say nothing more once the statement itself is wrong
        return Report(path, status, tuple(failures), seconds)
    cnf = to_cnf(puzzle, record["encoding"])
    blocking = None
    if status == "unique":
        blocking = cnf.blocking_clause(tuple(record["solutions"][0]))
    failures += _file_failures(path, record, "cnf", dimacs_text(cnf, blocking))
    if record["clash"] is not None:
        failures += _clash_failures(puzzle, record["clash"], status)
    elif status in ("unique", "none") and not failures:
        proof_text = _proof_text(path, record, failures)
        if proof_text is not None:
            answer = check_proof(refuted_formula(cnf, blocking), cnf.num_vars, proof_text)
            seconds = answer.seconds
            if not answer.ok:
                failures.append(f"{CHECKER} rejects the proof: {answer.reason}")
    return Report(path, status, tuple(failures), seconds)


def refuted_candidates(cnf: Cnf, stated: Sequence[Sequence[int]]) -> list[int]:
    """The clause "some removed candidate holds": the literal of every value with a
    variable that ``stated`` (per cell, ``Puzzle.cells`` order) does not keep.  A value
    with no variable is removed by the encoding itself (a given peer holds it)."""
    return [
        x
        for lits, kept in zip(cnf.literal, stated, strict=True)
        for value, x in lits.items()
        if value not in kept
    ]


def candidates_text(cnf: Cnf, refuted: list[int]) -> str:
    """The DIMACS text of a candidates certificate: the CNF, then ``refuted``."""
    head = "c the last clause: some removed candidate holds (refuted by the proof)\n"
    return head + "".join(line + "\n" for line in cnf.dimacs_lines([refuted]))


def _verify_candidates(path: Path, record: dict[str, Any], puzzle: Puzzle) -> Report:
    """A ``candidates`` certificate: every kept candidate is used by a stated solution that
    the checker accepts, no stated solution uses another value, and the proof refutes the
    CNF plus "some removed candidate holds" (the removed ones re-derived here)."""
    failures: list[str] = []
    stated_map = record.get("candidates")
    grids = record["solutions"]
    if not isinstance(stated_map, dict) or not isinstance(grids, list):
        return Report(path, CANDIDATES, ("candidates and solutions must be given",), 0.0)
    stated = [sorted(stated_map.get(cell_name(c), [])) for c in puzzle.cells]
    used: list[set[int]] = [set() for _ in puzzle.cells]
    for number, grid in enumerate(grids, start=1):
        problems = violations(puzzle, grid) if isinstance(grid, list) else ["not a grid"]
        if problems:
            failures.append(f"solution {number} breaks the rules: {'; '.join(problems[:3])}")
            continue
        for i, value in enumerate(grid):
            used[i].add(value)
    for i, cell in enumerate(puzzle.cells):
        if used[i] != set(stated[i]) and not failures:
            failures.append(
                f"{cell_name(cell)}: the stated solutions use {sorted(used[i])}, "
                f"the certificate keeps {stated[i]}"
            )
    if record["encoding"] not in CHECKED_ENCODINGS:
        failures.append(f"encoding {record['encoding']!r} is not one verify accepts")
    if failures:
        return Report(path, CANDIDATES, tuple(failures), 0.0)
    cnf = to_cnf(puzzle, record["encoding"])
    refuted = refuted_candidates(cnf, stated)
    failures += _file_failures(path, record, "cnf", candidates_text(cnf, refuted))
    seconds = 0.0
    if refuted and not failures:
        proof_text = _proof_text(path, record, failures)
        if proof_text is not None:
            answer = check_proof([*cnf.clauses, refuted], cnf.num_vars, proof_text)
            seconds = answer.seconds
            if not answer.ok:
                failures.append(f"{CHECKER} rejects the proof: {answer.reason}")
    return Report(path, CANDIDATES, tuple(failures), seconds)


def _statement_failures(puzzle: Puzzle, record: dict[str, Any]) -> Iterator[str]:
    """What is wrong with the status and the stated solutions, by the rule checker."""
    status, solutions = record["status"], record["solutions"]
    if status not in STATUSES:
        yield f"unknown status {status!r}: expected one of {', '.join(STATUSES)}"
        return
    if not isinstance(solutions, list) or not all(
        isinstance(grid, list) and all(type(v) is int for v in grid) for grid in solutions
    ):
        yield "solutions must be a list of grids, each a list of integers"
        return
    wanted = {"unique": "exactly one", "none": "no", "multiple": "at least two"}[status]
    count = len(solutions)
    if (
        (status == "unique" and count != 1)
        or (status == "none" and count)
        or (status == "multiple" and count < 2)
    ):
        yield f"a {status} certificate states {wanted} solution(s), this one {count}"
    for number, grid in enumerate(solutions, start=1):
        problems = violations(puzzle, grid)
        if problems:
            yield f"solution {number} breaks the rules: {'; '.join(problems[:3])}"
    if len({tuple(grid) for grid in solutions}) != count:
        yield "the stated solutions are not distinct (the same grid twice)"
    if record["clash"] is not None and status != "none":
        yield f"a clash proves none, but the status is {status}"


def _file_failures(path: Path, record: dict[str, Any], key: str, expected: str) -> list[str]:
    """Compare the re-built text's hash with the recorded one, and the file's with the recorded."""
    failures = []
    digest, recorded, name = sha256(expected), record[f"{key}_sha256"], record[key]
    try:  # a file longer than the re-encoded text differs from it: read no more
        written = sha256(read_bounded(beside(path, name), len(expected.encode()) + 1))
    except PuzzleError as error:
        failures.append(f"the {key} file {shown(str(name))}: {error.message}")
    else:
        if written != recorded:
            failures.append(f"{name} differs from {key}_sha256 (a clause dropped or changed?)")
    if recorded != digest:
        failures.append(
            f"{key}_sha256 is not the hash of the puzzle's re-encoded CNF ({digest[:12]}...): "
            "the puzzle, its stated solution or the CNF was changed"
        )
    return failures


def _proof_text(path: Path, record: dict[str, Any], failures: list[str]) -> str | None:
    """The proof file's text; a missing proof or a hash mismatch is added to ``failures``."""
    name = record["proof"]
    if name is None:
        failures.append(f"a {record['status']} certificate without a clash needs a proof")
        return None
    try:
        text = read_bounded(beside(path, name), MAX_PROOF_BYTES)
    except PuzzleError as error:
        failures.append(f"the proof file {shown(str(name))}: {error.message}")
        return None
    if sha256(text) != record["proof_sha256"]:
        failures.append(f"{name} differs from proof_sha256 (the proof was changed)")
    return text


def _clash_failures(puzzle: Puzzle, clash: Any, status: str) -> list[str]:
    if not isinstance(clash, dict) or not isinstance(clash.get("cells"), list):
        return ["a clash must be an object with a list of cells"]
    texts = clash["cells"]
    if len(texts) > MAX_CLASH_CELLS:
        return [f"clash: {len(texts):,} cells, over the {MAX_CLASH_CELLS:,} verify examines"]
    try:
        cells = [_cell(text) for text in texts]
    except PuzzleError as error:
        return [f"clash: {error.message}"]
    if any(cell not in puzzle.index for cell in cells):
        return ["clash: a cell that is not in the puzzle"]
    twice = next((cell for k, cell in enumerate(cells) if cell in cells[:k]), None)
    if twice is not None:
        return [f"clash: {cell_name(twice)} is named twice"]
    free = sum(cell not in puzzle.givens for cell in cells)
    if free > MAX_CLASH_FREE:
        return [f"clash: {free:,} cells without a given, over the {MAX_CLASH_FREE} verify tries"]
    names = ",".join(cell_name(c) for c in cells)
    confirmed = confirm_clash(puzzle, cells)
    if confirmed is None:
        return [
            f"the clash at {names} was not confirmed within {MAX_CLASH_NODES:,} assignments "
            "(a real clash names few cells): not accepted"
        ]
    if not confirmed:
        return [f"the clash at {names} is not one: the rules allow values there"]
    return []


def _cell(text: object) -> Cell:
    match = re.fullmatch(r"r([0-9]+)c([0-9]+)", str(text))  # ASCII digits only
    if not match:
        raise PuzzleError(f"expected a cell rXcY, got {shown(str(text))}")
    return read_number(match.group(1), "a row") - 1, read_number(match.group(2), "a column") - 1


def confirm_clash(puzzle: Puzzle, cells: Sequence[Cell], budget: int | None = None) -> bool | None:
    """Whether no values of ``cells`` meet the rules, with the givens that bear on them;
    None when ``budget`` assignments (default :data:`MAX_CLASH_NODES`) did not decide.

    The given ``cells`` keep their givens; every assignment of values to the
    other ``cells`` (distinct cells) is tried, with the givens of their peers
    in place.  A unit that repeats a value among those cells, or a constraint
    whose cells are all assigned and which does not hold, rules an assignment
    out.  A clash holds when every assignment is ruled out; then the puzzle
    has no solution.  Uses the constraints' own rules only, no solver; the
    cost is at most n ** (free cells) assignments, cut as soon as a unit
    repeats, and stopped at the budget: a forged clash over many empty cells
    gets None (not accepted) instead of a search of n ** 64.
    """
    givens = puzzle.givens
    free = [c for c in cells if c not in givens]
    value = {c: givens[c] for c in cells if c in givens}
    value |= {p: givens[p] for c in free for p in puzzle.peers[c] if p in givens}
    others = [c for c in puzzle.constraints if not isinstance(c, Unit)]
    units_of = {c: [u for u in puzzle.units if c in u.cells] for c in cells}
    left = [MAX_CLASH_NODES if budget is None else budget]

    def repeats(units: Iterable[Unit]) -> bool:
        for unit in units:
            seen = [value[c] for c in unit.cells if c in value]
            if len(seen) != len(set(seen)):
                return True
        return False

    def extend(pos: int) -> bool:
        """True when some completion of the free cells meets every assigned rule."""
        if pos == len(free):
            return all(
                c.holds([value[x] for x in c.cells])
                for c in others
                if all(x in value for x in c.cells)
            )
        cell = free[pos]
        for candidate in puzzle.values:
            left[0] -= 1
            if left[0] < 0:
                raise _OutOfBudget
            value[cell] = candidate
            if not repeats(units_of[cell]) and extend(pos + 1):
                return True
            del value[cell]
        return False

    if repeats(puzzle.units):
        return True
    try:
        return not extend(0)
    except _OutOfBudget:
        return None


class _OutOfBudget(Exception):
    """The clash check used up its assignments."""
