"""The encoder is trusted by every certificate, so its CNF is checked against the rule checker.

For each case the set of the CNF's models (enumerated with blocking clauses
on the cell variables, each model required to give every cell exactly one
value) must equal the set of grids the rule checker accepts (brute force,
``verify_grids.checker_solutions``).  Cases: all 288 4x4 grids; 4x4 puzzles
with givens (every full grid, 100 random subsets, puzzles with no solution);
6x6 with 2x3 and 3x2 boxes (a sample); KenKen 4x4 with every operation;
Killer 4x4; Kakuro runs of 2 to 4 cells with every reachable sum, and 2x2
blocks of crossing runs; every relation, Skyscraper clues, and sparse units
(heights 1..K with empty cells) on small grids.  Some cases have their clue
changed so that they have other solutions or none.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from pysat.solvers import Solver
from verify_grids import checker_solutions

from cp_sudoku.encodings.cnf import to_cnf
from cp_sudoku.generate.blanked import solved_grid
from cp_sudoku.kinds.grid import sudoku_units
from cp_sudoku.kinds.kakuro import Clue, kakuro
from cp_sudoku.kinds.kenken import kenken
from cp_sudoku.kinds.killer import killer
from cp_sudoku.kinds.sudoku import sudoku
from cp_sudoku.model import Cell, Constraint, Grid, Puzzle, Relation, SparseUnit, Visibility
from cp_sudoku.verify.check import CHECKED_ENCODINGS

ENCODINGS = CHECKED_ENCODINGS  # every encoding a certificate may use


def cnf_grids(puzzle: Puzzle, encoding: str) -> set[Grid]:
    """Every grid the CNF of ``puzzle`` allows, each model giving each cell one value."""
    cnf = to_cnf(puzzle, encoding)
    found: set[Grid] = set()
    if any(not clause for clause in cnf.clauses):
        return found
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as sat:
        while sat.solve():
            true = {lit for lit in sat.get_model() if lit > 0}
            for i, lits in enumerate(cnf.literal):
                held = [value for value, var in lits.items() if var in true]
                assert i in cnf.fixed or len(held) == 1, (puzzle.cells[i], held)
            grid = cnf.decode(sorted(true))
            assert grid not in found
            found.add(grid)
            blocking = cnf.blocking_clause(grid)
            if not blocking:
                break
            sat.add_clause(blocking)
    return found


def agree(puzzle: Puzzle, encodings: tuple[str, ...] = ENCODINGS) -> set[Grid]:
    expected = checker_solutions(puzzle)
    for encoding in encodings:
        assert cnf_grids(puzzle, encoding) == expected, (encoding, puzzle)
    return expected


GRIDS_4X4 = sorted(checker_solutions(sudoku([0] * 16)))


def test_all_288_grids_of_the_empty_4x4() -> None:
    assert len(GRIDS_4X4) == 288
    assert agree(sudoku([0] * 16)) == set(GRIDS_4X4)


def test_every_full_4x4_grid_is_its_own_only_model() -> None:
    for grid in GRIDS_4X4:
        assert agree(sudoku(list(grid)), ("optimised",)) == {grid}


def test_4x4_puzzles_with_givens() -> None:
    rng = random.Random(10)
    counts = set()
    for _ in range(100):
        grid = rng.choice(GRIDS_4X4)
        kept = rng.sample(range(16), rng.randint(1, 8))
        values = [grid[i] if i in kept else 0 for i in range(16)]
        counts.add(len(agree(sudoku(values))))
    assert 1 in counts and max(counts) > 10


def test_4x4_puzzles_with_no_solution() -> None:
    rng = random.Random(11)
    nones = 0
    for _ in range(400):
        values = [0] * 16
        for i in rng.sample(range(16), 5):
            values[i] = rng.randint(1, 4)
        nones += not agree(sudoku(values))
    assert nones >= 5


@pytest.mark.parametrize("box", [(2, 3), (3, 2)], ids=["2x3", "3x2"])
def test_6x6_both_box_shapes_on_a_sample(box: tuple[int, int]) -> None:
    rng = random.Random(12)
    for seed in range(6):
        grid = solved_grid(box, seed)
        kept = rng.sample(range(36), 16)
        puzzle = sudoku([grid[i] if i in kept else 0 for i in range(36)], box)
        assert grid in agree(puzzle)


def _partition(rng: random.Random, n: int, largest: int) -> list[list[Cell]]:
    """A random partition of the n x n grid into connected cages of 1..largest cells."""
    free = {(r, c) for r in range(n) for c in range(n)}
    cages = []
    while free:
        cage = [min(free)]
        free.discard(cage[0])
        size = rng.randint(1, largest)
        while len(cage) < size:
            near = [
                (r + dr, c + dc)
                for r, c in cage
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in free
            ]
            if not near:
                break
            cell = rng.choice(near)
            free.discard(cell)
            cage.append(cell)
        cages.append(sorted(cage))
    return cages


def _target(op: str, values: list[int]) -> int | None:
    if op == "+":
        return sum(values)
    if op == "*":
        product_ = 1
        for v in values:
            product_ *= v
        return product_
    high, low = max(values), min(values)
    if op == "-":
        return high - low if high > low else None
    return high // low if high % low == 0 and high > low else None


LATIN_4X4 = sorted(
    checker_solutions(
        Puzzle(4, 4, tuple(product(range(4), range(4))), 4, constraints=sudoku_units(4, None))
    )
)


def test_kenken_4x4_with_every_operation() -> None:
    assert len(LATIN_4X4) == 576
    rng = random.Random(13)
    used: set[str] = set()
    for trial in range(40):
        grid = rng.choice(LATIN_4X4)
        cages = []
        for cells in _partition(rng, 4, 3):
            values = [grid[r * 4 + c] for r, c in cells]
            if len(cells) == 1:
                cages.append((values[0], "=", cells))
                continue
            ops = ["+", "*"] + (["-", "/"] if len(cells) == 2 else [])
            rng.shuffle(ops)
            op = next(o for o in ops if _target(o, values) is not None)
            target = _target(op, values)
            assert target is not None
            if trial % 4 == 3 and op in "+*":  # another target: other solutions, or none
                target += 1
            if trial % 3 == 1:  # the operator hidden: any of + - * / may make the target
                op = "?"
            cages.append((target, op, cells))
            used.add(op)
        try:
            puzzle = kenken(4, cages)
        except ValueError:  # a target out of reach
            continue
        found = agree(puzzle)
        assert grid in found or trial % 4 == 3
    assert used == {"+", "-", "*", "/", "?"}


def test_kenken_cages_out_of_reach_have_no_model() -> None:
    cells = [[(r, c)] for r in range(4) for c in range(4)]
    cages = [(grid_value, "=", cell) for grid_value, cell in zip(LATIN_4X4[0], cells, strict=True)]
    cages[0] = (9, "=", cells[0])  # a one-cell cage with a value above n
    assert agree(kenken(4, cages)) == set()


def _latin_with(rng: random.Random, rules: tuple[Constraint, ...]) -> Puzzle:
    cells = tuple(product(range(4), range(4)))
    return Puzzle(4, 4, cells, 4, constraints=(*sudoku_units(4, None), *rules))


def _pairs() -> list[tuple[Cell, Cell]]:
    return [((r, c), (r, c + 1)) for r in range(4) for c in range(3)] + [
        ((r, c), (r + 1, c)) for r in range(3) for c in range(4)
    ]


def test_relations_on_a_4x4_latin_square() -> None:
    rng = random.Random(16)
    kinds = set()
    for trial in range(30):
        grid = dict(zip(product(range(4), range(4)), rng.choice(LATIN_4X4), strict=True))
        relations = []
        for first, second in rng.sample(_pairs(), 5):
            a, b = grid[first], grid[second]
            choice = rng.choice(["<", "non-consecutive", "difference", "ratio"])
            if choice == "<":
                relations.append(
                    Relation(first, second, "<") if a < b else Relation(second, first, "<")
                )
            elif choice == "non-consecutive" and abs(a - b) > 1:
                relations.append(Relation(first, second, choice))
            elif choice == "difference":
                relations.append(Relation(first, second, choice, abs(a - b) + (trial % 5 == 4)))
            elif choice == "ratio" and max(a, b) % min(a, b) == 0 and a != b:
                relations.append(Relation(first, second, choice, max(a, b) // min(a, b)))
            else:
                continue
            kinds.add(choice)
        found = agree(_latin_with(rng, tuple(relations)))
        assert trial % 5 == 4 or tuple(grid.values()) in found
    assert kinds == {"<", "non-consecutive", "difference", "ratio"}


def _lines(n: int) -> list[tuple[tuple[Cell, ...], str]]:
    """Every row and column of an n x n grid seen from both ends, with the side."""
    found = []
    for i in range(n):
        row = tuple((i, c) for c in range(n))
        column = tuple((r, i) for r in range(n))
        found += [(row, "left"), (row[::-1], "right"), (column, "top"), (column[::-1], "bottom")]
    return found


def test_skyscraper_clues_on_a_4x4_latin_square() -> None:
    rng = random.Random(17)
    for trial in range(20):
        grid = dict(zip(product(range(4), range(4)), rng.choice(LATIN_4X4), strict=True))
        clues = []
        for cells, side in rng.sample(_lines(4), 6):
            seen = Visibility.seen([grid[c] for c in cells])
            wrong = seen + 1 if seen < 4 else seen - 1  # every fourth trial: a clue that lies
            clues.append(Visibility(cells, wrong if trial % 4 == 3 else seen, side))
        found = agree(_latin_with(rng, tuple(clues)))
        assert trial % 4 == 3 or tuple(grid.values()) in found


def test_sparse_units_with_empty_cells_and_clues() -> None:
    rng = random.Random(18)
    for n, top in ((3, 2), (4, 3)):
        cells = tuple(product(range(n), range(n)))
        lines = [tuple((i, c) for c in range(n)) for i in range(n)]
        lines += [tuple((r, i) for r in range(n)) for i in range(n)]
        sparse = tuple(SparseUnit(f"line {k + 1}", line, top) for k, line in enumerate(lines))
        for trial in range(6 if n == 3 else 3):
            visible = tuple(
                Visibility(line, rng.randint(1, top), side)
                for line, side in rng.sample(_lines(n), 2)
            )
            givens = {cell: rng.randint(0, top) for cell in rng.sample(cells, trial % 3 + n - 3)}
            puzzle = Puzzle(
                n, n, cells, top, givens=givens, constraints=(*sparse, *visible), min_value=0
            )
            agree(puzzle)


def test_killer_4x4() -> None:
    rng = random.Random(14)
    for trial in range(30):
        grid = rng.choice(GRIDS_4X4)
        cages = [(sum(grid[r * 4 + c] for r, c in cells), cells) for cells in _partition(rng, 4, 4)]
        if trial % 3 == 2:
            target, cells = cages[0]
            cages[0] = (target + 1 if len(cells) > 1 else target, cells)
        try:
            puzzle = killer(cages, size=4)
        except ValueError:  # a sum out of reach
            continue
        agree(puzzle)


@pytest.mark.parametrize("length", [2, 3, 4])
def test_kakuro_runs_with_every_reachable_sum(length: int) -> None:
    low = length * (length + 1) // 2
    high = sum(range(10 - length, 10))
    for total in range(low, high + 1):
        layout = [[Clue(across=total), *([None] * length)]]
        found = agree(kakuro(layout))
        assert found and all(sum(grid) == total and len(set(grid)) == length for grid in found)


def test_kakuro_blocks_of_crossing_runs() -> None:
    rng = random.Random(15)
    for _ in range(10):
        a, b, c, d = (rng.randint(3, 17) for _ in range(4))
        layout = [
            [Clue(), Clue(down=a), Clue(down=b)],
            [Clue(across=c), None, None],
            [Clue(across=d), None, None],
        ]
        agree(kakuro(layout))
