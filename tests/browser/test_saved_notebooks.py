"""Every saved tutorial opens cleanly in JupyterLab before anything is run.

Widget state is not saved with the tutorials, so a saved widget output JupyterLab tried to show
as a widget would read "Error displaying widget: model not found" until its cell ran again.
(JupyterLab tries only in a trusted notebook, and `make lab` trusts the tutorials.)
scripts/run_tutorials.py saves widget outputs as their text and pictures only; here each
notebook is trusted, opened unrun, and every saved widget must show as its short text form,
with no such error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from browser_support import REPO

pytestmark = pytest.mark.slow

NOTEBOOKS = sorted((REPO / "tutorials").glob("*/*.ipynb"))


def saved_widget_texts(path) -> list[str]:
    """The text form of every output that came from a widget (a table's short repr)."""
    texts = []
    for cell in json.loads(path.read_text())["cells"]:
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            if text.startswith("RummyTable("):
                texts.append(text)
    return texts


#: Ends every session and its kernel from the page (the server wants its XSRF token), so that
#: one kernel per opened notebook does not pile up.
END_SESSIONS = """async () => {
  const xsrf = decodeURIComponent(document.cookie.match(/_xsrf=([^;]+)/)?.[1] ?? "");
  const sessions = await (await fetch("/api/sessions")).json();
  for (const s of sessions) {
    await fetch(`/api/sessions/${s.id}`, {method: "DELETE", headers: {"X-XSRFToken": xsrf}});
  }
}"""


def test_every_saved_tutorial_opens_without_widget_errors(lab, page):
    from playwright.sync_api import expect

    names = []
    for path in NOTEBOOKS:
        names.append(f"saved/{path.parent.name}/{path.name}")
        (lab.root / names[-1]).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, lab.root / names[-1])
    env = dict(os.environ, JUPYTER_DATA_DIR=str(lab.root.parent / "data"))  # the server's
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", *names], cwd=lab.root, env=env, check=True
    )
    for path, name in zip(NOTEBOOKS, names, strict=True):
        # No need to wait for the kernel: in a trusted notebook JupyterLab shows a saved widget
        # view with the widget renderer (never as text), whether or not a kernel is there.
        page.goto(lab.notebook_url(name))
        page.locator(".jp-Notebook .jp-Cell").first.wait_for()
        text_outputs = page.locator(
            ".jp-Notebook .jp-OutputArea-output[data-mime-type='text/plain']"
        )
        for text in saved_widget_texts(path):
            expect(text_outputs.filter(has_text=text).first).to_be_attached()
        errors = page.get_by_text("Error displaying widget")
        assert errors.count() == 0, f"{name}: {errors.first.inner_text()}"
        assert page.get_by_text("model not found").count() == 0, name
        page.evaluate(END_SESSIONS)
