"""Plumbing for the host tests: app servers (Voila, marimo) and the JupyterLite site.

The site is built by scripts/build_lite.py (what `make lite` runs) and served by
static_server.py, a `python -m http.server` that logs the bytes it sends. Every browser request
to another host is aborted and counted: an offline classroom must have none.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from browser_support import PROMPT_DONE, REPO, STEP_TIMEOUT_MS, free_port

HERE = Path(__file__).parent
#: Starting Pyodide and its kernel, cold, on a busy 2-core machine.
KERNEL_TIMEOUT_MS = 180_000


@contextmanager
def app_server(cmd: list[str], log: Path, ready: Callable[[], bool]) -> Iterator[None]:
    """Run ``cmd`` (a server on loopback) from the checkout, its output in ``log``, until
    ``ready()``; stop it (SIGTERM) when the block ends."""
    env = {k: v for k, v in os.environ.items() if k != "ANYWIDGET_HMR"}
    env.update(HOME=str(log.parent), XDG_CONFIG_HOME=str(log.parent / "config"))
    for name in ("CONFIG", "DATA", "RUNTIME"):  # no user settings, kernels or trust of ours
        env[f"JUPYTER_{name}_DIR"] = str(log.parent / f"jupyter-{name.lower()}")
    env["IPYTHONDIR"] = str(log.parent / "ipython")
    with log.open("w") as out:
        process = subprocess.Popen(
            cmd,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 90
            while not ready():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{cmd[:4]} did not start:\n{log.read_text()}")
                time.sleep(0.1)  # polling the server (or its log), not waiting on a page
            yield
        finally:
            process.terminate()
            process.wait(timeout=15)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except (urllib.error.URLError, ConnectionError):
        return False


def build_site(output: Path) -> Path:
    """Build the site into ``output`` (the wheel downloads are cached under build/lite)."""
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "build_lite.py"), "--output", str(output)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"build_lite.py failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return output


@dataclass
class StaticServer:
    """static_server.py serving a folder on a loopback port."""

    url: str
    log: Path
    process: subprocess.Popen

    @property
    def host(self) -> str:
        return urlparse(self.url).netloc

    def bytes_sent(self) -> int:
        """Body bytes of every response so far (304s send none)."""
        total = 0
        for line in self.log.read_text().splitlines():
            total += int(line.split()[1])
        return total

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def serve(folder: Path, log: Path) -> StaticServer:
    port = free_port()
    log.write_text("")
    process = subprocess.Popen(
        [sys.executable, str(HERE / "static_server.py"), str(folder), str(port), str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    server = StaticServer(f"http://127.0.0.1:{port}", log, process)
    deadline = time.monotonic() + 30
    while not answers(f"{server.url}/index.html"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("static_server.py did not start")
        time.sleep(0.1)  # polling the server, not waiting on a page
    return server


#: Chromium resolves no host name at all: only the loopback address the site is served on works.
NO_DNS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"


@dataclass
class Offline:
    """A browser context that may reach the serving host only; other requests are counted."""

    context: object
    host: str
    blocked: list[str] = field(default_factory=list)
    requests: int = 0

    def outside(self, url: str) -> bool:
        parts = urlparse(url)
        return parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != self.host


def offline_context(browser, server: StaticServer, route: bool = True, **options) -> Offline:
    """A context whose requests (pages, their workers, the service worker) are all watched.

    ``route=True`` aborts each request to another host in Playwright's route, which sees every
    request but switches the HTTP cache off. ``route=False`` keeps the cache (for the warm
    figures): the browser must then be launched with ``NO_DNS``, which makes any other host
    unreachable, and the requests are counted from the context's request events.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 1400}, **options)
    context.set_default_timeout(STEP_TIMEOUT_MS)
    offline = Offline(context, server.host)

    def check(route):
        offline.requests += 1
        if offline.outside(route.request.url):
            offline.blocked.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    def watch(request):
        offline.requests += 1
        if offline.outside(request.url):
            offline.blocked.append(request.url)

    if route:
        context.route("**/*", check)
    else:
        context.on("request", watch)
    return offline


def lite_url(server: StaticServer, path: str) -> str:
    return f"{server.url}/lab/index.html?path={path}"


def kernel_error(page):
    """JupyterLite's dialog for a kernel it could not start (or lost)."""
    return page.locator(".jp-Dialog", has_text="Error Starting Kernel")


def wait_kernel_idle(page, attempts: int = 3) -> None:
    """Wait until the notebook's kernel is idle. JupyterLite now and then fails to start a
    fresh page's kernel with "Session ... not found" (a race in its in-browser session
    manager, jupyterlite/jupyterlite#1990): the page is then loaded again, as a learner
    would, and the test goes on; a failure every time is a failure."""
    idle = page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first
    failed = kernel_error(page)
    for attempt in range(attempts):
        page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=STEP_TIMEOUT_MS)
        idle.or_(failed).first.wait_for(timeout=KERNEL_TIMEOUT_MS)
        if not failed.count():
            return
        if attempt == attempts - 1:
            raise AssertionError(f"JupyterLite did not start the kernel: {failed.inner_text()}")
        page.reload()


def recover_lost_kernel(page) -> bool:
    """If JupyterLite lost the kernel after all (its "Error Starting Kernel" dialog can come
    after the kernel was idle), load the page again and wait for a kernel; True if it did."""
    if not kernel_error(page).count():
        return False
    page.reload()
    wait_kernel_idle(page)
    return True


def run_all_cells(page, attempts: int = 3) -> None:
    """Run > Run All Cells, from the menu bar, as a teacher would; again if the first code
    cell's prompt does not show that it was queued (``[*]`` or a number), or after loading
    the page again if JupyterLite lost the kernel (``recover_lost_kernel``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    prompt = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").first
    for attempt in range(attempts):
        recover_lost_kernel(page)
        try:
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click(
                timeout=10_000
            )
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
            expect(prompt).to_have_text(re.compile(r"\[(\*|\d+)\]"), timeout=10_000)
            return
        except (AssertionError, PlaywrightTimeout):
            if attempt == attempts - 1:
                raise


def wait_all_run(page, timeout_ms: int = KERNEL_TIMEOUT_MS) -> None:
    """Every code cell shows a number in its prompt (it has run)."""
    page.wait_for_function(
        """re => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
                 .every(p => new RegExp(re).test(p.textContent))""",
        arg=PROMPT_DONE.pattern,
        timeout=timeout_ms,
    )


def error_outputs(page) -> list[str]:
    """Tracebacks and stderr the run left in the notebook."""
    selector = (
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'],"
        " .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
    )
    return page.locator(selector).all_inner_texts()


def run_new_cell(page, code: str) -> str:
    """Add a cell below the last one, type one line of ``code``, run it; return what it printed."""
    from playwright.sync_api import expect

    cells = page.locator(".jp-Notebook .jp-Cell")
    count = cells.count()
    cells.nth(count - 1).locator(".jp-InputPrompt").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    expect(cells).to_have_count(count + 1)
    new = cells.nth(count)
    new.locator(".jp-InputArea-editor .cm-content").click()
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    expect(new.locator(".jp-InputPrompt")).to_have_text(PROMPT_DONE, timeout=STEP_TIMEOUT_MS)
    return "\n".join(new.locator(".jp-OutputArea-output").all_inner_texts())


def site_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


os.environ.pop("ANYWIDGET_HMR", None)
