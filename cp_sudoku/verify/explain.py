"""A deduction engine: solve a puzzle by logic alone, one named, checkable step at a time.

The state is the candidate grid: per cell, the values it may still take.  It
starts from the givens (a given's value is removed from its peers).  Each
step is the first one found by the easiest technique that applies (the
order of :data:`TECHNIQUES`), then the search starts again from the easiest:

======================  =======================================================
technique               what it does (unit: any all-different group; a *full*
                        unit holds every value: rows, columns, boxes, regions)
======================  =======================================================
naked single            a cell with one candidate takes it
hidden single           a value with one place in a full unit goes there
cage combinations       values no combination of a cage allows are removed
                        (the digit sets of a sum, as Killer and Kakuro solvers
                        use them; the allowed tuples of any other cage)
relation and clue       the same for relations (Futoshiki, Kropki...) and
tuples                  Skyscraper clues of up to six cells
locked candidates       a value confined, in a full unit, to its overlap with
                        another unit is removed from the rest of that unit
                        (*pointing* from a box, *claiming* from a row/column)
naked pair/triple/quad  k cells of a unit (or a cage whose values differ)
                        holding only k values between them: those values leave
                        the group's other cells
hidden pair/triple/quad k values of a full unit with only k places: those cells
                        lose their other candidates
X-Wing, Swordfish       a value confined in k rows to k columns leaves those
                        columns' other cells (and rows with columns swapped)
XY-Wing                 a pivot {x,y} seeing pincers {x,z} and {y,z}: z leaves
                        every cell seeing both pincers
simple colouring        the chains of conjugate pairs of one value, coloured
                        alternately: a colour twice in one unit is false (all its
                        cells lose the value); a cell seeing both colours loses it
======================  =======================================================

Placing a value removes it from the cell's peers.  Every step is forced, so
when the steps complete the grid they are a proof that the solution is the
only one; when they stall, the candidates left say where.  Sources: the
technique names and definitions of Sudopedia and Hodoku's solving guide; the
ratings are Sudoku Explainer's (Juillerat), as tabulated by Pelánek,
"Difficulty Rating of Sudoku Puzzles: An Overview and Evaluation" (2014).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from cp_sudoku.constraints import TableTooLarge
from cp_sudoku.encodings.sums import digit_sets, is_distinct_sum
from cp_sudoku.model import Cage, Cell, Constraint, Puzzle, Unit, cell_name

#: The techniques in order of difficulty (the grading scale), each with its
#: Sudoku Explainer rating where SE has the technique (None: SE has no such
#: step; simple colouring is a single-value chain, which SE rates 6.5 or more).
TECHNIQUES: tuple[tuple[str, float | None], ...] = (
    ("naked single", 2.3),
    ("hidden single", 1.5),
    ("cage combinations", None),
    ("relation and clue tuples", None),
    ("locked candidates (pointing)", 2.6),
    ("locked candidates (claiming)", 2.8),
    ("naked pair", 3.0),
    ("hidden pair", 3.4),
    ("naked triple", 3.6),
    ("hidden triple", 4.0),
    ("naked quad", 5.0),
    ("hidden quad", 5.4),
    ("X-Wing", 3.2),
    ("Swordfish", 3.8),
    ("XY-Wing", 4.2),
    ("simple colouring", None),
)
LEVEL = {name: level for level, (name, _) in enumerate(TECHNIQUES, start=1)}
SE_RATING = dict(TECHNIQUES)
_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
#: Constraints other than distinct sums are enumerated only up to this many cells.
_ENUMERATED_CELLS = 6


@dataclass(frozen=True)
class Step:
    """One deduction: its technique, the cells and values it uses, what it places and removes.

    ``places`` and ``removes`` hold ``(cell, value)`` pairs; placing a value
    also removes it from the cell's peers (not listed).  ``text`` says it in
    words, cells as rXcY.
    """

    technique: str
    cells: tuple[Cell, ...]
    values: tuple[int, ...]
    places: tuple[tuple[Cell, int], ...]
    removes: tuple[tuple[Cell, int], ...]
    text: str

    def record(self) -> dict[str, Any]:
        """The step as JSON-ready values (cells as rXcY)."""
        return {
            "technique": self.technique,
            "cells": [cell_name(c) for c in self.cells],
            "values": list(self.values),
            "places": [[cell_name(c), v] for c, v in self.places],
            "removes": [[cell_name(c), v] for c, v in self.removes],
            "text": self.text,
        }


@dataclass(frozen=True)
class Explanation:
    """The steps found, whether they solved the grid, and the candidates left if not.

    ``outcome`` is ``solved`` (the steps are a proof of uniqueness),
    ``stalled`` (no technique applies; ``left`` holds each open cell's
    candidates) or ``contradiction`` (a cell or a unit has no candidate left:
    the puzzle has no solution; ``left`` says where).
    """

    steps: tuple[Step, ...]
    outcome: str
    left: dict[Cell, tuple[int, ...]] = field(default_factory=dict)
    where: str = ""

    @property
    def techniques(self) -> dict[str, int]:
        """How many steps each technique took, in order of difficulty."""
        counts = {name: 0 for name, _ in TECHNIQUES}
        for step in self.steps:
            counts[step.technique] += 1
        return {name: n for name, n in counts.items() if n}

    @property
    def hardest(self) -> str | None:
        """The hardest technique used (the grade), None when no step was needed."""
        return max(self.techniques, key=LEVEL.__getitem__, default=None)

    @property
    def grade(self) -> str:
        """``XY-Wing (level 14, SE 4.2)``; ``beyond simple colouring`` when it stalls."""
        if self.outcome != "solved":
            return f"beyond {TECHNIQUES[-1][0]} ({self.outcome})"
        hardest = self.hardest
        if hardest is None:
            return "no step needed"
        rating = SE_RATING[hardest]
        return f"{hardest} (level {LEVEL[hardest]}" + (f", SE {rating})" if rating else ")")

    def summary(self) -> str:
        """One sentence: what the steps prove, or where they stall."""
        if self.outcome == "solved":
            return (
                f"solved by logic in {len(self.steps)} steps, every one forced: "
                f"a proof that the solution is unique; grade {self.grade}"
            )
        if self.outcome == "contradiction":
            return f"{len(self.steps)} steps lead to a contradiction: {self.where}"
        return (
            f"stalled after {len(self.steps)} steps with {len(self.left)} cells open "
            f"(first {self.where})"
        )

    def candidates_text(self) -> str:
        """The candidates left, ``r1c2=478 r1c3=3457...`` (values over 9 comma-separated)."""
        join = "," if any(v > 9 for values in self.left.values() for v in values) else ""
        return " ".join(
            f"{cell_name(c)}={join.join(map(str, values))}"
            for c, values in sorted(self.left.items())
        )

    def record(self) -> list[dict[str, Any]]:
        """The steps, then one closing entry (outcome, grade, candidates left), JSON-ready."""
        closing: dict[str, Any] = {"outcome": self.outcome, "grade": self.grade}
        closing["text"] = self.summary()
        if self.left:
            closing["candidates"] = {
                cell_name(c): list(values) for c, values in sorted(self.left.items())
            }
        return [*(step.record() for step in self.steps), closing]


class _Grid:
    """The candidate grid and the puzzle's structure the techniques read."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.values = tuple(puzzle.values)
        self.units = puzzle.units
        self.full = tuple(u for u in puzzle.units if len(u.cells) == len(self.values))
        self.unit_sets = {u.name: frozenset(u.cells) for u in puzzle.units}
        #: every group of cells whose values differ: units, and cages with distinct values
        self.groups = [(u.name, u.cells) for u in puzzle.units] + [
            (cage.describe(), cage.cells) for cage in puzzle.cages if cage.distinct
        ]
        self.peers = puzzle.peers
        self.rules = [
            c
            for c in puzzle.constraints
            if not isinstance(c, Unit)
            if len(c.cells) <= _ENUMERATED_CELLS or (isinstance(c, Cage) and is_distinct_sum(c))
        ]
        self.cands: dict[Cell, set[int]] = {c: set(self.values) for c in puzzle.cells}
        self.placed: dict[Cell, int] = {}
        for cell, value in puzzle.givens.items():
            self.place(cell, value)

    def place(self, cell: Cell, value: int) -> None:
        self.placed[cell] = value
        self.cands[cell] = {value}
        for peer in self.peers[cell]:
            self.cands[peer].discard(value)

    def apply(self, step: Step) -> None:
        for cell, value in step.removes:
            self.cands[cell].discard(value)
        for cell, value in step.places:
            self.place(cell, value)

    def open(self) -> list[Cell]:
        return [c for c in self.puzzle.cells if c not in self.placed]

    def where(self, unit: Unit, value: int) -> list[Cell]:
        return [c for c in unit.cells if c not in self.placed and value in self.cands[c]]

    def unit_values(self, unit: Unit) -> set[int]:
        return {self.placed[c] for c in unit.cells if c in self.placed}

    def unplaced(self, unit: Unit) -> dict[int, list[Cell]]:
        """Each value not yet placed in ``unit`` (in value order): the open cells it may take."""
        taken = self.unit_values(unit)
        return {v: self.where(unit, v) for v in self.values if v not in taken}

    def removals(
        self, cells: Sequence[Cell], values: Iterable[int]
    ) -> tuple[tuple[Cell, int], ...]:
        return tuple(
            (c, v)
            for c in cells
            if c not in self.placed
            for v in sorted(values)
            if v in self.cands[c]
        )


def _names(cells: Sequence[Cell]) -> str:
    return ",".join(cell_name(c) for c in cells)


def _removing(removes: Sequence[tuple[Cell, int]]) -> str:
    return "removes " + ", ".join(f"{v} from {cell_name(c)}" for c, v in removes)


# ------------------------------------------------------------------------- techniques


def _naked_single(g: _Grid) -> Step | None:
    for cell in g.open():
        if len(g.cands[cell]) == 1:
            (value,) = g.cands[cell]
            text = f"{cell_name(cell)} can only be {value}"
            return Step("naked single", (cell,), (value,), ((cell, value),), (), text)
    return None


def _hidden_single(g: _Grid) -> Step | None:
    for unit in g.full:
        for value, places in g.unplaced(unit).items():
            if len(places) == 1:
                cell = places[0]
                text = f"in {unit.name}, {value} fits only at {cell_name(cell)}"
                return Step("hidden single", (cell,), (value,), ((cell, value),), (), text)
    return None


def _combinations(g: _Grid) -> Step | None:
    for rule in g.rules:
        cells = rule.cells
        if all(c in g.placed for c in cells):
            continue
        domains = [sorted(g.cands[c]) for c in cells]
        allowed = _allowed(g, rule, domains)
        removes = tuple(
            (c, v)
            for c, domain, ok in zip(cells, domains, allowed, strict=True)
            if c not in g.placed
            for v in domain
            if v not in ok
        )
        if removes:
            text = f"{rule.describe()}: no combination allows them; {_removing(removes)}"
            if isinstance(rule, Cage):
                return Step("cage combinations", cells, (rule.target,), (), removes, text)
            return Step("relation and clue tuples", cells, (), (), removes, text)
    return None


def _allowed(g: _Grid, rule: Constraint, domains: list[list[int]]) -> list[set[int]]:
    """Per cell of ``rule``: the values some combination it allows takes, given the candidates."""
    allowed: list[set[int]] = [set() for _ in rule.cells]
    if isinstance(rule, Cage) and is_distinct_sum(rule):
        for digits in digit_sets(len(rule.cells), rule.target, g.puzzle.max_value):
            for i, domain in enumerate(domains):
                for value in digits.intersection(domain):
                    rest = [d for j, d in enumerate(domains) if j != i]
                    if _matches(rest, sorted(digits - {value})):
                        allowed[i].add(value)
        return allowed
    try:
        tuples = rule.allowed(domains, g.puzzle.differ_pairs(rule.cells))
    except TableTooLarge:  # too many to list: the rule removes nothing here
        return [set(domain) for domain in domains]
    for values in tuples:
        for i, value in enumerate(values):
            allowed[i].add(value)
    return allowed


def _matches(domains: list[list[int]], digits: list[int]) -> bool:
    """Whether each domain can take a different one of ``digits`` (a perfect matching)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for d in domains[i]:
            if d in digits and d not in seen:
                seen.add(d)
                if d not in owner or augment(owner[d], seen):
                    owner[d] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(domains)))


def _locked_candidates(g: _Grid) -> Step | None:
    for base in g.full:
        for value, places in g.unplaced(base).items():
            if len(places) < 2:
                continue
            for other in g.units:
                if other is base or not g.unit_sets[other.name].issuperset(places):
                    continue
                rest = [c for c in other.cells if c not in g.unit_sets[base.name]]
                removes = g.removals(rest, [value])
                if removes:
                    kind = "pointing" if base.role in ("box", "region") else "claiming"
                    text = (
                        f"in {base.name}, {value} lies only in {_names(places)}, all in "
                        f"{other.name}; {_removing(removes)}"
                    )
                    technique = f"locked candidates ({kind})"
                    return Step(technique, tuple(places), (value,), (), removes, text)
    return None


def _naked_subset(size: int) -> Callable[[_Grid], Step | None]:
    def find(g: _Grid) -> Step | None:
        for where, cells in g.groups:
            open_cells = [c for c in cells if c not in g.placed]
            small = [c for c in open_cells if 2 <= len(g.cands[c]) <= size]
            for group in combinations(small, size):
                values = set().union(*(g.cands[c] for c in group))
                if len(values) != size:
                    continue
                removes = g.removals([c for c in open_cells if c not in group], values)
                if removes:
                    name = f"naked {_SUBSET_NAMES[size]}"
                    shown = ",".join(map(str, sorted(values)))
                    text = (
                        f"in {where}, {_names(group)} hold only {{{shown}}}; {_removing(removes)}"
                    )
                    return Step(name, group, tuple(sorted(values)), (), removes, text)
        return None

    return find


def _hidden_subset(size: int) -> Callable[[_Grid], Step | None]:
    def find(g: _Grid) -> Step | None:
        for unit in g.full:
            places = g.unplaced(unit)
            few = [v for v, cells in places.items() if 2 <= len(cells) <= size]
            for group in combinations(few, size):
                cells = sorted(set().union(*(places[v] for v in group)))
                if len(cells) != size:
                    continue
                others = [v for v in g.values if v not in group]
                removes = g.removals(cells, others)
                if removes:
                    name = f"hidden {_SUBSET_NAMES[size]}"
                    shown = ",".join(map(str, group))
                    text = (
                        f"in {unit.name}, {{{shown}}} fit only in {_names(cells)}; "
                        f"{_removing(removes)}"
                    )
                    return Step(name, tuple(cells), group, (), removes, text)
        return None

    return find


def _fish(size: int, name: str) -> Callable[[_Grid], Step | None]:
    def find(g: _Grid) -> Step | None:
        for base_role, cover_role, axis in (("row", "column", 1), ("column", "row", 0)):
            bases = [u for u in g.full if u.role == base_role]
            covers = {u.cells[0][axis]: u for u in g.full if u.role == cover_role}
            if len(bases) < size or not covers:
                continue
            for value in g.values:
                lines = []
                for unit in bases:
                    places = g.where(unit, value)
                    if 2 <= len(places) <= size and value not in g.unit_values(unit):
                        lines.append((unit, places))
                for group in combinations(lines, size):
                    across = {c[axis] for _, places in group for c in places}
                    if len(across) != size or not across <= covers.keys():
                        continue
                    used = {c for _, places in group for c in places}
                    rest = [c for k in sorted(across) for c in covers[k].cells if c not in used]
                    removes = g.removals(rest, [value])
                    if removes:
                        text = (
                            f"{value} in {', '.join(u.name for u, _ in group)} lies only in "
                            f"{', '.join(covers[k].name for k in sorted(across))}; "
                            f"{_removing(removes)}"
                        )
                        return Step(name, tuple(sorted(used)), (value,), (), removes, text)
        return None

    return find


def _xy_wing(g: _Grid) -> Step | None:
    pairs = [c for c in g.open() if len(g.cands[c]) == 2]
    for pivot in pairs:
        x, y = sorted(g.cands[pivot])
        near = [c for c in pairs if c in g.peers[pivot]]
        for a in near:
            if g.cands[a] == {x, y} or x not in g.cands[a]:
                continue
            (z,) = g.cands[a] - {x}
            for b in near:
                if b == a or g.cands[b] != {y, z}:
                    continue
                seeing = [c for c in g.peers[a] & g.peers[b] if c != pivot]
                removes = g.removals(sorted(seeing), [z])
                if removes:
                    text = (
                        f"pivot {cell_name(pivot)} {{{x},{y}}} with pincers {cell_name(a)} "
                        f"{{{x},{z}}} and {cell_name(b)} {{{y},{z}}}: one pincer is {z}; "
                        f"{_removing(removes)}"
                    )
                    return Step("XY-Wing", (pivot, a, b), (x, y, z), (), removes, text)
    return None


def _simple_colouring(g: _Grid) -> Step | None:
    for value in g.values:
        links: dict[Cell, set[Cell]] = {}
        for unit in g.full:
            places = g.where(unit, value)
            if len(places) == 2 and value not in g.unit_values(unit):
                a, b = places
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        seen: set[Cell] = set()
        for start in sorted(links):
            if start in seen:
                continue
            colour = _colour(links, start)
            seen.update(colour)
            step = _colour_step(g, value, colour)
            if step is not None:
                return step
    return None


def _colour(links: dict[Cell, set[Cell]], start: Cell) -> dict[Cell, int]:
    """Two-colour the chain of conjugate pairs from ``start`` (breadth first)."""
    colour = {start: 0}
    queue = [start]
    for cell in queue:
        for other in sorted(links[cell]):
            if other not in colour:
                colour[other] = 1 - colour[cell]
                queue.append(other)
    return colour


def _colour_step(g: _Grid, value: int, colour: dict[Cell, int]) -> Step | None:
    groups = [sorted(c for c, k in colour.items() if k == side) for side in (0, 1)]
    chain = tuple(sorted(colour))
    for cells in groups:
        clash = next(((a, b) for a, b in combinations(cells, 2) if b in g.peers[a]), None)
        if clash is not None:
            removes = g.removals(cells, [value])
            text = (
                f"chain of conjugate pairs of {value} through {_names(chain)}: "
                f"{cell_name(clash[0])} and {cell_name(clash[1])} share a colour and see "
                f"each other, so that colour is false; {_removing(removes)}"
            )
            return Step("simple colouring", chain, (value,), (), removes, text)
    trapped = [
        c
        for c in g.open()
        if c not in colour
        and value in g.cands[c]
        and any(o in g.peers[c] for o in groups[0])
        and any(o in g.peers[c] for o in groups[1])
    ]
    removes = g.removals(trapped, [value])
    if removes:
        text = (
            f"chain of conjugate pairs of {value} through {_names(chain)}, coloured "
            f"alternately: one colour is true; {_removing(removes)}, which see both colours"
        )
        return Step("simple colouring", chain, (value,), (), removes, text)
    return None


#: The techniques as tried, easiest first.
_FINDERS: tuple[Callable[[_Grid], Step | None], ...] = (
    _naked_single,
    _hidden_single,
    _combinations,
    _locked_candidates,
    _naked_subset(2),
    _hidden_subset(2),
    _naked_subset(3),
    _hidden_subset(3),
    _naked_subset(4),
    _hidden_subset(4),
    _fish(2, "X-Wing"),
    _fish(3, "Swordfish"),
    _xy_wing,
    _simple_colouring,
)


def _contradiction(g: _Grid) -> str | None:
    """Where the candidates show there is no solution, or None."""
    for cell in g.open():
        if not g.cands[cell]:
            return f"{cell_name(cell)} has no candidate left"
    for unit in g.full:
        missing = set(g.values) - {v for c in unit.cells for v in g.cands[c]}
        if missing:
            return f"{min(missing)} has no place left in {unit.name}"
    return None


def explain(puzzle: Puzzle, max_steps: int = 10_000) -> Explanation:
    """Solve ``puzzle`` by logic alone: the steps, and whether they complete the grid.

    At most ``max_steps`` steps (one per placement or elimination, so an
    n x n grid needs fewer than n ** 3).
    """
    g = _Grid(puzzle)
    steps: list[Step] = []
    while len(steps) < max_steps:
        problem = _contradiction(g)
        if problem is not None:
            left = {c: tuple(sorted(g.cands[c])) for c in g.open()}
            return Explanation(tuple(steps), "contradiction", left, problem)
        if not g.open():
            return Explanation(tuple(steps), "solved")
        step = next((s for s in (find(g) for find in _FINDERS) if s is not None), None)
        if step is None:
            break
        g.apply(step)
        steps.append(step)
    left = {c: tuple(sorted(g.cands[c])) for c in g.open()}
    first = min(left, key=lambda c: (len(left[c]), c))
    where = f"{cell_name(first)} {{{','.join(map(str, left[first]))}}}"
    return Explanation(tuple(steps), "stalled", left, where)
