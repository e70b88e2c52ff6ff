"""Plumbing for the real-browser tests: Jupyter servers, notebooks and cells, driven by Playwright.

Everything here waits on signals the page really gives (the kernel's status, a cell's prompt,
the widget's root element), never on fixed sleeps. See docs/testing.md for the pitfalls these
helpers work around.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium")
#: Flags for Chromium on a machine with no network but loopback, as root, without a GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Lab plugins whose pop-ups would cover the notebook (news, update checks).
DISABLED_PLUGINS = {"@jupyterlab/apputils-extension:announcements": True}
SERVER_START_TIMEOUT = 90.0
#: A cell's prompt: "[ ]:", "[*]:" while running, "[3]:" when done.
PROMPT_DONE = re.compile(r"\[\d+\]")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def browser_missing() -> str:
    """What the browser tests lack on this machine ("" when nothing)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package (pip install -e '.[dev]')"
    if not Path(CHROMIUM).exists():
        return f"Debian's Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return ""


def free_port() -> int:
    """A free loopback port (the server binds it a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class JupyterServer:
    """A running `jupyter lab` or `jupyter notebook` on loopback with its own folders."""

    kind: str  # "lab" or "notebook"
    url: str
    root: Path
    process: subprocess.Popen
    log: Path
    settings: Path  # JUPYTERLAB_SETTINGS_DIR: user settings, read on every page load

    def write_notebook(self, name: str, cells: list[str]) -> str:
        """Save a notebook of code cells (never run) in the server's folder; return its name."""
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        }
        nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
        nbformat.write(nb, self.root / name)
        return name

    def notebook_url(self, name: str) -> str:
        if self.kind == "lab":
            # A fresh workspace each time: no layout left over from an earlier test.
            return f"{self.url}/lab/workspaces/t{uuid.uuid4().hex[:10]}/tree/{name}?reset"
        return f"{self.url}/notebooks/{name}"

    @contextmanager
    def theme(self, name: str) -> Iterator[None]:
        """Use a JupyterLab theme ("JupyterLab Dark") for pages opened inside the block."""
        path = self.settings / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"theme": name}))
        try:
            yield
        finally:
            path.unlink()

    def stop(self) -> None:
        if self.process.poll() is None:
            # SIGTERM: Jupyter Server shuts its kernels down and exits.
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)


def start_server(kind: str, base: Path, server_config: str = "") -> JupyterServer:
    """Start `jupyter lab` or `jupyter notebook` with token auth off, in folders under ``base``.

    ``server_config`` is Python for the server's own jupyter_server_config.py (benchmarks use it
    to switch Nagle's algorithm off on the kernel websocket).
    """
    root = base / "notebooks"
    config = base / "config"
    for folder in (root, config / "labconfig", base / "workspaces", base / "settings"):
        folder.mkdir(parents=True, exist_ok=True)
    (config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": DISABLED_PLUGINS})
    )
    # Start the notebook's kernel without asking: the "Select Kernel" dialog otherwise shows
    # up now and then (when the kernel specs arrive after the notebook) and blocks every click.
    tracker = (
        base / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    )
    tracker.parent.mkdir(parents=True, exist_ok=True)
    tracker.write_text(json.dumps({"autoStartDefaultKernel": True}))
    if server_config:
        (config / "jupyter_server_config.py").write_text(server_config)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "ANYWIDGET_HMR"}
    env.update(
        JUPYTER_CONFIG_DIR=str(config),
        # Its own data folder, so notebook trust (nbsignatures.db) starts empty for each server.
        JUPYTER_DATA_DIR=str(base / "data"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(base / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
        IPYTHONDIR=str(base / "ipython"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
    )
    module = "jupyterlab" if kind == "lab" else "notebook"
    cmd = [
        sys.executable,
        "-m",
        module,
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.token=",
        "--ServerApp.password=",
        f"--ServerApp.root_dir={root}",
        "--ServerApp.allow_root=True",  # CI runs as root
    ]
    if kind == "lab":
        cmd += [
            f"--LabApp.workspaces_dir={base / 'workspaces'}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
        ]
    log = base / f"{kind}-server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            cmd,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = JupyterServer(kind, f"http://127.0.0.1:{port}", root, process, log, base / "settings")
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter {kind} exited ({process.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/status", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"jupyter {kind} did not answer in time:\n{log.read_text()}")
        time.sleep(0.1)  # polling the server's status, not waiting on the page


# --- pages --------------------------------------------------------------------------------------
# Playwright is imported lazily so this module imports (and the tests skip cleanly) without it.

#: How long a page may take for one step (open a notebook, start a kernel, run a cell).
STEP_TIMEOUT_MS = 60_000
#: How long to wait for a cell's prompt to show that Shift+Enter reached the kernel.
PROMPT_TIMEOUT_MS = 3_000


def open_notebook(page, server: JupyterServer, name: str) -> None:
    """Open a saved notebook and wait until its kernel is attached and idle."""
    page.goto(server.notebook_url(name))
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=STEP_TIMEOUT_MS)
    # Attached, not visible: on a narrow screen (150% zoom) the toolbar folds the indicator
    # into its overflow menu, where it still tells the kernel's state.
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(
        state="attached", timeout=STEP_TIMEOUT_MS
    )


def cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


#: A prompt after a run: a number when it ran, blank when the kernel dropped it.
DONE_OR_DROPPED = re.compile(r"\[(\d+| )\]")


def run_cell(page, index: int, attempts: int = 5) -> None:
    """Run code cell ``index`` with Shift+Enter and wait until it has finished.

    A Shift+Enter pressed before the kernel's connection is up is dropped without a trace, so
    check that the prompt changed (to ``[*]`` or a number) and press again if it did not.
    """
    from playwright.sync_api import expect

    target = cell(page, index)
    prompt = target.locator(".jp-InputPrompt")
    before = re.search(r"\[(\d*)", prompt.inner_text())
    count = before.group(1) if before else ""
    # Started means "[*]" or a number other than the one shown before.
    started = re.compile(r"\[(\*|(?!%s\])\d+)\]" % (count or "x"))
    for attempt in range(attempts):
        target.locator(".jp-InputArea-editor .cm-content").click()
        page.keyboard.press("Shift+Enter")
        try:
            expect(prompt).to_have_text(started, timeout=PROMPT_TIMEOUT_MS)
        except AssertionError:
            if attempt == attempts - 1:
                raise
            continue
        # A run dropped after it started (the prompt goes back to "[ ]"; seen on a heavily
        # loaded machine with many kernels open) is pressed again.
        expect(prompt).to_have_text(DONE_OR_DROPPED, timeout=STEP_TIMEOUT_MS)
        if PROMPT_DONE.search(prompt.inner_text()):
            return
    raise AssertionError(f"cell {index} was dropped {attempts} times")


def cell_output(page, index: int) -> str:
    """The text a cell printed (stdout and results), as the page shows it."""
    return "\n".join(cell(page, index).locator(".jp-OutputArea-output").all_inner_texts())


#: True once no finite animation runs on the page (a card arriving, a bot's card travelling).
STILL_JS = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)"""


def screenshot(page, name: str, locator=None, still: bool = False) -> Path:
    """Save a screenshot under test-artifacts/ (git-ignored) and return its path; ``still``
    waits until the cards have stopped moving (a new deal's hand arrives faded in)."""
    ARTIFACTS.mkdir(exist_ok=True)
    if still:
        page.wait_for_function(STILL_JS)
    path = ARTIFACTS / f"{name}.png"
    (locator or page).screenshot(path=str(path))
    return path


#: axe-core impacts that fail a test.
SERIOUS = ("serious", "critical")


def serious_violations(page, selector: str = ".rw-root") -> list[str]:
    """Run axe-core on ``selector`` and list its serious and critical violations, one a line."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [[selector]]})
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
            found.append(f"{violation['impact']} {violation['id']}: {violation['help']} {targets}")
    return found
