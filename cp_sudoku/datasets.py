"""Where the shared puzzle collections live, and their names.

The collections are not part of the package: they are read from a data
folder, found in this order:

1. the ``CP_SUDOKU_DATA`` environment variable (when set, only there);
2. ``../shared/data`` beside the current directory or beside the project.

Names are file stems: ``royle-17clue`` is ``sudoku/royle-17clue.txt``,
``sudoku16x16_hard`` is ``sudoku-large/sudoku16x16_hard.txt``.
"""

from __future__ import annotations

import os
from pathlib import Path

from cp_sudoku.model import UsageError

_PROJECT = Path(__file__).resolve().parents[1]

#: Symbols of the shared large grids, as the data README states them: the
#: 16x16 files use ``0-9A-F`` (``0`` is a value), the 25x25 file ``1-9A-P``.
#: Without this, the 16x16 files are ambiguous and the reader refuses them.
ALPHABETS = {
    "sudoku16x16_easy": "0-9A-F",
    "sudoku16x16_medium": "0-9A-F",
    "sudoku16x16_hard": "0-9A-F",
    "sudoku25x25_easy": "1-9A-P",
}

#: Stems of the files that hold the stated solutions of a collection, not puzzles.
SOLUTION_STEMS = (".solution", ".solutions")


def data_dir() -> Path:
    """The shared data folder.

    Raises:
        UsageError: ``CP_SUDOKU_DATA`` is set and holds no ``sudoku/`` folder (a
            mistyped path is not passed over for another folder), or none of the
            places above holds it.
    """
    named = os.environ.get("CP_SUDOKU_DATA")
    if named:
        if not (Path(named) / "sudoku").is_dir():
            raise UsageError(
                f"CP_SUDOKU_DATA={named} holds no sudoku/ folder: set it to the shared data "
                "folder (the one holding sudoku/), or unset it to use ../shared/data"
            )
        return Path(named).resolve()
    candidates = [
        Path.cwd() / ".." / "shared" / "data",
        _PROJECT / ".." / "shared" / "data",
    ]
    for folder in candidates:
        if (folder / "sudoku").is_dir():
            return folder.resolve()
    raise UsageError(
        "shared data folder not found; set CP_SUDOKU_DATA to the folder holding sudoku/"
    )


def dataset_path(name: str) -> Path:
    """The file of a shared collection, by name (file stem) or as a path.

    Raises:
        UsageError: no such file or collection, or no data folder.
    """
    path = Path(name)
    if path.is_file():
        return path
    root = data_dir()
    for found in sorted(root.glob("*/*")):
        if found.stem == name or found.name == name:
            return found
    known = ", ".join(
        sorted(
            p.stem
            for p in root.glob("*/*")
            if p.suffix in (".txt", ".jsonl", ".csv") and not p.stem.endswith(SOLUTION_STEMS)
        )
    )
    raise UsageError(f"no data set or file named {name!r}; known sets: {known}")


def dataset_alphabet(path: str | Path) -> str | None:
    """The ``--alphabet`` a shared collection is written in (None: inferred)."""
    return ALPHABETS.get(Path(path).stem)
