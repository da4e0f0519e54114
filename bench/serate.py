"""Sukaku Explainer's ``serate`` (Sudoku Explainer's rating, ER): build, sample, rate.

Nothing is downloaded at run time. Fetch the Java source yourself (for example
github:SudokuMonster/SukakuExplainer) and give its path: a source tree or a bare git
directory (its HEAD is read with ``git archive``). SE's source is never copied into this
repository; only the ratings are kept (``bench/data/se-ratings.tsv``).

Usage::

    python bench/serate.py build /path/to/SukakuExplainer /tmp/serate      # javac 17
    python bench/serate.py sample bench/data/se-sample.tsv                  # 2,000 puzzles
    python bench/serate.py rate bench/data/se-sample.tsv /tmp/serate bench/data/se-ratings.tsv

``rate`` feeds the puzzles one at a time to a ``serate`` process (``--threads=1``) under a
wall-clock timeout per puzzle (``--timeout``, seconds); a puzzle that times out is written
with rating ``timeout`` and the process restarted. It appends as it goes and skips puzzles
already in the output, so it resumes after a kill; ``--part K/N`` splits the work.

The sample: every shared 9x9 set with a unique solution (``serg-benchmark-multi`` has
several solutions per puzzle, which SE cannot rate), plus minimal puzzles generated here by
removing givens of a random solved grid in random order while the puzzle stays unique
(the reference backtracker counts to two).
"""

from __future__ import annotations

import os
import random
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
@click.argument("sample_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("build_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--timeout", default=20.0, show_default=True, help="wall-clock seconds per puzzle")
@click.option("--part", default="0/1", show_default=True, help="K/N: rate every N-th puzzle from K")
def rate(sample_file: Path, build_dir: Path, out: Path, timeout: float, part: str) -> None:
    """Rate each puzzle of SAMPLE_FILE; append ``set, puzzle, ER, technique, seconds`` to OUT.

    One serate process reads the puzzles one at a time; on a timeout it is killed
    (the puzzle gets ``timeout``) and a fresh one takes the next puzzle.  Several
    ``--part`` runs may append to one OUT at once (one write per line).
    """
    k, n = (int(x) for x in part.split("/"))
    done = set()
    if out.exists():
        done = {line.split("\t")[1] for line in out.read_text().splitlines() if "\t" in line}
    else:
        out.write_text(
            "# Sudoku Explainer ratings by Sukaku Explainer's serate (github:SudokuMonster/"
            "SukakuExplainer, built by bench/serate.py), default options, --threads=1\n"
            "set\tpuzzle\ter\ttechnique\tseconds\n"
        )
    lines = sample_file.read_text().splitlines()
    # In a shuffled order, so that a partial run is a sample of every set.
    lines = random.Random(0).sample(lines, len(lines))[k::n]
    rater = _Serate(build_dir / "classes")
    with out.open("a") as sink:
        for line in lines:
            name, puzzle = line.split("\t")
            if puzzle in done:
                continue
            er, technique, seconds = rater.rate(puzzle, timeout)
            sink.write(f"{name}\t{puzzle}\t{er}\t{technique}\t{seconds:.2f}\n")
            sink.flush()
    rater.close()


class _Serate:
    """A serate process reading puzzles from its standard input, one line each."""

    def __init__(self, classes: Path) -> None:
        self.command = ["java", "-Xmx500m", "-XX:+UseSerialGC", "-cp", str(classes)]
        self.command += ["diuf.sudoku.test.serate", "--format=%r\t%R", "--threads=1"]
        self.command += ["--input=/dev/stdin"]
        self.process: subprocess.Popen[str] | None = None

    def rate(self, puzzle: str, timeout: float) -> tuple[str, str, float]:
        if self.process is None:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        start = time.monotonic()
        self.process.stdin.write(puzzle + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        seconds = time.monotonic() - start
        if not ready:
            self.close()
            return "timeout", "", seconds
        fields = self.process.stdout.readline().rstrip("\n").split("\t")
        if len(fields) != 2:
            print(f"serate failed on {puzzle}", file=sys.stderr)
            self.close()
            return "error", "", seconds
        return fields[0], fields[1], seconds

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


if __name__ == "__main__":
    main()
