"""The options shared by the commands, each defined once.

:func:`solving_options` gives a command one :class:`Solving` argument (which
back ends, the limits, back-end options); :func:`reading_options` one
:class:`Reading` argument (box, alphabet, format).

Back-end options are generic: ``--option KEY=VALUE`` sets ``KEY`` on every
chosen back end that declares it (:attr:`Backend.options`), and ``--option
NAME.KEY=VALUE`` on back end ``NAME`` only.  The value is read as the
option's declared type: a number, ``true``/``false``, a JSON object, or
text.  ``--sat-solver X`` and ``--max-tries N`` are short for ``--option
solver=X`` and ``--option max_tries=N``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from cp_sudoku.backends import DEFAULT_BACKENDS, available, backend_class
from cp_sudoku.backends.base import Option, check_limits
from cp_sudoku.io import READERS, Alphabet, parse_alphabet
from cp_sudoku.kinds.grid import parse_box
from cp_sudoku.model import CpSudokuError, PuzzleError, UsageError
from cp_sudoku.run import Plan, cores

F = TypeVar("F", bound=Callable[..., Any])
#: The default cross-check in a help text (:func:`cp_sudoku.crosscheck.lineup`).
DEFAULT_HELP = (
    "sat and kernel; on a puzzle with rules the kernel declines, cpsat, sat and backtrack"
)
#: The short flags and the generic option each stands for.
SHORTHANDS = {"--sat-solver": "solver", "--max-tries": "max_tries"}


def time_limit(_ctx: click.Context, _param: click.Parameter, text: str | None) -> float | None:
    """``--time-limit``: seconds > 0; ``inf`` and values too large for a timer mean no
    limit (None).  The check is :func:`cp_sudoku.backends.base.check_limits`, as in the API.
    """
    if text is None:
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise click.BadParameter(f"expected a number of seconds, got {text!r}") from None
    try:
        return check_limits(1, seconds)
    except UsageError as error:
        raise click.BadParameter(str(error)) from None


@dataclass(frozen=True)
class Solving:
    """What ``--backend``, ``--limit``, ``--time-limit`` and the back-end options ask for.

    ``settings`` holds ``(flag, "[NAME.]KEY=VALUE")`` pairs as given.
    """

    backends: tuple[str, ...]
    limit: int
    time_limit: float | None
    settings: tuple[tuple[str, str], ...] = ()

    def plan(self) -> Plan:
        """The :class:`~cp_sudoku.run.Plan`, each back-end option sent where it belongs.

        Raises:
            UsageError: a malformed setting, an option no chosen back end
                declares, or a value its option does not accept.
        """
        names = self.backends or DEFAULT_BACKENDS
        options: dict[str, dict[str, Any]] = {name: {} for name in names}
        for flag, text in self.settings:
            target, key, value = _setting(flag, text)
            for name in _receivers(flag, target, key, names):
                declared = backend_class(name).options[key]
                options[name][key] = _typed(declared, value, f"{flag} {text}")
        plan = Plan(
            self.backends or None,  # none named: the default cross-check, chosen per puzzle
            {name: found for name, found in options.items() if found},
            self.limit,
            self.time_limit,
        )
        for name in (*plan.always, *plan.options):  # a rejected option fails here, once
            plan.backend(name)
        return plan


def _setting(flag: str, text: str) -> tuple[str | None, str, str]:
    """``[NAME.]KEY=VALUE`` split into (NAME or None, KEY, VALUE)."""
    name, equals, value = text.partition("=")
    target, dot, key = name.rpartition(".")
    if not equals or not key:
        raise UsageError(f"{flag} {text!r}: expected KEY=VALUE or BACKEND.KEY=VALUE")
    return (target if dot else None), key.strip(), value.strip()


def _receivers(flag: str, target: str | None, key: str, names: tuple[str, ...]) -> list[str]:
    """The chosen back ends a setting of ``key`` goes to."""
    if target is not None:
        if target not in names:
            raise UsageError(f"{flag}: back end {target} is not chosen (add --backend {target})")
        if key not in backend_class(target).options:
            known = ", ".join(backend_class(target).options) or "none"
            raise UsageError(f"{flag}: {target} has no option {key!r} (options: {known})")
        return [target]
    chosen = [name for name in names if key in backend_class(name).options]
    if not chosen:
        declaring = [name for name in available() if key in backend_class(name).options]
        if not declaring:
            keys = dict.fromkeys(k for name in available() for k in backend_class(name).options)
            raise UsageError(
                f"{flag} {key}: no back end has an option {key!r} (options: {', '.join(keys)})"
            )
        raise UsageError(
            f"{flag} applies to the back ends with option {key!r} ({', '.join(declaring)}), "
            "and none is chosen"
        )
    return chosen


def _typed(option: Option, text: str, where: str) -> Any:
    """``text`` read as the option's type: bool, int, float, a JSON object, or str."""
    kinds = option.type if isinstance(option.type, tuple) else (option.type,)
    readers: dict[type, Callable[[str], Any]] = {
        bool: _boolean,
        int: int,
        float: float,
        dict: lambda t: json.loads(t) if t.lstrip().startswith("{") else _not(t),
        str: str,
    }
    for kind in kinds:
        reader = readers.get(kind)
        if reader is None:
            continue
        try:
            return reader(text)
        except (ValueError, json.JSONDecodeError):
            continue
    expected = " or ".join(k.__name__ for k in kinds)
    raise UsageError(f"{where}: expected {expected}, got {text!r}")


def _boolean(text: str) -> bool:
    truth = {"true": True, "yes": True, "1": True, "on": True}
    truth |= {"false": False, "no": False, "0": False, "off": False}
    if text.lower() not in truth:
        raise ValueError(text)
    return truth[text.lower()]


def _not(text: str) -> Any:
    raise ValueError(text)


def solving_options(*, limit: int, default: str = DEFAULT_HELP) -> Callable[[F], F]:
    """``--backend``, ``--limit`` (default ``limit``), ``--time-limit``, ``--option``,
    ``--sat-solver``, ``--max-tries``: the command receives ``solving: Solving``.
    ``default`` says in ``--backend``'s help what runs when none is named."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(
            *args: Any,
            backends: tuple[str, ...],
            limit: int,
            time_limit: float | None,
            option: tuple[str, ...],
            sat_solver: str | None,
            max_tries: int | None,
            **kwargs: Any,
        ) -> Any:
            settings = [("--option", text) for text in option]
            for flag, value in (("--sat-solver", sat_solver), ("--max-tries", max_tries)):
                if value is not None:
                    settings.append((flag, f"{SHORTHANDS[flag]}={value}"))
            solving = Solving(backends, limit, time_limit, tuple(settings))
            return command(*args, solving=solving, **kwargs)

        for decorator in reversed(_solving_decorators(limit, default)):
            wrapper = decorator(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate


def backend_option(verb: str, default: str = DEFAULT_HELP) -> Callable[[F], F]:
    """``--backend NAME`` (repeatable), a registered back end: ``backends`` tuple;
    ``default`` says what runs when none is named."""
    return click.option(
        "--backend",
        "backends",
        multiple=True,
        metavar="NAME",
        type=click.Choice(available()),
        help=f"Back end to {verb} (repeatable; default: {default}).",
    )


def count_option(
    flag: str,
    help: str,
    *,
    metavar: str = "N",
    default: int | Callable[[], int] | None = None,
    show_default: bool | str = True,
) -> Callable[[F], F]:
    """``flag N``, a whole number of at least 1 (None when not given and no default)."""
    return click.option(
        flag,
        metavar=metavar,
        type=click.IntRange(min=1),
        default=default,
        show_default=show_default,
        help=help,
    )


def processes_option(flag: str, help: str) -> Callable[[F], F]:
    """``flag N``: how many processes, by default all cores (:func:`cp_sudoku.run.cores`)."""
    return count_option(flag, help, default=cores, show_default="all cores")


#: ``--jobs N`` of the commands that run a file of puzzles in a process pool.
jobs_option = processes_option(
    "--jobs", "Processes to use, at most the cores and the puzzles; output stays in input order."
)


def time_limit_option(per: str, past: str = "the verdict is unknown") -> Callable[[F], F]:
    """``--time-limit SECONDS`` checked by :func:`time_limit`: ``time_limit`` float or None;
    the help says what it bounds (``per``) and what happens ``past`` it."""
    return click.option(
        "--time-limit",
        metavar="SECONDS",
        callback=time_limit,
        help=f"{per} (inf: none); past it {past}.",
    )


def _solving_decorators(limit: int, default: str) -> list[Callable[[Any], Any]]:
    return [
        backend_option("run", default),
        count_option(
            "--limit",
            "Solutions to look for per back end (2 proves uniqueness).",
            metavar="K",
            default=limit,
        ),
        time_limit_option("Seconds per back end and puzzle"),
        click.option(
            "--option",
            multiple=True,
            metavar="[BACKEND.]KEY=VALUE",
            help="A back-end option (repeatable): KEY goes to every chosen back end that "
            "has it, BACKEND.KEY to that one, e.g. solver=cadical195, max_tries=1000, "
            "cpsat.parameters='{\"num_workers\": 1}'.",
        ),
        click.option(
            "--sat-solver",
            metavar="NAME",
            help="Short for --option solver=NAME: the python-sat solver, e.g. cadical195.",
        ),
        count_option(
            "--max-tries",
            "Short for --option max_tries=N: tries after which a backtracker stops (unknown).",
        ),
    ]


@dataclass(frozen=True)
class Reading:
    """How to read the puzzles: ``box`` (rows, columns), ``alphabet``, ``format``
    (None: default or detected)."""

    box: tuple[int, int] | None = None
    alphabet: Alphabet | None = None
    format: str | None = None


def _box(_ctx: click.Context, _param: click.Parameter, text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        return parse_box(text)
    except PuzzleError as error:
        raise click.BadParameter(error.message) from None


def _alphabet(_ctx: click.Context, _param: click.Parameter, text: str | None) -> Alphabet | None:
    try:
        return None if text is None else parse_alphabet(text)
    except CpSudokuError as error:
        raise click.BadParameter(str(error)) from None


def reading_options(command: F) -> F:
    """``--box``, ``--alphabet`` and ``--format``: the command receives ``reading: Reading``."""

    @functools.wraps(command)
    def wrapper(
        *args: Any,
        box: tuple[int, int] | None,
        alphabet: Alphabet | None,
        format_: str | None,
        **kwargs: Any,
    ) -> Any:
        return command(*args, reading=Reading(box, alphabet, format_), **kwargs)

    decorators = [
        click.option(
            "--box",
            callback=_box,
            metavar="RxC",
            help="Box shape ROWSxCOLUMNS, e.g. 2x3 (default: the squarest).",
        ),
        click.option(
            "--alphabet",
            metavar="A",
            callback=_alphabet,
            help="Symbols of the values 1..n: 0-9A-F, 1-9A-G, 1-9A-P, numbers, ... "
            "(default: inferred when certain).",
        ),
        click.option(
            "--format",
            "format_",
            metavar="F",
            type=click.Choice(sorted(READERS)),
            help="Input format (default: detected): one puzzle per line, grid text, CSV, "
            "or a variant format.",
        ),
    ]
    for decorator in reversed(decorators):
        wrapper = decorator(wrapper)
    return wrapper  # type: ignore[return-value]
