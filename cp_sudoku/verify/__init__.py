"""Certificates anyone can check: proofs of ``unique`` and ``none``, and explanations.

- :mod:`~cp_sudoku.verify.proof`: the refuted formula and its DRAT proof;
- :mod:`~cp_sudoku.verify.certificate`: the files and the ``cert.json`` schema;
- :mod:`~cp_sudoku.verify.check`: verification from scratch;
- the deduction engine and its grading scale live in :mod:`cp_sudoku.deduction`;
- :mod:`~cp_sudoku.verify.certify`: prove, write and verify one puzzle;
- :mod:`~cp_sudoku.verify.commands`: the ``prove`` and ``verify`` commands;
- :mod:`~cp_sudoku.verify.rows`: :func:`records`, one row per puzzle for notebooks.
"""

from cp_sudoku.verify.rows import records

__all__ = ["records"]
