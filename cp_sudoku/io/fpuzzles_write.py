"""Write a puzzle as f-puzzles JSON and link (``cp-sudoku export --to fpuzzles``).

Each constraint type the f-puzzles reader produces is written back under its
key; the written JSON is then read again (:func:`cp_sudoku.io.fpuzzles.from_data`)
and must give the same rules, so nothing f-puzzles cannot say is dropped:
a rule it has no key for, or one whose f-puzzles key means something else
(a nonconsecutive rule that spares pairs without a dot, a minimum cell
compared with other neighbours) is refused with a message naming it.
"""

from __future__ import annotations

import json
from typing import Any

from cp_sudoku.constraints import AllDifferent, Cage, Constraint, Unit, Visibility
from cp_sudoku.constraints.cellrules import Candidates, CellValues, Clone, Extremum, Quadruple
from cp_sudoku.constraints.globalpairs import ChessRule, NegativeRatio, NegativeXV, Nonconsecutive
from cp_sudoku.constraints.indexer import Indexer
from cp_sudoku.constraints.kropki import XV, EdgeMark
from cp_sudoku.constraints.linebase import Line
from cp_sudoku.constraints.outside import LittleKiller, OutsideClue, step_of
from cp_sudoku.constraints.sumlines import Arrow, RegionSumLine
from cp_sudoku.constraints.whispers import Whispers
from cp_sudoku.io.fpuzzles import MAX_SIZE, default_box, from_data
from cp_sudoku.io.fpuzzles_link import link
from cp_sudoku.model import Cell, Puzzle, PuzzleError

Data = dict[str, Any]


def name(cell: Cell) -> str:
    """``(0, 3)`` -> ``"R1C4"`` (rows and columns may be 0 or n+1 for outside clues)."""
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _add(data: Data, key: str, item: Any) -> None:
    data.setdefault(key, []).append(item)


def _unit(data: Data, unit: Unit, regions: list[Unit], n: int) -> None:
    cells = list(unit.cells)
    if unit.role in ("row", "column"):
        return
    if unit.role in ("box", "region"):
        regions.append(unit)
    elif sorted(cells) == [(i, i) for i in range(n)]:
        data["diagonal-"] = True
    elif sorted(cells) == sorted((n - 1 - i, i) for i in range(n)):
        data["diagonal+"] = True
    elif unit.role == "disjoint":
        data["disjointgroups"] = True
    elif unit.role == "cage":
        _add(data, "killercage", {"cells": [name(c) for c in cells]})
    else:
        _add(data, "extraregion", {"cells": [name(c) for c in cells]})


def _cage(data: Data, cage: Cage) -> None:
    if not cage.distinct or cage.op not in ("+", "="):
        raise PuzzleError(f"f-puzzles has no rule for {cage.describe()} (only killer sums)")
    _add(data, "killercage", {"cells": [name(c) for c in cage.cells], "value": str(cage.target)})


def _outside_cell(rule: OutsideClue | Visibility) -> Cell:
    step = rule.inward if isinstance(rule, OutsideClue) else step_of(rule.cells)
    return (rule.cells[0][0] - step[0], rule.cells[0][1] - step[1])


def _write(data: Data, rule: Constraint) -> None:
    key = rule.fpuzzles_key
    cells = [name(c) for c in rule.cells]
    if isinstance(rule, Cage):
        _cage(data, rule)
    elif isinstance(rule, Visibility):
        clue = name(_outside_cell(rule))
        _add(data, "skyscraper", {"cell": clue, "value": str(rule.count)})
    elif isinstance(rule, ChessRule | Nonconsecutive):
        data[str(key)] = True
    elif isinstance(rule, NegativeRatio | NegativeXV):
        data.setdefault("negative", []).append("ratio" if isinstance(rule, NegativeRatio) else "xv")
    elif isinstance(rule, XV):
        _add(data, "xv", {"cells": cells, "value": rule.label()})
    elif isinstance(rule, EdgeMark):
        _add(data, str(key), {"cells": cells, "value": str(rule.value)})
    elif isinstance(rule, Candidates):
        (r, c) = rule.cells[0]
        data["grid"][r][c]["givenPencilMarks"] = sorted(rule.values)
    elif isinstance(rule, CellValues | Extremum):
        _add(data, str(key), {"cell": cells[0]})
    elif isinstance(rule, Quadruple):
        _add(data, "quadruple", {"cells": cells, "values": list(rule.values)})
    elif isinstance(rule, Clone):
        size = rule.size
        _add(data, "clone", {"cells": cells[:size], "cloneCells": cells[size:]})
    elif isinstance(rule, Indexer):
        _add(data, str(key), {"cells": [name(rule.cell)]})
    elif isinstance(rule, LittleKiller):
        item = {"cell": name(_outside_cell(rule)), "cells": cells, "value": str(rule.total)}
        _add(data, "littlekillersum", {**item, "direction": rule.side})
    elif isinstance(rule, OutsideClue):
        _add(data, str(key), {"cell": name(_outside_cell(rule)), "value": str(rule.total)})
    elif isinstance(rule, Arrow):
        line = [name(rule.start()), *(name(c) for c in rule.line)]
        _add(data, "arrow", {"cells": [name(c) for c in rule.pill], "lines": [line]})
    elif isinstance(rule, Whispers):
        _add(data, "whispers", {"lines": [cells], "value": str(rule.gap)})
    elif isinstance(rule, Line | RegionSumLine):
        _add(data, str(key), {"lines": [cells]})
    else:
        raise PuzzleError(f"f-puzzles has no rule for {rule.describe()}")


def _regions(data: Data, regions: list[Unit], n: int) -> None:
    """Region numbers on the cells, unless the regions are f-puzzles' default boxes."""
    h, w = default_box(n)
    default = {frozenset((r, c) for r in range(n) for c in range(n) if (r // h) * h + c // w == k)
               for k in range(n)}  # fmt: skip
    if {frozenset(u.cells) for u in regions} == default and (h > 1 or not regions):
        return
    for r in range(n):
        for c in range(n):
            data["grid"][r][c]["region"] = None
    for number, unit in enumerate(regions):
        for r, c in unit.cells:
            data["grid"][r][c]["region"] = number


def to_fpuzzles(puzzle: Puzzle) -> Data:
    """The f-puzzles JSON object of ``puzzle``.

    Raises:
        PuzzleError: the grid is not n x n with digits 1..n (n <= 16) and every
            row and column a unit, or a rule f-puzzles cannot express (named).
    """
    n = puzzle.max_value
    cells = {(r, c) for r in range(n) for c in range(n)}
    if (
        puzzle.rows != n or puzzle.cols != n or puzzle.min_value != 1 or n > MAX_SIZE
        or set(puzzle.cells) != cells
    ):  # fmt: skip
        raise PuzzleError(
            f"f-puzzles draws n x n grids with digits 1..n (n <= {MAX_SIZE}); this puzzle is "
            f"{puzzle.rows}x{puzzle.cols} with values {puzzle.min_value}..{puzzle.max_value}"
        )
    lines = {frozenset(u.cells) for u in puzzle.units if u.role in ("row", "column")}
    if len(lines) != 2 * n:
        raise PuzzleError("f-puzzles needs every row and column to hold distinct digits")
    data: Data = {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}
    if puzzle.name:
        data["title"] = puzzle.name
    for (r, c), value in puzzle.givens.items():
        data["grid"][r][c].update(value=value, given=True)
    regions: list[Unit] = []
    for rule in puzzle.constraints:
        if isinstance(rule, Unit):
            _unit(data, rule, regions, n)
        elif isinstance(rule, AllDifferent):
            _add(data, "extraregion", {"cells": [name(c) for c in rule.cells]})
        else:
            _write(data, rule)
    _regions(data, regions, n)
    _same_rules(puzzle, data)
    return data


def rule_key(rule: Constraint) -> object:
    """What must match after a round trip: a unit (or all-different) by its cells, any
    other rule by value."""
    return ("unit", frozenset(rule.cells)) if isinstance(rule, Unit | AllDifferent) else rule


def _same_rules(puzzle: Puzzle, data: Data) -> None:
    """Raise naming the first rule the written JSON does not give back."""
    try:
        back, _ = from_data(json.loads(json.dumps(data)))
    except PuzzleError as error:
        raise PuzzleError(f"f-puzzles cannot express this puzzle: {error.message}") from None
    kept = {rule_key(rule) for rule in back.constraints}
    for rule in puzzle.constraints:
        if rule_key(rule) not in kept:
            raise PuzzleError(f"f-puzzles cannot express {rule.describe()}")
    ours = {rule_key(rule) for rule in puzzle.constraints}
    extra = next((rule for rule in back.constraints if rule_key(rule) not in ours), None)
    if extra is not None or dict(back.givens) != dict(puzzle.givens):
        shown = extra.describe() if extra is not None else "the givens"
        raise PuzzleError(f"f-puzzles would read {shown} differently from this puzzle")


def fpuzzles(puzzle: Puzzle) -> str:
    """The exporter: the link as a ``#`` comment line, then the JSON on one line."""
    data = to_fpuzzles(puzzle)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"# {link(data)}\n{text}\n"
