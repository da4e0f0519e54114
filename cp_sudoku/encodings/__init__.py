"""Pure, solver-free encodings of a puzzle: what the back ends compile and exporters write.

- :mod:`~cp_sudoku.encodings.cnf`: the direct CNF encodings (Lynce-Ouaknine,
  Kwon-Jain), with DIMACS output;
- :mod:`~cp_sudoku.encodings.sums`: the digit sets of sum cages;
- :mod:`~cp_sudoku.encodings.shapes`: what a compiled model may be reused for;
- :mod:`~cp_sudoku.encodings.dispatch`: one compile step per constraint type;
- :mod:`~cp_sudoku.encodings.text`: what the MiniZinc and XCSP3 writers share;
- :mod:`~cp_sudoku.encodings.mip`: the 0-1 integer programming model, written
  by :mod:`~cp_sudoku.encodings.lp`, :mod:`~cp_sudoku.encodings.mps` and
  :mod:`~cp_sudoku.encodings.opb`;
- :mod:`~cp_sudoku.encodings.exact_cover`: the exact cover matrix (units only);
- :mod:`~cp_sudoku.encodings.minizinc`, :mod:`~cp_sudoku.encodings.xcsp3`:
  the model in the CP community's languages;
- :mod:`~cp_sudoku.encodings.exporters`: the formats of ``cp-sudoku export``.
"""
