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
"""

from __future__ import annotations

from dataclasses import dataclass

from cp_sudoku.constraints.base import check_deadline
from cp_sudoku.deduction.state import State, Step, bits
from cp_sudoku.model import cell_name

#: kind -> (technique, base rating, strong links in cells, strong links in groups,
#: weak links in cells)
KINDS = {
    "x": ("X-chain", 6.6, False, True, False),
    "xy": ("XY-chain", 6.6, True, False, False),
    "aic": ("alternating inference chain", 7.0, True, True, True),
}


def length_bonus(nodes: int) -> float:
    """Sudoku Explainer's rating added for a chain of ``nodes`` nodes
    (``ChainingHint.getLengthDifficulty``): 0.1 per step past 4, 6, 8, 12, 16, 24 ..."""
    added, ceiling, length, odd = 0.0, 4, nodes - 2, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return added


class Links:
    """The strong and weak links of a candidate grid, for one kind of chain."""

    def __init__(self, st: State, kind: str) -> None:
        _, _, in_cells, in_groups, weak_cells = KINDS[kind]
        self.st = st
        n = self.n = len(st.cand)
        self.weak_cells = weak_cells
        self.peer_bits = _peer_bits(st)
        self.digit_cells = [0] * len(st.s.values)
        self.cell_cands = [0] * n
        for i in st.open():
            for d in bits(st.cand[i]):
                self.digit_cells[d] |= 1 << i
                self.cell_cands[i] |= 1 << (d * n + i)
        self.strong: dict[int, int] = {}
        if in_cells:
            for i in st.open():
                if st.cand[i].bit_count() == 2:
                    a, b = bits(st.cand[i])
                    self._link(a * n + i, b * n + i)
        if in_groups:
            for gbits in _group_bits(st):
                for d in range(len(st.s.values)):
                    places = gbits & self.digit_cells[d]
                    if places.bit_count() == 2:
                        a, b = bits(places)
                        self._link(d * n + a, d * n + b)
        self.present = sum(self.digit_cells[d] << (d * n) for d in range(len(st.s.values)))
        self._weak: dict[int, int] = {}

    def _link(self, a: int, b: int) -> None:
        self.strong[a] = self.strong.get(a, 0) | 1 << b
        self.strong[b] = self.strong.get(b, 0) | 1 << a

    def weak(self, k: int) -> int:
        """The candidates weakly linked to candidate ``k`` (computed once per links)."""
        found = self._weak.get(k)
        if found is None:
            d, i = divmod(k, self.n)
            found = (self.peer_bits[i] & self.digit_cells[d]) << (d * self.n)
            if self.weak_cells:
                found |= self.cell_cands[i] & ~(1 << k)
            self._weak[k] = found
        return found

    def name(self, k: int) -> str:
        d, i = divmod(k, self.n)
        return f"{self.st.value(d)}{cell_name(self.st.s.cells[i])}"


@dataclass(frozen=True)
class _Chain:
    nodes: tuple[int, ...]  # W, ..., Y: alternately off and on, W off, Y on
    targets: int  # candidates seeing both ends


def _peer_bits(st: State) -> list[int]:
    found = st.memo.get("peer_bits")
    if found is None or len(found) != len(st.cand):
        found = [sum(1 << p for p in peers) for peers in st.s.peers]
        st.memo["peer_bits"] = found
    return found


def _group_bits(st: State) -> list[int]:
    found = st.memo.get("group_bits")
    if found is None:
        found = st.memo["group_bits"] = [sum(1 << i for i in g.cells) for g in st.s.full]
    return found


def _shortest_from(links: Links, w: int, limit: int) -> _Chain | None:
    """The shortest chain ``W off -> ... -> Y on`` (at most ``limit`` nodes) whose ends
    both see some candidate (breadth first)."""
    seen_off, seen_on = 1 << w, 0
    parent: dict[tuple[int, bool], int] = {}
    frontier = [w]
    w_weak = links.weak(w)
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
            targets = w_weak & links.weak(y)
            if targets:
                return _Chain(_path(parent, w, y), targets)
        frontier = []
        if nodes + 2 > limit:
            break
        for y in reached:
            fresh = links.weak(y) & ~seen_off
            seen_off |= fresh
            for v in bits(fresh):
                parent[(v, False)] = y
                frontier.append(v)
        nodes += 1
    return None


def _path(parent: dict[tuple[int, bool], int], w: int, y: int) -> tuple[int, ...]:
    path, node, on = [y], y, True
    while not (node == w and not on):
        node = parent[(node, on)]
        on = not on
        path.append(node)
    return tuple(reversed(path))


def chain(kind: str, max_nodes: int = 20):
    """The finder of the shortest chain of ``kind`` (``x``, ``xy``, ``aic``) that removes
    a candidate; chains of at most ``max_nodes`` nodes."""
    technique, base, *_ = KINDS[kind]

    def find(st: State) -> Step | None:
        links = Links(st, kind)
        if not links.strong:
            return None
        best: _Chain | None = None
        for w in bits(links.present):
            if w not in links.strong:
                continue
            check_deadline()
            limit = len(best.nodes) - 1 if best else max_nodes
            found = _shortest_from(links, w, limit)
            if found is not None:
                best = found
        if best is None:
            return None
        nodes = len(best.nodes) + 2  # with the target, at both ends
        removes = _removes(st, links, best.targets)
        text = f"{technique} {_notation(links, best.nodes)}: one end is true, so " + (
            "the candidates seeing both ends are false"
        )
        cells = [k % links.n for k in best.nodes]
        digits = sorted({k // links.n for k in best.nodes})
        return st.step(technique, base + length_bonus(nodes), cells, digits, text, removes=removes)

    return find


def _removes(st: State, links: Links, targets: int) -> tuple:
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


def _reach(links: Links, start: int) -> tuple[int, int, dict[int, int]]:
    """Everything ``start on`` implies: the candidates made true, those made false, and
    each one's distance in nodes."""
    on, off = 1 << start, 0
    dist = {start: 1}
    frontier_on = [start]
    nodes = 1
    weak, strong = links.weak, links.strong
    while frontier_on:
        frontier_off = []
        nodes += 1
        for u in frontier_on:
            fresh = weak(u) & ~off
            if fresh:
                off |= fresh
                for v in bits(fresh):
                    if -v - 1 not in dist:
                        dist[-v - 1] = nodes
                    frontier_off.append(v)
        frontier_on = []
        nodes += 1
        for u in frontier_off:
            fresh = strong.get(u, 0) & ~on
            if fresh:
                on |= fresh
                for v in bits(fresh):
                    if v not in dist:
                        dist[v] = nodes
                    frontier_on.append(v)
    return on, off, dist


def forcing_chains(st: State) -> Step | None:
    """Cell and unit forcing chains: every candidate of a cell (every place of a value
    in a full group) implies, along static chains, the same conclusion, which is
    therefore true (Sudoku Explainer's ``Cell``/``Region Forcing Chains``, 8.0 + length).
    """
    links = Links(st, "aic")
    n = links.n
    reach: dict[int, tuple[int, int, dict[int, int]]] = {}

    def branch(k: int) -> tuple[int, int, dict[int, int]]:
        if k not in reach:
            check_deadline()
            reach[k] = _reach(links, k)
        return reach[k]

    options = [(where, [d * n + i for i, d in starts]) for where, starts in st.alternatives()]
    best: tuple[float, Step] | None = None
    for where, starts in options:
        on, off = links.present, links.present
        for k in starts:
            b_on, b_off, _ = branch(k)
            on &= b_on
            off &= b_off
            if not (on | off):
                break
        on &= ~sum(1 << k for k in starts)
        placed = [k for k in bits(on) if not st.placed[k % n]]
        if not (off or placed):
            continue
        length = 0
        for k in starts:
            _, _, dist = branch(k)
            length += min(
                [dist[t] for t in placed if t in dist] + [dist.get(-t - 1, 99) for t in bits(off)]
            )
        rating = 8.0 + length_bonus(length)
        if best is not None and rating >= best[0]:
            continue
        removes = tuple(sorted((st.s.cells[k % n], st.s.values[k // n]) for k in bits(off)))
        places = [(k % n, k // n) for k in placed]
        text = f"forcing chains from every option of {where}: each leads to the same " + (
            "placement" if places else "eliminations"
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
