"""Progress while a slice runs: the workers' reports reach the progress lines of a log on
every executor (this process, a process pool, a Dask cluster), each puzzle counted once."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest
from run_helpers import check_with_progress, write_slow

from cp_sudoku.run.progress import Finished


def test_finished_counts_each_puzzle_once() -> None:
    steps: list[int] = []
    finished = Finished(steps.append)
    finished.reported([(0, 3), (1, 2), (0, 5)])
    finished.reported([(0, 4)])  # a report overtaken by a later one: nothing new
    finished.ended(1, 10)  # the chunk's end counts the rest of it
    finished.reported([(1, 6)])  # late, for a chunk already ended
    finished.reported([(0, 1)])  # the chunk run again after its worker died
    finished.ended(0, 8)
    assert steps == [3, 2, 2, 8, 3]
    assert sum(steps) == 18


@pytest.mark.parametrize(
    ("how", "slice_size"),
    [
        # in this process, one chunk of all 16 puzzles
        (("--jobs", "1"), 16),
        # two workers, two slices of 8 lines: about 0.8 s each
        (("--jobs", "2", "--slice-lines", "8", "--output", "{out}"), 8),
    ],
    ids=["in-process", "jobs-2"],
)
def test_progress_lines_arrive_before_a_slice_ends(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: tuple[str, ...], slice_size: int
) -> None:
    source = write_slow(tmp_path / "slow.txt", 16)
    args = [arg.format(out=tmp_path / "out.jsonl") for arg in how]
    code, counts, stdout = check_with_progress(monkeypatch, source, *args)
    assert code == 3  # every puzzle stopped by the time limit: unknown
    assert len(stdout.splitlines()) == 16
    # a count below a slice's size is only reached before any slice has ended
    assert any(0 < count < slice_size for count in counts), counts
    assert counts == sorted(counts) and counts[-1] <= 16


@pytest.mark.slow  # a local cluster of two workers: about 6 s of CPU
@pytest.mark.skipif(
    any(find_spec(name) is None for name in ("distributed", "pyarrow")),
    reason='the cluster extra is not installed: pip install -e ".[cluster]"',
)
def test_progress_lines_arrive_before_a_slice_ends_on_a_cluster(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = write_slow(tmp_path / "slow.txt", 16)
    out = str(tmp_path / "out.jsonl")
    code, counts, stdout = check_with_progress(
        monkeypatch, source, "--cluster", "local:2", "--slice-lines", "8", "--output", out
    )
    assert code == 3
    assert len(stdout.splitlines()) == 16
    assert any(0 < count < 8 for count in counts), counts
