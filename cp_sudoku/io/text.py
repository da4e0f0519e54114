"""The variant text format: every kind, read and written (``to_text``).

A puzzle starts at its ``kind:`` line; the keys the kind declares follow
(:mod:`cp_sudoku.kinds`), one per line, each read by its grammar
(:mod:`cp_sudoku.io.sections`).  ``alphabet:`` names the symbols of a
``grid:``.  A ``#`` at the start of a line or after a space starts a comment.
A file may hold several puzzles::

    # comments start with '#'
    kind: sudoku            # any kind of cp_sudoku.kinds (x-sudoku, windoku: old names)
    extras: diagonals windows
    grid:
    .......1.
    ...
    constraints:            # any kind: more rules, one per line, <type_name> <tokens...>
    relation < 0 r1c1 r1c2
    cage 10+ distinct r2c1 r3c1

The keys of a kind build its preset rules (a Killer's units and cages); a
``constraints:`` section adds any registered constraint type
(:data:`cp_sudoku.constraints.REGISTRY`), each line read by its type.

:func:`to_text` writes any puzzle of a registered kind so that
:func:`parse_text` gives an equal puzzle back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from cp_sudoku.io.alphabet import NUMBERS, Where, parse_alphabet
from cp_sudoku.io.entry import Entry
from cp_sudoku.io.grammar import strip_comment
from cp_sudoku.io.options import ReadOptions
from cp_sudoku.io.sections import GRAMMARS, Rows, write_constraints
from cp_sudoku.kinds import ALIASES, KINDS, kind_of
from cp_sudoku.kinds.base import CageText, GridText, RelationText
from cp_sudoku.model import Cell, Puzzle, PuzzleError

#: The key of the generic section every kind takes: more constraints, one per line.
CONSTRAINTS = "constraints"
#: Every key of every kind, plus ``kind``, ``alphabet`` and ``constraints``.
KEYS = (
    "kind",
    "alphabet",
    CONSTRAINTS,
    *sorted({key for kind in KINDS.values() for key in kind.keys}),
)
_KEY_LINE = re.compile(r"^\s*(" + "|".join(map(re.escape, KEYS)) + r")\s*:(.*)$", re.IGNORECASE)


def is_kind_line(line: str) -> bool:
    """Whether ``line`` is a ``kind:`` line (the start of a puzzle in this format)."""
    match = _KEY_LINE.match(strip_comment(line))
    return match is not None and match.group(1).lower() == "kind"


@dataclass
class _Block:
    """One puzzle: its ``kind:`` line number and text, key -> (line, lines), first error."""

    start: int
    text: str
    keys: dict[str, tuple[int, Rows]] = field(default_factory=dict)
    error: PuzzleError | None = None


def read_text_lines(
    lines: Iterable[str], source: str = "<input>", options: ReadOptions | None = None
) -> Iterator[Entry]:
    """Each puzzle of variant text, one Entry per ``kind:`` block, in order.

    Raises:
        PuzzleError: no ``kind:`` line at all, or text before the first one.
    """
    found = False
    for block in _blocks(lines, source):
        found = True
        try:
            puzzle = _build(block, source, options or ReadOptions())
            yield Entry(source, block.start, block.text, puzzle=puzzle)
        except PuzzleError as error:
            yield Entry(source, block.start, block.text, error=error.located(source, block.start))
    if not found:
        raise PuzzleError("no puzzle found: expected a 'kind:' line", source=source)


def parse_text(text: str, source: str = "<input>") -> Puzzle:
    """The single puzzle of variant ``text``.

    Raises:
        PuzzleError: the text holds no puzzle, several, or a bad one.
    """
    entries = list(read_text_lines(text.splitlines(), source))
    if len(entries) != 1:
        raise PuzzleError(f"expected one puzzle, found {len(entries)}", source=source)
    if entries[0].error is not None:
        raise entries[0].error
    assert entries[0].puzzle is not None
    return entries[0].puzzle


def _blocks(lines: Iterable[str], source: str) -> Iterator[_Block]:
    """The ``kind:`` blocks of ``lines``; a fault inside a block is kept in it.

    Raises:
        PuzzleError: a line before the first ``kind:`` line.
    """
    block: _Block | None = None
    section: Rows | None = None
    for number, raw in enumerate(lines, start=1):
        line = strip_comment(raw)
        if not line.strip():
            continue
        match = _KEY_LINE.match(line)
        key = match.group(1).lower() if match else None
        if key == "kind":
            if block is not None:
                yield block
            block = _Block(number, line)
        elif block is None:
            raise PuzzleError(
                f"expected a 'kind:' line first, got {line.strip()[:30]!r}",
                source=source,
                line=number,
            )
        if block.error is not None:
            continue
        if match and key is not None:
            rest = match.group(2).strip()
            if key in block.keys:
                block.error = PuzzleError(
                    f"'{key}:' appears twice in one puzzle", source=source, line=number
                )
                continue
            grammar = GRAMMARS.get(_grammar_name(block, key) or "")
            rows: Rows = [(number, rest)] if rest else []
            block.keys[key] = (number, rows)
            section = rows if grammar is not None and grammar.section else None
        elif section is None:
            block.error = PuzzleError(
                f"expected 'key: value' ({', '.join(KEYS)}), got {line.strip()[:30]!r}",
                source=source,
                line=number,
            )
        else:
            section.append((number, line))
    if block is not None:
        yield block


def _grammar_name(block: _Block, key: str) -> str | None:
    """The grammar of ``key`` for the block's kind (None if the kind is unknown or lacks it)."""
    if key == CONSTRAINTS:
        return CONSTRAINTS
    if "kind" not in block.keys:
        return None
    name = block.keys["kind"][1][0][1].lower() if block.keys["kind"][1] else ""
    kind = KINDS.get(ALIASES.get(name, (name, ()))[0])
    return kind.keys.get(key) if kind else None


def _build(block: _Block, source: str, options: ReadOptions) -> Puzzle:
    rows = block.keys["kind"][1]
    name = rows[0][1].lower() if rows else ""
    kind = kind_of(name)
    for key, (number, _) in block.keys.items():
        if key not in ("kind", "alphabet", CONSTRAINTS, *kind.keys):
            raise PuzzleError(f"'{key}:' does not apply to a {name}", source=source, line=number)
    if block.error is not None:
        raise block.error
    extras = ALIASES.get(name, (name, ()))[1]
    alphabet = options.alphabet
    if "alphabet" in block.keys:
        number, rows = block.keys["alphabet"]
        try:
            alphabet = parse_alphabet(" ".join(text for _, text in rows))
        except PuzzleError as error:
            raise error.located(source, number) from None
    values: dict[str, Any] = {}
    lines: dict[Cell, int] = {}
    for key, (number, rows) in block.keys.items():
        where = Where(source, number)
        if key in ("kind", "alphabet"):
            continue
        grammar = GRAMMARS[CONSTRAINTS if key == CONSTRAINTS else kind.keys[key]]
        if grammar.section and not rows:
            raise where.error(f"a {name} needs a '{key}:' section with at least one line")
        try:
            values[key] = grammar.read(rows, where, alphabet)
        except PuzzleError as error:
            raise error.located(source, number) from None
        lines.update(_cell_lines(values[key]))
    if extras or "extras" in values:
        named = (*extras, *values.get("extras", ()))
        unknown = [extra for extra in named if extra not in kind.extras]
        if unknown:
            raise PuzzleError(
                f"extra {unknown[0]!r} does not apply to a {kind.name}",
                source=source,
                line=block.keys.get("extras", (block.start, []))[0],
            )
        values["extras"] = named
    added = tuple(constraint for _, constraint in values.pop(CONSTRAINTS, []))
    try:
        puzzle = kind.build(values, f"{source}:{block.start}")
        return replace(puzzle, constraints=puzzle.constraints + added) if added else puzzle
    except PuzzleError as error:
        line = next((lines[cell] for cell in error.cells if cell in lines), None)
        raise error.located(source, error.line or line or block.start) from None


def _cell_lines(value: object) -> dict[Cell, int]:
    """Cell -> the line of the last cage or relation that names it (to locate model errors)."""
    found: dict[Cell, int] = {}
    for item in value if isinstance(value, list) else ():
        if isinstance(item, CageText) and item.line:
            found.update((cell, item.line) for cell in item.cells)
        elif isinstance(item, RelationText) and item.line:
            found.update({item.first: item.line, item.second: item.line})
        elif isinstance(item, tuple):  # (line, constraint) of a constraints: section
            found.update((cell, item[0]) for cell in item[1].cells)
    return found


def to_text(puzzle: Puzzle) -> str:
    """``puzzle`` in the variant text format; :func:`parse_text` reads it back equal.

    The kind's keys write its preset rules; every other constraint goes in the
    ``constraints:`` section, one line each.  Nothing is dropped: a puzzle whose
    rules the kind's keys do not rebuild exactly, followed by the rest, is refused.

    Raises:
        PuzzleError: the puzzle's kind is not registered, or has no text form
            (a KenKen or Kakuro built with ``distinct`` changed, or given givens,
            which its keys cannot write); a constraint that cannot be written.
    """
    kind = kind_of(puzzle.kind)
    keys = kind.text(puzzle)
    built = kind.build(keys, puzzle.name)
    preset = built.constraints
    if puzzle.constraints[: len(preset)] != preset:
        raise PuzzleError(
            f"a {kind.name} puzzle whose rules its keys do not rebuild (a preset rule "
            "removed, changed or moved) has no text form"
        )
    if dict(built.givens) != dict(puzzle.givens):
        raise PuzzleError(
            f"a {kind.name} puzzle with givens has no text form: its keys write no grid"
        )
    rest = puzzle.constraints[len(preset) :]
    lines = [f"kind: {kind.name}"]
    for key, value in keys.items():
        grammar = GRAMMARS[kind.keys[key]]
        alphabet = getattr(value, "alphabet", None)
        if alphabet:
            lines.append(f"alphabet: {parse_alphabet(alphabet).name}")
        elif isinstance(value, GridText) and len(value.values) > 81:
            lines.append(f"alphabet: {NUMBERS.name}")  # past 9 x 9, as its grid is written
        written = grammar.write(value)
        if grammar.section:
            lines += [f"{key}:", *written]
        else:
            lines.append(f"{key}: {written[0]}")
    if rest:
        lines += [f"{CONSTRAINTS}:", *write_constraints(rest)]
    return "\n".join(lines) + "\n"
