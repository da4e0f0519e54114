"""``python -m cp_sudoku.cli``: the ``cp-sudoku`` command."""

from cp_sudoku.cli.start import main

main()
