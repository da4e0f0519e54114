"""Check a generated puzzle after the fact, with nothing of the generator but its output.

:func:`audit` re-proves what :mod:`cp_sudoku.generate` claims, by the
default cross-check (the default back ends must agree):

- *unique*: the puzzle is ``unique`` and its grid is the stated solution;
- *minimal*: removing each given in turn (each orbit of givens under the
  puzzle's symmetry) gives ``multiple``;
- *symmetric*: the given cells are a union of orbits;
- *graded*: grading again gives the same rating and band;
- *written*: its variant text reads back as the same puzzle.
"""

from __future__ import annotations

from dataclasses import replace

from cp_sudoku.crosscheck import crosscheck
from cp_sudoku.generate.making import Generated
from cp_sudoku.generate.symmetry import cell_map, is_symmetric, orbits
from cp_sudoku.io import parse_text, to_text


def audit(
    made: Generated, symmetry: str = "none", minimal: bool = True, seconds: float = 10.0
) -> list[str]:
    """What fails among the claims above (empty: every claim holds); each back end
    gets ``seconds`` per question (one that runs out proves nothing)."""
    puzzle = made.puzzle
    problems = []
    verdict = crosscheck(puzzle, time_limit=seconds)
    if verdict.status != "unique" or verdict.solution != made.solution:
        problems.append(f"cross-checks as {verdict.status}, not unique with the stated solution")
    mapping = cell_map(symmetry, puzzle.rows, puzzle.cols)
    givens = set(puzzle.givens)
    if not is_symmetric(givens, mapping):
        problems.append(f"the givens are not symmetric under {symmetry}")
    if minimal:
        for orbit in orbits(tuple(sorted(givens)), mapping):
            fewer = {c: v for c, v in puzzle.givens.items() if c not in orbit}
            status = crosscheck(replace(puzzle, givens=fewer), time_limit=seconds).status
            if status != "multiple":
                cells = " ".join(f"r{r + 1}c{c + 1}" for r, c in orbit)
                problems.append(f"without the given(s) {cells} it is {status}, not multiple")
    if parse_text(to_text(puzzle)) != puzzle:
        problems.append("its variant text reads back as another puzzle")
    if made.grade is not None:
        from cp_sudoku.deduction import grade

        again = grade(puzzle)
        if (again.rating, again.band) != (made.grade.rating, made.grade.band):
            problems.append(f"grades {again} now, {made.grade} when made")
    return problems
