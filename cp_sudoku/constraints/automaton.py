"""Rules read left to right by a finite automaton over the cells' digits.

A type that subclasses :class:`Automaton` gives :meth:`~Automaton.start`,
:meth:`~Automaton.step` and :meth:`~Automaton.accept`; :meth:`~Automaton.holds`
and :meth:`~Automaton.prefix_ok` follow from them, and so do the back ends'
native encodings (the ``cpsat`` back end's ``add_automaton``; in CNF, one
literal per reachable state of each layer, as for the layered sums): the rule
and its encodings cannot disagree.  Sandwich and X-sum clues
(:mod:`cp_sudoku.constraints.outside`) are automata whose tables would have
tens of thousands of tuples.  The layered state encoding is the one of
Bacchus, "GAC via unit propagation" (CP 2007) for the ``regular`` constraint.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from cp_sudoku.constraints.base import Constraint, TableTooLarge, check_deadline

State = Hashable
#: The most moves the layers of one rule hold by default (about 100 bytes each): the
#: values read so far make up to 2**n states on a line of n cells (a 100 x 100 Skyscraper
#: clue reached a MemoryError).
MAX_MOVES = 1_000_000
#: Per position: (state, value, next state) moves that can still reach acceptance.
Layers = list[list[tuple[State, int, State]]]


class Automaton(Constraint):
    """A rule checked by running an automaton over ``values`` in ``cells`` order."""

    def start(self) -> State:
        """The state before the first cell."""
        raise NotImplementedError

    def step(self, state: State, value: int) -> State | None:
        """The state after reading ``value``; None when no completion can hold."""
        raise NotImplementedError

    def accept(self, state: State) -> bool:
        """Whether the state after the last cell meets the rule."""
        raise NotImplementedError

    def run(self, values: Sequence[int]) -> State | None:
        """The state after ``values`` (None once dead)."""
        state: State | None = self.start()
        for value in values:
            if state is None:
                return None
            state = self.step(state, value)
        return state

    def holds(self, values: Sequence[int]) -> bool:
        """The automaton accepts ``values``."""
        state = self.run(values)
        return state is not None and self.accept(state)

    def prefix_ok(self, prefix: Sequence[int]) -> bool:
        """The automaton is still alive after ``prefix``."""
        return self.run(prefix) is not None

    def layers(
        self,
        domains: Sequence[Sequence[int]],
        distinct: bool = False,
        cap: int | None = MAX_MOVES,
    ) -> Layers:
        """The moves at each position, over the cells' ``domains``, that lie on an accepted run.

        Forward: the states reachable from :meth:`start`; backward: only those from
        which an accepting state can be reached by the end.  With ``distinct`` (cells
        that share a unit), a run repeats no value: a state is then the pair (the
        automaton's state, the values read so far as a bit set, bit ``v`` for value
        ``v``; values are never negative).

        Raises:
            TableTooLarge: more than ``cap`` moves reached forward (None: no cap; by
                default :data:`MAX_MOVES`, so that memory stays bounded).
            OutOfTime: past the deadline of
                :func:`~cp_sudoku.constraints.base.compile_deadline`.
        """
        start = self.start()
        reach: list[set[State]] = [{(start, 0) if distinct else start}]
        moves: Layers = []
        count = 0
        for values in domains:
            found = []
            for state in reach[-1]:
                check_deadline()
                for value in values:
                    after = self._next(state, value, distinct)
                    if after is not None:
                        found.append((state, value, after))
                if cap is not None and count + len(found) > cap:
                    raise TableTooLarge(f"layers for {self.describe()} exceed {cap} moves")
            count += len(found)
            moves.append(found)
            reach.append({after for _, _, after in found})
        alive = {s for s in reach[-1] if self.accept(s[0] if distinct else s)}  # type: ignore[index]
        for k in range(len(moves) - 1, -1, -1):
            moves[k] = [move for move in moves[k] if move[2] in alive]
            alive = {state for state, _, _ in moves[k]}
        return moves

    def _next(self, state: State, value: int, distinct: bool) -> State | None:
        """:meth:`step`, and with ``distinct`` on (state, values read) pairs, refusing a repeat."""
        if not distinct:
            return self.step(state, value)
        inner, used = cast("tuple[State, int]", state)
        if used >> value & 1:
            return None
        after = self.step(inner, value)
        return None if after is None else (after, used | 1 << value)
