"""The grade: logic coverage and speed per set, hodoku-py beside it, and agreement with Sudoku
Explainer's ratings.

Usage::

    python bench/grade_bench.py coverage --count 0 --hodoku 200       # every puzzle of each set
    python bench/grade_bench.py coverage --sets forum-hardest-1106 --every 10 --out cov.tsv
    python bench/grade_bench.py versus-se bench/data/se-ratings.tsv bench/data/grade-vs-se.tsv

``coverage`` grades every puzzle (or the first ``--count``) of norvig-top95,
magictour-top1465 and forum-hardest-1106 (or every ``--every``-th) with
:func:`cp_sudoku.deduction.grade`, under a CPU time limit per puzzle (``--time-limit``),
appends a row per puzzle to ``--out`` as it goes, and prints per set: the share solved by logic
alone (no guessing), the median and mean CPU milliseconds per puzzle (``time.process_time``),
and the bands.  With ``--hodoku N`` it also times hodoku-py's ``Solver().rate`` (HoDoKu's
rating, a pure-Python port) on the first N puzzles of each set in the same process.

``versus-se`` grades each puzzle of a ratings file written by ``bench/serate.py`` (each
puzzle once: its SE rating, else its timeout at the longest limit) and prints
Spearman's rank correlation between our rating and SE's (puzzles SE timed out on are left
out, and counted), the share landing in the same band (SE's rating put in our bands), and
SE's bands against ours.  Where serate timed out, SE's band is still known when a lower
bound of its rating is in the top band: a published floor of the set (``--floor``; by default
forum-hardest-1905-11plus, rated 11 or more by its source) or the hardest step serate had
taken before the limit.  Those puzzles get our full time limit and their bands are compared
apart.
"""

from __future__ import annotations

import os
import re
import statistics
import time
from collections import Counter
from pathlib import Path

import click
from serate import outcomes  # bench/serate.py, beside this script

from cp_sudoku.deduction import band_of, grade
from cp_sudoku.deduction.grade import BANDS, UNSOLVED
from cp_sudoku.io import parse_line

DATA = Path(
    os.environ.get("CP_SUDOKU_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
SETS = ("norvig-top95", "magictour-top1465", "forum-hardest-1106")


@click.group()
def main() -> None:
    """Coverage, speed and agreement of the grade."""


@main.command()
@click.option("--count", default=0, show_default=True, help="puzzles per set (0: all)")
@click.option("--every", default=1, show_default=True, help="take every K-th puzzle of a set")
@click.option("--time-limit", default=20.0, show_default=True, help="CPU seconds per puzzle")
@click.option("--hodoku", default=0, show_default=True, help="also time hodoku-py on N per set")
@click.option("--sets", default=",".join(SETS), show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="append one row per puzzle: set, index, outcome, rating, hardest, steps, CPU ms",
)
def coverage(
    count: int, every: int, time_limit: float, hodoku: int, sets: str, out: Path | None
) -> None:
    """Share solved by logic, CPU time per puzzle, bands; hodoku-py beside."""
    sink = out.open("a") if out else None
    for name in sets.split(","):
        every_line = (DATA / "sudoku" / f"{name}.txt").read_text().split()
        indexes = list(range(0, len(every_line), every))[: count or None]
        lines = [every_line[i] for i in indexes]
        seconds, results, bands = [], Counter(), Counter()
        for index, text in zip(indexes, lines, strict=True):
            puzzle = parse_line(text)
            start = time.process_time()
            graded = grade(puzzle, time_limit=time_limit)
            seconds.append(time.process_time() - start)
            results[graded.outcome] += 1
            bands[graded.band] += 1
            if sink:
                sink.write(
                    f"{name}\t{index}\t{graded.outcome}\t{graded.rating}\t{graded.hardest}\t"
                    f"{graded.steps}\t{seconds[-1] * 1000:.1f}\n"
                )
                sink.flush()
        solved = results["solved"]
        click.echo(
            f"{name}: {solved}/{len(lines)} solved by logic ({solved / len(lines):.1%}); "
            f"CPU ms per puzzle median {statistics.median(seconds) * 1000:.1f}, "
            f"mean {statistics.mean(seconds) * 1000:.1f}, max {max(seconds) * 1000:.0f}; "
            f"outcomes {dict(results)}; bands {dict(bands)}"
        )
        if hodoku:
            _hodoku(lines[:hodoku], seconds[:hodoku])


def _hodoku(lines: list[str], ours: list[float]) -> None:
    from hodoku.api import Solver

    solver = Solver()
    theirs = []
    for text in lines:
        start = time.process_time()
        solver.rate(text.replace(".", "0"))
        theirs.append(time.process_time() - start)
    mine, other = statistics.median(ours), statistics.median(theirs)
    click.echo(
        f"  same {len(lines)} puzzles: ours median {mine * 1000:.1f} ms, hodoku-py rate median "
        f"{other * 1000:.1f} ms (ratio hodoku/ours {other / mine:.2f})"
    )


#: Sets whose every puzzle has a published SE rating of at least this: tdoku's benchmark data
#: (github:t-dillon/tdoku, README: "very difficult puzzles with Sudoku Explainer ratings of 11
#: or higher"), as the shared data's README says of forum-hardest-1905-11plus.
FLOORS = ("forum-hardest-1905-11plus=11.0",)


@main.command("versus-se")
@click.argument("ratings", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--time-limit", default=20.0, show_default=True, help="CPU seconds per puzzle")
@click.option(
    "--censored-time-limit",
    default=2.0,
    show_default=True,
    help="CPU seconds per puzzle SE timed out on",
)
@click.option(
    "--floor",
    multiple=True,
    default=FLOORS,
    show_default=True,
    help="SET=ER: every puzzle of SET has a published SE rating of at least ER",
)
def versus_se(
    ratings: Path,
    out: Path,
    time_limit: float,
    censored_time_limit: float,
    floor: tuple[str, ...],
) -> None:
    """Grade the puzzles of RATINGS (reusing OUT's grades), write OUT, and print Spearman's rho
    between our rating and SE's, the share in the same band, and the bands side by side.

    A puzzle SE timed out on is *censored*: its SE rating is above what serate reached in the
    time; we grade it under ``--censored-time-limit``.  rho is given over the puzzles SE
    rated, and again with the censored ones ranked above every rated one (tied); the band
    share counts the rated ones only.  A censored puzzle whose SE rating is known to be in the
    top band (:func:`_se_floor`: its set's published ``--floor``, or the hardest step serate
    took before the limit) is graded under ``--time-limit`` and its band compared apart.
    """
    floors = {name: float(er) for name, _, er in (item.partition("=") for item in floor)}
    known: dict[str, list[str]] = {}
    if out.exists():
        known = {
            row[1]: [*row, ""][:8]
            for row in (line.split("\t") for line in out.read_text().splitlines()[1:])
        }
    rows = list(outcomes(ratings).values())
    fresh = 0
    for name, text, er, technique, *_ in rows:
        full = er not in _LEFT_OUT or _se_floor(name, technique, floors) >= TOP
        limit = time_limit if full else censored_time_limit
        old = known.get(text)
        # a puzzle graded under a shorter limit is graded again once it needs the full one
        if old is None or (old[5] == "unsolved" and full and float(old[7] or 0) < limit):
            graded = grade(parse_line(text), time_limit=limit)
            ours = graded.rating if graded.solved else UNFINISHED
            row = [name, text, er, "", str(ours), graded.band, str(graded.hardest), f"{limit:g}"]
            known[text] = row
            fresh += 1
            if fresh % 20 == 0:  # kept as it goes: a rerun resumes
                _write(out, rows, known)
    written = _write(out, rows, known)
    table = [line.split("\t") for line in written]
    _agreement("all sets", table)
    for name in sorted({row[0] for row in table}):
        _agreement(name, [row for row in table if row[0] == name])
    floored = [
        row for row in table if row[2] in _LEFT_OUT and _se_floor(row[0], row[3], floors) >= TOP
    ]
    _floored("all sets", floored)
    for name in sorted({row[0] for row in floored}):
        _floored(name, [row for row in floored if row[0] == name])
    _bands([row for row in table if row[2] not in _LEFT_OUT])


def _write(out: Path, rows: list[list[str]], known: dict[str, list[str]]) -> list[str]:
    """Write OUT: each row of RATINGS graded so far, SE's columns from RATINGS; ``limit`` is
    the CPU seconds our grade had (blank in rows graded before the column existed: 20 s for
    the puzzles SE rated, 2 s or less for its timeouts)."""
    written = [
        "\t".join([*known[text][:2], er, technique, *known[text][4:]])
        for _, text, er, technique, *_ in rows
        if text in known
    ]
    header = "set\tpuzzle\tse\tse_technique\tours\tband\thardest\tlimit\n"
    out.write_text(header + "".join(line + "\n" for line in written))
    return written


#: The lowest rating of the top band: a floor at or above it fixes SE's band.
TOP = BANDS[-1][1]


def _se_floor(name: str, technique: str, floors: dict[str, float]) -> float:
    """A lower bound of SE's rating of a puzzle serate timed out on: its set's published floor,
    or the hardest step serate took before the limit (``hardest X`` in the progress that
    ``bench/serate.py`` records as a timeout's technique; SE's rating is its hardest step)."""
    took = re.search(r"hardest (\d+(?:\.\d+)?)", technique)
    return max(floors.get(name, 0.0), float(took[1]) if took else 0.0)


def _floored(name: str, table: list[list[str]]) -> None:
    """Our bands for SE timeouts whose SE rating is known to be in the top band."""
    if table:
        bands = Counter(row[5] for row in table)
        same = bands[BANDS[-1][0]]
        click.echo(
            f"{name}: {len(table)} SE timeouts known to be SE >= {TOP} (band {BANDS[-1][0]}); "
            f"ours {dict(bands)}; same band {same}/{len(table)} ({same / len(table):.1%})"
        )


def _bands(table: list[list[str]]) -> None:
    """SE's band (rows) against ours (columns) over the puzzles SE rated."""
    names = [band for band, _, _ in BANDS] + [UNSOLVED]
    counts = Counter((band_of(float(row[2])), row[5]) for row in table)
    click.echo("SE \\ ours\t" + "\t".join(names))
    for se in names[:-1]:
        click.echo(se + "\t" + "\t".join(str(counts[se, ours]) for ours in names))


#: Our rating of a puzzle logic did not finish: above every step's rating.
UNFINISHED = 12.0
#: SE's rating of a puzzle serate timed out on, for ranking only: above every rated puzzle.
CENSORED = 99.0


def _agreement(name: str, table: list[list[str]]) -> None:
    rated = [(float(row[4]), float(row[2]), row[5]) for row in table if row[2] not in _LEFT_OUT]
    censored = [(float(row[4]), CENSORED) for row in table if row[2] == "timeout"]
    if len(rated) < 3:  # too few to rank
        if table:
            click.echo(f"{name}: {len(rated)} rated by SE, {len(censored)} SE timeouts")
        return
    rho = spearman([a for a, _, _ in rated], [b for _, b, _ in rated])
    both = [(a, b) for a, b, _ in rated] + censored
    rho_all = spearman([a for a, _ in both], [b for _, b in both]) if censored else rho
    same = sum(band == band_of(se) for _, se, band in rated) / len(rated)
    unsolved = sum(row[5] == "unsolved" for row in table)
    click.echo(
        f"{name}: {len(rated)} rated by SE, {len(censored)} SE timeouts; rho {rho:.3f} over the "
        f"rated, {rho_all:.3f} with timeouts ranked top; same band {same:.1%}; "
        f"our logic unfinished on {unsolved}"
    )


_LEFT_OUT = ("timeout", "error")


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks, ties given their mean rank; NaN
    when either side is constant (no ranking to compare)."""
    if len(set(xs)) < 2 or len(set(ys)) < 2:
        return float("nan")
    return statistics.correlation(_ranks(xs), _ranks(ys))


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


if __name__ == "__main__":
    main()
