"""scripts/run_tutorials.py saves widget outputs as their text and pictures only.

A saved widget view without saved widget state reads "Error displaying widget: model not
found" in a trusted notebook until its cell runs again (tests/browser/test_saved_notebooks.py
shows that in JupyterLab); the script drops that part of each output when it saves.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SCRIPT = REPO / "scripts" / "run_tutorials.py"
_spec = importlib.util.spec_from_file_location("run_tutorials", SCRIPT)
run_tutorials = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_tutorials)


def test_widget_views_are_dropped_and_text_and_pictures_kept():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("table")
    view = {"model_id": "abc", "version_major": 2, "version_minor": 0}
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={WIDGET_VIEW: view, "text/plain": "RummyTable(...)"}
        ),
        nbformat.v4.new_output("display_data", data={"image/svg+xml": "<svg/>"}),
        nbformat.v4.new_output("stream", name="stdout", text="hello\n"),
    ]
    nb.cells = [nbformat.v4.new_markdown_cell("# Lesson"), cell]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    assert run_tutorials.strip_widget_views(nb) == 1
    assert [o.get("data", {}) for o in cell.outputs] == [
        {"text/plain": "RummyTable(...)"},
        {"image/svg+xml": "<svg/>"},
        {},
    ]
    assert len(cell.outputs) == 3  # strict nbval counts outputs: none is removed
    assert "widgets" not in nb.metadata
    nbformat.validate(nb)
    assert run_tutorials.strip_widget_views(nb) == 0


def test_saved_tutorials_hold_no_widget_views():
    notebooks = sorted((REPO / "tutorials").glob("*/*.ipynb"))
    assert notebooks
    holding = [
        str(path.relative_to(REPO))
        for path in notebooks
        for cell in json.loads(path.read_text())["cells"]
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]
    assert holding == [], "re-save them with scripts/run_tutorials.py"
