"""What the main thread does while the bots' moves of a 4-player round are animated.

    python benchmarks/bot_round.py [--rounds 2] [--throttle 1]

The same JupyterLab, Chromium and table as benchmarks/latency.py's (e), with Chromium's
performance timeline recorded during the rounds. For each task that ran the table's script it
prints how long the task took, how much of it was the table's script and how much style and
layout: the step's timer task (the next move drawn) and the frame task that starts the step's
flights. It also prints the long tasks (over 50 ms) the page's PerformanceObserver saw, with
what filled them, and the load average. ``--throttle`` slows Chromium's CPU down (DevTools'
CPU throttling) to see what a busier machine would stretch.

A benchmark, not a test: it prints figures and fails on none.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests" / "browser")]

from browser_support import CHROMIUM, CHROMIUM_ARGS, open_notebook, run_cell, start_server  # noqa: E402
from latency import IMPORT_CELL, ROUND_CELL, measure_round  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
RENDERING = ("UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit")


def main_thread(events: list[dict]) -> list[dict]:
    """The renderer's main thread: the one that ran the page's scripts and layouts."""
    busy = [(e["pid"], e["tid"]) for e in events if e.get("name") in ("FunctionCall", "Layout")]
    pid, tid = Counter(busy).most_common(1)[0][0]
    on = [e for e in events if (e.get("pid"), e.get("tid")) == (pid, tid) and e.get("ph") == "X"]
    return sorted(on, key=lambda e: e["ts"])


def tasks_with_children(main: list[dict]) -> list[tuple[dict, list[dict]]]:
    tasks = [e for e in main if e["name"] == "RunTask"]
    out, i = [], 0
    for task in tasks:
        end = task["ts"] + task.get("dur", 0)
        kids = []
        while i < len(main) and main[i]["ts"] < end:
            if main[i]["ts"] >= task["ts"] and main[i] is not task:
                kids.append(main[i])
            i += 1
        out.append((task, kids))
    return out


def ms(events: list[dict], names: tuple[str, ...]) -> float:
    return sum(e.get("dur", 0) for e in events if e["name"] in names) / 1000


def report(trace: Path) -> None:
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    rows: dict[str, list[tuple[float, float, float]]] = {"timer": [], "frame": []}
    for task, kids in tasks_with_children(main_thread(events)):
        ours = [
            k
            for k in kids
            if k["name"] == "FunctionCall"
            and (k.get("args", {}).get("data") or {}).get("url", "").startswith("blob:")
        ]
        if not ours:
            continue
        kind = "timer" if any(k["name"] == "TimerFire" for k in kids) else "frame"
        if kind == "frame" and not any(k["name"] == "FireAnimationFrame" for k in kids):
            continue
        script = sum(k.get("dur", 0) for k in ours) / 1000
        layout = ms(kids, ("UpdateLayoutTree", "Layout"))
        rows[kind].append((task.get("dur", 0) / 1000, script, layout))
    labels = {"timer": "step drawn (timer task)", "frame": "frame running the table's code"}
    for kind, values in rows.items():
        if not values:
            continue
        took, script, layout = zip(*values, strict=True)
        print(
            f"{labels[kind]:<32} n={len(values):<3} task median {statistics.median(took):5.1f} ms,"
            f" max {max(took):5.1f}; table's script median {statistics.median(script):4.1f} ms;"
            f" style+layout median {statistics.median(layout):4.1f} ms, max {max(layout):4.1f}"
        )


def long_tasks(trace: Path, floor: float = 50.0) -> None:
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    for task, kids in tasks_with_children(main_thread(events)):
        took = task.get("dur", 0) / 1000
        if took <= floor:
            continue
        parts = Counter()
        for k in kids:
            if k["name"] in (*RENDERING, "FunctionCall", "TimerFire", "FireAnimationFrame"):
                parts[k["name"]] += k.get("dur", 0) / 1000
        script = [
            (k.get("args", {}).get("data") or {}).get("functionName", "")
            for k in kids
            if k["name"] == "FunctionCall" and k.get("dur", 0) > task.get("dur", 0) * 0.3
        ]
        filled = ", ".join(f"{name} {v:.0f}" for name, v in parts.most_common(4))
        print(f"  {took:6.1f} ms: {filled}" + (f" (script: {', '.join(script)})" if script else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="animated 4-player bot rounds")
    parser.add_argument("--throttle", type=float, default=1.0, help="Chromium CPU slow-down")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        trace = Path(tmp) / "round.json"
        server = start_server("lab", Path(tmp))
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1400})
            # measure_round reads the table of cell 4, as in latency.py's notebook.
            server.write_notebook("round.ipynb", ["1", IMPORT_CELL, "2", "3", ROUND_CELL])
            open_notebook(page, server, "round.ipynb")
            run_cell(page, 1)
            run_cell(page, 4)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
            long, fps = measure_round(page, args.rounds)
            browser.stop_tracing()
            browser.close()
        finally:
            server.stop()
        rate = f"{statistics.median(fps):.0f} fps" if fps else "no animated round"
        print(
            f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}, CPU throttle {args.throttle:g}x;"
            f" {len(long)} long tasks over 50 ms (PerformanceObserver), {rate} while animating"
        )
        report(trace)
        print("long tasks in the timeline, and what filled them:")
        long_tasks(trace)


if __name__ == "__main__":
    main()
