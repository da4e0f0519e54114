"""The notebook runs top to bottom with tiny sample sizes, and is stored without outputs."""

from __future__ import annotations

import importlib.util
import sys
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
    'pip install -e ".[notebook]"',
)


def read_notebook() -> NotebookNode:
    _import_nbformat()
    import nbformat

    return nbformat.read(NOTEBOOK, as_version=4)


def _import_nbformat() -> None:
    """Import nbformat (and jsonschema under it) without ``rfc3987_syntax``: when that
    package is installed (the jupyter extra pulls it in), jsonschema builds its RFC 3987
    grammar at import, 1.9 s of CPU, for the ``iri`` formats that no notebook schema uses;
    blocked, jsonschema leaves that format unchecked as when the package is absent."""
    if "nbformat" in sys.modules:
        return
    blocked = "rfc3987_syntax" not in sys.modules
    if blocked:
        sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]
    try:
        import nbclient  # noqa: F401
        import nbformat  # noqa: F401
    finally:
        if blocked:
            del sys.modules["rfc3987_syntax"]


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


def run_notebook(sections: int | None = None) -> list[NotebookNode]:
    """Execute the notebook with :data:`TINY` injected after its parameter cell, up to the
    start of section ``sections + 1`` (all of it when None); the executed code cells.
    Raises CellExecutionError, naming the cell, if any cell raises."""
    _import_nbformat()
    import nbformat
    from nbclient import NotebookClient

    notebook = read_notebook()
    at = next(i for i, c in enumerate(notebook.cells) if "parameters" in c.metadata.get("tags", []))
    notebook.cells.insert(at + 1, nbformat.v4.new_code_cell(TINY))
    if sections is not None:
        heading = f"## {sections + 1}. "
        end = next(i for i, c in enumerate(notebook.cells) if c.source.startswith(heading))
        notebook.cells = notebook.cells[:end]
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [output for cell in code for output in cell.outputs if output.output_type == "error"]
    assert not errors
    return code


def images(cells: list[NotebookNode]) -> int:
    """Figures drawn by the executed cells."""
    return sum("image/png" in output.get("data", {}) for cell in cells for output in cell.outputs)


def test_notebook_parameters_imports_and_first_section_run(data: Path) -> None:
    """The default run's representative: the set-up cells and section 1, whose figure and
    tables come from the tutorial puzzles on every default back end."""
    cells = run_notebook(sections=1)
    assert images(cells) == 1  # section 1's effort bars
    tables = [o for cell in cells for o in cell.outputs if "text/html" in o.get("data", {})]
    assert len(tables) >= 3  # the plain search, every back end side by side, the hard puzzle
    assert "unique" in tables[1]["data"]["text/html"]


@pytest.mark.slow  # every section: about 36 s of CPU, a tenth of the default suite's
def test_notebook_runs_with_tiny_samples(data: Path) -> None:
    assert images(run_notebook()) >= 16  # one per figure: the sections all drew
