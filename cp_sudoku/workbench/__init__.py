"""The setter's workbench: the questions asked after "is it unique?".

One module per question, each answering from the shell, Python and HTTP:

- :mod:`.differ`: where two solutions differ, and what the count is known to be;
- :mod:`.candidates`: the *true candidates* of every cell (the values of at
  least one solution), each kept one with a checked solution using it, each
  removed one refuted by a SAT call under an assumption;
- :mod:`.core`: why there is no solution (a minimal unsatisfiable set of
  givens and constraints, and the deduction steps to a contradiction);
- :mod:`.suggest`: which givens to add to make a multiple puzzle unique.

:mod:`.members` writes the CNF with one selector literal per given and per
constraint that :mod:`.core` needs.
"""

from cp_sudoku.workbench.candidates import TrueCandidates, true_candidates
from cp_sudoku.workbench.core import Core, why_none
from cp_sudoku.workbench.differ import Difference, count_words, differences
from cp_sudoku.workbench.suggest import Suggestion, suggest

__all__ = [
    "Core",
    "Difference",
    "Suggestion",
    "TrueCandidates",
    "count_words",
    "differences",
    "suggest",
    "true_candidates",
    "why_none",
]
