"""docs/example.ipynb runs, top to bottom, in a real Jupyter kernel (nbclient, ``python3``) on
this checkout, and shows what it says it shows: the score, the checklist, the conflict that
``explain`` finds, and the picture.

Cells are found by their tag (``score``, ``check``, ``explain``, ``picture``), so the prose
around them can change freely. The notebook is kept without outputs in the repository.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "docs" / "example.ipynb"
CELL_SECONDS = 300  # per cell; the whole notebook takes a few seconds


def test_the_notebook_is_kept_without_outputs():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.outputs == [] and cell.execution_count is None for cell in code)
    assert notebook.metadata.kernelspec.name == "python3"


def _outputs_by_tag(notebook: Any) -> dict[str, list[Any]]:
    return {tag: cell.outputs for cell in notebook.cells if cell.cell_type == "code"
            for tag in cell.metadata.get("tags", [])}


@pytest.fixture(scope="module")
def executed() -> dict[str, list[Any]]:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    if importlib.util.find_spec("matplotlib") is None:  # without exactgrid[plot], all but the picture
        notebook.cells = [c for c in notebook.cells if "picture" not in c.metadata.get("tags", [])]
    client = nbclient.NotebookClient(notebook, timeout=CELL_SECONDS, startup_timeout=CELL_SECONDS,
                                     iopub_timeout=CELL_SECONDS, raise_on_iopub_timeout=True, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "docs")}})
    # the kernel imports this checkout's exactgrid, whatever is installed
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    client.execute(env={**os.environ, "PYTHONPATH": path})  # raises CellExecutionError if a cell fails
    return _outputs_by_tag(notebook)


def _data(outputs: list[Any], mime: str) -> str:
    """The one output of a cell that carries ``mime`` (a cell's value, or a display)."""
    (found,) = [o.data[mime] for o in outputs if o.output_type in ("execute_result", "display_data")
                and mime in o.data]
    return found


def test_the_score_shows_as_a_table(executed):
    shown = _data(executed["score"], "text/html")
    assert "total <b>32,913,047</b> · 5 found" in shown and "InLINOIS" in shown


def test_the_check_shows_each_item(executed):
    shown = _data(executed["check"], "text/html")
    assert "DOES NOT FIT" in shown and "1 of 8 passed" in shown
    assert shown.count(">FAIL</b>") == 7 and shown.count(">PASS</b>") == 1


def test_explain_names_the_conflict(executed):
    printed = "".join(o.text for o in executed["explain"] if o.output_type == "stream")
    assert "why: ILLINOIS:exact, UTAH:exact cannot hold together" in printed
    shown = _data(executed["explain"], "text/html")
    assert "<td>conflict</td><td>ILLINOIS:exact, UTAH:exact</td>" in shown


def test_the_picture_shows_as_svg(executed):
    pytest.importorskip("matplotlib")
    picture = _data(executed["picture"], "image/svg+xml")
    assert picture.startswith("<?xml") and 'id="panel:ILLINOIS"' in picture and 'id="map"' in picture
    assert (ROOT / "docs" / "thoainesl.svg").read_text(encoding="utf-8") == picture
