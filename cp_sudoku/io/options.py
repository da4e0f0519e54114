"""What every reader is told: the box shape and the alphabet."""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.io.alphabet import Alphabet


@dataclass(frozen=True)
class ReadOptions:
    """Box shape (rows, columns) and alphabet; None means the squarest box, an inferred alphabet."""

    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
