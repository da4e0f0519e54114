"""Pure, solver-free encodings of a puzzle: what the back ends compile and exporters write.

- :mod:`~cp_sudoku.encodings.cnf`: the direct CNF encodings (Lynce-Ouaknine,
  Kwon-Jain), with DIMACS output;
- :mod:`~cp_sudoku.encodings.sums`: the digit sets of sum cages;
- :mod:`~cp_sudoku.encodings.shapes`: what a compiled model may be reused for;
- :mod:`~cp_sudoku.encodings.dispatch`: one compile step per constraint type.
"""
