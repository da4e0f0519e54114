"""Certificate files: ``NAME.cert.json`` beside ``NAME.cnf`` and ``NAME.drat``.

``NAME`` is the source's stem and the puzzle's line number
(``forum-hardest-1106-12``).  The keys of ``NAME.cert.json``
(``docs/certificates.md`` shows a real one):

=================  =============================================================
key                value
=================  =============================================================
status             ``unique``, ``none`` or ``multiple``
puzzle             the puzzle in the variant text format (any kind round-trips)
solutions          the grids: lists of values in row-major cell order (1 for
                   ``unique``, 2 for ``multiple``, none for ``none``)
cnf                the CNF file's name (DIMACS; variables mapped in comments)
cnf_sha256         SHA-256 of that file, hex
encoding           the CNF encoding (``optimised``: Kwon and Jain's, givens applied)
proof              the proof file's name, or null (``multiple``, a clash)
proof_format       ``DRAT`` (text), or null
proof_sha256       SHA-256 of the proof file, hex, or null
solver             the proof-logging SAT solver (python-sat name); null for a clash
solver_version     e.g. ``CaDiCaL 1.9.5 (python-sat 1.9.dev24)``; null for a clash
checker            the proof checker that said yes (``dratify``)
checker_version    its version and engine
checked            whether the checker accepted everything when proving
prove_seconds      wall-clock seconds to encode and solve
check_seconds      wall-clock seconds of the proof checker
clash              null, or ``{"rule", "cells": ["rXcY", ...], "message"}``
explanation        null, or a list of deduction steps (``prove --explain``)
=================  =============================================================

Nothing in the file is trusted by :mod:`cp_sudoku.verify.check`: it re-reads
the puzzle, re-encodes it and re-checks everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from cp_sudoku.io.limits import load_json
from cp_sudoku.model import PuzzleError

#: The most bytes read of a certificate (``NAME.cert.json``): its solutions and
#: explanation for a 100 x 100 grid take well under this.
MAX_CERTIFICATE_BYTES = 64 * 1024 * 1024
#: The most bytes read of a proof file (DRAT text); the CNF is read up to the length
#: of the re-encoded CNF it must equal.
MAX_PROOF_BYTES = 512 * 1024 * 1024

#: The keys of a certificate, in the order they are written.
KEYS = (
    "status",
    "puzzle",
    "solutions",
    "cnf",
    "cnf_sha256",
    "encoding",
    "proof",
    "proof_format",
    "proof_sha256",
    "solver",
    "solver_version",
    "checker",
    "checker_version",
    "checked",
    "prove_seconds",
    "check_seconds",
    "clash",
    "explanation",
)
#: Keys written when present: ``candidates`` (cell rXcY -> its true candidates) in a
#: certificate of status ``candidates`` (``cp-sudoku candidates --certify``).
OPTIONAL_KEYS = ("candidates",)
SUFFIX = ".cert.json"


def sha256(text: str) -> str:
    """SHA-256 of ``text`` encoded as UTF-8, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text_name(stem: str, text: str) -> str:
    """``STEM-`` and the first 12 hex digits of the SHA-256 of ``text``: a name that two
    different puzzles never share."""
    return f"{stem}-{sha256(text)[:12]}"


def certificate_name(source: str, line: int, text: str = "") -> str:
    """``../data/top95.txt``, line 12 -> ``top95-12``; a puzzle typed on the command line
    (source ``<argument>``) is named by its text instead: ``argument-`` and the first 12
    hex digits of the SHA-256 of ``text``, so two puzzles never share a name."""
    if source == "<argument>":
        return text_name("argument", text)
    stem = Path(source.strip("<>")).name
    for suffix in (".txt", ".csv", ".jsonl", ".json"):
        stem = stem.removesuffix(suffix)
    return f"{re.sub(r'[^A-Za-z0-9._-]+', '_', stem) or 'puzzle'}-{line}"


def taken(directory: Path, name: str, force: bool) -> PuzzleError | None:
    """The refusal of a certificate ``NAME`` already in ``directory`` (None when there is
    none, or with ``force``): nothing is overwritten unless asked."""
    there = directory / f"{name}{SUFFIX}"
    if there.exists() and not force:
        return PuzzleError(f"{there} exists: add --force to overwrite it")
    return None


def write_files(
    directory: Path, name: str, record: dict[str, Any], cnf_text: str, proof_text: str | None
) -> Path:
    """Write ``NAME.cnf``, ``NAME.drat`` (when there is a proof) and ``NAME.cert.json``;
    without a proof, a ``NAME.drat`` an earlier certificate of that name left is removed.

    ``record`` holds every key of :data:`KEYS` except the file names and
    hashes, which are filled in here.  Returns the certificate's path.

    Raises:
        OSError: the directory cannot be created or written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.cnf").write_text(cnf_text, encoding="utf-8")
    record = {**record, "cnf": f"{name}.cnf", "cnf_sha256": sha256(cnf_text)}
    if proof_text is None:  # the proof of an earlier certificate would lie beside this one
        (directory / f"{name}.drat").unlink(missing_ok=True)
        record |= {"proof": None, "proof_format": None, "proof_sha256": None}
    else:
        (directory / f"{name}.drat").write_text(proof_text, encoding="utf-8")
        record |= {"proof": f"{name}.drat", "proof_format": "DRAT"}
        record["proof_sha256"] = sha256(proof_text)
    path = directory / f"{name}{SUFFIX}"
    kept = {key: record[key] for key in (*KEYS, *OPTIONAL_KEYS) if key in record}
    path.write_text(_dumps(kept), "utf-8")
    return path


def _dumps(record: dict[str, Any]) -> str:
    """JSON with one line per key, and one line per grid or explanation step."""

    def value(item: Any) -> str:
        if isinstance(item, list) and item and isinstance(item[0], (list, dict)):
            return "[\n" + ",\n".join(f"  {json.dumps(x)}" for x in item) + "\n ]"
        return json.dumps(item)

    body = ",\n".join(f" {json.dumps(key)}: {value(item)}" for key, item in record.items())
    return "{\n" + body + "\n}\n"


def update(path: Path, **fields: Any) -> None:
    """Rewrite some keys of the certificate at ``path`` (the checker's outcome)."""
    record = json.loads(path.read_text("utf-8"))
    record.update(fields)
    path.write_text(_dumps(record), "utf-8")


def read(path: Path) -> dict[str, Any]:
    """The certificate at ``path``, with every key of :data:`KEYS` present.

    Raises:
        PuzzleError: the file cannot be read (:func:`read_bounded`), is not
            JSON, is not an object, or lacks a key (the message names the file).
    """
    text = read_bounded(path, MAX_CERTIFICATE_BYTES)
    try:
        record = load_json(text, str(path))
    except PuzzleError as error:
        raise PuzzleError(
            f"not a JSON certificate: {error.message}",
            source=str(path),
            line=error.line,
            column=error.column,
        ) from None
    if not isinstance(record, dict):
        raise PuzzleError("not a certificate: expected a JSON object", source=str(path))
    missing = [key for key in KEYS if key not in record]
    if missing:
        raise PuzzleError(f"not a certificate: no {', '.join(missing)}", source=str(path))
    return record


def read_bounded(path: Path, limit: int) -> str:
    """The text of the regular file ``path``, UTF-8, of at most ``limit`` bytes.

    The file is opened without blocking and checked on its open descriptor, so
    a FIFO (which would block forever) or a device such as ``/dev/zero``
    (which never ends) is refused, not read.

    Raises:
        PuzzleError: it cannot be opened, is not a regular file, holds more
            than ``limit`` bytes, or is not UTF-8 (the message names the file).
    """
    source = str(path)
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise PuzzleError(f"cannot read: {reason or error}", source=source) from None
    with os.fdopen(handle, "rb") as file:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise PuzzleError("not a regular file (a FIFO, a device?): not read", source=source)
        data = file.read(limit + 1)
    if len(data) > limit:
        raise PuzzleError(f"over {limit:,} bytes: not read", source=source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PuzzleError(f"not UTF-8 text ({error.reason})", source=source) from None


def beside(certificate: Path, name: object) -> Path:
    """The file ``name`` that a certificate names: a plain file name, in its directory.

    Raises:
        PuzzleError: ``name`` is not a string, is empty, ``.`` or ``..``, holds a
            path separator or a NUL byte, or is longer than 255 characters (a
            certificate never points elsewhere, such as ``/dev/zero``).
    """
    if (
        not isinstance(name, str)
        or name in ("", ".", "..")
        or any(ch in name for ch in "/\\\0")
        or len(name) > 255
    ):
        shown = repr(name)[:80]
        raise PuzzleError(
            f"expected a file name beside the certificate, got {shown}", source=str(certificate)
        )
    return certificate.parent / name


def _in_number_order(path: Path) -> list[str | int]:
    """A sort key that compares the runs of digits in ``path`` as numbers: the text and
    the numbers alternate (``re.split`` with a group), so like meets like."""
    parts = re.split(r"(\d+)", path.as_posix())
    return [int(part) if index % 2 else part for index, part in enumerate(parts)]


def certificate_paths(paths: list[Path]) -> list[Path]:
    """Certificates named by ``paths``: files as given, directories searched for ``*.cert.json``
    (in the order of the numbers in their names: ``x-2`` before ``x-10``, as ``prove`` wrote them).

    Raises:
        PuzzleError: a path that does not exist, or a directory without certificates.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(path.rglob(f"*{SUFFIX}"), key=_in_number_order)
            if not inside:
                raise PuzzleError(f"no *{SUFFIX} file in this directory", source=str(path))
            found += inside
        elif path.exists():
            found.append(path)
        else:
            raise PuzzleError("no such file or directory", source=str(path))
    return found
