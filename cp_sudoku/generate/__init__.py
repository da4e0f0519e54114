"""Generate puzzles: unique (proven and cross-checked), minimal, symmetric, graded, reproducible.

::

    from cp_sudoku.generate import Request, generate
    for made in generate(Request(kind="sudoku", symmetry="rot180"), count=3, seed=7):
        print(made.puzzle, made.grade)

- :mod:`.oracle`: one incremental SAT solver per puzzle made (givens as assumptions);
- :mod:`.symmetry`: symmetries, orbits, whether a shape has one;
- :mod:`.dig`: givens added until unique, then dug while unique;
- :mod:`.rules`: per kind, the rules drawn from a solution (cages, runs, signs, clues);
- :mod:`.grading`: grade targets over :mod:`cp_sudoku.deduction`;
- :mod:`.making`: one puzzle, end to end; :mod:`.stream`: many, across processes;
- :mod:`.complete`: the fewest givens for a setter's drawn rules (``generate --from``);
- :mod:`.blanked`: the older blanked-grid helpers (no uniqueness) used by benchmarks.
"""

from cp_sudoku.generate.making import (
    Generated,
    GenerationBug,
    OutOfTries,
    Request,
    TimedOut,
    make,
)
from cp_sudoku.generate.rules import KINDS
from cp_sudoku.generate.stream import generate
from cp_sudoku.generate.symmetry import SYMMETRIES

__all__ = [
    "KINDS",
    "SYMMETRIES",
    "Generated",
    "GenerationBug",
    "OutOfTries",
    "Request",
    "TimedOut",
    "generate",
    "make",
]
