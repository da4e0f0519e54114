"""The notebook runs top to bottom with tiny sample sizes, and is stored without outputs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from nbformat import NotebookNode

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "compare_paradigms.ipynb"
NEEDED = ("nbclient", "nbformat", "ipykernel", "pandas", "matplotlib")
MISSING = [name for name in NEEDED if importlib.util.find_spec(name) is None]

#: Injected after the cell tagged ``parameters`` (as papermill does): every section runs,
#: on a few puzzles each.
TINY = """\
SET_SAMPLE = 2
DEDUCTION_SAMPLE = 2
MULTI_SAMPLE = 2
KENKEN_SAMPLE = 2
PARADIGM_SAMPLE = 1
PARADIGM_VARIANT_SAMPLE = 1
PARADIGM_SIZES = (4, 9)
PLAIN_MAX_TRIES = 2_000
CNF_SIZES = (4, 9)
SCALING_SIZES = (4, 9)
SCALING_PER_SIZE = 1
PROOF_SAMPLE = 2
GRADE_SAMPLE = 2
"""

pytestmark = pytest.mark.skipif(
    bool(MISSING),
    reason=f"the notebook extra is not installed (missing {', '.join(MISSING)}): "
    "pip install -e '.[notebook]'",
)


def read_notebook() -> NotebookNode:
    import nbformat

    return nbformat.read(NOTEBOOK, as_version=4)


def test_notebook_is_stored_without_outputs() -> None:
    for cell in read_notebook().cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], cell.source[:60]
            assert cell.execution_count is None, cell.source[:60]


def test_notebook_has_one_parameter_cell_at_the_top() -> None:
    cells = read_notebook().cells
    tagged = [i for i, c in enumerate(cells) if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1
    first_code = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    assert tagged[0] == first_code


def test_notebook_runs_with_tiny_samples(data: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    notebook = read_notebook()
    at = next(i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", []))
    notebook.cells.insert(at + 1, nbformat.v4.new_code_cell(TINY))
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, if any cell raises
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors
    images = sum(
        "image/png" in output.get("data", {})
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert images >= 16  # one per figure: the sections all drew
