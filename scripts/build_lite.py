"""Build site/: both tutorial trees as a JupyterLite site that runs offline (`make lite`).

Usage: python scripts/build_lite.py [--output site] [--work build/lite]

The site is static files: any web server (or `python -m http.server -d site`) serves it, and a
learner's browser asks nothing of any other host. What that takes, step by step:

1. Pyodide's runtime comes from the npm `pyodide` package already in js/node_modules (the kernel
   would otherwise load it from a CDN). It is copied to the lite folder's static/pyodide/, where
   `jupyter lite build` finds it and points the kernel at it.
2. That package holds none of the package wheels its lock file lists. The kernel needs some of
   them at start (micropip, IPython and its chain, jedi); they are pure Python, so the same
   versions' wheels from PyPI do, once the copied lock's sha256 entries name PyPI's files.
3. The project's wheel and its dependencies that Pyodide does not list (anywidget, ipywidgets,
   comm, psygnal) become lock entries too, and the kernel preloads them (``loadPyodideOptions``):
   the notebooks import rummy_widget as they would anywhere, with no install cell. anywidget and
   ipywidgets are taken at the versions installed here, because their lab extensions (the front
   end the site ships) come from this same environment.
4. Only the lab extensions the site needs are copied (the kernel, the widget manager, anywidget),
   and the kernel's fallback to pypi.org is switched off.

Downloads are cached under the work folder by exact version; the same checkout and environment
give the same site. See docs/hosts.md.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_NPM = ROOT / "js" / "node_modules" / "pyodide"
TUTORIALS = ROOT / "tutorials"
#: What the Pyodide kernel installs when it starts (its worker's initKernel), plus micropip.
KERNEL_NEEDS = ("micropip", "comm", "ipython", "jedi")
#: Not in Pyodide's lock: wheels from PyPI at the versions installed in this environment.
FROM_ENVIRONMENT = ("anywidget", "ipywidgets", "comm", "psygnal")
#: Requirements that are front end only (their JavaScript ships as lab extensions).
FRONT_END_ONLY = {"jupyterlab-widgets", "widgetsnbextension"}
#: The lab extensions the site needs, by their package.json names.
LAB_EXTENSIONS = (
    "@jupyterlite/pyodide-kernel-extension",
    "@jupyter-widgets/jupyterlab-manager",
    "anywidget",
)
#: The runtime's own files; the rest of the npm package (type definitions, maps, consoles) stays.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.js",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
OWN = "rummy-widget"


def norm(name: str) -> str:
    """A project name as lock files and indexes compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_metadata(path: Path):
    with zipfile.ZipFile(path) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(wheel.read(name).decode())


def requirements(path: Path) -> list[str]:
    """A wheel's unconditional requirements, as normalized names."""
    names = []
    for line in wheel_metadata(path).get_all("Requires-Dist") or []:
        if ";" in line and "extra" in line.split(";", 1)[1]:
            continue
        names.append(norm(re.split(r"[\s<>=!~;\[(]", line.strip(), maxsplit=1)[0]))
    return names


def top_level(path: Path) -> list[str]:
    """The importable names a wheel installs (for the lock's ``imports``)."""
    with zipfile.ZipFile(path) as wheel:
        names = {n.split("/", 1)[0] for n in wheel.namelist() if "/" in n or n.endswith(".py")}
    found = sorted(n.removesuffix(".py") for n in names if not n.endswith((".dist-info", ".data")))
    return [n for n in found if n.isidentifier()]


def closure(packages: dict, roots: list[str]) -> list[str]:
    """The lock's packages that ``roots`` need, following its ``depends``, sorted."""
    keys = {norm(k): k for k in packages}
    seen: set[str] = set()
    stack = [keys[norm(r)] for r in roots if norm(r) in keys]
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack += [keys[norm(d)] for d in packages[name]["depends"]]
    return sorted(seen)


def cached(name: str, version: str, cache: Path) -> Path | None:
    """The wheel of ``name==version`` in the cache, if it is there."""
    for found in sorted(cache.glob("*.whl")):
        project, found_version = found.name.split("-")[:2]
        if norm(project) == norm(name) and found_version == version:
            return found
    return None


def download(name: str, version: str, cache: Path, python: str) -> Path:
    """The pure-Python wheel of ``name==version`` from PyPI, cached by exact version."""
    wheel = cached(name, version, cache)
    if wheel is None:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                f"--python-version={python}",
                "--platform=any",
                f"--dest={cache}",
                f"{name}=={version}",
            ],
            check=True,
        )
        wheel = cached(name, version, cache)
    if wheel is None:
        raise FileNotFoundError(f"pip downloaded no wheel for {name}=={version}")
    return wheel


def own_wheel(dest: Path) -> Path:
    """This checkout's wheel (the front-end bundle must be built: `make install`)."""
    for old in dest.glob("rummy_widget-*.whl"):
        old.unlink()
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--quiet", "--outdir", str(dest), str(ROOT)],
        check=True,
    )
    (wheel,) = dest.glob("rummy_widget-*.whl")
    return wheel


def lock_entry(path: Path, depends: list[str]) -> dict:
    meta = wheel_metadata(path)
    return {
        "depends": depends,
        "file_name": path.name,
        "imports": top_level(path),
        "install_dir": "site",
        "name": norm(meta["Name"]),
        "package_type": "package",
        "sha256": sha256(path),
        "tool": {},
        "unvendored_tests": False,
        "version": meta["Version"],
    }


def stage_pyodide(target: Path, cache: Path) -> dict:
    """Copy the runtime and the wheels into ``target`` and write its lock; returns a manifest."""
    if not (PYODIDE_NPM / "pyodide-lock.json").is_file():
        sys.exit("js/node_modules/pyodide is missing: run `make install` first")
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(PYODIDE_NPM / name, target / name)
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    python = ".".join(lock["info"]["python"].split(".")[:2])
    listed = {norm(k) for k in packages}

    # Packages Pyodide does not list, and the project itself.
    wheels = {
        norm(n): download(n, importlib.metadata.version(n), cache, python) for n in FROM_ENVIRONMENT
    }
    wheels[OWN] = own_wheel(cache / "own")
    wanted = {name: requirements(wheel) for name, wheel in wheels.items()}
    for name, needs in wanted.items():
        missing = [r for r in needs if r not in listed | set(wheels) | FRONT_END_ONLY]
        if missing:
            sys.exit(f"{wheels[name].name} needs {missing}, which neither Pyodide nor this has")

    # Lock-listed packages the kernel and those wheels need: PyPI's wheels of the same versions.
    roots = [*KERNEL_NEEDS, *(r for needs in wanted.values() for r in needs if r in listed)]
    manifest: dict[str, dict] = {}
    for name in closure(packages, roots):
        entry = packages[name]
        wheel = download(entry["name"], entry["version"], cache, python)
        entry["file_name"] = wheel.name
        entry["sha256"] = sha256(wheel)
        shutil.copy2(wheel, target / wheel.name)
        manifest[name] = {"version": entry["version"], "file": wheel.name, "source": "pypi"}

    for name, wheel in wheels.items():
        depends = sorted(r for r in wanted[name] if r in listed | set(wheels))
        entry = lock_entry(wheel, depends)
        packages[entry["name"]] = entry
        shutil.copy2(wheel, target / wheel.name)
        manifest[entry["name"]] = {
            "version": entry["version"],
            "file": wheel.name,
            "source": "this checkout" if name == OWN else "pypi (version installed here)",
        }
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return manifest


def lab_extension_dirs() -> list[Path]:
    """The installed lab extensions the site ships, found in this environment."""
    base = Path(sysconfig.get_path("data")) / "share" / "jupyter" / "labextensions"
    dirs = []
    for name in LAB_EXTENSIONS:
        folder = base / name
        if not (folder / "package.json").is_file():
            sys.exit(f"lab extension {name} is not installed in {base}: pip install -e '.[lite]'")
        dirs.append(folder)
    return dirs


def stage_contents(target: Path, when: int) -> Path:
    """A copy of the tutorials with every file time set to ``when``: the site lists the files'
    times, and a checkout's times are when it was cloned."""
    shutil.copytree(TUTORIALS, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for path in sorted(target.rglob("*"), reverse=True):
        os.utime(path, (when, when))
    os.utime(target, (when, when))
    return target


def write_config(lite_dir: Path, output: Path, contents: Path) -> None:
    """The build's configuration and the site's settings (jupyter-lite.json, overrides.json)."""
    config = {
        "LiteBuildConfig": {
            "contents": [str(contents)],  # en/ and fi/ stay two folders
            "output_dir": str(output),
            "ignore_sys_prefix": ["federated_extensions"],
            "federated_extensions": [str(p) for p in lab_extension_dirs()],
            "no_sourcemaps": True,
        }
    }
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(config, indent=1) + "\n")
    packages = ["micropip", *KERNEL_NEEDS[1:], OWN]
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "rummy_widget",
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": packages},
                }
            },
        },
    }
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(settings, indent=1) + "\n")
    # Open notebooks with the one kernel there is, without asking; no news pop-ups. Every
    # cell of a lesson is drawn ("defer", not JupyterLab's default "full" windowing, which
    # draws only the cells in view), so the browser's Find and a screen reader reach the whole
    # lesson, and the tests can read every output.
    overrides = {
        "@jupyterlab/notebook-extension:tracker": {
            "autoStartDefaultKernel": True,
            "windowingMode": "defer",
        },
        "@jupyterlab/apputils-extension:notification": {
            "checkForUpdates": False,
            "fetchNews": "false",
        },
    }
    (lite_dir / "overrides.json").write_text(json.dumps(overrides, indent=1) + "\n")


def source_date() -> int:
    """The last commit's time (or hatchling's fixed date outside a git checkout)."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%ct"], capture_output=True, text=True
    )
    return int(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else 1580601600


def build(output: Path, work: Path) -> dict:
    lite_dir = work / "lite"
    cache = work / "wheels"
    cache.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(lite_dir, ignore_errors=True)
    shutil.rmtree(work / "contents", ignore_errors=True)
    lite_dir.mkdir(parents=True)
    manifest = stage_pyodide(lite_dir / "static" / "pyodide", cache)
    when = source_date()
    write_config(lite_dir, output, stage_contents(work / "contents", when))
    shutil.rmtree(output, ignore_errors=True)
    jupyter_lite = Path(sys.executable).parent / "jupyter-lite"
    # The build's own times (the contents listing's) are clamped to this as well.
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(when))
    subprocess.run(
        [str(jupyter_lite), "build", "--lite-dir", str(lite_dir), "--output-dir", str(output)],
        check=True,
        cwd=lite_dir,
        env=env,
    )
    (output / "rummy-lite-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "site")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "lite")
    args = parser.parse_args(argv)
    manifest = build(args.output.resolve(), args.work.resolve())
    size = sum(p.stat().st_size for p in args.output.rglob("*") if p.is_file())
    print(f"{args.output}: {len(manifest)} wheels, {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
