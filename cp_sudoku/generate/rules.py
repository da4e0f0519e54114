"""The rules of a generated puzzle, per kind: the shape, and what is drawn from a solution.

A :class:`Maker` knows one kind and its options.  :meth:`Maker.draw` gives
the puzzle's rules without givens and the solution the givens will come
from: for Sudoku and jigsaw a random solution of the fixed rules; for
Killer, KenKen, Kakuro, Futoshiki and Skyscrapers a random Latin or Sudoku
grid first, then cages, runs, signs or clues read off it.

Sources: cages grown cell by cell with no digit twice (as in Killer
generators such as QQWing's successors and the KenKen literature), jigsaw
regions by random swaps of border cells that keep every region connected
(the usual "perturbed boxes" method).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any

from cp_sudoku.encodings.cnf import Cnf, to_cnf
from cp_sudoku.generate.kakuro import MAX_SIZE as KAKURO_SIZE
from cp_sudoku.generate.kakuro import generate_kakuro
from cp_sudoku.generate.oracle import Oracle
from cp_sudoku.generate.symmetry import CellMap, cell_map
from cp_sudoku.kinds import kind_of
from cp_sudoku.kinds.futoshiki import futoshiki
from cp_sudoku.kinds.grid import box_shape, square_puzzle
from cp_sudoku.kinds.jigsaw import jigsaw
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.skyscrapers import SIDES, lines_of_sight, skyscrapers
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cell, Grid, Puzzle, PuzzleError, UsageError

#: Kinds that generate, with what they make.
KINDS: dict[str, str] = {
    "sudoku": "Sudoku of any box shape, with extras (diagonals, windows, non-consecutive)",
    "jigsaw": "jigsaw Sudoku, regions generated or supplied",
    "killer": "Killer Sudoku: cages of 2-5 cells grown from the solution, few givens or none",
    "kenken": "KenKen: cages of 1-4 cells with + - * /, no givens",
    "kakuro": "Kakuro: a generated layout of runs, no givens",
    "futoshiki": "Futoshiki: inequality signs and givens, both minimal",
    "skyscrapers": "Skyscrapers: clues outside the grid and givens, both minimal",
}

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def _neighbours(cell: Cell) -> list[Cell]:
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in _STEPS]


@dataclass(frozen=True)
class Rules:
    """What fixes a generated puzzle's rules.

    - ``kind``: a key of :data:`KINDS`; ``size``: n (values 1..n; Kakuro: the
      grid's side, clue squares included); ``box``: Sudoku box shape;
      ``extras``: Sudoku and jigsaw extras; ``regions``: jigsaw labels, n * n
      row-major (None: generated, with the ``symmetry`` asked for);
      ``symmetry``: a name of :data:`~cp_sudoku.generate.symmetry.SYMMETRIES`.
    """

    kind: str = "sudoku"
    size: int = 9
    box: tuple[int, int] | None = None
    extras: tuple[str, ...] = ()
    regions: tuple[str, ...] | None = None
    symmetry: str = "none"

    def rules(self) -> Rules:
        """These fields alone (a subclass's own fields dropped)."""
        return Rules(*(getattr(self, f.name) for f in fields(Rules)))


@dataclass(frozen=True)
class Maker(Rules):
    """The rules of one kind with its options (:class:`Rules`); draws (rules, solution)
    pairs and keeps the CNF of the latest rules.

    Raises:
        UsageError: an unknown kind, or options the kind does not take.
    """

    _cnfs: dict[object, Cnf] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise UsageError(f"unknown kind {self.kind!r}: expected one of {', '.join(KINDS)}")
        limit = KAKURO_SIZE if self.kind == "kakuro" else 36
        low = 4 if self.kind == "kakuro" else 2
        if not low <= self.size <= limit:
            raise UsageError(f"a generated {self.kind} has size {low}..{limit}, got {self.size}")
        if self.extras and self.kind not in ("sudoku", "jigsaw", "killer"):
            raise UsageError(f"a {self.kind} takes no extras, got {' '.join(self.extras)}")
        if self.regions is not None and self.kind != "jigsaw":
            raise UsageError(f"regions apply to a jigsaw, not a {self.kind}")
        if self.box is not None and self.kind not in ("sudoku", "killer"):
            raise UsageError(f"a box shape applies to a sudoku or killer, not a {self.kind}")
        self.shape  # noqa: B018 (validates box, extras and regions now)
        if self.kind == "jigsaw" and self.regions is None:  # the symmetry of grown regions
            turn = cell_map(self.symmetry, self.size, self.size)
            random_regions(self.size, random.Random(0), turn, swaps=0)

    @cached_property
    def shape(self) -> Puzzle:
        """The puzzle's shape without givens: what symmetry is checked on."""
        n = self.size
        empty = [0] * (n * n)
        if self.kind in ("sudoku", "killer"):
            return sudoku(empty, box_shape(self.box, n), extras=self.extras)
        if self.kind == "jigsaw":
            regions = self.regions or random_regions(n, random.Random(0), swaps=0)
            return jigsaw(empty, regions, extras=self.extras)
        return square_puzzle(n, self.kind)

    @property
    def has_givens(self) -> bool:
        """Whether the kind's puzzles carry givens (KenKen and Kakuro have none)."""
        return takes_givens(self.kind)

    def oracle(self, puzzle: Puzzle) -> Oracle:
        """A new solver for ``puzzle``'s rules; the CNF of the latest rules is kept."""
        key = (puzzle.kind, puzzle.rows, puzzle.cols, puzzle.constraints)
        if key not in self._cnfs:
            self._cnfs.clear()
            self._cnfs[key] = to_cnf(replace(puzzle, givens={}), "extended")
        return Oracle(puzzle, self._cnfs[key])

    def draw(self, rng: random.Random) -> Draft:
        """Rules (a puzzle without givens) and one of its solutions, drawn by ``rng``.

        For KenKen and Kakuro the rules are unique on their own.
        """
        n = self.size
        if self.kind == "kakuro":
            return Draft(*generate_kakuro(n, rng))
        if self.kind == "jigsaw" and self.regions is None:
            while True:
                turn = cell_map(self.symmetry, n, n)
                regions = random_regions(n, rng, turn)
                rules = jigsaw([0] * n * n, regions, extras=self.extras)
                with Oracle(rules) as oracle:
                    found = oracle.random_solution(rng)
                if found is not None:
                    return Draft(rules, found)
        base = self.shape if self.kind in ("sudoku", "jigsaw", "killer") else _latin(n)
        oracle = self.oracle(base)
        solution = oracle.random_solution(rng)
        if solution is None:
            oracle.close()
            raise UsageError(f"a {n}x{n} {self.kind} with these rules has no solution")
        if self.kind in ("sudoku", "jigsaw"):
            return Draft(base, solution, oracle=oracle)
        oracle.close()
        if self.kind == "killer":
            return Draft(_killer(base, solution, rng), solution)
        if self.kind == "kenken":
            return Draft(_kenken(n, solution, rng), solution)
        if self.kind == "futoshiki":
            signs = futoshiki_signs(n, solution)
            return Draft(futoshiki(n, signs), solution, tuple(signs), _futoshiki_from(n))
        clues = [
            (side, k, count)
            for side, row in skyscraper_clues(n, solution).items()
            for k, count in enumerate(row)
        ]
        build = _skyscrapers_from(n)
        return Draft(build(clues), solution, tuple(clues), build)


@dataclass(frozen=True)
class Draft:
    """What :meth:`Maker.draw` gives: the rules as a puzzle without givens, the
    solution, and for Futoshiki and Skyscrapers the rules that may be dropped one
    by one (signs, clues) with the function that builds the puzzle from those kept;
    ``oracle``: an open solver of the rules, when one drew the solution (the caller
    closes it)."""

    rules: Puzzle
    solution: Grid
    items: tuple[Any, ...] = ()
    rebuild: Callable[[Sequence[Any]], Puzzle] | None = None
    oracle: Oracle | None = None


def _futoshiki_from(n: int) -> Callable[[Sequence[Any]], Puzzle]:
    return lambda signs: futoshiki(n, signs)


def _skyscrapers_from(n: int) -> Callable[[Sequence[Any]], Puzzle]:
    def build(kept: Sequence[Any]) -> Puzzle:
        sides: dict[str, list[int | None]] = {side: [None] * n for side in SIDES}
        for side, k, count in kept:
            sides[side][k] = count
        return skyscrapers(n, sides)

    return build


def takes_givens(kind: str) -> bool:
    """Whether puzzles of ``kind`` carry givens: its text format has a ``grid:`` of values."""
    return kind_of(kind).keys.get("grid") == "grid"


def _latin(n: int) -> Puzzle:
    return square_puzzle(n, "latin")


def futoshiki_signs(n: int, solution: Grid) -> list[tuple[Cell, str, Cell]]:
    """Every sign between orthogonal neighbours that ``solution`` (n x n, row-major) makes true."""
    signs = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < n and c + dc < n:
                    a, b = solution[r * n + c], solution[(r + dr) * n + c + dc]
                    signs.append(((r, c), "<" if a < b else ">", (r + dr, c + dc)))
    return signs


def skyscraper_clues(n: int, solution: Grid) -> dict[str, list[int | None]]:
    """Every clue of ``solution`` (n x n heights, row-major): buildings seen from each side."""
    clues: dict[str, list[int | None]] = {}
    for side in SIDES:
        row: list[int | None] = []
        for k in range(n):
            seen, top = 0, 0
            for r, c in lines_of_sight(n, side, k):
                if solution[r * n + c] > top:
                    seen, top = seen + 1, solution[r * n + c]
            row.append(seen)
        clues[side] = row
    return clues


def random_regions(
    n: int, rng: random.Random, mapping: CellMap | None = None, swaps: int | None = None
) -> tuple[str, ...]:
    """n connected regions of n cells each on an n x n grid: the default boxes (rows when n
    is prime) perturbed by ``swaps`` random exchanges of two border cells (default 20 n^2),
    each kept only when every region stays connected.  With ``mapping`` (a symmetry the
    boxes have) each exchange is made with its images too, so the regions keep the
    symmetry.  Labels ``1..n``, row-major.

    Raises:
        UsageError: the boxes do not have the symmetry of ``mapping``.
    """
    r, c = _squarest(n)
    label = {(i, j): (i // r) * (n // c) + j // c for i in range(n) for j in range(n)}
    members: dict[int, set[Cell]] = {}
    for cell, region in label.items():
        members.setdefault(region, set()).add(cell)
    turn = mapping or (lambda cell: cell)
    image = {k: label[turn(next(iter(cells)))] for k, cells in members.items()}
    if any({turn(x) for x in cells} != members[image[k]] for k, cells in members.items()):
        raise UsageError(
            f"generated {n}x{n} jigsaw regions grow from {'rows' if r == 1 else 'boxes'}, "
            "which lack this symmetry: supply --regions"
        )
    for _ in range(swaps if swaps is not None else 20 * n * n):
        a = (rng.randrange(n), rng.randrange(n))
        near = [b for b in _neighbours(a) if b in label and label[b] != label[a]]
        if not near:
            continue
        ra, rb = label[a], label[rng.choice(near)]
        back = [
            x for x in members[rb] if x != a and any(label.get(y) == ra for y in _neighbours(x))
        ]
        if not back:
            continue
        moves = _moves(a, rng.choice(back), rb, ra, turn, image)
        if moves is None:
            continue
        changed = {label[x] for x in moves} | set(moves.values())
        trial = {k: {x for x in members[k] if x not in moves} for k in changed}
        for x, k in moves.items():
            trial[k].add(x)
        if all(len(cells) == n and _connected(cells) for cells in trial.values()):
            members.update(trial)
            label.update(moves)
    return tuple(str(label[(i, j)] + 1) for i in range(n) for j in range(n))


def _squarest(n: int) -> tuple[int, int]:
    """The default box of an n x n grid, or 1 x n (rows) when n is prime."""
    try:
        return box_shape(None, n)
    except PuzzleError:
        return (1, n)


def _moves(
    a: Cell, b: Cell, to_a: int, to_b: int, turn: CellMap, image: dict[int, int]
) -> dict[Cell, int] | None:
    """Cell -> new region for moving ``a`` to ``to_a`` and ``b`` to ``to_b`` with every
    image under ``turn`` (regions mapped by ``image``); None when two moves clash."""
    moves: dict[Cell, int] = {}
    for _ in range(4):  # the symmetries here have orbits of 1, 2 or 4 cells
        for cell, region in ((a, to_a), (b, to_b)):
            if moves.setdefault(cell, region) != region:
                return None
        a, b, to_a, to_b = turn(a), turn(b), image[to_a], image[to_b]
    return moves


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        for near in _neighbours(todo.pop()):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)


def grow_cages(
    cells: Sequence[Cell],
    solution: dict[Cell, int],
    rng: random.Random,
    low: int,
    high: int,
    distinct: bool,
) -> list[list[Cell]]:
    """Cover ``cells`` with connected cages of ``low..high`` cells (fewer where the
    growth is boxed in), grown from random starts; with ``distinct`` no value twice."""
    free = set(cells)
    cages = []
    while free:
        cage = [rng.choice(sorted(free))]
        free.discard(cage[0])
        size = rng.randint(low, high)
        while len(cage) < size:
            held = {solution[x] for x in cage}
            near = sorted(
                {
                    y
                    for x in cage
                    for y in _neighbours(x)
                    if y in free and not (distinct and solution[y] in held)
                }
            )
            if not near:
                break
            cage.append(rng.choice(near))
            free.discard(cage[-1])
        cages.append(cage)
    return _merge_singles(cages, solution, distinct)


def _merge_singles(
    cages: list[list[Cell]], solution: dict[Cell, int], distinct: bool
) -> list[list[Cell]]:
    """Join each one-cell cage to a neighbouring cage when the rules allow (a one-cell
    cage gives its value away)."""
    home = {cell: k for k, cage in enumerate(cages) for cell in cage}
    for k, cage in enumerate(cages):
        if len(cage) != 1:
            continue
        (cell,) = cage
        for near in _neighbours(cell):
            j = home.get(near)
            if j is None or j == k or not cages[j]:
                continue
            if distinct and solution[cell] in {solution[x] for x in cages[j]}:
                continue
            cages[j].append(cell)
            cage.clear()
            home[cell] = j
            break
    return [cage for cage in cages if cage]


def _killer(base: Puzzle, solution: Grid, rng: random.Random) -> Puzzle:
    index = base.index
    values = {cell: solution[i] for cell, i in index.items()}
    cages = grow_cages(base.cells, values, rng, 2, 5, distinct=True)
    return killer(
        [(sum(values[x] for x in cage), cage) for cage in cages],
        size=base.rows,
        box=base.box,
        extras=base.extras,
    )


def _kenken(n: int, solution: Grid, rng: random.Random) -> Puzzle:
    """Cages grown from ``solution``; while another solution exists, a cell where it
    differs becomes a one-cell cage (KenKen's given) and its old cage is re-cut."""
    values = {(i // n, i % n): v for i, v in enumerate(solution)}
    cages = grow_cages(list(values), values, rng, 2, 4, distinct=False)
    while True:
        puzzle = kenken(n, [_kenken_cage(cage, values, rng) for cage in cages])
        with Oracle(puzzle) as oracle:
            other = oracle.other_solution((), solution)
        if other is None:
            return puzzle
        differ = [cell for i, cell in enumerate(puzzle.cells) if other[i] != solution[i]]
        cell = rng.choice(differ)
        cages = [part for cage in cages for part in _split_off(cage, cell)]


def _split_off(cage: list[Cell], cell: Cell) -> list[list[Cell]]:
    if cell not in cage:
        return [cage]
    rest = set(cage) - {cell}
    parts: list[list[Cell]] = [[cell]]
    while rest:
        start = min(rest)
        part, todo = {start}, [start]
        while todo:
            for y in _neighbours(todo.pop()):
                if y in rest and y not in part:
                    part.add(y)
                    todo.append(y)
        rest -= part
        parts.append(sorted(part))
    return parts


def _kenken_cage(
    cage: list[Cell], values: dict[Cell, int], rng: random.Random
) -> tuple[int, str, list[Cell]]:
    digits = [values[x] for x in cage]
    if len(cage) == 1:
        return digits[0], "=", cage
    if len(cage) == 2:
        high, low = max(digits), min(digits)
        if high % low == 0 and rng.random() < 0.5:
            return high // low, "/", cage
        choice = rng.random()
        if choice < 0.5:
            return high - low, "-", cage
        if choice < 0.75:
            return high + low, "+", cage
        return high * low, "*", cage
    product = 1
    for d in digits:
        product *= d
    if rng.random() < 0.5:
        return product, "*", cage
    return sum(digits), "+", cage
