"""What type checkers see of the package: each public name, re-exported from its module.

At run time the package imports a name from its module on first use
(:data:`cp_sudoku.EXPORTS`, the same names: tests/test_api.py checks it).
"""

from cp_sudoku.backends import available as available
from cp_sudoku.backends import get_backend as get_backend
from cp_sudoku.backends.base import Result as Result
from cp_sudoku.backends.base import Status as Status
from cp_sudoku.crosscheck import Verdict as Verdict
from cp_sudoku.crosscheck import count as count
from cp_sudoku.crosscheck import crosscheck as crosscheck
from cp_sudoku.crosscheck import solutions as solutions
from cp_sudoku.io import parse_line as parse_line
from cp_sudoku.io import parse_text as parse_text
from cp_sudoku.io import read_file as read_file
from cp_sudoku.io import to_text as to_text
from cp_sudoku.kinds.sudoku import sudoku as sudoku
from cp_sudoku.model import Cage as Cage
from cp_sudoku.model import Cell as Cell
from cp_sudoku.model import CpSudokuError as CpSudokuError
from cp_sudoku.model import Grid as Grid
from cp_sudoku.model import Puzzle as Puzzle
from cp_sudoku.model import PuzzleError as PuzzleError
from cp_sudoku.model import Unit as Unit
from cp_sudoku.model import UsageError as UsageError
from cp_sudoku.model import is_solution as is_solution
from cp_sudoku.model import violations as violations

__version__: str
