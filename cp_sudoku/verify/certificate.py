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
import re
from pathlib import Path
from typing import Any

from cp_sudoku.model import PuzzleError

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
SUFFIX = ".cert.json"


def sha256(text: str) -> str:
    """SHA-256 of ``text`` encoded as UTF-8, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def certificate_name(source: str, line: int, text: str = "") -> str:
    """``../data/top95.txt``, line 12 -> ``top95-12``; a puzzle typed on the command line
    (source ``<argument>``) is named by its text instead: ``argument-`` and the first 12
    hex digits of the SHA-256 of ``text``, so two puzzles never share a name."""
    if source == "<argument>":
        return f"argument-{sha256(text)[:12]}"
    stem = Path(source.strip("<>")).name
    for suffix in (".txt", ".csv", ".jsonl", ".json"):
        stem = stem.removesuffix(suffix)
    return f"{re.sub(r'[^A-Za-z0-9._-]+', '_', stem) or 'puzzle'}-{line}"


def write_files(
    directory: Path, name: str, record: dict[str, Any], cnf_text: str, proof_text: str | None
) -> Path:
    """Write ``NAME.cnf``, ``NAME.drat`` (when there is a proof) and ``NAME.cert.json``.

    ``record`` holds every key of :data:`KEYS` except the file names and
    hashes, which are filled in here.  Returns the certificate's path.

    Raises:
        OSError: the directory cannot be created or written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.cnf").write_text(cnf_text, encoding="utf-8")
    record = {**record, "cnf": f"{name}.cnf", "cnf_sha256": sha256(cnf_text)}
    if proof_text is None:
        record |= {"proof": None, "proof_format": None, "proof_sha256": None}
    else:
        (directory / f"{name}.drat").write_text(proof_text, encoding="utf-8")
        record |= {"proof": f"{name}.drat", "proof_format": "DRAT"}
        record["proof_sha256"] = sha256(proof_text)
    path = directory / f"{name}{SUFFIX}"
    path.write_text(_dumps({key: record[key] for key in KEYS}), "utf-8")
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
        PuzzleError: the file cannot be read, is not JSON, is not an object,
            or lacks a key (the message names the file).
    """
    try:
        record = json.loads(path.read_text("utf-8"))
    except OSError as error:
        raise PuzzleError(f"cannot read: {error.strerror or error}", source=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PuzzleError(f"not a JSON certificate: {error}", source=str(path)) from None
    if not isinstance(record, dict):
        raise PuzzleError("not a certificate: expected a JSON object", source=str(path))
    missing = [key for key in KEYS if key not in record]
    if missing:
        raise PuzzleError(f"not a certificate: no {', '.join(missing)}", source=str(path))
    return record


def certificate_paths(paths: list[Path]) -> list[Path]:
    """Certificates named by ``paths``: files as given, directories searched for ``*.cert.json``.

    Raises:
        PuzzleError: a path that does not exist, or a directory without certificates.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(path.rglob(f"*{SUFFIX}"))
            if not inside:
                raise PuzzleError(f"no *{SUFFIX} file in this directory", source=str(path))
            found += inside
        elif path.exists():
            found.append(path)
        else:
            raise PuzzleError("no such file or directory", source=str(path))
    return found
