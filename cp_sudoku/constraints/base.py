"""The base of every constraint type: :class:`Constraint`, :class:`Mark`, the table cap, registry.

A constraint type is one module under :mod:`cp_sudoku.constraints`: a frozen
dataclass subclassing :class:`Constraint`, registered once with
:func:`register`.  It owns its rule (:meth:`Constraint.holds`), a sound partial
check (:meth:`Constraint.prefix_ok`), its words (:meth:`Constraint.describe`),
its line of the variant text format (:meth:`Constraint.to_text`,
:meth:`Constraint.from_text`), its drawing (:meth:`Constraint.marks`) and its
decomposition into the core primitives (:meth:`Constraint.decompose`).  See
docs/constraints.md.

Constraint modules import only :mod:`cp_sudoku.constraints` modules and
:mod:`cp_sudoku.errors` at run time (the model imports them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import combinations
from math import factorial
from typing import ClassVar, Protocol, TypeVar

from cp_sudoku.errors import Cell, PuzzleError, Unsupported, cell_name


class Rules(Protocol):
    """What :meth:`Constraint.decompose` reads of the puzzle (a
    :class:`~cp_sudoku.model.Puzzle` is one)."""

    @property
    def values(self) -> range:
        """Every value a cell may hold."""
        ...

    def differ_pairs(self, cells: Sequence[Cell]) -> list[tuple[int, int]]:
        """Positions ``(i, j)`` of ``cells`` that share a unit (so must differ)."""
        ...

    @property
    def peers(self) -> Mapping[Cell, frozenset[Cell]]:
        """Cell -> the other cells of every unit it is in."""
        ...


#: Allowed tuples one table may hold; past it :meth:`Constraint.allowed` raises
#: :class:`TableTooLarge` and a back end declines the puzzle.
TABLE_CAP = 200_000
#: Cells one table may span (a full row of the largest grid); a wider constraint is
#: declined before its tuples are enumerated (:class:`TableTooLarge`).
TABLE_CELLS = 100


class TableTooLarge(Unsupported):
    """Enumerating a constraint's allowed tuples passed :data:`TABLE_CAP`: the back end
    declines the puzzle with this reason (``table for <describe()> exceeds N tuples``)."""


class OutOfTime(Unsupported):
    """Compiling a puzzle passed the time limit (:func:`compile_deadline`): the back end
    answers ``unknown``, stopped by the ``time limit``."""


#: The deadline in force and the clock it is read on (``time.perf_counter`` or
#: ``time.process_time``), or None.
_DEADLINE: ContextVar[tuple[float, Callable[[], float]] | None] = ContextVar(
    "cp_sudoku_compile_deadline", default=None
)


def compile_deadline(
    at: float | None, clock: Callable[[], float] = time.perf_counter
) -> AbstractContextManager[None]:
    """Within the block, :meth:`Constraint.allowed`,
    :func:`~cp_sudoku.encodings.dispatch.compile_rules` and any long loop that calls
    :func:`check_deadline` raise :class:`OutOfTime` once ``clock()`` passes ``at``
    (None: no deadline).  ``clock`` is ``time.perf_counter`` (wall clock, the back
    ends' time limits) or ``time.process_time`` (CPU, the grade's).  With no
    deadline to set and none in force, the block runs as it is (every solve of a
    classic puzzle passes here)."""
    if at is None and _DEADLINE.get() is None:
        return nullcontext()
    return _deadline_set(None if at is None else (at, clock))


@contextmanager
def _deadline_set(value: tuple[float, Callable[[], float]] | None) -> Iterator[None]:
    """The deadline ``value`` in force within the block."""
    token = _DEADLINE.set(value)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining_time() -> float | None:
    """Seconds left before the deadline of :func:`compile_deadline` (at least 0), or
    None when no deadline is in force."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    at, clock = deadline
    return max(0.0, at - clock())


def check_deadline() -> None:
    """Raise :class:`OutOfTime` when the deadline of :func:`compile_deadline` has passed."""
    deadline = _DEADLINE.get()
    if deadline is not None and deadline[1]() > deadline[0]:
        raise OutOfTime("compiling passed the time limit")


_Item = TypeVar("_Item")


def checked(item: _Item) -> _Item:
    """``item``, once :func:`check_deadline` has passed: for the per-cell steps of a
    compile, as in ``[checked(sorted(p)) for p in peers]`` (10,000 cells of a 100 x 100
    grid, each a fraction of a millisecond, seconds in all)."""
    check_deadline()
    return item


@dataclass(frozen=True)
class Mark:
    """One thing to draw, as data: the terminal drawing and the page render marks
    without knowing the constraint type.

    - ``shape``: ``line`` (a polyline through cell centres; ``style`` names the
      line kind), ``bulb``, ``circle``, ``pill``, ``arrow``, ``dot-white``,
      ``dot-black``, ``edge-text`` (X/V on the edge of two cells), ``cage``
      (dashed outline, ``label`` top-left), ``outside`` (a clue outside the
      grid: ``cells`` = the cell it points into, ``style`` = the side it stands
      on: top, bottom, left, right, or a diagonal direction), ``quad``,
      ``odd``, ``even``, ``region``, ``relation`` (a sign between two cells),
      ``shade`` (cells tinted: diagonals, windows), ``rule`` (a rule over the
      whole grid, such as anti-knight, with no cells: ``label`` gives its words).
    - ``cells``: 0-based ``(row, column)``.
    """

    shape: str
    cells: tuple[Cell, ...]
    label: str = ""
    style: str = ""

    def as_json(self) -> dict[str, object]:
        """The mark for the page: ``{"shape", "cells": [[r, c], ...], "label", "style"}``."""
        return {
            "shape": self.shape,
            "cells": [list(cell) for cell in self.cells],
            "label": self.label,
            "style": self.style,
        }


C = TypeVar("C", bound="Constraint")


def cells_text(cells: Sequence[Cell]) -> str:
    """``{r1c1,r1c2}``: cells as messages name a group."""
    return "{" + ",".join(cell_name(c) for c in cells) + "}"


@dataclass(frozen=True)
class Constraint:
    """The base of every constraint type: cells, a check, words, text, marks, a decomposition.

    ``cells`` is a tuple of ``(row, column)``, 0-based.  Subclasses set the
    class attributes :attr:`type_name` (registry name and the keyword of its
    line in the variant text format), :attr:`summary` (the rule in one line)
    and :attr:`fpuzzles_key` (or None).
    """

    cells: tuple[Cell, ...]

    type_name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    fpuzzles_key: ClassVar[str | None] = None
    #: Whether values inside the constraint must differ (lets :meth:`allowed` prune).
    distinct_values: ClassVar[bool] = False
    #: Whether the rule holds for every order of values that meets it (a sum, a product):
    #: lets :meth:`allowed` see at its first tuple that a wide table passes the cap.
    symmetric: ClassVar[bool] = False

    def holds(self, values: Sequence[int]) -> bool:
        """Whether full ``values`` (one per cell, ``cells`` order) meet the constraint."""
        raise NotImplementedError

    def describe(self) -> str:
        """The constraint in words, naming its type and cells as rXcY."""
        raise NotImplementedError

    def _two_parts(
        self, count: str, first: Iterable[Cell], second: Iterable[Cell]
    ) -> tuple[tuple[Cell, ...], tuple[Cell, ...]]:
        """For a type whose cells come in two parts (a clone's two shapes, an arrow's
        circle and line), in its ``__init__``: set ``cells`` to ``first`` then ``second``
        and the field ``count`` to the length of ``first``; return both parts."""
        head, tail = tuple(first), tuple(second)
        object.__setattr__(self, "cells", head + tail)
        object.__setattr__(self, count, len(head))
        return head, tail

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Whether values for the first ``len(prefix)`` cells can still be completed.

        Sound pruning only: True is always allowed.
        """
        return True

    def decompose(self, puzzle: Rules) -> tuple[Constraint, ...]:
        """The constraint in core primitives (:mod:`cp_sudoku.constraints.primitives`).

        Default: one :class:`Table` of its allowed
        tuples over the puzzle's values.

        Raises:
            TableTooLarge: the table passes :data:`TABLE_CAP` tuples.
        """
        domains = [list(puzzle.values)] * len(self.cells)
        return (Table(self.cells, tuple(self.allowed_in(puzzle, domains))),)

    def marks(self) -> tuple[Mark, ...]:
        """What to draw for it (default: nothing drawn)."""
        return ()

    def to_text(self) -> str:
        """Its line of the variant text format: ``<type_name> <tokens...>``, cells as rXcY."""
        raise NotImplementedError(f"{type(self).__name__} has no text form")

    def text_line(self, *head: object) -> str:
        """``<type_name> <head...> r1c1 r1c2 ...``: the usual shape of :meth:`to_text`."""
        return " ".join([self.type_name, *map(str, head), *map(cell_token, self.cells)])

    @classmethod
    def from_text(cls: type[C], tokens: list[str], where: str) -> C:
        """Read the tokens after ``type_name`` on a line (``where`` = ``file:line``).

        Raises:
            PuzzleError: a token that does not fit, naming ``where`` and the token.
        """
        raise PuzzleError(f"{where}: {cls.type_name} has no text form")

    @classmethod
    def number_then_cells(cls: type[C], tokens: list[str], where: str, what: str) -> C:
        """``cls(cells, number)`` from the tokens ``<number> <cell> ...`` (a :meth:`from_text`
        for types built from their cells and one number: ``what`` names it).

        Raises:
            PuzzleError: no cell, a token that does not fit, or the type's own refusal,
                located at ``where``.
        """
        form = f"{cls.type_name} <{what}> <cell> ..."
        with located_at(where):
            (number,), cells = head_and_cells(tokens, where, 1, form)
            return cls(cells, parse_int(number, where, f"a {what}"))  # type: ignore[call-arg]

    @classmethod
    def examples(cls: type[C], rows: int, cols: int) -> tuple[C, ...]:
        """A few small instances on a ``rows`` x ``cols`` grid (4x4, 6x6), for tests."""
        return ()

    def allowed_in(self, puzzle: Rules, domains: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
        """:meth:`allowed` over ``domains``, the cells that share a unit of ``puzzle``
        differing (its peers are looked up only for a table of at most
        :data:`TABLE_CELLS` cells).

        Raises:
            TableTooLarge, OutOfTime: as :meth:`allowed`.
        """
        self._check_width()
        return self.allowed(domains, puzzle.differ_pairs(self.cells))

    def _check_width(self) -> None:
        if len(self.cells) > TABLE_CELLS:
            raise TableTooLarge(
                f"table for a {type(self).__name__.lower()} of {len(self.cells):,} cells: "
                f"tables span at most {TABLE_CELLS} cells"
            )

    def allowed(
        self, domains: Sequence[Sequence[int]], differ: Sequence[tuple[int, int]] = ()
    ) -> list[tuple[int, ...]]:
        """Every tuple of values, one per cell from its domain, that :meth:`holds`.

        ``differ`` lists positions ``(i, j)`` that must take different values
        (cells that share a unit); they prune the enumeration, as does
        :meth:`prefix_ok`.

        Raises:
            TableTooLarge: past :data:`TABLE_CAP` tuples, or over more than
                :data:`TABLE_CELLS` cells.
            OutOfTime: past the deadline of :func:`compile_deadline`.
        """
        self._check_width()
        check_deadline()  # before each table, however small: a rule may make thousands
        size = len(self.cells)
        before: list[list[int]] = [[] for _ in range(size)]
        pairs = combinations(range(size), 2) if self.distinct_values else differ
        differing = {(min(i, j), max(i, j)) for i, j in pairs}
        for i, j in sorted(differing):
            before[j].append(i)
        # every order of a tuple is another when the rule is symmetric, the cells all differ
        # and share one domain: one tuple then means size! of them
        orders = (
            self.symmetric
            and len(differing) == size * (size - 1) // 2
            and factorial(size) > TABLE_CAP
            and all(list(d) == list(domains[0]) for d in domains)
        )
        found: list[tuple[int, ...]] = []
        chosen: list[int] = []
        steps = [0]

        def extend(pos: int) -> None:
            steps[0] += 1  # leaves too: a 4-cell table of 16 values has 65,536 of them
            if steps[0] % 4096 == 0:
                check_deadline()
            if pos == size:
                if self.holds(chosen):
                    found.append(tuple(chosen))
                    if len(found) > TABLE_CAP or orders:
                        raise TableTooLarge(
                            f"table for {self.describe()} exceeds {TABLE_CAP} tuples"
                            + (f" (each of the {size}! orders of a tuple is one)" * orders)
                        )
                return
            for value in domains[pos]:
                if any(chosen[i] == value for i in before[pos]):
                    continue
                chosen.append(value)
                if self.prefix_ok(chosen):
                    extend(pos + 1)
                chosen.pop()

        extend(0)
        return found


#: type_name -> constraint class, every registered type.
REGISTRY: dict[str, type[Constraint]] = {}


def register(cls: type[C]) -> type[C]:
    """Class decorator: add a constraint type to :data:`REGISTRY` under its ``type_name``.

    Raises:
        ValueError: no ``type_name``, or one already taken by another class.
    """
    name = cls.type_name
    if not name or REGISTRY.get(name, cls) is not cls:
        raise ValueError(f"constraint type name {name!r} is empty or taken")
    REGISTRY[name] = cls
    return cls


def types() -> tuple[type[Constraint], ...]:
    """Every registered constraint type, by name."""
    return tuple(REGISTRY[name] for name in sorted(REGISTRY))


# --- Text helpers shared by the types' from_text / to_text ------------------------------------


@contextmanager
def located_at(where: str) -> Iterator[None]:
    """Give a :class:`PuzzleError` raised inside the location ``where`` when it has none
    (a type's own refusal while :meth:`Constraint.from_text` builds it).

    Raises:
        PuzzleError: the error raised inside, located (:meth:`PuzzleError.located`).
    """
    try:
        yield
    except PuzzleError as error:
        raise error.located(where) from None


def cell_token(cell: Cell) -> str:
    """``(0, 1)`` -> ``r1c2``."""
    return cell_name(cell)


def parse_cell(token: str, where: str) -> Cell:
    """``r1c2`` (any case) -> ``(0, 1)``.

    Raises:
        PuzzleError: not ``rXcY`` with X, Y >= 1, naming ``where`` and the token.
    """
    text = token.lower()
    if text.startswith("r") and "c" in text:
        row, _, col = text[1:].partition("c")
        if row.isascii() and col.isascii() and row.isdigit() and col.isdigit():
            r, c = int(row), int(col)
            if r >= 1 and c >= 1:
                return (r - 1, c - 1)
    raise PuzzleError(f"{where}: expected a cell rXcY, got {token!r}")


def parse_cells(tokens: Sequence[str], where: str) -> tuple[Cell, ...]:
    """Cells ``rXcY`` -> 0-based pairs (see :func:`parse_cell`)."""
    return tuple(parse_cell(t, where) for t in tokens)


def head_and_cells(
    tokens: Sequence[str], where: str, count: int, form: str
) -> tuple[Sequence[str], tuple[Cell, ...]]:
    """The first ``count`` tokens of a line, and the cells after them (at least one),
    the usual shape of :meth:`Constraint.from_text`.

    Raises:
        PuzzleError: fewer tokens (``expected <form>``), or a token after them that is
            not a cell.
    """
    if len(tokens) <= count:
        raise PuzzleError(f"{where}: expected {form}")
    return tokens[:count], parse_cells(tokens[count:], where)


def parse_int(token: str, where: str, what: str = "an integer") -> int:
    """An integer token (ASCII digits, optional leading ``-``).

    Raises:
        PuzzleError: naming ``where``, what was expected and the token.
    """
    body = token[1:] if token.startswith("-") else token
    if not (body.isascii() and body.isdigit()) or len(body) > 12:
        raise PuzzleError(f"{where}: expected {what}, got {token!r}")
    return int(token)


def expect_count(tokens: Sequence[str], count: int, where: str, form: str) -> None:
    """Raise :class:`PuzzleError` unless there are ``count`` tokens (``form``: the syntax)."""
    if len(tokens) != count:
        raise PuzzleError(f"{where}: expected {form}, got {' '.join(tokens) or 'nothing'}")


def values_token(values: Sequence[int]) -> str:
    """``(1, 2)`` -> ``1,2``: a tuple of values as one token."""
    return ",".join(str(v) for v in values)


def parse_values(token: str, size: int, where: str) -> tuple[int, ...]:
    """``1,2`` -> ``(1, 2)``, exactly ``size`` values.

    Raises:
        PuzzleError: another count, or a part that is not an integer.
    """
    parts = token.split(",")
    if len(parts) != size:
        raise PuzzleError(f"{where}: expected {size} values separated by ',', got {token!r}")
    return tuple(parse_int(p, where, "a value") for p in parts)


# --- The fallback primitive (here, since every type's default decompose builds one) -------


@register
@dataclass(frozen=True)
class Table(Constraint):
    """The cells take one of ``tuples`` (values in ``cells`` order).

    Raises:
        PuzzleError: a tuple of the wrong length, or more than
            :data:`~cp_sudoku.constraints.base.TABLE_CAP` tuples.
        OutOfTime: built past the deadline of :func:`compile_deadline` (a rule's
            decomposition may build hundreds of tables, each sorting thousands of tuples).
    """

    tuples: tuple[tuple[int, ...], ...] = ()

    type_name: ClassVar[str] = "table"
    summary: ClassVar[str] = "the cells take one of the listed tuples"

    def __init__(self, cells: Iterable[Cell], tuples: Iterable[Sequence[int]]) -> None:
        check_deadline()
        object.__setattr__(self, "cells", tuple(cells))
        object.__setattr__(self, "tuples", tuple(sorted(set(map(tuple, tuples)))))
        if any(len(t) != len(self.cells) for t in self.tuples):
            raise PuzzleError(f"{self.describe()}: a tuple of the wrong length", cells=self.cells)
        if len(self.tuples) > TABLE_CAP:
            raise PuzzleError(f"{self.describe()}: more than {TABLE_CAP} tuples", cells=self.cells)
        object.__setattr__(self, "_set", frozenset(self.tuples))

    def holds(self, values: Sequence[int]) -> bool:
        """``values`` is one of the tuples."""
        return tuple(values) in self._set  # type: ignore[attr-defined]

    def allowed_in(self, puzzle: Rules, domains: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
        """:meth:`allowed`: the tuples are listed, so no peer is needed."""
        return self.allowed(domains)

    def allowed(
        self, domains: Sequence[Sequence[int]], differ: Sequence[tuple[int, int]] = ()
    ) -> list[tuple[int, ...]]:
        """The tuples whose values lie in ``domains`` (``differ`` is not needed to prune)."""
        sets = [frozenset(d) for d in domains]
        return [t for t in self.tuples if all(v in s for v, s in zip(t, sets, strict=True))]

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """Some tuple starts with ``prefix``."""
        size = len(prefix)
        head = tuple(prefix)
        return any(t[:size] == head for t in self.tuples)

    def describe(self) -> str:
        """``table {r1c1,r1c2} (3 tuples)``."""
        return f"table {cells_text(self.cells)} ({len(self.tuples)} tuples)"

    def decompose(self, puzzle: Rules) -> tuple[Table, ...]:
        """Itself."""
        return (self,)

    def to_text(self) -> str:
        """``table r1c1 r1c2 : 1,2 2,1``."""
        shown = [values_token(t) for t in self.tuples]
        return " ".join([self.type_name, *map(cell_token, self.cells), ":", *shown])

    @classmethod
    def from_text(cls, tokens: list[str], where: str) -> Table:
        """``<cell> ... : v,v,... ...``."""
        if ":" not in tokens:
            raise PuzzleError(f"{where}: expected table <cell> ... : v,v,... ...")
        split = tokens.index(":")
        cells = parse_cells(tokens[:split], where)
        return cls(cells, (parse_values(t, len(cells), where) for t in tokens[split + 1 :]))

    @classmethod
    def examples(cls, rows: int, cols: int) -> tuple[Table, ...]:
        """Three cells of a column, increasing by one or two."""
        cells = ((0, 0), (1, 0), (2, 0))
        return (cls(cells, [(a, a + 1, a + 2) for a in range(1, 5)] + [(1, 3, 4)]),)
