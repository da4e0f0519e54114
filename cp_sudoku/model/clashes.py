"""Candidates left by the givens, and clues that contradict each other (clashes).

A clash is a proof of ``none`` that needs no solver: two givens equal in one
unit, a cell left with no candidate, a cage or clue no candidates can meet.
Each is confirmed by the rules alone, so it serves as a certificate.
"""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.constraints import Cage, TableTooLarge, Unit
from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.errors import Cell, cell_name
from cp_sudoku.model.puzzle import Puzzle

#: Clashes named at most, per puzzle.
MAX_CLASHES = 10
#: Cages and relations whose allowed tuples are enumerated to find a clash
#: have at most this many cells (larger ones are left to the back ends).
_ENUMERATED_CELLS = 6


@dataclass(frozen=True)
class Clash:
    """Clues that contradict each other: the rule broken, the cells, and in words."""

    rule: str
    cells: tuple[Cell, ...]
    message: str


def candidates(puzzle: Puzzle) -> list[list[int]]:
    """Per cell (``puzzle.cells`` order): the values no given peer has taken.

    A given cell's candidates are its value alone.  A list may be empty: the
    puzzle then has no solution.
    """
    values, index, peers = puzzle.values, puzzle.index, puzzle.peers
    allowed = [set(values) for _ in puzzle.cells]
    for cell, value in puzzle.givens.items():
        allowed[index[cell]] = {value}
    for cell, value in puzzle.givens.items():
        check_deadline()  # 3,500 givens of a 100 x 100 jigsaw, 300 peers each
        for peer in peers[cell]:
            allowed[index[peer]].discard(value)
    return [sorted(values) for values in allowed]


def _reach(cage: Cage, low: int, high: int) -> tuple[int, int]:
    """The least and greatest targets ``cage`` could have with values ``low..high``,
    ignoring every other rule (a ``?`` cage: the widest of its operations)."""
    size = len(cage.cells)
    ranges = {
        "+": (size * low, size * high),
        "*": (low**size, high**size),
        "-": (0, high - low),
        "/": (1, high // max(low, 1)),
        "=": (low, high),
    }
    if cage.op == "?":
        options = [ranges[op] for op in ("+", "*", "-", "/") if size == 2 or op in "+*"]
        if size == 1:
            options = [ranges["="]]
        return min(a for a, _ in options), max(b for _, b in options)
    return ranges[cage.op]


def out_of_reach(puzzle: Puzzle) -> list[Clash]:
    """The cages whose target no values of the puzzle's range can give, whatever else
    holds (a sum above n times the largest value, say): cheap, and found before any
    back end sees a number too large for its solver."""
    found = []
    for cage in puzzle.cages:
        least, greatest = _reach(cage, puzzle.min_value, puzzle.max_value)
        if not least <= cage.target <= greatest:
            found.append(
                Clash(
                    "cage",
                    cage.cells,
                    f"{cage.describe()}: no values {puzzle.min_value}..{puzzle.max_value} "
                    f"give {cage.target}",
                )
            )
    return found[:MAX_CLASHES]


def repeated_givens(puzzle: Puzzle) -> list[Clash]:
    """Up to :data:`MAX_CLASHES` units that hold one given value twice (cheap: one pass)."""
    if not _some_given_repeats(puzzle):
        return []  # the usual case, decided from the peers of the givens sharing a value
    found: list[Clash] = []
    givens = puzzle.givens
    for unit in puzzle.units:
        values = [givens[cell] for cell in unit.cells if cell in givens]
        if len(values) == len(set(values)):
            continue
        seen: dict[int, Cell] = {}
        for cell in unit.cells:
            value = givens.get(cell)
            if value is None:
                continue
            if value in seen:
                found.append(
                    Clash(
                        unit.role or "unit",
                        (seen[value], cell),
                        f"{value} repeats at {cell_name(seen[value])} and {cell_name(cell)} "
                        f"in {unit.name}",
                    )
                )
            else:
                seen[value] = cell
    return found[:MAX_CLASHES]


def clashes(puzzle: Puzzle) -> list[Clash]:
    """Up to :data:`MAX_CLASHES` contradictions among the clues, found without search.

    Empty when none is found (the puzzle may still have no solution).
    """
    found = repeated_givens(puzzle)
    if found:
        return found
    found = out_of_reach(puzzle)
    far = {clash.cells for clash in found}
    domains = candidates(puzzle)
    index = puzzle.index
    for cell, values in zip(puzzle.cells, domains, strict=True):
        if not values:
            found.append(Clash("candidates", (cell,), f"{cell_name(cell)} has no candidate left"))
    for constraint in puzzle.constraints:
        if isinstance(constraint, Unit) or len(constraint.cells) > _ENUMERATED_CELLS:
            continue
        if constraint.cells in far:
            continue
        cells = constraint.cells
        try:
            tuples = constraint.allowed(
                [domains[index[c]] for c in cells], puzzle.differ_pairs(cells)
            )
        except TableTooLarge:
            continue  # left to the back ends
        if not tuples:
            found.append(
                Clash(
                    constraint.type_name,
                    cells,
                    f"{constraint.describe()} cannot be met by the candidates left",
                )
            )
    return found[:MAX_CLASHES]


#: Grids of at most this many cells find repeated givens through the peers (computed once
#: per structure and shared); larger ones scan their units, whose cells are far fewer than
#: the peer pairs (30,000 against 3 million in a 100 x 100 Sudoku).
_PEERS_UP_TO = 36 * 36


def _some_given_repeats(puzzle: Puzzle) -> bool:
    """Whether two givens of one value are peers (share a unit): a few set lookups for a
    17-clue puzzle, where scanning every unit took about 60 microseconds."""
    if len(puzzle.givens) < 2:
        return False
    if len(puzzle.cells) > _PEERS_UP_TO:
        given = puzzle.givens.get
        for unit in puzzle.units:
            values = [value for value in map(given, unit.cells) if value is not None]
            if len(values) != len(set(values)):
                return True
        return False
    peers = puzzle.peers
    by_value: dict[int, list[Cell]] = {}
    for cell, value in puzzle.givens.items():
        earlier = by_value.get(value)
        if earlier is None:
            by_value[value] = [cell]
            continue
        near = peers[cell]
        for other in earlier:
            if other in near:
                return True
        earlier.append(cell)
    return False
