"""Where a JupyterLite start spends its time: the offline site, visited again and again.

    make lite && python benchmarks/lite_start.py [--visits 3] [--site site]

Serves the site on loopback (tests/browser/static_server.py, which logs the bytes it sends) and
opens lesson 6 in headless Chromium several times in one browser profile (its HTTP cache kept;
no host name resolves). For each visit it prints, in seconds from opening the page: when the
page showed an idle kernel, when Pyodide's kernel was ready (its "No new packages to load" log),
when Run All Cells had painted the first table; and the bytes the server sent for that visit.
A benchmark, not a test: nothing fails on a slow figure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "browser"))

from browser_support import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from lite_support import (  # noqa: E402
    NO_DNS,
    lite_url,
    offline_context,
    run_all_cells,
    serve,
    wait_kernel_idle,
)

LESSON = "en/06_play_against_bots.ipynb"


def visit(context, server) -> dict[str, float]:
    page = context.new_page()
    marks: dict[str, float] = {}
    start = time.perf_counter()

    def log(message) -> None:
        if "No new packages to load" in message.text:
            marks.setdefault("kernel ready", time.perf_counter() - start)

    page.on("console", log)
    before = server.bytes_sent()
    page.goto(lite_url(server, LESSON))
    wait_kernel_idle(page)
    marks["idle shown"] = time.perf_counter() - start
    run_all_cells(page)
    page.locator(".rw-root .rw-board").first.wait_for(timeout=180_000)
    marks["table painted"] = time.perf_counter() - start
    marks["MB fetched"] = (server.bytes_sent() - before) / 1e6
    page.close()
    return marks


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=3)
    parser.add_argument("--site", type=Path, default=REPO / "site")
    args = parser.parse_args(argv)
    if not (args.site / "jupyter-lite.json").is_file():
        sys.exit(f"{args.site} is not a built site: run `make lite` first")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = serve(args.site, Path(tmp) / "served.log")
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, NO_DNS]
        )
        try:
            offline = offline_context(browser, server, route=False)
            for number in range(1, args.visits + 1):
                marks = visit(offline.context, server)
                shown = ", ".join(f"{name} {value:.1f}" for name, value in marks.items())
                print(f"visit {number}: {shown}", flush=True)
            print(f"requests to other hosts: {len(offline.blocked)}")
        finally:
            browser.close()
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
