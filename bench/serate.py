"""Sukaku Explainer's ``serate`` (Sudoku Explainer's rating, ER): build, sample, rate.

Nothing is downloaded at run time. Fetch the Java source yourself (for example
github:SudokuMonster/SukakuExplainer) and give its path: a source tree or a bare git
directory (its HEAD is read with ``git archive``). SE's source is never copied into this
repository; only the ratings are kept (``bench/data/se-ratings.tsv``).

Usage::

    python bench/serate.py build /path/to/SukakuExplainer /tmp/serate      # javac 17
    python bench/serate.py sample bench/data/se-sample.tsv                  # 2,000 puzzles
    python bench/serate.py rate bench/data/se-sample.tsv /tmp/serate bench/data/se-ratings.tsv
    python bench/serate.py extend bench/data/se-sample-2.tsv bench/data/se-sample.tsv

``rate`` feeds the puzzles one at a time to a ``serate`` process (``--threads=1``) under a
time limit per puzzle (``--timeout``, CPU seconds of the serate process, read from
``/proc``, so that the limit means the same at any machine load; a wall-clock cap of thirty times
that guards against a stalled process).  A puzzle that runs out is written with rating
``timeout`` and the limit it ran out at, with how far serate got in the technique column
(steps taken, the hardest so far, and the hint-producer list it was searching, from a
``jstack`` thread dump), and the process is restarted.  It appends as it goes
and skips puzzles already rated, or already timed out at a limit at least as long, so it
resumes after a kill and ``--timeout 300`` retries earlier timeouts; ``--part K/N`` splits the
work, ``--only SET`` keeps one set and ``--limit N`` stops after N puzzles.  Readers take the
rated row of a puzzle if it has one, else its timeout at the longest limit
(:func:`outcomes`).

``serate`` has no option that makes it faster without changing what it rates: ``--threads``
runs the per-cell chain searches in threads (the same hints, in another order), which helps only
with idle cores (two, shared, here), while ``--techs``, ``--batch`` and ``--FCPlus`` change the
steps and so the rating.

The sample: every shared 9x9 set with a unique solution (``serg-benchmark-multi`` has
several solutions per puzzle, which SE cannot rate), plus minimal puzzles generated here by
removing givens of a random solved grid in random order while the puzzle stays unique
(the reference backtracker counts to two).  ``extend`` adds puzzles not yet sampled: more of
royle-17clue, and puzzles made by ``cp-sudoku generate`` in every band of our grade, half of
them 180-degree symmetric.
"""

from __future__ import annotations

import os
import random
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import click

DATA = (
    Path(os.environ.get("CP_SUDOKU_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))
    / "sudoku"
)
#: set -> how many puzzles of it the sample takes (all when the set is smaller)
SAMPLE = {
    "norvig-easy50": 50,
    "norvig-top95": 95,
    "norvig-hardest11": 11,
    "royle-17clue": 420,
    "magictour-top1465": 800,
    "forum-hardest-1106": 124,
    "forum-hardest-1905-11plus": 50,
    "generated-minimal": 450,
}


@click.group()
def main() -> None:
    """Build Sukaku Explainer's serate, sample puzzles, and rate them."""


@main.command()
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(file_okay=False, path_type=Path))
def build(source: Path, out: Path) -> None:
    """Compile SOURCE (a source tree or a bare git directory) into OUT/classes."""
    out.mkdir(parents=True, exist_ok=True)
    tree = source
    if (source / "HEAD").is_file() and not (source / "diuf").exists():
        tree = out / "src"
        tree.mkdir(exist_ok=True)
        archive = subprocess.run(
            ["git", f"--git-dir={source}", "archive", "HEAD"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    files = sorted(str(p) for p in tree.rglob("*.java"))
    if not files:
        raise click.ClickException(f"no .java files under {tree}")
    listing = out / "sources.txt"
    listing.write_text("\n".join(files) + "\n")
    # SE's sources are Latin-1 (a degree sign in Symmetry.java); UTF-8 fails on them.
    subprocess.run(
        ["javac", "-nowarn", "-encoding", "ISO-8859-1", "-d", str(out / "classes"), f"@{listing}"],
        check=True,
    )
    click.echo(f"built {len(files)} sources into {out / 'classes'}")


@main.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--seed", default=19, show_default=True)
@click.option("--data", type=click.Path(exists=True, file_okay=False, path_type=Path), default=DATA)
def sample(out: Path, seed: int, data: Path) -> None:
    """Write the sample, ``set<TAB>puzzle`` lines (81 characters, ``.`` blank)."""
    rng = random.Random(seed)
    lines = []
    for name, size in SAMPLE.items():
        if name == "generated-minimal":
            puzzles = [_minimal(rng.randrange(10**9)) for _ in range(size)]
        else:
            text = (data / f"{name}.txt").read_text().split()
            puzzles = rng.sample(text, min(size, len(text)))
        lines += [f"{name}\t{p.replace('0', '.')}" for p in puzzles]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(line + "\n" for line in lines))
    click.echo(f"{len(lines)} puzzles -> {out}")


def _minimal(seed: int) -> str:
    """A minimal unique 9x9 puzzle: a random solved grid, givens removed while unique."""
    from cp_sudoku.backends import get_backend
    from cp_sudoku.generate.blanked import solved_grid
    from cp_sudoku.kinds.sudoku import sudoku

    rng = random.Random(seed)
    backend = get_backend("backtrack")
    values = list(solved_grid((3, 3), seed))
    for i in rng.sample(range(81), 81):
        kept = values[i]
        values[i] = 0
        if backend.solve(sudoku(values, (3, 3)), limit=2).count != 1:
            values[i] = kept
    return "".join(str(v) if v else "." for v in values)


@main.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("exclude", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seed", default=20, show_default=True)
@click.option("--royle", default=250, show_default=True, help="more royle-17clue puzzles")
@click.option("--per-band", default=60, show_default=True, help="generated puzzles per band")
@click.option("--data", type=click.Path(exists=True, file_okay=False, path_type=Path), default=DATA)
def extend(
    out: Path, exclude: tuple[Path, ...], seed: int, royle: int, per_band: int, data: Path
) -> None:
    """Write more ``set<TAB>puzzle`` lines, none already in the EXCLUDE samples: royle-17clue,
    and ``cp-sudoku generate`` puzzles of every band (set ``generated-BAND``), symmetry none
    for the even-numbered, rot180 for the odd."""
    from cp_sudoku.deduction.grade import BANDS
    from cp_sudoku.generate import OutOfTries, Request, generate
    from cp_sudoku.generate.grading import parse_target
    from cp_sudoku.io import puzzle_string

    seen = {line.split("\t")[1] for path in exclude for line in path.read_text().splitlines()}
    rng = random.Random(seed)
    text = [
        p
        for p in (data / "royle-17clue.txt").read_text().split()
        if p.replace("0", ".") not in seen
    ]
    lines = [f"royle-17clue\t{p.replace('0', '.')}" for p in rng.sample(text, royle)]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as sink:  # line by line, so that ``rate`` may start on a partial file
        sink.write("".join(line + "\n" for line in lines))
        for band, _, _ in BANDS:
            target = parse_target(grade=band)
            for symmetry, count in (("none", (per_band + 1) // 2), ("rot180", per_band // 2)):
                request = Request(kind="sudoku", symmetry=symmetry, target=target)
                for made in generate(request, count=count, seed=seed):
                    if isinstance(made, OutOfTries):
                        continue  # no puzzle of this band within max_tries drafts
                    lines.append(f"generated-{band}\t{puzzle_string(made.puzzle)}")
                    sink.write(lines[-1] + "\n")
                    sink.flush()
    click.echo(f"{len(lines)} puzzles -> {out}")


HEADER = (
    "# Sudoku Explainer ratings by Sukaku Explainer's serate (github:SudokuMonster/"
    "SukakuExplainer, built by bench/serate.py), default options, --threads=1.\n"
    "# seconds: wall clock; cpu: CPU seconds of the serate process (blank in the first run's "
    "rows); limit: the time limit of the attempt ('wall 20': 20 s wall clock, the first run, "
    "at load ~20; 'cpu 20': 20 CPU seconds).  A puzzle may have timeout rows at several limits; "
    "a rated row is final.  A timeout's technique, where given, is how far serate got: steps "
    "done, the hardest so far, and the hint-producer list it was searching (Solver.java).\n"
    "set\tpuzzle\ter\ttechnique\tseconds\tcpu\tlimit\n"
)


def outcomes(path: Path) -> dict[str, list[str]]:
    """Each puzzle's outcome in a ratings file: its rated row, else its longest-limit timeout.

    Rows are ``set, puzzle, er, technique, seconds, cpu, limit`` (``er`` a rating, or
    ``timeout``/``error``), padded to seven fields; puzzles in their first row's order.
    """
    best: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if not line or line.startswith(("#", "set\t")):
            continue
        row = [*line.split("\t"), "", ""][:7]
        old = best.get(row[1])
        if old is None or (
            old[2] in FAILED and (row[2] not in FAILED or _limit(row) > _limit(old))
        ):
            best[row[1]] = row
    return best


FAILED = ("timeout", "error")


def _limit(row: list[str]) -> tuple[bool, float]:
    """A row's limit, for ordering: any CPU limit above any wall-clock one (which the load
    shortened), then by seconds."""
    clock, _, seconds = row[6].partition(" ")
    return clock == "cpu", float(seconds or 0)


@main.command()
@click.argument("sample_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("build_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--timeout", default=20.0, show_default=True, help="CPU seconds per puzzle")
@click.option("--part", default="0/1", show_default=True, help="K/N: rate every N-th puzzle from K")
@click.option("--only", default="", help="comma-separated sets to rate (default all)")
@click.option("--limit", default=0, show_default=True, help="stop after N puzzles (0: all)")
def rate(
    sample_file: Path, build_dir: Path, out: Path, timeout: float, part: str, only: str, limit: int
) -> None:
    """Rate each puzzle of SAMPLE_FILE; append ``set, puzzle, ER, technique, seconds, cpu,
    limit`` to OUT.

    One serate process reads the puzzles one at a time; on a timeout it is killed
    (the puzzle gets ``timeout``) and a fresh one takes the next puzzle.  Several
    ``--part`` runs may append to one OUT at once (one write per line).
    """
    k, n = (int(x) for x in part.split("/"))
    known = outcomes(out) if out.exists() else {}
    if not out.exists():
        out.write_text(HEADER)
    lines = sample_file.read_text().splitlines()
    # In a shuffled order, so that a partial run is a sample of every set.
    lines = random.Random(0).sample(lines, len(lines))[k::n]
    sets = set(only.split(",")) if only else None
    todo = []
    for line in lines:
        name, puzzle = line.split("\t")
        row = known.get(puzzle)
        if (sets is None or name in sets) and (
            row is None or (row[2] == "timeout" and _limit(row) < (True, timeout))
        ):
            todo.append((name, puzzle))
    rater = _Serate(build_dir / "classes")
    with out.open("a") as sink:
        for name, puzzle in todo[: limit or None]:
            er, technique, seconds, cpu = rater.rate(puzzle, timeout)
            sink.write(
                f"{name}\t{puzzle}\t{er}\t{technique}\t{seconds:.2f}\t{cpu:.2f}\tcpu {timeout:g}\n"
            )
            sink.flush()
    rater.close()


class _Serate:
    """A serate process reading puzzles from its standard input, one line each.

    serate prints a ``step`` line after each step (``--after``: the step's rating and the
    short name of the hardest technique so far) and the ``%r`` / ``%R`` line when the puzzle
    is rated, so that a timeout can say how far serate got.
    """

    def __init__(self, classes: Path) -> None:
        self.classes = classes
        self.command = ["java", "-Xmx500m", "-XX:+UseSerialGC", "-cp", str(classes)]
        self.command += ["diuf.sudoku.test.serate", "--format=rated\t%r\t%R", "--threads=1"]
        self.command += ["--after=step\t%r\t%S", "--input=/dev/stdin"]
        self.process: subprocess.Popen[str] | None = None

    def rate(self, puzzle: str, timeout: float) -> tuple[str, str, float, float]:
        """SE's rating and technique of ``puzzle``, wall and CPU seconds; ``timeout`` (CPU
        seconds) or thirty times that of wall clock gives ``("timeout", PROGRESS, ...)``, where
        PROGRESS says how many steps serate had taken, the hardest so far, and what it was
        searching for the next one (:meth:`_searching`)."""
        if self.process is None:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        start, cpu_start = time.monotonic(), self._cpu()
        self.process.stdin.write(puzzle + "\n")
        self.process.stdin.flush()
        steps, best, hardest = 0, 0.0, "none"
        pending, fields = "", [""]
        while fields[0] != "rated":
            ready, _, _ = select.select([self.process.stdout], [], [], 0.25)
            seconds, cpu = time.monotonic() - start, self._cpu() - cpu_start
            if ready:  # os.read: a buffered readline would hide the lines after the first
                chunk = os.read(self.process.stdout.fileno(), 1 << 16).decode()
                if not chunk:
                    break  # serate exited
                *lines, pending = (pending + chunk).split("\n")
                for line in lines:
                    fields = line.split("\t")
                    if fields[0] == "step" and len(fields) == 3:
                        steps, best = steps + 1, max(best, float(fields[1]))
                        hardest = f"{best:.1f} ({fields[2]})"  # %S: the hardest technique yet
                    elif fields[0] == "rated":
                        break
                continue
            if cpu > timeout or seconds > 30 * timeout:
                progress = f"{steps} steps done, hardest {hardest}; {self._searching()}"
                self.close()
                return "timeout", progress, seconds, cpu
        if fields[0] != "rated" or len(fields) != 3:
            print(f"serate failed on {puzzle}", file=sys.stderr)
            self.close()
            return "error", "", seconds, cpu
        return fields[1], fields[2], seconds, cpu

    def _searching(self) -> str:
        """What serate is searching for: the hint-producer list of ``Solver.getSingleHint``
        it is in (from a ``jstack`` thread dump and the Solver.java beside the classes) and how
        many ``Chaining.getHints`` calls are nested on the stack (1: a chaining rule; each
        more, a nested chaining rule called from inside it)."""
        assert self.process is not None
        try:
            dump = subprocess.run(
                ["jstack", str(self.process.pid)], capture_output=True, text=True, timeout=60
            ).stdout
        except subprocess.TimeoutExpired:
            return "no thread dump (jstack took over 60 s)"
        main = next((t for t in dump.split("\n\n") if "Solver.getSingleHint" in t), "")
        line = re.search(r"Solver\.getSingleHint\(Solver\.java:(\d+)\)", main)
        if line is None:
            return "not in Solver.getSingleHint"
        source = self.classes.parent / "src" / "diuf" / "sudoku" / "solver" / "Solver.java"
        name = f"Solver.java:{line[1]}"
        if source.is_file():  # the call's line follows the loop over a list of producers
            loop = source.read_text(encoding="latin-1").splitlines()[int(line[1]) - 2]
            name = re.search(r"producer : (\w+)", loop)[1] if "producer :" in loop else name
        return f"in {name}, {main.count('Chaining.getHints(')} Chaining.getHints nested"

    def _cpu(self) -> float:
        """CPU seconds (user + system) the serate process has used so far."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


if __name__ == "__main__":
    main()
