"""Round-trip latency of the card table in real JupyterLab, against a bare anywidget echo.

    python benchmarks/latency.py [--samples 60]

Starts `jupyter lab` on loopback (the browser tests' plumbing, tests/browser/browser_support.py)
and headless Chromium from Debian's packages, opens one notebook and measures, timed in the page
with ``performance.now()``:

(a) echo: a bare anywidget; click -> custom message to Python -> Python sets a trait -> the
    page's text changes;
(b) table: click on the stock -> the drawn card is in the hand in the DOM (each sample is
    followed by an untimed discard, and a new deal when one ends);
(c) first paint: Shift+Enter on a cell that shows a table -> the table's first frame painted:
    once for the first table of the page (its front end arrives and loads), then for reruns
    of a second table cell.

``--nodelay`` starts the server with TCP_NODELAY on the kernel websocket (Nagle's algorithm
off), to show how much of each round trip is Nagle's wait for a delayed ACK.

(d) selecting a card (no Python): the script time of the click, measured around the
    synchronous ``click()`` in the page (the handler only sets attributes, no redraw);
(e) a 4-player bot round at the normal bot speed (cards travelling): long tasks over 50 ms
    seen by a PerformanceObserver, and the frame rate while animating;
(f) the bundle: widget.js (the style sheet inside) minified, and gzipped.

For (a) and (b) it also splits each round trip where the page receives the reply (the
largest kernel websocket message of the round trip, the widget's state update): click ->
reply arrives (the kernel's work and the message's way) and reply -> shown (the page's work).

Prints median and p95 of each and the ratio b/a. A benchmark, not a test: nothing here fails on
a slow figure. Goals (issue 21): b/a <= 1.25, select <= 2 ms, first paint < 150 ms, no long
task > 50 ms in a 4-player round, bundle <= 60 kB minified and <= 20 kB gzipped.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from browser_support import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    cell,
    open_notebook,
    run_cell,
    start_server,
)

ECHO_CELL = '''import anywidget
import traitlets


class Echo(anywidget.AnyWidget):
    """Click -> message to Python -> Python sets a trait -> the page shows it."""

    _esm = """
    export default { render({ model, el }) {
      const button = document.createElement("button");
      button.className = "echo-button";
      button.textContent = "ping";
      const out = document.createElement("span");
      out.className = "echo-out";
      out.textContent = String(model.get("count"));
      button.addEventListener("click", () => model.send({ n: model.get("count") + 1 }));
      model.on("change:count", () => { out.textContent = String(model.get("count")); });
      el.append(button, out);
    } };
    """
    count = traitlets.Int(0).tag(sync=True)

    def __init__(self):
        super().__init__()
        self.on_msg(lambda _w, content, _b: setattr(self, "count", content["n"]))


echo = Echo()
echo'''

IMPORT_CELL = "from rummy_widget.table.widget import RummyTable"
#: jupyter_server_config.py for --nodelay: Nagle off on every kernel websocket.
NODELAY_CONFIG = """
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

_open = KernelWebsocketHandler.open


async def _open_nodelay(self, *args, **kwargs):
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)


KernelWebsocketHandler.open = _open_nodelay
"""
TABLE_CELL = (
    'table = RummyTable(opponents=["basic"], seed=7, bot_speed="instant", deals=1000)\ntable'
)
PAINT_CELL = 'RummyTable(opponents=["basic"], seed=8, bot_speed="instant")'
ROUND_CELL = 'RummyTable(opponents=["basic"] * 3, seed=5, bot_speed="normal", deals=100)'
STATIC = REPO / "rummy_widget" / "static"

ECHO_JS = """async (root) => {
  const button = root.querySelector(".echo-button"), out = root.querySelector(".echo-out");
  const want = String(Number(out.textContent) + 1);
  return await new Promise((resolve) => {
    const t0 = (window.__rwClick = performance.now());
    const seen = new MutationObserver(() => {
      if (out.textContent === want) { seen.disconnect(); resolve(performance.now() - t0); }
    });
    seen.observe(out, { childList: true, characterData: true, subtree: true });
    button.click();
  });
}"""

STOCK_JS = """async (root) => {
  const count = () => root.querySelectorAll(".rw-hand [data-card]").length;
  const want = count() + 1;
  return await new Promise((resolve) => {
    const t0 = (window.__rwClick = performance.now());
    const seen = new MutationObserver(() => {
      if (count() === want) { seen.disconnect(); resolve(performance.now() - t0); }
    });
    seen.observe(root, { childList: true, subtree: true });
    root.querySelector('[data-rw-act="stock"]').click();
  });
}"""

#: Installed before the page's own scripts: every kernel websocket message's arrival time and
#: data (read only afterwards, by REPLY_JS), so a round trip can be split where its reply
#: arrives.
ARRIVALS_JS = """(() => {
  const Base = window.WebSocket;
  const arrivals = (window.__rwArrivals = []);
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        arrivals.push([performance.now(), e.data]);
        if (arrivals.length > 64) arrivals.shift();
      });
    }
  };
})();"""

#: The time (after the click) at which the round trip's reply arrived: the first message that
#: holds ``marker`` (the echo's new count; the table's drawn card, which goes ahead of the view).
REPLY_JS = """([total, marker]) => {
  const t0 = window.__rwClick;
  const bytes = (data) => (data instanceof ArrayBuffer ? new TextDecoder().decode(data) : "");
  const text = (data) => (typeof data === "string" ? data : bytes(data));
  const reply = window.__rwArrivals.find(
    ([t, data]) => t >= t0 && t <= t0 + total && text(data).includes(marker),
  );
  return reply ? reply[0] - t0 : null;
}"""

#: Selecting a card: the script time of the click (its handler runs inside click()).
SELECT_JS = """(root) => {
  const card = root.querySelector(".rw-hand [data-card]");
  const t0 = performance.now();
  card.click();
  const t1 = performance.now();
  return t1 - t0;
}"""

#: One bot round of a 4-player table: draw, discard, then watch until the table is idle.
ROUND_JS = """async (root) => {
  const long = [];
  const watch = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(e.duration);
  });
  watch.observe({ type: "longtask", buffered: false });
  const idle = () => root.dataset.rwState === "idle";
  const until = (ok) => new Promise((resolve) => {
    const tick = () => (ok() ? resolve() : requestAnimationFrame(tick));
    tick();
  });
  const cards = () => root.querySelectorAll(".rw-hand [data-card]").length;
  const before = cards();
  root.querySelector('[data-rw-act="stock"]').click();
  await until(() => cards() === before + 1 && idle());
  const hand = root.querySelectorAll(".rw-hand [data-card]");
  hand[hand.length - 1].click();
  root.querySelector('[data-rw-act="discard"]').click();
  const next = () => root.querySelector('[data-rw-act="next"]');
  await until(() => root.dataset.rwState === "animating" || next());
  let frames = 0;
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = () => { frames++; idle() ? resolve() : requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const seconds = (performance.now() - t0) / 1000;
  watch.disconnect();
  return { long, fps: frames / seconds, seconds };
}"""

#: Whether the learner may draw now (it is their turn and nothing is animating).
CAN_DRAW_JS = """root => {
  const stock = root.querySelector('[data-rw-act="stock"]');
  return !!stock && stock.getAttribute("aria-disabled") !== "true";
}"""

PAINT_JS = """() => {
  window.__paint = null;
  const before = new Set(document.querySelectorAll(".rw-board"));
  const t0 = { v: null };
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.shiftKey && t0.v === null) t0.v = performance.now();
  }, { capture: true, once: false });
  const seen = new MutationObserver(() => {
    const fresh = [...document.querySelectorAll(".rw-board")].some((b) => !before.has(b));
    if (fresh && t0.v !== null) {
      seen.disconnect();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        window.__paint = performance.now() - t0.v;
      }));
    }
  });
  seen.observe(document.body, { childList: true, subtree: true });
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def split_line(name: str, trips: list[tuple[float, float | None]]) -> str:
    """Medians of click -> reply arrives and reply -> shown, over the trips whose reply was seen."""
    seen = [(total, reply) for total, reply in trips if reply is not None]
    if not seen:
        return f"{name:<28} no reply seen"
    to_reply = statistics.median(reply for _, reply in seen)
    after = statistics.median(total - reply for total, reply in seen)
    return (
        f"{name:<28} click -> reply {to_reply:5.2f} ms, reply -> shown {after:5.2f} ms"
        f"   (n={len(seen)})"
    )


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name:<28} n={len(values):<4} median {statistics.median(values):7.1f} ms"
        f"   p95 {percentile(values, 0.95):7.1f} ms   min {min(values):6.1f} ms"
    )


def round_trip(page, root, js: str, marker: str) -> tuple[float, float | None]:
    """One timed round trip, and when (after the click) its reply arrived."""
    total = root.evaluate(js)
    return total, page.evaluate(REPLY_JS, [total, marker])


def measure_echo(page, samples: int, warmup: int) -> list[tuple[float, float | None]]:
    root = cell(page, 0).locator(".echo-button").locator("..")
    root.wait_for()
    times = [round_trip(page, root, ECHO_JS, '"count"') for _ in range(warmup + samples)]
    return times[warmup:]


def wait_until(page, root, js: str) -> None:
    """Wait for a condition on the table; on a timeout say what the table showed."""
    try:
        page.wait_for_function(js, arg=root.element_handle(), timeout=30_000)
    except Exception as err:
        shown = root.evaluate(
            "r => [r.querySelector('.rw-status')?.textContent, r.querySelector('[role=alert]')"
            "?.textContent, r.querySelectorAll('.rw-hand [data-card]').length]"
        )
        raise RuntimeError(f"the table never got there; status, alert, hand: {shown}") from err


def measure_round(page, rounds: int) -> tuple[list[float], list[float]]:
    """Long tasks (ms) and frame rates of ``rounds`` animated 4-player bot rounds."""
    root = cell(page, 4).locator(".rw-root")
    root.locator(".rw-board").wait_for()
    long, fps = [], []
    ready = (
        f"r => (({CAN_DRAW_JS})(r) && r.dataset.rwState === 'idle')"
        " || !!r.querySelector('[data-rw-act=next]')"
    )
    for _ in range(rounds):
        wait_until(page, root, ready)
        if root.locator('[data-rw-act="next"]').count():  # the deal is over: next deal
            root.locator('[data-rw-act="next"]').click()
            wait_until(page, root, ready)
        got = root.evaluate(ROUND_JS)
        long += got["long"]
        if got["seconds"] > 0.5:  # an animated round, not one cut short by the deal's end
            fps.append(got["fps"])
    return long, fps


def bundle_sizes() -> dict[str, int]:
    """widget.js, which carries the style sheet too (js/src/styles.ts)."""
    js = (STATIC / "widget.js").read_bytes()
    return {"min": len(js), "gzip": len(gzip.compress(js, 9))}


def measure_select(page, samples: int, warmup: int) -> list[float]:
    root = cell(page, 2).locator(".rw-root")
    times = [root.evaluate(SELECT_JS) for _ in range(2 * (warmup + samples))]
    return times[2 * warmup :]


def measure_stock(page, samples: int, warmup: int) -> list[tuple[float, float | None]]:
    root = cell(page, 2).locator(".rw-root")
    root.locator(".rw-board").wait_for()
    times = []
    while len(times) < warmup + samples:
        wait_until(
            page, root, f"r => ({CAN_DRAW_JS})(r) || !!r.querySelector('[data-rw-act=next]')"
        )
        if root.locator('[data-rw-act="next"]').count():  # the deal is over: next deal
            root.locator('[data-rw-act="next"]').click()
            wait_until(page, root, f"r => ({CAN_DRAW_JS})(r)")
            continue
        times.append(round_trip(page, root, STOCK_JS, '"drawn"'))
        # Untimed: discard the drawn card (the last one in the hand) and let the bot play.
        cards = root.locator(".rw-hand [data-card]")
        cards.last.click()
        root.locator('[data-rw-act="discard"]').click()
    return times[warmup:]


def measure_first_paint(page, index: int, runs: int = 1) -> list[float]:
    times = []
    for _ in range(runs):
        page.evaluate(PAINT_JS)
        run_cell(page, index)
        handle = page.wait_for_function("() => window.__paint", timeout=30_000)
        times.append(handle.json_value())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60, help="timed samples of (a) and (b)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed samples first")
    parser.add_argument("--paint-runs", type=int, default=5, help="reruns of a table cell")
    parser.add_argument("--nodelay", action="store_true", help="TCP_NODELAY on kernel websockets")
    parser.add_argument("--rounds", type=int, default=3, help="animated 4-player bot rounds")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = start_server("lab", Path(tmp), NODELAY_CONFIG if args.nodelay else "")
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            page.add_init_script(ARRIVALS_JS)
            cells = [ECHO_CELL, IMPORT_CELL, TABLE_CELL, PAINT_CELL, ROUND_CELL]
            server.write_notebook("latency.ipynb", cells)
            open_notebook(page, server, "latency.ipynb")
            run_cell(page, 0)
            run_cell(page, 1)
            started = time.monotonic()
            first = measure_first_paint(page, 2)[0]
            echo_trips = measure_echo(page, args.samples, args.warmup)
            stock_trips = measure_stock(page, args.samples, args.warmup)
            select = measure_select(page, args.samples, args.warmup)
            reruns = measure_first_paint(page, 3, args.paint_runs)
            run_cell(page, 4)
            long, fps = measure_round(page, args.rounds)
            browser.close()
        finally:
            server.stop()

    echo = [total for total, _ in echo_trips]
    stock = [total for total, _ in stock_trips]
    ratio = statistics.median(stock) / statistics.median(echo)
    nagle = "TCP_NODELAY on the kernel websocket" if args.nodelay else "stock Jupyter Server"
    print(
        f"JupyterLab on loopback ({nagle}), headless Chromium; {time.monotonic() - started:.0f} s"
    )
    print(summary("(a) bare anywidget echo", echo))
    print(summary("(b) table: stock -> hand", stock))
    print(f"{'ratio b/a (medians)':<28} {ratio:.2f}   (goal <= 1.25)")
    print(split_line("(a) split at the reply", echo_trips))
    print(split_line("(b) split at the reply", stock_trips))
    print(summary("(d) select a card (script)", select))
    print(
        f"{'(c) run cell -> painted':<28} first table {first:.0f} ms, "
        f"reruns median {statistics.median(reruns):.0f} ms (n={len(reruns)})   (goal < 150 ms)"
    )
    worst = max(long, default=0.0)
    rate = f"{statistics.median(fps):.0f} fps" if fps else "no animated round"
    print(
        f"{'(e) 4-player bot round':<28} {len(long)} long tasks, longest {worst:.0f} ms, "
        f"{rate} while animating (n={args.rounds})   (goal: none over 50 ms)"
    )
    sizes = bundle_sizes()
    print(
        f"{'(f) bundle JS + CSS':<28} {sizes['min']:,} bytes minified, {sizes['gzip']:,} gzipped"
        "   (goal <= 60 kB, <= 20 kB)"
    )


if __name__ == "__main__":
    main()
