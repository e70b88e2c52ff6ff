"""Run every tutorial notebook from top to bottom in a fresh kernel and save it in place.

Usage: python scripts/run_tutorials.py [NOTEBOOK_OR_FOLDER ...]
(default: tutorials/en tutorials/fi)

The saved outputs are what strict nbval compares (``make test``), so they must come from a
clean run: every code cell executed in order, nothing left from an interactive session. The run
fails on a cell that raises without the ``raises-exception`` tag, and on anything written to
stderr (a warning there would break strict nbval: filter known warnings in the setup cell).
Widget state is not saved (model ids are random and the front end's code would be copied into
every notebook), so widget outputs are saved as their text and pictures only: the widget-view
part of each output is dropped. Without it JupyterLab shows the widget's short text form where
it would otherwise show "Error displaying widget: model not found" until the cell is run again;
lessons show the same table as a saved picture next to it. nbval never compares the widget-view
part (model ids are random), so strict runs still pass.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DEFAULT = [ROOT / "tutorials" / "en", ROOT / "tutorials" / "fi"]


def notebooks(paths: list[Path]) -> list[Path]:
    """The notebooks named, or found in the folders named, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.glob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        else:
            found.append(path)
    return found


def strip_widget_views(nb) -> int:
    """Drop the widget-view part of every output, keeping its text and pictures (the output
    itself stays, so strict nbval sees as many outputs as a fresh run gives); return how many
    were dropped."""
    dropped = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                del output["data"][WIDGET_VIEW]
                dropped += 1
    nb.metadata.pop("widgets", None)
    return dropped


def run(path: Path, timeout: int) -> tuple[Path, float, list[str]]:
    """Execute one notebook in place; returns the time taken and any problems found."""
    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        record_timing=False,
    )
    client.execute()
    strip_widget_views(nb)
    problems = []
    for number, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                problems.append(f"cell {number} wrote to stderr: {output.get('text', '')[:200]}")
    nbformat.write(nb, str(path))
    return path, time.perf_counter() - start, problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks or folders")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks run at the same time")
    args = parser.parse_args(argv)
    os.environ.pop("ANYWIDGET_HMR", None)  # hot reloading breaks outside a live session
    paths = notebooks(args.paths or DEFAULT)
    failed = False
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for path, seconds, problems in pool.map(lambda p: run(p, args.timeout), paths):
            name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            print(f"{name}: {seconds:.1f} s")
            for problem in problems:
                failed = True
                print(f"  {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
