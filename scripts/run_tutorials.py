"""Run every tutorial notebook from top to bottom in a fresh kernel and save it in place.

Usage: python scripts/run_tutorials.py [NOTEBOOK_OR_FOLDER ...]
(default: tutorials/en tutorials/fi)

The saved outputs are what strict nbval compares (``make test``), so they must come from a
clean run: every code cell executed in order, nothing left from an interactive session. The run
fails on a cell that raises without the ``raises-exception`` tag, and on anything written to
stderr (a warning there would break strict nbval: filter known warnings in the setup cell).
Widget state is not saved (model ids are random and the front end's code would be copied into
every notebook); widgets keep their short text form, and lessons show the same table as a
saved picture next to them.
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
    nb.metadata.pop("widgets", None)
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
