"""Whole numbers in puzzle text, as the model has exported them (see :mod:`cp_sudoku.numbers`,
which the constraint types import without importing the model)."""

from cp_sudoku.numbers import (
    MAX_DIGITS,
    MAX_NUMBER,
    MAX_SIZE,
    MAX_TARGET_DIGITS,
    in_range,
    is_number,
    read_number,
    shown,
)

__all__ = [
    "MAX_DIGITS",
    "MAX_NUMBER",
    "MAX_SIZE",
    "MAX_TARGET_DIGITS",
    "in_range",
    "is_number",
    "read_number",
    "shown",
]
