"""What every reader is told: the box shape and the alphabet."""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.io.alphabet import Alphabet


@dataclass(frozen=True)
class ReadOptions:
    """Box shape (rows, columns) and alphabet; None means the squarest box, an inferred alphabet.

    ``size``: the n of every puzzle of the source (one file holds one size) when an earlier
    part of it told, for a slice read alone (:mod:`cp_sudoku.run.slices`); None: the
    ``line`` and ``csv`` readers take it from the first puzzle they read.
    """

    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
    size: int | None = None
