"""The ``cp-sudoku`` command line: a thin shell over the package API.

Commands: ``solve``, ``check``, ``count``, ``compare``, ``export``.  Results
go to stdout; progress, summaries and diagnostics go to stderr.  Bad input
is one line on stderr, never a traceback.

Exit codes: 0 every puzzle is unique; 1 some puzzle has no solution or
several; 2 bad input; 3 ``unknown`` (a limit stopped the search), a
disagreement between back ends, or a verdict that contradicts a stated
solution.  When several apply, the highest wins.  A command whose output
reader goes away (``| head``) stops with 141, as if stopped by SIGPIPE.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from cp_sudoku import __version__
from cp_sudoku.backends import DEFAULT_BACKENDS, available, backend_class
from cp_sudoku.batch import Outcome, Plan, check_entries, default_jobs
from cp_sudoku.bench import bench
from cp_sudoku.crosscheck import DECLINED, Verdict, judge
from cp_sudoku.display import (
    error_record,
    format_stats,
    result_record,
    side_by_side,
    verdict_record,
)
from cp_sudoku.encodings.exporters import EXPORTERS
from cp_sudoku.encodings.exporters import export as write
from cp_sudoku.formats import (
    DIGITS,
    HEAD_LINES,
    READERS,
    Alphabet,
    Entry,
    count_entries,
    detect_format,
    grid_string,
    parse_alphabet,
    parse_line,
    parse_row,
    read_file,
    read_lines,
    read_text,
)
from cp_sudoku.model import Puzzle, PuzzleError, UsageError
from cp_sudoku.puzzles import sudoku

EXIT_OK, EXIT_NOT_UNIQUE, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 128 + 13  # SIGPIPE
_EXIT_OF_STATUS = {"unique": EXIT_OK, "multiple": EXIT_NOT_UNIQUE, "none": EXIT_NOT_UNIQUE}
#: Statistics that measure the encoding rather than the search.
#: The built-in example: the Wikipedia "Sudoku" article's puzzle, the first
#: example of the classic backtracking tutorial (4,208 tries in ``plain``).
EXAMPLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

F = TypeVar("F", bound=Callable[..., Any])


# --- Options shared by several commands ------------------------------------------------------


def _box(_ctx: click.Context, _param: click.Parameter, text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        rows, cols = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"expected ROWSxCOLUMNS such as 2x3, got {text!r}") from None
    return rows, cols


def _alphabet(_ctx: click.Context, _param: click.Parameter, text: str | None) -> Alphabet | None:
    try:
        return None if text is None else parse_alphabet(text)
    except PuzzleError as error:
        raise click.BadParameter(error.message) from None


def reading_options(command: F) -> F:
    """``--box``, ``--alphabet`` and ``--format``: how to read the puzzles."""
    command = click.option(
        "--format",
        "format_",
        type=click.Choice(sorted(READERS)),
        help="Input format (default: detected): one puzzle per line, grid text, or CSV.",
    )(command)
    command = click.option(
        "--alphabet",
        callback=_alphabet,
        help="Symbols of the values 1..n: 0-9A-F, 1-9A-G, 1-9A-P, numbers, ... "
        "(default: inferred when certain).",
    )(command)
    return click.option(
        "--box", callback=_box, help="Box shape ROWSxCOLUMNS, e.g. 2x3 (default: the squarest)."
    )(command)


def backend_options(*, limit: int) -> Callable[[F], F]:
    """``--backend``, ``--limit``, ``--time-limit``, ``--sat-solver``, ``--max-tries``."""

    def decorate(command: F) -> F:
        for option in reversed(
            [
                click.option(
                    "--backend",
                    "backends",
                    multiple=True,
                    type=click.Choice(available()),
                    help=f"Back end to run (repeatable; default: {', '.join(DEFAULT_BACKENDS)}).",
                ),
                click.option(
                    "--limit",
                    default=limit,
                    show_default=True,
                    type=click.IntRange(min=1),
                    help="Solutions to look for per back end (2 proves uniqueness).",
                ),
                click.option(
                    "--time-limit",
                    type=click.FloatRange(min=0, min_open=True),
                    help="Seconds per back end and puzzle; past it the verdict is unknown.",
                ),
                click.option(
                    "--sat-solver",
                    help="python-sat solver for the sat back ends, e.g. cadical195.",
                ),
                click.option(
                    "--max-tries",
                    type=click.IntRange(min=1),
                    help="Tries after which the backtrack back ends stop (unknown).",
                ),
            ]
        ):
            command = option(command)
        return command

    return decorate


def _plan(
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    sat_solver: str | None,
    max_tries: int | None,
) -> Plan:
    """The plan of the chosen back ends, each with the options meant for its family.

    A family is the name before the first ``-``: ``--sat-solver`` goes to
    ``sat`` and ``sat-naive``, ``--max-tries`` to ``backtrack`` and
    ``backtrack-plain``.
    """
    names = tuple(backends or DEFAULT_BACKENDS)
    families = {name: name.split("-")[0] for name in names}
    for flag, value, family in (
        ("--sat-solver", sat_solver, "sat"),
        ("--max-tries", max_tries, "backtrack"),
    ):
        if value is not None and family not in families.values():
            raise click.UsageError(f"{flag} applies to the {family} back ends, and none is chosen")
    options: dict[str, dict[str, Any]] = {}
    for name, family in families.items():
        if family == "sat" and sat_solver is not None:
            options[name] = {"solver": sat_solver}
        if family == "backtrack" and max_tries is not None:
            options[name] = {"max_tries": max_tries}
    plan = Plan(names, options, limit, time_limit)
    try:
        plan.build()
    except ValueError as error:
        _fail(str(error))
    return plan


# --- Reading ---------------------------------------------------------------------------------


def _entries(
    target: str | None, box: tuple[int, int] | None, alphabet: Alphabet | None, format_: str | None
) -> Iterator[Entry]:
    """Puzzles from a file, from stdin (``-`` or nothing), or from the argument itself."""
    if target is None or target == "-":
        return read_lines(sys.stdin, "<stdin>", box=box, alphabet=alphabet, format=format_)
    try:
        is_file, is_dir = Path(target).is_file(), Path(target).is_dir()
    except OSError:  # a name too long for a path: a puzzle written out
        is_file = is_dir = False
    if is_file:
        return read_file(target, box=box, alphabet=alphabet, format=format_)
    if is_dir:
        raise PuzzleError(f"{target} is a directory: expected a puzzle file or a puzzle")
    if "/" in target or re.search(r"\.[a-z][a-z0-9]{1,4}$", target):
        raise PuzzleError(f"no such file: {target}")
    return read_text(target, "<argument>", box=box, alphabet=alphabet, format=format_)


def _fail(message: str) -> NoReturn:
    click.echo(f"cp-sudoku: error: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@contextmanager
def _bad_input() -> Iterator[None]:
    """Bad input anywhere inside: one line on stderr and exit code 2.

    When the reader of the output goes away (``check big.txt | head``) the
    command stops quietly with 141, as a Unix tool stopped by SIGPIPE does.
    """
    try:
        yield
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_BROKEN_PIPE)
    except PuzzleError as error:
        _fail(str(error))
    except UnicodeDecodeError as error:
        _fail(f"not a UTF-8 text file ({error.reason} at byte {error.start})")
    except OSError as error:
        _fail(f"{error.strerror or error}: {error.filename}")


def _exit_code(verdict: Verdict, mismatch: str | None = None) -> int:
    if mismatch or not verdict.agree:
        return EXIT_UNKNOWN
    return _EXIT_OF_STATUS.get(verdict.status, EXIT_UNKNOWN)


def _report(
    label: str, verdict: Verdict, mismatch: str | None, echo: Callable[[str], None]
) -> None:
    for problem in verdict.disagreements:
        echo(f"cp-sudoku: DISAGREEMENT at {label}: {problem}")
    if mismatch:
        echo(f"cp-sudoku: MISMATCH at {label}: {mismatch}")


# --- The group -------------------------------------------------------------------------------


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cp-sudoku")
def main() -> None:
    """Formulate and verify Sudoku-like puzzles with three cross-checked back ends.

    \b
    Examples:
      cp-sudoku solve --example
      cp-sudoku check models/sudoku-9x9-tutorial.txt
      cp-sudoku check ../shared/data/sudoku/royle-17clue.txt --json --jobs 2 > results.jsonl
    """


# --- solve -----------------------------------------------------------------------------------


@main.command()
@click.argument("puzzle", required=False)
@click.option("--example", is_flag=True, help="Solve the built-in example (the tutorial's 9x9).")
@backend_options(limit=2)
@reading_options
def solve(
    puzzle: str | None,
    example: bool,
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    sat_solver: str | None,
    max_tries: int | None,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    format_: str | None,
) -> None:
    """Solve puzzles and show each beside its solution, with the search statistics.

    PUZZLE is a puzzle written on the command line, a file, or '-' for
    stdin.  Without it, on a terminal, the puzzle is typed in row by row
    (--box 2x2 for a 4x4; --alphabet for sizes above 9).

    \b
    Examples:
      cp-sudoku solve --example --backend backtrack-plain
      cp-sudoku solve ......122..4.4..
      cp-sudoku solve models/sudoku-9x9-hard.txt --backend sat --sat-solver cadical195
    """
    plan = _plan(backends, limit, time_limit, sat_solver, max_tries)
    code = EXIT_OK
    with _bad_input():
        if example:
            entries: Iterator[Entry] = read_text(EXAMPLE, "<example>")
        elif puzzle is None and sys.stdin.isatty():
            entries = iter([Entry("<terminal>", 1, "", puzzle=_ask_puzzle(box, alphabet))])
        else:
            entries = _entries(puzzle, box, alphabet, format_)
        for number, outcome in enumerate(check_entries(entries, plan, jobs=1)):
            entry, verdict = outcome.entry, outcome.verdict
            if verdict is None or entry.puzzle is None:
                click.echo(f"cp-sudoku: error: {entry.error}", err=True)
                code = max(code, EXIT_BAD_INPUT)
                continue
            click.echo(("\n" if number else "") + _solve_text(entry, entry.puzzle, verdict))
            _report(entry.label, verdict, outcome.mismatch, _echo_err)
            code = max(code, _exit_code(verdict, outcome.mismatch))
    sys.exit(code)


def _echo_err(line: str) -> None:
    click.echo(line, err=True)


def _solve_text(entry: Entry, puzzle: Puzzle, verdict: Verdict) -> str:
    """The side-by-side display and the statistics lines of one solved puzzle."""
    lines = [] if entry.source in ("<argument>", "<example>", "<terminal>") else [entry.label]
    if verdict.solution:
        lines.append(side_by_side(puzzle, verdict.solution))
    elif verdict.solutions:
        lines.append(side_by_side(puzzle, verdict.solutions[0], headings=("Puzzle", "Solution 1")))
    else:
        lines.append(side_by_side(puzzle, None))
    lines.append("")
    plain = verdict.results.get("backtrack-plain")
    if plain and plain.solutions and "first_tries" in plain.stats:
        lines.append(f"Solved in {plain.stats['first_tries']:,} tries.")
    lines.append(_status_sentence(verdict))
    for name, result in verdict.results.items():
        lines.append(
            f"  {name}: {result.status} in {_ms(result.seconds)} ({format_stats(result.stats)})"
        )
    return "\n".join(lines)


def _status_sentence(verdict: Verdict) -> str:
    found = len(verdict.solutions)
    return {
        "unique": "Unique: exactly one solution.",
        "multiple": f"Multiple: at least {found} solutions; one is shown.",
        "none": "None: the puzzle has no solution.",
    }.get(
        verdict.status,
        "Unknown: "
        + ("the back ends disagree." if not verdict.agree else "a limit stopped the search.")
        + (f" {found} solution(s) found; one is shown." if found else ""),
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:,.1f} s"


def _ask_puzzle(box: tuple[int, int] | None, alphabet: Alphabet | None) -> Puzzle:
    """A puzzle typed in row by row, as in the classic tutorial program.

    Each row is checked as it comes (symbols, count, clashes with the rows
    before); a bad row is asked again with a hint.  A whole puzzle pasted on
    one line is accepted too.
    """
    shape = box or (3, 3)
    n = shape[0] * shape[1]
    if alphabet is None:
        if n > 9:
            _fail(f"typing in a {n}x{n} puzzle needs --alphabet (for example 1-9A-G)")
        alphabet = Alphabet(DIGITS[:n])
    symbols = [alphabet.symbol(v if v % 2 == 0 else 0) for v in range(1, n + 1)]
    example = " | ".join(
        " ".join(symbols[start : start + shape[1]]) for start in range(0, n, shape[1])
    )
    hint = (
        f"A row is {n} symbols: {alphabet.expected(n)}; spaces and '|' are ignored. "
        f"For example: {example}"
    )
    click.echo(f"Enter the {n}x{n} puzzle one row at a time, or paste it whole on one line.")
    click.echo(hint)
    rows: list[int] = []
    while len(rows) < n * n:
        try:
            text = input(f"Row {len(rows) // n + 1}: ")
        except EOFError:
            _fail("the input ended before the puzzle was complete")
        if not rows:
            try:  # a whole puzzle pasted on one line
                return parse_line(text, box=shape, alphabet=alphabet, source="<terminal>")
            except PuzzleError:
                pass  # then it is the first row
        try:
            values = parse_row(text, n, alphabet)
            sudoku(rows + values + [0] * (n * n - len(rows) - n), shape, alphabet=alphabet.stored)
        except PuzzleError as error:
            where = f"column {error.column}: " if error.column else ""
            click.echo(f"  That row does not fit: {where}{error.message}. {hint}")
            continue
        rows += values
    return sudoku(rows, shape, name="<terminal>", alphabet=alphabet.stored)


# --- check -----------------------------------------------------------------------------------


@main.command()
@click.argument("puzzle_or_file")
@backend_options(limit=2)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle (JSON lines).")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=default_jobs,
    show_default="all cores",
    help="Processes to use; output stays in input order.",
)
def check(
    puzzle_or_file: str,
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    sat_solver: str | None,
    max_tries: int | None,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    format_: str | None,
    as_json: bool,
    jobs: int,
) -> None:
    """Say for each puzzle whether it has no solution, exactly one, or several.

    PUZZLE_OR_FILE is a file (one puzzle per line, grid text, or CSV with a
    header), '-' for stdin, or one puzzle written on the command line.  One
    line (or JSON object) per puzzle goes to stdout, in input order; a
    progress bar (on a terminal) and the summary table go to stderr.

    \b
    Examples:
      cp-sudoku check models/sudoku-9x9-tutorial.txt
      cp-sudoku check ......122..4.4..
      cp-sudoku check puzzles.csv --json --jobs 2 | jq .status
    """
    from rich.console import Console

    plan = _plan(backends, limit, time_limit, sat_solver, max_tries)
    console = Console(stderr=True, highlight=False)
    summary = _Summary()
    with _bad_input():
        entries = _entries(puzzle_or_file, box, alphabet, format_)
        total = _total(puzzle_or_file, format_) if console.is_terminal else None
        with _progress(console, total) as (advance, out, err):
            for outcome in check_entries(entries, plan, jobs):
                entry, verdict = outcome.entry, outcome.verdict
                if verdict is None:
                    err(f"cp-sudoku: error: {entry.error}")
                    # every input puzzle has its line on stdout, a bad one included
                    out(json.dumps(error_record(entry)) if as_json else f"{entry.label}  invalid")
                else:
                    record = verdict_record(entry, verdict, outcome.mismatch)
                    out(json.dumps(record) if as_json else _text_line(entry, verdict))
                    _report(entry.label, verdict, outcome.mismatch, err)
                summary.add(outcome)
                advance()
        summary.print(console, jobs)
    sys.exit(summary.code)


def _total(target: str, format_: str | None) -> int | None:
    """How many entries a file holds, for the progress bar (None when not cheap to know)."""
    if not Path(target).is_file():
        return None
    if format_ is None:
        with open(target, encoding="utf-8") as handle:
            format_ = detect_format(list(islice(handle, HEAD_LINES)), target)
    return count_entries(target, format_)


Emit = Callable[[str], None]


def _writer(stream: Any) -> Emit:
    def emit(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return emit


@contextmanager
def _progress(console: Any, total: int | None) -> Iterator[tuple[Callable[[], None], Emit, Emit]]:
    """``advance``, ``out`` (results, stdout) and ``err`` (diagnostics, stderr) for a loop.

    On a terminal, a progress bar on stderr shows done/total, rate and time
    left, and diagnostics scroll above it; results printed to a terminal
    stdout scroll above it too (through the bar's console, so the bar stays
    whole), and results to a file or pipe go straight to stdout.  Elsewhere
    there is no bar.
    """
    if not console.is_terminal:
        yield (lambda: None), _writer(sys.stdout), _writer(sys.stderr)
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.1f} puzzles/s" if speed else "", style="progress.data.speed")

    progress = Progress(
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        redirect_stdout=False,
        redirect_stderr=False,
    )

    def show(line: str) -> None:
        progress.console.print(line, markup=False, highlight=False, soft_wrap=True)

    with progress:
        task = progress.add_task("check", total=total)
        out = show if sys.stdout.isatty() else _writer(sys.stdout)
        yield (lambda: progress.advance(task)), out, show


def _text_line(entry: Entry, verdict: Verdict) -> str:
    times = "  ".join(f"{name} {_ms(result.seconds)}" for name, result in verdict.results.items())
    alphabet = entry.puzzle.alphabet if entry.puzzle else None
    solution = grid_string(verdict.solution, alphabet) if verdict.solution else "-"
    return f"{entry.label}  {verdict.status:<8}  {solution}  {times}"


class _Summary:
    """Counts by status and time per back end over a run, and the exit code."""

    def __init__(self, sizes: tuple[str, ...]) -> None:
        self.sizes = sizes  # the statistics that measure encoding size, not effort
        self.statuses: Counter[str] = Counter()
        self.seconds: dict[str, float] = {}
        self.slowest: dict[str, float] = {}
        self.mismatches = 0
        self.disagreements = 0
        self.code = EXIT_OK
        self.start = time.perf_counter()

    def add(self, outcome: Outcome) -> None:
        verdict = outcome.verdict
        if verdict is None:
            self.statuses["invalid"] += 1
            self.code = max(self.code, EXIT_BAD_INPUT)
            return
        self.statuses[verdict.status] += 1
        self.disagreements += not verdict.agree
        self.mismatches += outcome.mismatch is not None
        for name, result in verdict.results.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + result.seconds
            self.slowest[name] = max(self.slowest.get(name, 0.0), result.seconds)
        self.code = max(self.code, _exit_code(verdict, outcome.mismatch))

    def print(self, console: Any, jobs: int) -> None:
        from rich.table import Table

        wall = time.perf_counter() - self.start
        total = sum(self.statuses.values())
        checked = total - self.statuses["invalid"]
        table = Table(title="Summary", title_justify="left")
        table.add_column("status")
        table.add_column("puzzles", justify="right")
        for status in ("unique", "multiple", "none", "unknown", "invalid"):
            if self.statuses[status]:
                table.add_row(status, f"{self.statuses[status]:,}")
        if self.disagreements:
            table.add_row("of which disagreements", f"{self.disagreements:,}")
        if self.mismatches:
            table.add_row("stated solution contradicted", f"{self.mismatches:,}")
        table.add_row("total", f"{total:,}", end_section=True)
        times = Table(title="Time per back end", title_justify="left")
        for heading in ("back end", "total s", "mean ms", "max ms"):
            times.add_column(heading, justify="left" if heading == "back end" else "right")
        for name, seconds in self.seconds.items():
            mean = seconds / checked * 1000 if checked else 0.0
            times.add_row(
                name, f"{seconds:,.2f}", f"{mean:,.2f}", f"{self.slowest[name] * 1000:,.1f}"
            )
        console.print(table)
        console.print(times)
        rate = f" ({total / wall:,.1f} puzzles/s)" if wall > 0 else ""
        console.print(f"{total:,} puzzles in {wall:,.2f} s{rate}, --jobs {jobs}")


# --- count -----------------------------------------------------------------------------------


@main.command()
@click.argument("puzzle")
@backend_options(limit=1000)
@reading_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
def count(
    puzzle: str,
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    sat_solver: str | None,
    max_tries: int | None,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    format_: str | None,
    as_json: bool,
) -> None:
    """Count the distinct solutions, up to --limit, and say whether the count is exact.

    A count below the limit is exact when a back end exhausted its search;
    reaching the limit means "at least".  The back ends are cross-checked:
    every grid is re-verified and their counts must agree.

    \b
    Examples:
      cp-sudoku count 34..12.....3....
      cp-sudoku count ................ --limit 1000 --backend sat
    """
    plan = _plan(backends, limit, time_limit, sat_solver, max_tries)
    built = plan.build()
    code = EXIT_OK
    with _bad_input():
        for entry in _entries(puzzle, box, alphabet, format_):
            if entry.puzzle is None:
                click.echo(f"cp-sudoku: error: {entry.error}", err=True)
                code = max(code, EXIT_BAD_INPUT)
                continue
            results = {
                b.name: b.solve(entry.puzzle, limit=limit, time_limit=time_limit) for b in built
            }
            verdict = judge(entry.puzzle, results)
            found = len(verdict.solutions)
            finished = [name for name, r in results.items() if r.complete]
            problems = list(verdict.disagreements) + [
                f"{name} finished with {len(results[name].solutions)} solutions, "
                f"but {found} distinct solutions were found"
                for name in finished
                if len(results[name].solutions) != found
            ]
            exact = bool(finished) and not problems
            if as_json:
                click.echo(
                    json.dumps(
                        {
                            "source": entry.source,
                            "line": entry.line,
                            "count": found,
                            "exact": exact,
                            "limit": limit,
                            "backends": {
                                n: result_record(r) | {"complete": r.complete}
                                for n, r in results.items()
                            },
                        }
                    )
                )
            else:
                label = "" if entry.source == "<argument>" else f"{entry.label}: "
                click.echo(label + _count_sentence(found, exact, limit, results))
            for problem in problems:
                click.echo(f"cp-sudoku: DISAGREEMENT at {entry.label}: {problem}", err=True)
            code = max(
                code,
                EXIT_UNKNOWN if problems else _EXIT_OF_STATUS.get(verdict.status, EXIT_UNKNOWN),
            )
    sys.exit(code)


def _count_sentence(found: int, exact: bool, limit: int, results: dict[str, Any]) -> str:
    noun = "solution" if found == 1 else "solutions"
    if exact:
        return f"{found:,} {noun} (exact: the search finished)"
    if found >= limit:
        return f"at least {found:,} {noun} (stopped at the limit {limit:,}; raise --limit)"
    stopped = ", ".join(
        name for name, r in results.items() if not r.complete and len(r.solutions) < limit
    )
    return f"at least {found:,} {noun} (the time limit stopped {stopped})"


# --- compare ---------------------------------------------------------------------------------


@main.command()
@click.argument("puzzle_or_file")
@backend_options(limit=2)
@reading_options
def compare(
    puzzle_or_file: str,
    backends: tuple[str, ...],
    limit: int,
    time_limit: float | None,
    sat_solver: str | None,
    max_tries: int | None,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    format_: str | None,
) -> None:
    """One table row per back end: verdicts, time, search effort, encoding size.

    For a file the row sums the time and the effort over its puzzles and
    averages the encoding size.

    \b
    Examples:
      cp-sudoku compare models/sudoku-9x9-tutorial.txt
      cp-sudoku compare models/sudoku-9x9-hard.txt --backend cpsat --backend cpsat-naive
    """
    from rich.console import Console
    from rich.table import Table

    plan = _plan(backends, limit, time_limit, sat_solver, max_tries)
    rows = {name: _CompareRow(backend_class(name).size_statistics) for name in plan.backends}
    code = EXIT_OK
    with _bad_input():
        entries = _entries(puzzle_or_file, box, alphabet, format_)
        for outcome in check_entries(entries, plan, jobs=1):
            if outcome.verdict is None:
                click.echo(f"cp-sudoku: error: {outcome.entry.error}", err=True)
                code = max(code, EXIT_BAD_INPUT)
                continue
            for name, result in outcome.verdict.results.items():
                status = DECLINED if result.stopped == DECLINED else result.status
                rows[name].add(status, result.seconds, result.stats)
            _report(
                outcome.entry.label,
                outcome.verdict,
                outcome.mismatch,
                _echo_err,
            )
            code = max(code, _exit_code(outcome.verdict, outcome.mismatch))
    table = Table(
        title=f"Back ends on {puzzle_or_file if len(puzzle_or_file) < 60 else 'the puzzle'}",
        title_justify="left",
    )
    for heading in ("back end", "status", "time", "effort", "encoding"):
        table.add_column(heading, justify="right" if heading == "time" else "left")
    for name, row in rows.items():
        table.add_row(name, *row.cells())
    Console(highlight=False).print(table)
    sys.exit(code)


class _CompareRow:
    """One back end's figures summed over the puzzles compared."""

    def __init__(self, sizes: tuple[str, ...]) -> None:
        self.sizes = sizes  # the statistics that measure encoding size, not effort
        self.statuses: Counter[str] = Counter()
        self.seconds = 0.0
        self.effort: Counter[str] = Counter()
        self.encoding: Counter[str] = Counter()

    def add(self, status: str, seconds: float, stats: dict[str, int]) -> None:
        self.statuses[status] += 1
        self.seconds += seconds
        for name, value in stats.items():
            (self.encoding if name in self.sizes else self.effort)[name] += value

    def cells(self) -> tuple[str, str, str, str]:
        puzzles = sum(self.statuses.values())
        if puzzles == 1:
            status = next(iter(self.statuses))
            time_ = _ms(self.seconds)
        else:
            status = ", ".join(f"{n:,} {s}" for s, n in self.statuses.most_common())
            time_ = f"{self.seconds:,.2f} s (mean {_ms(self.seconds / max(puzzles, 1))})"
        mean = {name: round(total / max(puzzles, 1)) for name, total in self.encoding.items()}
        return status, time_, format_stats(self.effort) or "-", format_stats(mean) or "-"


# --- export ----------------------------------------------------------------------------------


@main.command()
@click.argument("puzzle")
@click.option(
    "--to",
    "target",
    type=click.Choice(list(EXPORTERS)),
    required=True,
    help="Format to write: "
    + "; ".join(f"{name}: {e.summary}" for name, e in EXPORTERS.items())
    + ".",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="File to write (default: stdout).",
)
@click.option(
    "--encoding",
    type=click.Choice(["minimal", "efficient", "extended", "optimised"]),
    help="CNF encoding, for the formats that take one (dimacs; default optimised).",
)
@reading_options
def export(
    puzzle: str,
    target: str,
    output: str | None,
    encoding: str | None,
    box: tuple[int, int] | None,
    alphabet: Alphabet | None,
    format_: str | None,
) -> None:
    """Write one puzzle in another tool's format: DIMACS, CP-SAT, MiniZinc, XCSP3, OPB, LP, MPS.

    The DIMACS file starts with comments that map each variable to (row,
    column, value), 1-based; the OPB file maps its variables to the 0-1
    model's names (x_r1c2_5: r1c2 holds 5), which the LP and MPS files use.

    \b
    Examples:
      cp-sudoku export ......122..4.4.. --to dimacs -o tutorial.cnf
      cp-sudoku export models/sudoku-4x4-tutorial.txt --to cpsat
      cp-sudoku export models/kenken-4x4-issue4.txt --to minizinc -o kenken.mzn
    """
    with _bad_input():
        entries = list(_entries(puzzle, box, alphabet, format_))
        if len(entries) != 1:
            raise PuzzleError(f"export takes one puzzle; {puzzle} holds {len(entries)}")
        entry = entries[0]
        if entry.puzzle is None:
            raise entry.error or PuzzleError("unreadable puzzle")
        try:
            text = write(entry.puzzle, target, **({"encoding": encoding} if encoding else {}))
        except UsageError as error:
            _fail(str(error))
        if output is None:
            click.echo(text, nl=False)
        else:
            Path(output).write_text(text, encoding="utf-8")
            click.echo(f"wrote {target} to {output}", err=True)


main.add_command(bench)

if __name__ == "__main__":
    main()
