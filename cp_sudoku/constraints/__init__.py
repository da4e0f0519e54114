"""The constraint types, one module each, and their registry.

:data:`REGISTRY` maps each type's ``type_name`` to its class; :func:`types`
lists them.  Importing this package imports every type module, so each
registers itself once.  See docs/constraints.md for adding a type.
"""

from cp_sudoku.constraints.base import (
    REGISTRY,
    TABLE_CAP,
    Constraint,
    Mark,
    TableTooLarge,
    register,
    types,
)
from cp_sudoku.constraints.cage import OPERATIONS, Cage
from cp_sudoku.constraints.primitives import (
    PRIMITIVES,
    AllDifferent,
    Linear,
    Pair,
    Primitive,
    Table,
)
from cp_sudoku.constraints.relation import RELATIONS, Relation
from cp_sudoku.constraints.sparse_unit import SparseUnit
from cp_sudoku.constraints.unit import Unit
from cp_sudoku.constraints.visibility import Visibility

__all__ = [
    "OPERATIONS",
    "PRIMITIVES",
    "REGISTRY",
    "RELATIONS",
    "TABLE_CAP",
    "AllDifferent",
    "Cage",
    "Constraint",
    "Linear",
    "Mark",
    "Pair",
    "Primitive",
    "Relation",
    "SparseUnit",
    "Table",
    "TableTooLarge",
    "Unit",
    "Visibility",
    "register",
    "types",
]


def _import_type_modules() -> None:
    """Import every module of this package, so that each type registers itself: adding a
    type is adding its module, nothing listed here."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


_import_type_modules()
