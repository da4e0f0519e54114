"""Product cages as sums of prime exponents, so that no back end enumerates their tables.

Positive integers multiply to a target exactly when, for every prime ``p``, the exponents
of ``p`` in them add up to the exponent of ``p`` in the target (unique factorisation).  So a
product cage over values of at least 1 is a conjunction of one sum per prime
(:func:`exponent_sums`): a sum for each prime of the values its cells may take, equal to
the target's exponent (0 for a prime the target lacks, which rules out every value holding
it), and, when the target keeps a factor no value can give, one sum that cannot be met.
Each back end writes the sums with its own machinery for sums: the CNF with layered partial
sums (:mod:`cp_sudoku.encodings.cnf`), the MIP with one row per prime, the backtracker with
bounds on each prime's sum (:class:`cp_sudoku.backends.backtrack_rules.Sums`).  A hidden
operator over three cells or more (sum or product) is the one or the other: in the CNF
each under a selector literal, in the backtracker the union of what each supports.

Why: a 15-cell product cage over the values 1..20 (a row of a 20 x 20 KenKen) has far more
allowed tuples than the table cap, so the back ends that compiled it as a table answered
``unknown``; its sums have at most 19 partial sums per cell and prime.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from cp_sudoku.model import Cage


@dataclass(frozen=True)
class ExponentSum:
    """One prime's sum: ``exponents[v]`` is the exponent of ``prime`` in value ``v`` (every
    value the cells may take, 0 included), and the exponents of the cells' values add up
    to ``total``.  For a factor of the target that no value divides, ``prime`` is that
    factor, every exponent 0 and ``total`` 1: a sum that cannot be met."""

    prime: int
    exponents: dict[int, int]
    total: int


def by_exponents(cage: Cage, values: Iterable[int]) -> bool:
    """Whether the cage's product is compiled as exponent sums: a product (``*``, or a
    hidden operator ``?``, sum or product over three cells or more) whose values are all at
    least 1 (a zero or negative value has no factorisation), with a positive target.
    ``values``: those the puzzle's cells may take."""
    return cage.op in "*?" and len(cage.cells) >= 3 and cage.target >= 1 and min(values) >= 1


@cache
def exponent_sums(target: int, values: tuple[int, ...]) -> tuple[ExponentSum, ...]:
    """The sums whose conjunction is ``product of the cells == target`` (module docstring),
    for cells taking ``values`` (each at least 1); one per prime dividing some value, in
    increasing order, then the unmeetable one when the target keeps another factor."""
    primes = sorted({p for v in values for p in _primes(v)})
    rest = target
    sums = []
    for p in primes:
        total = _exponent(rest, p)
        rest //= p**total
        sums.append(ExponentSum(p, {v: _exponent(v, p) for v in values}, total))
    if rest != 1:
        sums.append(ExponentSum(rest, dict.fromkeys(values, 0), 1))
    return tuple(sums)


def weighted_sums(
    op: str, target: int, values: tuple[int, ...]
) -> list[tuple[dict[int, int], int]]:
    """The cage ``op`` (``+`` or ``*``) to ``target``, over cells taking ``values``, as
    ``(weights, total)`` pairs that must all hold: the weights of the cells' values add up
    to ``total``.  ``+``: one pair, each value its own weight; ``*``: one per
    :func:`exponent_sums` (values at least 1).  The form the MIP's rows and the
    backtracker's :class:`~cp_sudoku.backends.backtrack_rules.Sums` take.

    Raises:
        ValueError: ``op`` is neither ``+`` nor ``*``.
    """
    if op == "+":
        return [(dict(zip(values, values, strict=True)), target)]
    if op == "*":
        return [(part.exponents, part.total) for part in exponent_sums(target, values)]
    raise ValueError(f"weighted_sums: op {op!r}, expected '+' or '*'")


def _primes(value: int) -> list[int]:
    """The primes dividing ``value`` (>= 1), by trial division (values are small)."""
    found, p = [], 2
    while p * p <= value:
        if value % p == 0:
            found.append(p)
            while value % p == 0:
                value //= p
        p += 1
    return found + ([value] if value > 1 else [])


def _exponent(value: int, prime: int) -> int:
    """The exponent of ``prime`` in ``value`` (>= 1)."""
    count = 0
    while value % prime == 0:
        value //= prime
        count += 1
    return count
