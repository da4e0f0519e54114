"""The puzzle kinds: one module each, listed here once.

A kind module (:mod:`cp_sudoku.kinds.futoshiki` is the worked example in
``docs/kinds.md``) holds its builder, its keys in the variant text format
and how it is drawn, in one :class:`~cp_sudoku.kinds.base.Kind`.  Adding a
kind is one module plus its line in :data:`KINDS`, data and tests.

Extras (:mod:`cp_sudoku.kinds.extras`) compose with sudoku, jigsaw and
killer.  The old kinds ``x-sudoku`` and ``windoku`` are read as sudoku with
extras (:data:`ALIASES`).
"""

from __future__ import annotations

from cp_sudoku.kinds import futoshiki, jigsaw, kakuro, kenken, killer, skyscrapers, sudoku
from cp_sudoku.kinds.base import Kind
from cp_sudoku.model import PuzzleError

#: Every kind, by name.
KINDS: dict[str, Kind] = {
    module.KIND.name: module.KIND
    for module in (sudoku, killer, kenken, kakuro, jigsaw, futoshiki, skyscrapers)
}

#: Old kind names: name -> (kind, extras).
ALIASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "x-sudoku": ("sudoku", ("diagonals",)),
    "windoku": ("sudoku", ("windows",)),
}


def kind_of(name: str) -> Kind:
    """The kind called ``name`` (an alias gives its kind).

    Raises:
        PuzzleError: no such kind, naming the known ones.
    """
    name = ALIASES.get(name, (name, ()))[0]
    if name not in KINDS:
        known = ", ".join([*KINDS, *ALIASES])
        raise PuzzleError(f"unknown kind {name!r}: expected one of {known}")
    return KINDS[name]


__all__ = ["ALIASES", "KINDS", "Kind", "kind_of"]
