"""The notebook's figures, drawn from the tables of :mod:`cp_sudoku.analysis`.

Every function returns a matplotlib ``Figure`` whose axes all have a title,
axis labels with units and a legend.  matplotlib is imported only when a
figure is drawn (it is in the ``notebook`` extra).  Nothing here is specific
to Sudoku: sets, back ends and methods are read from the tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from cp_sudoku.backends import available
from cp_sudoku.backends.base import STATUSES

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: A colour as (red, green, blue, alpha), each 0..1.
RGBA = tuple[float, float, float, float]

#: Marker for a result stopped by a limit (status ``unknown``).
STOPPED_MARKER = "x"


def _colours(names: Sequence[str], known: Sequence[str] = ()) -> dict[str, RGBA]:
    """A tab10 colour per name; a name in ``known`` always gets the same one."""
    import matplotlib as mpl

    cycle = mpl.colormaps["tab10"]
    order = list(dict.fromkeys([*known, *names]))
    return {name: cycle(order.index(name) % 10) for name in names}


def _backend_colours(names: Sequence[str]) -> dict[str, RGBA]:
    """Colours that stay with a back end from one figure to the next."""
    return _colours(names, available())


def _label(ax: Axes, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def _figure(panels: int = 1, width: float = 6.4, height: float = 4.2) -> tuple[Figure, list[Axes]]:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, panels, figsize=(width * panels, height), squeeze=False)
    return fig, list(axes[0])


def _order(values: pd.Series) -> list[str]:
    return list(dict.fromkeys(values))


def effort_bars(frame: pd.DataFrame, measures: Mapping[str, str]) -> Figure:
    """Time and search effort per puzzle and back end, as grouped bars.

    ``frame``: :func:`cp_sudoku.analysis.run_records` rows; ``measures``:
    back end -> the statistic shown as its effort (``tries``, ``branches``,
    ``conflicts``).  Both axes use a symmetric log scale, so 0 shows.
    """
    fig, (time_ax, effort_ax) = _figure(2)
    puzzles = _order(frame["puzzle"])
    backends = [b for b in _order(frame["backend"]) if b in measures]
    colours = _backend_colours(backends)
    width = 0.8 / max(len(backends), 1)
    for k, backend in enumerate(backends):
        rows = frame[frame["backend"] == backend].set_index("puzzle").reindex(puzzles)
        xs = [i + (k - (len(backends) - 1) / 2) * width for i in range(len(puzzles))]
        label = f"{backend} ({measures[backend]})"
        time_ax.bar(xs, rows["seconds"] * 1000, width, color=colours[backend], label=backend)
        effort_ax.bar(xs, rows[measures[backend]], width, color=colours[backend], label=label)
    for ax in (time_ax, effort_ax):
        ax.set_xticks(range(len(puzzles)), puzzles, rotation=15, ha="right")
        ax.set_yscale("symlog", linthresh=1)
        ax.legend()
    _label(time_ax, "Time per puzzle", "puzzle", "milliseconds (symlog scale)")
    _label(effort_ax, "Search effort per puzzle", "puzzle", "count (symlog scale)")
    fig.tight_layout()
    return fig


def time_boxplot(frame: pd.DataFrame) -> Figure:
    """Seconds per puzzle as box plots, one group per set, one box per back end (log scale).

    Rows without a time (puzzles that did not parse) are left out.
    """
    return _boxplot(frame, "seconds", "Time per puzzle, by set and back end", "seconds (log scale)")


def effort_boxplot(frame: pd.DataFrame) -> Figure:
    """Search effort per puzzle (the ``effort`` column of
    :func:`cp_sudoku.analysis.with_effort`, plus 1 so that 0 shows) as box plots,
    one group per set, one box per back end, on a log scale."""
    shifted = frame.dropna(subset=["effort"]).assign(effort=lambda f: f["effort"] + 1)
    return _boxplot(
        shifted,
        "effort",
        "Search effort per puzzle (each back end's own count)",
        "nodes, branches, conflicts or tries + 1 (log scale)",
    )


def _boxplot(frame: pd.DataFrame, column: str, title: str, ylabel: str) -> Figure:
    from matplotlib.patches import Patch

    timed = frame.dropna(subset=[column])
    sets = _order(timed["set"])
    backends = _order(timed["backend"])
    colours = _backend_colours(backends)
    fig, (ax,) = _figure(width=max(6.4, 1.6 * len(sets)))
    width = 0.8 / max(len(backends), 1)
    for k, backend in enumerate(backends):
        data, positions = [], []
        for i, name in enumerate(sets):
            values = timed[(timed["set"] == name) & (timed["backend"] == backend)][column]
            if not values.empty:
                data.append(values.to_numpy())
                positions.append(i + (k - (len(backends) - 1) / 2) * width)
        boxes = ax.boxplot(
            data,
            positions=positions,
            widths=width * 0.9,
            patch_artist=True,
            medianprops={"color": "black"},
            flierprops={"marker": ".", "markersize": 3},
        )
        for box in boxes["boxes"]:
            box.set_facecolor(colours[backend])
    ax.set_yscale("log")
    ax.set_xticks(range(len(sets)), sets, rotation=15, ha="right")
    ax.legend(handles=[Patch(color=colours[b], label=b) for b in backends], title="back end")
    _label(ax, title, "puzzle set", ylabel)
    fig.tight_layout()
    return fig


def encoding_size_plot(sizes: pd.DataFrame) -> Figure:
    """Encoding size against n, one line per paradigm: variables (left) and constraints
    (right), log-log; ``sizes`` from :func:`cp_sudoku.analysis.encoding_size_records`."""
    backends = _order(sizes["backend"])
    colours = _backend_colours(backends)
    fig, axes = _figure(panels=2)
    for ax, measure in zip(axes, ("variables", "constraints"), strict=True):
        for backend in backends:
            rows = sizes[sizes["backend"] == backend].sort_values("n")
            label = f"{backend}: {rows[measure + ' are'].iloc[0]}"
            ax.plot(rows["n"], rows[measure], marker="o", color=colours[backend], label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(sorted(sizes["n"].unique()), [str(n) for n in sorted(sizes["n"].unique())])
        ax.legend(fontsize="small")
        _label(
            ax,
            f"{measure.capitalize()} by paradigm",
            "n (grid n x n, log scale)",
            f"{measure} (log scale)",
        )
    fig.tight_layout()
    return fig


def effort_scatter(effort: pd.DataFrame, pairs: Sequence[tuple[str, str]]) -> Figure:
    """One scatter panel per ``(x, y)`` pair of :func:`cp_sudoku.analysis.effort_frame`
    columns (counts, symmetric log scales so 0 shows), one colour per set."""
    fig, axes = _figure(len(pairs), width=5.0)
    sets = _order(effort.index.get_level_values("set"))
    colours = _colours(sets)
    for ax, (x, y) in zip(axes, pairs, strict=True):
        for name in sets:
            rows = effort.xs(name, level="set")
            ax.scatter(rows[x], rows[y], s=10, alpha=0.6, color=colours[name], label=name)
        ax.set_xscale("symlog", linthresh=1)
        ax.set_yscale("symlog", linthresh=1)
        ax.legend(title="set", fontsize="small")
        _label(ax, f"{y} against {x}", f"{x} (count, symlog)", f"{y} (count, symlog)")
    fig.tight_layout()
    return fig


def effort_vs_givens(effort: pd.DataFrame, columns: Sequence[str] | None = None) -> Figure:
    """One panel per effort column: effort (count, symlog) against the number of givens,
    one colour per set."""
    from matplotlib.ticker import MaxNLocator

    columns = list(columns or [c for c in effort.columns if c != "givens"])
    fig, axes = _figure(len(columns), width=5.0)
    sets = _order(effort.index.get_level_values("set"))
    colours = _colours(sets)
    for ax, column in zip(axes, columns, strict=True):
        for name in sets:
            rows = effort.xs(name, level="set")
            ax.scatter(
                rows["givens"], rows[column], s=10, alpha=0.6, color=colours[name], label=name
            )
        ax.set_yscale("symlog", linthresh=1)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(title="set", fontsize="small")
        _label(ax, f"{column} against givens", "givens (cells)", f"{column} (count, symlog)")
    fig.tight_layout()
    return fig


def cnf_size_plot(sizes: pd.DataFrame) -> Figure:
    """Variables and clauses against n for each encoding (log-log), from
    :func:`cp_sudoku.analysis.cnf_size_records`."""
    fig, axes = _figure(2)
    encodings = _order(sizes["encoding"])
    colours = _colours(encodings)
    for ax, column in zip(axes, ("variables", "clauses"), strict=True):
        for encoding in encodings:
            rows = sizes[sizes["encoding"] == encoding]
            ax.plot(rows["n"], rows[column], marker="o", color=colours[encoding], label=encoding)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ns = _order(sizes["n"])
        ax.set_xticks(ns, [str(n) for n in ns])
        ax.minorticks_off()
        ax.legend(title="encoding")
        _label(
            ax,
            f"CNF {column} by grid size",
            "n (grid side, cells; log scale)",
            f"{column} (count, log scale)",
        )
    fig.tight_layout()
    return fig


def share_plot(share: pd.DataFrame) -> Figure:
    """Grouped bars: percentage of each set (rows of ``share``) solved by each
    method (columns), from :func:`cp_sudoku.analysis.solved_share`."""
    methods = list(share.columns)
    colours = _colours(methods)
    fig, (ax,) = _figure(width=max(6.4, 1.8 * len(share.index)))
    width = 0.8 / max(len(methods), 1)
    for k, method in enumerate(methods):
        xs = [i + (k - (len(methods) - 1) / 2) * width for i in range(len(share.index))]
        ax.bar(xs, share[method] * 100, width, color=colours[method], label=method)
    ax.set_xticks(range(len(share.index)), list(share.index), rotation=15, ha="right")
    ax.set_ylim(0, 105)
    ax.legend(title="deduction", fontsize="small")
    _label(ax, "Puzzles solved without search", "puzzle set", "puzzles solved (% of set)")
    fig.tight_layout()
    return fig


def scaling_plot(frame: pd.DataFrame) -> Figure:
    """Seconds per puzzle against n for each back end (log-log): a dot per puzzle,
    a line through the medians, and a cross for a search stopped by a limit."""
    fig, (ax,) = _figure()
    backends = _order(frame["backend"])
    colours = _backend_colours(backends)
    for backend in backends:
        rows = frame[frame["backend"] == backend]
        done = rows[rows["status"] != "unknown"]
        stopped = rows[rows["status"] == "unknown"]
        medians = rows.groupby("n")["seconds"].median()
        ax.plot(medians.index, medians, color=colours[backend], label=f"{backend} (median)")
        ax.scatter(done["n"], done["seconds"], s=12, alpha=0.6, color=colours[backend])
        if not stopped.empty:
            ax.scatter(
                stopped["n"],
                stopped["seconds"],
                marker=STOPPED_MARKER,
                color=colours[backend],
                label=f"{backend} stopped by the time limit",
            )
    ns = sorted(frame["n"].unique())
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(ns, [str(int(n)) for n in ns])
    ax.minorticks_off()
    ax.legend(title="back end", fontsize="small")
    _label(
        ax,
        "Time against grid size",
        "n (grid side, cells; log scale)",
        "seconds per puzzle (log scale)",
    )
    fig.tight_layout()
    return fig


def status_plot(mix: pd.DataFrame) -> Figure:
    """Stacked horizontal bars: puzzles per status (columns) for each back end
    (rows), from :func:`cp_sudoku.analysis.status_mix`."""
    fig, (ax,) = _figure(height=max(2.5, 0.6 * len(mix.index) + 1.5))
    statuses = list(mix.columns)
    colours = _colours(statuses, STATUSES)
    left = [0] * len(mix.index)
    for status in statuses:
        counts = list(mix[status])
        ax.barh(list(mix.index), counts, left=left, color=colours[status], label=status)
        left = [a + b for a, b in zip(left, counts, strict=True)]
    ax.invert_yaxis()
    ax.legend(title="status", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    _label(ax, "Status per back end", "puzzles (count)", "back end")
    fig.tight_layout()
    return fig


def proof_vs_grade(frame: pd.DataFrame, grades: Sequence[str]) -> Figure:
    """Proof lines (left) and dratify's check milliseconds (right) of each puzzle
    against its grade, one colour per set, log scales; ``frame`` from
    :func:`cp_sudoku.analysis.proof_records`, ``grades`` the x-axis order
    (:func:`cp_sudoku.analysis.grade_order`).  Points are spread sideways a little
    within a grade so that they do not hide each other."""
    import numpy as np

    sets = _order(frame["set"])
    colours = _colours(sets)
    position = {grade: i for i, grade in enumerate(grades)}
    jitter = np.random.default_rng(0)
    fig, axes = _figure(2, width=6.0, height=4.8)
    panels = (
        ("proof_lines", "Proof size by grade", "DRAT proof lines (log scale)"),
        ("check_ms", "Proof check time by grade", "check milliseconds (log scale)"),
    )
    for ax, (column, title, ylabel) in zip(axes, panels, strict=True):
        for name in sets:
            rows = frame[frame["set"] == name].dropna(subset=[column])
            xs = rows["grade"].map(position) + jitter.uniform(-0.25, 0.25, len(rows))
            ax.scatter(xs, rows[column], s=12, alpha=0.6, color=colours[name], label=name)
        ax.set_yscale("log")
        ax.set_xticks(range(len(grades)), list(grades), rotation=30, ha="right")
        ax.legend(title="set", fontsize="small")
        _label(ax, title, "grade: hardest technique the solving path needs", ylabel)
    fig.tight_layout()
    return fig


def technique_mix_plot(mix: pd.DataFrame, solved: pd.Series) -> Figure:
    """Left: stacked bars, the percentage of each set's deduction steps taken by each
    technique (``mix`` from :func:`cp_sudoku.analysis.technique_mix`); right: the
    percentage of each set's puzzles solved by logic alone (``solved`` from
    :func:`cp_sudoku.analysis.logic_share`)."""
    import matplotlib as mpl

    sets = list(mix.index)
    cycle = mpl.colormaps["tab20"]
    fig, (mix_ax, solved_ax) = _figure(2, width=6.0, height=4.8)
    bottom = [0.0] * len(sets)
    for k, technique in enumerate(mix.columns):
        shares = list(mix[technique] * 100)
        mix_ax.bar(sets, shares, bottom=bottom, color=cycle(k % 20), label=technique)
        bottom = [a + b for a, b in zip(bottom, shares, strict=True)]
    mix_ax.set_xticks(range(len(sets)), sets, rotation=15, ha="right")
    mix_ax.set_ylim(0, 100)
    mix_ax.legend(title="technique", fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1))
    _label(mix_ax, "Technique mix by set", "puzzle set", "deduction steps (% of the set's)")
    colours = _colours(list(solved.index))
    for name, share in solved.items():
        solved_ax.bar(name, share * 100, color=colours[name], label=name)
    solved_ax.set_xticks(range(len(solved)), list(solved.index), rotation=15, ha="right")
    solved_ax.set_ylim(0, 105)
    solved_ax.legend(title="set", fontsize="small")
    _label(solved_ax, "Solved by logic alone", "puzzle set", "puzzles solved (% of set)")
    fig.tight_layout()
    return fig


__all__ = [
    "cnf_size_plot",
    "effort_bars",
    "effort_scatter",
    "effort_vs_givens",
    "proof_vs_grade",
    "scaling_plot",
    "share_plot",
    "status_plot",
    "technique_mix_plot",
    "time_boxplot",
]
