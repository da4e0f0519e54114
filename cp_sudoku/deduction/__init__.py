"""Puzzle logic: groups and peers, singles, the techniques, and the grade.

- :mod:`~cp_sudoku.deduction.groups`: the one definition of groups and peers;
- :mod:`~cp_sudoku.deduction.singles`: naked and hidden singles to a fixpoint;
- :mod:`~cp_sudoku.deduction.engine`: the step-by-step deduction engine
  (techniques in :mod:`~.basic`, :mod:`~.chains`, :mod:`~.als`, :mod:`~.nets`);
- :mod:`~cp_sudoku.deduction.grade`: the grade (rating, band, technique mix).
"""

from cp_sudoku.deduction.engine import LEVEL, TECHNIQUE_NAMES, TECHNIQUES, Explanation, explain
from cp_sudoku.deduction.grade import BANDS, UNSOLVED, Grade, band_of, band_range, grade
from cp_sudoku.deduction.groups import Group, Structure, group_peers, structure
from cp_sudoku.deduction.state import Step

__all__ = [
    "BANDS",
    "LEVEL",
    "TECHNIQUES",
    "TECHNIQUE_NAMES",
    "UNSOLVED",
    "Explanation",
    "Grade",
    "Group",
    "Step",
    "Structure",
    "band_of",
    "band_range",
    "explain",
    "grade",
    "group_peers",
    "structure",
]
