"""The layer contract in pyproject.toml is live: it holds today and breaks on an upward import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(tmp_path: Path, upward: str | None = None) -> subprocess.CompletedProcess:
    """Run ``lint-imports`` on a copy of the package, with ``upward`` added to the engine."""
    shutil.copytree(REPO / "rummy_widget", tmp_path / "rummy_widget")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    if upward:
        rules = tmp_path / "rummy_widget" / "engine" / "rules.py"
        rules.write_text(rules.read_text() + f"\n{upward}\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True
    )


def test_the_layers_hold(tmp_path):
    run = _lint(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_an_upward_import_breaks_the_layers(tmp_path):
    run = _lint(tmp_path, "from ..bots import get_bot  # noqa")
    assert run.returncode != 0
    assert "rummy_widget.engine.rules -> rummy_widget.bots" in run.stdout


def test_a_widget_import_below_the_table_breaks_the_contract(tmp_path):
    run = _lint(tmp_path, "import traitlets  # noqa")
    assert run.returncode != 0
    assert "only the table knows of widgets BROKEN" in run.stdout
