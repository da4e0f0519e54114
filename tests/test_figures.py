"""Every figure has a title, labelled axes with units and a legend naming what it draws."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from matplotlib.figure import Figure

pd = pytest.importorskip("pandas", reason="pandas is in the notebook extra")
mpl = pytest.importorskip("matplotlib", reason="matplotlib is in the notebook extra")
mpl.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from cp_sudoku import analysis, figures  # noqa: E402
from cp_sudoku.deduction import LEVEL  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def assert_labelled(fig: Figure, legend: set[str]) -> None:
    """Each axes has a title, x and y labels and a legend; the legends together
    name every entry of ``legend``."""
    shown: set[str] = set()
    for ax in fig.axes:
        assert ax.get_title()
        assert ax.get_xlabel()
        assert ax.get_ylabel()
        assert ax.get_legend() is not None, ax.get_title()
        shown |= {t.get_text() for t in ax.get_legend().get_texts()}
    assert legend <= shown, (legend, shown)


@pytest.fixture(scope="module")
def bench(data: Path) -> pd.DataFrame:
    backends = ["cpsat", "sat", "backtrack"]
    records = []
    for name in ("norvig-easy50", "norvig-top95"):
        records += analysis.run_records(analysis.load_set(name, 3), backends, set_name=name)
    return analysis.records_frame(records)


def test_effort_bars(bench: pd.DataFrame) -> None:
    fig = figures.effort_bars(bench, analysis.effort_measures())
    assert_labelled(fig, {"cpsat", "sat", "backtrack", "sat (conflicts)"})
    assert "milliseconds" in fig.axes[0].get_ylabel()


def test_time_boxplot(bench: pd.DataFrame) -> None:
    fig = figures.time_boxplot(bench)
    assert_labelled(fig, {"cpsat", "sat", "backtrack"})
    assert "seconds" in fig.axes[0].get_ylabel()
    assert fig.axes[0].get_yscale() == "log"


def test_effort_scatter_and_givens(bench: pd.DataFrame) -> None:
    effort = analysis.effort_frame(bench)
    pairs = [("backtrack tries", "cpsat branches"), ("backtrack tries", "sat conflicts")]
    fig = figures.effort_scatter(effort, pairs)
    assert len(fig.axes) == 2
    assert_labelled(fig, {"norvig-easy50", "norvig-top95"})
    fig = figures.effort_vs_givens(effort, ["sat conflicts"])
    assert_labelled(fig, {"norvig-easy50", "norvig-top95"})
    assert fig.axes[0].get_xlabel() == "givens (cells)"


def test_cnf_size_plot() -> None:
    sizes = analysis.records_frame(analysis.cnf_size_records((4, 9)))
    fig = figures.cnf_size_plot(sizes)
    assert_labelled(fig, {"minimal", "efficient", "extended", "optimised"})


def test_share_plot(data: Path) -> None:
    entries = analysis.load_set("norvig-easy50", 4)
    frame = analysis.records_frame(analysis.deduction_records(entries, set_name="easy"))
    fig = figures.share_plot(analysis.solved_share(frame))
    assert_labelled(fig, {"naked singles", "UP extended"})
    assert "%" in fig.axes[0].get_ylabel()


def test_scaling_plot_marks_stopped_searches() -> None:
    records = analysis.run_records(analysis.generated_entries((4, 9), 1), ["sat"])
    records.append({**records[-1], "status": "unknown", "seconds": 2.0})
    fig = figures.scaling_plot(analysis.records_frame(records))
    assert_labelled(fig, {"sat (median)", "sat stopped by the time limit"})


def test_status_plot() -> None:
    records = [{"backend": b, "status": "multiple"} for b in ("cpsat", "sat")]
    records.append({"backend": "backtrack", "status": "unknown"})
    fig = figures.status_plot(analysis.status_mix(analysis.records_frame(records)))
    assert_labelled(fig, {"unique", "multiple", "none", "unknown"})


def test_proof_and_technique_figures(data: Path) -> None:
    samples = {name: analysis.load_set(name, 2) for name in ("norvig-easy50", "norvig-top95")}
    frame = analysis.records_frame(analysis.proof_records(samples))
    assert list(frame["status"]) == ["unique"] * 4
    assert frame["holds"].all()
    grades = analysis.grade_order(frame["grade"])
    fig = figures.proof_vs_grade(frame, grades)
    assert_labelled(fig, {"norvig-easy50", "norvig-top95"})
    assert [ax.get_yscale() for ax in fig.axes] == ["log", "log"]
    mix = analysis.technique_mix(frame)
    assert list(mix.index) == ["norvig-easy50", "norvig-top95"]
    assert mix.sum(axis=1).round(9).eq(1).all()
    assert list(mix.columns) == sorted(mix.columns, key=LEVEL.__getitem__)  # easiest first
    assert mix.columns[0] == "hidden single"  # SE rates it 1.5, a naked single 2.3
    solved = analysis.logic_share(frame)
    assert solved["norvig-easy50"] == 1.0
    fig = figures.technique_mix_plot(mix, solved)
    assert_labelled(fig, {"naked single", "norvig-easy50"})
    assert "%" in fig.axes[0].get_ylabel()
