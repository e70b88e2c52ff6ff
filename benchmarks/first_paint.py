"""Where the time from Shift+Enter to a painted card table goes, phase by phase.

    python benchmarks/first_paint.py [--pages 3] [--reruns 3] [--nodelay] [--trace PATH]

The same JupyterLab, Chromium and cells as benchmarks/latency.py's (c). The kernel records
when it starts and ends the cell, how long the table's construction and its parts take, and
when it sends each message; the page records when each kernel message arrives on the
websocket, when anywidget hands the bundle to ``import()``, when the table's root and board
appear and when the next frame is painted. Both clocks are the machine's wall clock, so the
phases line up. With ``--trace`` Chromium's performance timeline of the first table is saved
too and its main-thread work between Shift+Enter and the paint is summed by kind. Each page
is a fresh page and kernel, so its first table pays every first-time cost again; the table
printed gives the median time of each milestone over the pages (first tables) and reruns.

A benchmark, not a test: it prints figures and fails on none.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests" / "browser")]

from browser_support import CHROMIUM, CHROMIUM_ARGS, open_notebook, run_cell, start_server  # noqa: E402
from latency import IMPORT_CELL, NODELAY_CONFIG, PAINT_CELL, TABLE_CELL  # noqa: E402

#: Kernel side: the times (epoch ms) of the cell's start and end, of each message sent, and of
#: the table's construction and its parts, written to a file after each cell.
PROBE_CELL = """import json, time
from jupyter_client.session import Session
from rummy_widget.table import core as _core, view as _view, widget as _widget

_probe = {"sent": [], "spans": []}
_send = Session.send


def _probed_send(self, stream, msg_or_type, *args, **kwargs):
    msg = _send(self, stream, msg_or_type, *args, **kwargs)
    kind = msg["header"]["msg_type"] if isinstance(msg, dict) else str(msg_or_type)
    _probe["sent"].append((time.time() * 1000, kind))
    return msg


Session.send = _probed_send


def _span(owner, name, label):
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        t0 = time.time() * 1000
        try:
            return original(*args, **kwargs)
        finally:
            _probe["spans"].append((label, t0, time.time() * 1000))

    setattr(owner, name, timed)


_span(_widget.RummyTable, "__init__", "RummyTable()")
_span(_widget.Table, "__init__", "Table() (deal, bots)")
_span(_view, "cards_penalty", "hand penalty (solver)")
_span(_view, "build_view", "build_view")
_span(_widget.anywidget.AnyWidget, "__init__", "AnyWidget.__init__ (comm open)")
_span(_widget.RummyTable, "_publish", "_publish (view, rules traits)")
_span(_widget.RummyTable, "_repr_mimebundle_", "display")
ip = get_ipython()
ip.events.register("pre_run_cell", lambda *a: _probe.__setitem__("start", time.time() * 1000))


def _dump(*_args):
    _probe["end"] = time.time() * 1000
    with open(PROBE_PATH, "a") as out:
        out.write(json.dumps(_probe) + "\\n")
    _probe["sent"], _probe["spans"] = [], []


ip.events.register("post_run_cell", _dump)
"""

#: Page side: kernel messages as they arrive, the bundle's import, the table's elements.
PAGE_PROBE = """(() => {
  const log = (what) => window.__rw.push([performance.timeOrigin + performance.now(), what]);
  window.__rw = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        const data = e.data;
        let text = typeof data === "string" ? data : "";
        if (data instanceof ArrayBuffer) {
          text = new TextDecoder().decode(new Uint8Array(data, 0, Math.min(data.byteLength, 4096)));
        }
        const kind = /"msg_type":\\s*"(\\w+)"/.exec(text);
        const size = data.byteLength ?? data.length ?? 0;
        log(`ws ${kind ? kind[1] : "?"} ${size}`);
      });
    }
  };
  const blob = URL.createObjectURL;
  URL.createObjectURL = function (b) {
    if (b && b.type === "text/javascript") log(`esm import (${b.size} B)`);
    return blob.call(URL, b);
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.shiftKey) { log("keydown"); performance.mark("rw-keydown"); }
  }, { capture: true });
  const seen = new Set();
  new MutationObserver(() => {
    for (const name of ["rw-root", "rw-board"]) {
      for (const el of document.getElementsByClassName(name)) {
        if (seen.has(el)) continue;
        seen.add(el);
        log(name);
        if (name === "rw-board") {
          requestAnimationFrame(() => { log("frame"); requestAnimationFrame(() => {
            log("painted"); performance.mark("rw-painted"); }); });
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();"""

TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink.user_timing",
    "v8.execute",
    "v8",
]


def phases(kernel: dict, page: list[tuple[float, str]]) -> list[tuple[str, float]]:
    """The run's events in time order, as (what, ms since the Shift+Enter)."""
    t0 = next(t for t, what in page if what == "keydown")
    events = [(t, what) for t, what in page if t >= t0]
    events.append((kernel["start"], "kernel: cell starts"))
    events.append((kernel["end"], "kernel: cell ends"))
    events += [(t, f"kernel sends {kind}") for t, kind in kernel["sent"] if t >= t0]
    spans = [(t1, f"kernel: {label} took {t1 - s:.1f} ms") for label, s, t1 in kernel["spans"]]
    events += spans
    return [(what, t - t0) for t, what in sorted(events)]


def trace_summary(path: Path, top: int = 12) -> list[tuple[str, float]]:
    """Main-thread time by event name between Shift+Enter and the paint (top-level only)."""
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    marks = {e["name"]: e["ts"] for e in events if e.get("name") in ("rw-keydown", "rw-painted")}
    start, end = marks.get("rw-keydown"), marks.get("rw-painted")
    if start is None or end is None:
        return []
    main = [e for e in events if e.get("name") == "RunTask" and start <= e.get("ts", 0) <= end]
    tids = statistics.multimode([(e["pid"], e["tid"]) for e in main]) if main else []
    if not tids:
        return []
    pid, tid = tids[0]
    totals: dict[str, float] = {}
    tasks = [e for e in main if (e["pid"], e["tid"]) == (pid, tid)]
    totals["(all main-thread tasks)"] = sum(e.get("dur", 0) for e in tasks) / 1000
    for e in events:
        if (e.get("pid"), e.get("tid")) != (pid, tid) or e.get("ph") != "X":
            continue
        if not start <= e.get("ts", 0) <= end:
            continue
        name = e["name"]
        if name in ("RunTask", "ThreadControllerImpl::RunTask"):
            continue
        detail = ""
        data = e.get("args", {}).get("data", {})
        if name in ("EvaluateScript", "v8.compileModule", "v8.evaluateModule", "FunctionCall"):
            url = data.get("url") or data.get("fileName") or ""
            detail = " blob" if url.startswith("blob:") else ""
        key = name + detail
        totals[key] = totals.get(key, 0) + e.get("dur", 0) / 1000
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    return ranked[:top]


PAINTED = "() => window.__rw.some(([, what]) => what === 'painted')"

#: The phases of the summary table: (label, how to find its end in one run's events).
MILESTONES = [
    ("kernel starts the cell", "kernel: cell starts"),
    ("RummyTable() built, comm_open sent", "kernel: RummyTable() took"),
    ("the cell ends (execute_result sent)", "kernel: cell ends"),
    ("the table's comm_open arrives", "ws comm_open big"),
    ("execute_result arrives", "ws execute_result"),
    ("anywidget imports the bundle (a new blob URL)", "esm import"),
    ("the table is in the page (bundle loaded, rendered)", "rw-board"),
    ("the next frame starts (style, layout done)", "frame"),
    ("painted (benchmarks/latency.py's (c))", "painted"),
]


def milestones(events: list[tuple[str, float]]) -> dict[str, float]:
    """When each milestone of one run came, in ms after the Shift+Enter."""
    found: dict[str, float] = {}
    for what, t in events:
        label = what
        if what.startswith("ws comm_open") and int(what.split()[-1]) > 10_000:
            label = "ws comm_open big"
        for _name, key in MILESTONES:
            if label.startswith(key) and key not in found:
                found[key] = t
    return found


def one_page(browser, server, probe_path: Path, n: int, reruns: int, trace: Path | None):
    """A fresh page and kernel: the first table, then ``reruns`` reruns of another cell."""
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    page.add_init_script(PAGE_PROBE)
    probe = f"PROBE_PATH = {str(probe_path)!r}\n" + PROBE_CELL
    name = server.write_notebook(f"paint{n}.ipynb", [probe, IMPORT_CELL, TABLE_CELL, PAINT_CELL])
    open_notebook(page, server, name)
    run_cell(page, 0)
    run_cell(page, 1)
    runs = []
    for index in [2] + [3] * reruns:
        page.evaluate("() => { window.__rw = []; }")
        if trace and index == 2:
            browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
        run_cell(page, index)
        page.wait_for_function(PAINTED, timeout=60_000)
        if trace and index == 2:
            browser.stop_tracing()
        runs.append(page.evaluate("() => window.__rw"))
    page.close()
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=3, help="fresh pages (and kernels)")
    parser.add_argument("--reruns", type=int, default=3, help="reruns of a second table cell")
    parser.add_argument("--nodelay", action="store_true", help="TCP_NODELAY on kernel websockets")
    parser.add_argument("--trace", type=Path, help="save the first table's Chromium trace here")
    parser.add_argument("--verbose", action="store_true", help="print every run's events")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        probe_path = Path(tmp) / "probe.jsonl"
        server = start_server("lab", Path(tmp), NODELAY_CONFIG if args.nodelay else "")
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = []
            for n in range(args.pages):
                trace = args.trace if n == 0 else None
                pages.append(one_page(browser, server, probe_path, n, args.reruns, trace))
            browser.close()
        finally:
            server.stop()
        probes = [json.loads(line) for line in probe_path.read_text().splitlines()]
    loads.append(os.getloadavg()[0])
    per_page = 2 + 1 + args.reruns  # the probe and import cells, then the table cells
    first, again = [], []
    for n, runs in enumerate(pages):
        kernel = probes[n * per_page + 2 : (n + 1) * per_page]
        for i, (page_events, kernel_events) in enumerate(zip(runs, kernel, strict=True)):
            events = phases(kernel_events, page_events)
            (first if i == 0 else again).append(milestones(events))
            if args.verbose:
                print(f"\npage {n}, " + ("first table" if i == 0 else f"rerun {i}"))
                for what, t in events:
                    print(f"  {t:7.1f} ms  {what}")
    server_kind = "TCP_NODELAY on the kernel websocket" if args.nodelay else "stock server"
    print(f"\n{server_kind}; load average {loads[0]:.1f} -> {loads[1]:.1f}")
    print(f"{'ms after Shift+Enter (median)':<52} {'first table':>12} {'reruns':>8}")
    for label, key in MILESTONES:
        cols = []
        for runs in (first, again):
            values = [r[key] for r in runs if key in r]
            cols.append(f"{statistics.median(values):.0f}" if values else "-")
        print(f"{label:<52} {cols[0]:>12} {cols[1]:>8}")
    print(f"(n = {len(first)} first tables, {len(again)} reruns)")
    if args.trace:
        print(f"\nfirst table, main thread between Shift+Enter and paint ({args.trace}):")
        for name, ms in trace_summary(args.trace):
            print(f"  {ms:7.1f} ms  {name}")


if __name__ == "__main__":
    main()
