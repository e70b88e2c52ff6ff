"""The engine, solver and bots in Pyodide: CPython compiled to 32-bit WebAssembly, where
JupyterLite runs the widget. The same seed must give the same game there as here.

Pyodide comes from the npm registry (js/package.json, installed by `npm ci`) and runs under
Node. Without Node or that package the test skips with one line; under CI=true it fails.
A tuple's ``hash()`` differs between 32- and 64-bit Pythons, which once made the random bot
play other games in Pyodide (bots now derive their per-position seeds from integers only).
"""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "tests" / "pyodide" / "run.mjs"
SCRIPT = REPO / "tests" / "pyodide" / "same_everywhere.py"
PYODIDE = REPO / "js" / "node_modules" / "pyodide" / "pyodide.mjs"


def missing() -> str:
    if shutil.which("node") is None:
        return "Node.js"
    if not PYODIDE.exists():
        return f"{PYODIDE.relative_to(REPO)} (cd js && npm ci)"
    return ""


@pytest.fixture(scope="module")
def in_pyodide() -> dict:
    lack = missing()
    if lack:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"CI=true, and the Pyodide test needs {lack}", pytrace=False)
        pytest.skip(f"the Pyodide test needs {lack}")
    run = subprocess.run(
        ["node", str(RUNNER), str(PYODIDE), str(REPO / "rummy_widget"), str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Pyodide prints its minified source before a Python traceback: keep the traceback.
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def in_this_python() -> dict:
    return json.loads(runpy.run_path(str(SCRIPT))["text"])


def test_pyodide_is_a_32_bit_python(in_pyodide):
    assert in_pyodide["word_size"] == 32
    assert in_this_python()["word_size"] == 64


def test_the_same_seeds_give_the_same_games_solver_answers_and_payouts(in_pyodide):
    here = in_this_python()
    keys = sorted(k for k in here if k != "word_size")
    assert sorted(k for k in in_pyodide if k != "word_size") == keys
    assert len(keys) > 10
    for key in keys:
        assert in_pyodide[key] == here[key], key
