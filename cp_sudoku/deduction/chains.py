"""Chains of strong and weak links between candidates: X-chains, XY-chains, alternating
inference chains (nice loops) and static forcing chains.

A candidate is a (cell, digit) pair, numbered ``digit * cells + cell``; sets of them are
Python ints used as bit sets.  A *weak* link joins two candidates that cannot both be
true (one cell, or one digit in group peers): the first true makes the second false.
A *strong* link joins two that cannot both be false (the two digits of a bivalue cell,
the two places of a digit in a full group): the first false makes the second true.

Every chain here is a sequence of these implications, so each conclusion is sound by
construction: a candidate ``X`` whose truth implies its own falsehood is false.  An AIC
``W = ... = Y`` whose ends both see ``X`` gives ``X on -> W off -> ... -> Y on -> X off``;
a continuous nice loop gives the same for each candidate seeing both ends of one of its
weak links, so one search finds both.  The kinds differ in the links they may use
(Sudopedia, HoDoKu): an X-chain one digit only; an XY-chain strong links inside
bivalue cells and weak links between cells; an AIC any.  Ratings are Sudoku Explainer's
(``Forcing X-Chain``/``Y-Chain`` 6.6, ``Forcing Chain`` 7.0, ``Cell``/``Region Forcing
Chains`` 8.0), plus its length bonus (:func:`length_bonus`).

The link graphs and searches run in the C extension when it is built (:data:`COMPILED`),
else in the pure-Python code here; both take the same steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

from cp_sudoku.backends.base import load_kernel
from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.deduction.state import State, Step, bits
from cp_sudoku.model import Cell, cell_name

#: kind -> (technique, base rating, strong links in cells, strong links in groups,
#: weak links in cells)
KINDS = {
    "x": ("X-chain", 6.6, False, True, False),
    "xy": ("XY-chain", 6.6, True, False, False),
    "aic": ("alternating inference chain", 7.0, True, True, True),
}
#: The techniques these finders name.
TECHNIQUES_HERE = ("X-chain", "XY-chain", "alternating inference chain", "forcing chains")


def length_bonus(nodes: int) -> float:
    """Sudoku Explainer's rating added for a chain of ``nodes`` nodes
    (``ChainingHint.getLengthDifficulty``): 0.1 per step past 4, 6, 8, 12, 16, 24 ..."""
    added, ceiling, length, odd = 0.0, 4, nodes - 2, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


def _compiled() -> ModuleType | None:
    """The C extension's chain searches, or None (not built, built before they were
    added, or ``CP_SUDOKU_NO_KERNEL`` set): then the pure-Python searches run."""
    found, _ = load_kernel()
    if found is None:
        return None
    needed = ("chain_shape", "chain_links", "first_shortest", "shortest_from", "forcing")
    return found if all(hasattr(found, name) for name in needed) else None


#: The compiled link graphs and searches (``cp_sudoku/backends/_kernel.c``: what
#: :func:`_links`, :func:`_digit_links`, :func:`_first_shortest`, :func:`_shortest_from`
#: and :func:`_agreements` compute, over arrays of 64-bit words), or None.  Both paths
#: give the same results (tests/test_deduction.py compares them).
COMPILED = _compiled()


class Links:
    """The strong and weak links of a candidate grid, for one kind of chain
    (:func:`links_of`).

    ``strong``: candidate -> its strong partners (bit set); ``weak``: candidate -> its
    weak partners (bit set), for the candidates the kind's searches start from or reach
    (:func:`links_of`); ``linked``: the candidates with a strong link (bit set);
    ``present``: every candidate of an open cell.  With the C extension
    (:data:`COMPILED`) the tables are its ``graph`` instead (``strong`` and ``weak``
    empty), built and searched there.
    """

    def __init__(
        self,
        st: State,
        strong: dict[int, int],
        weak: dict[int, int],
        linked: int,
        present: int,
        graph: object = None,
    ) -> None:
        self.st = st
        self.n = len(st.cand)
        self.strong = strong
        self.weak = weak
        self.present = present
        self.linked = linked
        self.graph = graph

    def name(self, k: int) -> str:
        d, i = divmod(k, self.n)
        return f"{self.st.value(d)}{cell_name(self.st.s.cells[i])}"


#: chain_links' number of each kind
_KIND_NUMBERS = {"x": 0, "xy": 1, "aic": 2, "all": 3}


def _compiled_links(st: State, kind: str, digit: int = 0) -> Links:
    """:func:`_links` (``x``: :func:`_digit_links`), built by the C extension."""
    shape = st.shared.get("chain shape")
    if shape is None:
        s = st.s
        shape = st.shared["chain shape"] = COMPILED.chain_shape(  # type: ignore[union-attr]
            len(s.cells), len(s.values), list(s.peer_masks), list(s.masks)
        )
    graph, linked, present = COMPILED.chain_links(  # type: ignore[union-attr]
        shape, st.cand, st.placed, _KIND_NUMBERS[kind], digit
    )
    return Links(st, {}, {}, linked, present, graph)


def links_of(st: State, kind: str) -> Links:
    """The links of ``kind`` in ``st``'s candidate grid, built once per grid: ``xy`` (strong
    links in bivalue cells, weak links between one digit's places; weak links of the
    bivalue cells' candidates), ``aic`` (strong links in cells and groups, weak links in
    cells too; weak links of the linked candidates) and ``all`` (the same, with the weak
    links of every candidate: forcing chains start anywhere).  X-chains read one digit's
    links at a time (:func:`_digit_links`)."""
    if _compiles(st):
        return st.per_grid(f"links {kind}", lambda: _compiled_links(st, kind))
    return st.per_grid(f"links {kind}", lambda: _links(st, kind))


def _compiles(st: State) -> bool:
    """Whether the C extension builds and searches the links of ``st``'s puzzle (at most
    64 values, at most 4,096 candidates)."""
    return (
        COMPILED is not None and len(st.s.values) <= 64 and len(st.cand) * len(st.s.values) <= 4096
    )


def _links(st: State, kind: str) -> Links:
    in_cells, cell_linked = st.per_grid("cell links", lambda: _cell_links(st))
    present = 0
    for d, cells in enumerate(st.digit_cells()):
        present |= cells << (d * len(st.cand))
    if kind == "xy":
        return Links(st, in_cells, _weak(st, in_cells, False), cell_linked, present)
    if kind == "aic":
        both = dict(in_cells)
        group_linked = 0
        for d, cells in enumerate(st.digit_cells()):
            linked, strong = _group_links(st, cells, d * len(st.cand))
            group_linked |= linked
            for k, partners in strong.items():
                both[k] = both.get(k, 0) | partners
        return Links(st, both, _weak(st, both, True), cell_linked | group_linked, present)
    chained = links_of(st, "aic")
    weak = dict(chained.weak)
    weak.update(_weak(st, _open_candidates(st, weak), True))
    return Links(st, chained.strong, weak, chained.linked, present)


def _cell_links(st: State) -> tuple[dict[int, int], int]:
    """The strong links in bivalue cells, and the candidates they link."""
    n, cand = len(st.cand), st.cand
    in_cells: dict[int, int] = {}
    linked = 0
    for i in st.open():
        m = cand[i]
        if m.bit_count() == 2:
            a, b = bits(m)
            a, b = a * n + i, b * n + i
            in_cells[a] = 1 << b
            in_cells[b] = 1 << a
            linked |= 1 << a | 1 << b
    return in_cells, linked


def _group_links(st: State, cells: int, base: int) -> tuple[int, dict[int, int]]:
    """One digit's strong links in full groups (``cells`` its places, ``base`` the number
    of its first candidate): the candidates linked, and each one's partners."""
    strong: dict[int, int] = {}
    linked = 0
    for group in st.s.masks:
        places = group & cells
        high = places & (places - 1)
        if high and not high & (high - 1):  # exactly two places
            a = base + (places ^ high).bit_length() - 1
            b = base + high.bit_length() - 1
            strong[a] = strong.get(a, 0) | 1 << b
            strong[b] = strong.get(b, 0) | 1 << a
            linked |= 1 << a | 1 << b
    return linked, strong


def _digit_links(st: State, d: int) -> Links:
    """The links of X-chains of digit ``d``: its strong links in groups, its weak links
    between group peers."""
    if _compiles(st):
        return _compiled_links(st, "x", d)
    n, cells = len(st.cand), st.digit_cells()[d]
    linked, strong = _group_links(st, cells, d * n)
    return Links(st, strong, _weak(st, strong, False), linked, cells << (d * n))


def _weak(st: State, keys: Iterable[int], in_cells: bool) -> dict[int, int]:
    """The weak partners of each candidate of ``keys``: the same digit in its group peers,
    and with ``in_cells`` the other candidates of its cell."""
    n, cand = len(st.cand), st.cand
    digit_cells, peer_masks = st.digit_cells(), st.s.peer_masks
    spread: dict[int, int] = st.shared.setdefault("spread", {})
    found: dict[int, int] = {}
    for k in keys:
        d, i = divmod(k, n)
        weak = (peer_masks[i] & digit_cells[d]) << (d * n)
        if in_cells:
            m = cand[i]
            column = spread.get(m)
            if column is None:  # the candidates of mask m in cell 0
                column = spread[m] = sum(1 << (e * n) for e in bits(m))
            weak |= (column << i) ^ (1 << k)
        found[k] = weak
    return found


def _open_candidates(st: State, skip: Mapping[int, int]) -> list[int]:
    n, cand = len(st.cand), st.cand
    return [d * n + i for i in st.open() for d in bits(cand[i]) if d * n + i not in skip]


@dataclass(frozen=True)
class _Chain:
    nodes: tuple[int, ...]  # W, ..., Y: alternately off and on, W off, Y on
    targets: int  # candidates seeing both ends


def _shortest_from(links: Links, w: int, limit: int) -> _Chain | None:
    """The shortest chain ``W off -> ... -> Y on`` (at most ``limit`` nodes) whose ends
    both see some candidate (breadth first)."""
    if links.graph is not None:
        found = COMPILED.shortest_from(links.graph, w, limit)  # type: ignore[union-attr]
        return None if found is None else _Chain(*found)
    seen_off, seen_on = 1 << w, 0
    parent: dict[tuple[int, bool], int] = {}
    frontier = [w]
    weak, w_weak = links.weak, links.weak[w]
    nodes = 1
    while frontier and nodes + 1 <= limit:
        reached = []
        for u in frontier:
            fresh = links.strong.get(u, 0) & ~seen_on
            seen_on |= fresh
            for v in bits(fresh):
                parent[(v, True)] = u
                reached.append(v)
        nodes += 1
        for y in reached:
            targets = w_weak & weak[y]
            if targets:
                return _Chain(_path(parent, w, y), targets)
        frontier = []
        if nodes + 2 > limit:
            break
        for y in reached:
            fresh = weak[y] & ~seen_off
            seen_off |= fresh
            for v in bits(fresh):
                parent[(v, False)] = y
                frontier.append(v)
        nodes += 1
    return None


def _starts(links: Links) -> Sequence[int] | None:
    """Every linked candidate, ascending (None: the C extension reads them itself)."""
    return None if links.graph is not None else bits(links.linked)


def _first_shortest(
    links: Links, starts: Sequence[int] | None, limit: int
) -> tuple[int, int] | None:
    """``(nodes, w)`` of the first start ``w`` whose shortest chain (:func:`_shortest_from`)
    is the shortest of all (at most ``limit`` nodes), or None.

    The same breadth-first searches over bit sets, without the paths, one per start and
    advanced a level at a time together: the first start to reach a chain at the lowest
    level is the answer, and no search goes deeper than that level."""
    if links.graph is not None:
        check_deadline()
        shortest: tuple[int, int] | None = COMPILED.first_shortest(  # type: ignore[union-attr]
            links.graph, starts, limit
        )
        return shortest
    strong, weak, linked = links.strong, links.weak, links.linked
    if starts is None:
        starts = bits(linked)
    # per start: w, the candidates it sees, those reached off, those reached on, frontier
    searches = [(w, weak[w], 1 << w, 0, 1 << w) for w in starts]
    nodes = 1
    while searches and nodes + 1 <= limit:
        check_deadline()
        nodes += 1
        going = []
        for w, w_weak, seen_off, seen_on, frontier in searches:
            reached = _union(strong, frontier & linked) & ~seen_on
            seen_on |= reached
            frontier = 0
            while reached:
                y = reached.bit_length() - 1
                if w_weak & weak[y]:
                    return nodes, w
                frontier |= weak[y]
                reached ^= 1 << y
            frontier &= ~seen_off
            if frontier:
                going.append((w, w_weak, seen_off | frontier, seen_on, frontier))
        if nodes + 2 > limit:
            break
        searches = going
        nodes += 1
    return None


def _path(parent: dict[tuple[int, bool], int], w: int, y: int) -> tuple[int, ...]:
    path, node, on = [y], y, True
    while not (node == w and not on):
        node = parent[(node, on)]
        on = not on
        path.append(node)
    return tuple(reversed(path))


def chain(kind: str, max_nodes: int = 20) -> Callable[[State], Step | None]:
    """The finder of the shortest chain of ``kind`` (``x``, ``xy``, ``aic``) that removes
    a candidate; chains of at most ``max_nodes`` nodes."""
    technique, base, *_ = KINDS[kind]

    def find(st: State) -> Step | None:
        if kind == "x":
            best = _x_shortest(st, max_nodes)
            if best is None:
                return None
            found = _digit_links(st, best[1] // len(st.cand))
        else:
            found = links_of(st, kind)
            if not found.linked:
                return None
            best = _first_shortest(found, _starts(found), max_nodes)
            if best is None:
                return None
        shortest = _shortest_from(found, best[1], best[0])
        assert shortest is not None  # the same search as _first_shortest's
        nodes = len(shortest.nodes) + 2  # with the target, at both ends
        removes = _removes(st, found, shortest.targets)
        text = f"{technique} {_notation(found, shortest.nodes)}: one end is true, so " + (
            "the candidates seeing both ends are false"
        )
        cells = [k % found.n for k in shortest.nodes]
        digits = sorted({k // found.n for k in shortest.nodes})
        return st.step(technique, base + length_bonus(nodes), cells, digits, text, removes=removes)

    return find


def _x_shortest(st: State, limit: int) -> tuple[int, int] | None:
    """:func:`_first_shortest` over every start, for X-chains: a digit's chains depend on
    its places alone, so each digit's first shortest is kept per places (shared by copies)."""
    known = st.shared.setdefault(("x-chain", limit), {})
    best = None
    for d, cells in enumerate(st.digit_cells()):
        key = (d, cells)
        if key not in known:
            found = _digit_links(st, d)
            known[key] = _first_shortest(found, _starts(found), limit)
        mine = known[key]
        if mine is not None and (best is None or mine[0] < best[0]):
            best = mine
    return best


def _removes(st: State, links: Links, targets: int) -> tuple[tuple[Cell, int], ...]:
    return tuple(
        sorted((st.s.cells[k % links.n], st.s.values[k // links.n]) for k in bits(targets))
    )


def _notation(links: Links, nodes: tuple[int, ...]) -> str:
    """Eureka-like: ``5r1c2 = 5r1c7 - 7r1c7 = ...`` (``=`` strong, ``-`` weak)."""
    parts = [links.name(nodes[0])]
    for k, node in enumerate(nodes[1:]):
        parts.append("=" if k % 2 == 0 else "-")
        parts.append(links.name(node))
    return " ".join(parts)


def _reach(links: Links, start: int) -> tuple[int, int, list[int], list[int]]:
    """Everything ``start on`` implies: the candidates made true, those made false, and
    per level those first made true (at 1, 3, 5 ... nodes) and false (2, 4, 6 ...)."""
    weak, strong, linked = links.weak, links.strong, links.linked
    on, off = 1 << start, 0
    made_on, made_off = [on], []
    made = on
    while made:
        fresh = _union(weak, made) & ~off
        off |= fresh
        made_off.append(fresh)
        made = _union(strong, fresh & linked) & ~on
        on |= made
        made_on.append(made)
    return on, off, made_on, made_off


def _union(table: Mapping[int, int] | Sequence[int], keys: int) -> int:
    """The union of ``table[k]`` over the bits ``k`` of ``keys``."""
    found = 0
    while keys:  # the bits of keys, highest first
        k = keys.bit_length() - 1
        found |= table[k]
        keys ^= 1 << k
    return found


def _nodes(levels: list[int], mask: int, first: int) -> int:
    """The nodes to the nearest candidate of ``mask`` in ``levels`` (99 if none)."""
    for j, level in enumerate(levels):
        if level & mask:
            return first + 2 * j
    return 99


def forcing_chains(st: State) -> Step | None:
    """Cell and unit forcing chains: every candidate of a cell (every place of a value
    in a full group) implies, along static chains, the same conclusion, which is
    therefore true (Sudoku Explainer's ``Cell``/``Region Forcing Chains``, 8.0 + length).
    """
    found = links_of(st, "all")
    n = found.n
    options = [(where, [d * n + i for i, d in starts]) for where, starts in st.alternatives()]
    best: tuple[float, Step] | None = None
    for index, on, off, length in _agreements(found, [starts for _, starts in options]):
        rating = 8.0 + length_bonus(length)
        if best is not None and rating >= best[0]:
            continue
        where, starts = options[index]
        removes = tuple(sorted((st.s.cells[k % n], st.s.values[k // n]) for k in bits(off)))
        places = [(k % n, k // n) for k in bits(on)]
        text = (
            f"forcing chains from every option of {st.option_name(where)}: each leads to the "
            f"same {'placement' if places else 'eliminations'}"
        )
        step = st.step(
            "forcing chains",
            rating,
            [k % n for k in starts],
            sorted({k // n for k in starts}),
            text,
            removes=removes,
            places=places,
        )
        best = (rating, step)
    return best[1] if best else None


def _agreements(links: Links, options: list[list[int]]) -> list[tuple[int, int, int, int]]:
    """Per option (candidates one of which is true) whose branches all make some other
    candidate true or some candidate false: its index, those made true, those made
    false, and the nodes summed over the branches to the nearest of them.  (Every
    candidate made true is of an open cell: each branch's are within ``present``.)"""
    if links.graph is not None:
        branches: list[tuple[int, int, int, int]] = COMPILED.forcing(  # type: ignore[union-attr]
            links.graph, options, links.present
        )
        return branches
    reach: dict[int, tuple[int, int, list[int], list[int]]] = {}

    def branch(k: int) -> tuple[int, int, list[int], list[int]]:
        if k not in reach:
            check_deadline()
            reach[k] = _reach(links, k)
        return reach[k]

    found = []
    for index, starts in enumerate(options):
        on, off = links.present, links.present
        for k in starts:
            b_on, b_off, _, _ = branch(k)
            on &= b_on
            off &= b_off
            if not (on | off):
                break
        if on:
            for k in starts:
                on &= ~(1 << k)
        if not (off or on):
            continue
        length = 0
        for k in starts:
            _, _, made_on, made_off = branch(k)
            length += min(_nodes(made_on, on, 1), _nodes(made_off, off, 2))
        found.append((index, on, off, length))
    return found
