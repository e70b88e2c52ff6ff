"""The package as PyPI and pip see it: built here, from this checkout, into a temporary folder.

``python -m build`` makes the sdist, then the wheel from that sdist, with no npm on PATH: that is
what `pip install rummy_widget-*.tar.gz` does on a machine without Node.js. The shipped bundle
lets the build hook skip npm (``skip-if-exists``). ``twine check --strict`` is PyPI's own
rendering check of the README.
"""

from __future__ import annotations

import email
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BUNDLE = REPO / "rummy_widget" / "static" / "widget.js"
LOCK = REPO / "js" / "package-lock.json"


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    if not BUNDLE.is_file():
        pytest.fail("the bundle is not built: run `make install` first", pytrace=False)
    out = tmp_path_factory.mktemp("dist")
    empty = tmp_path_factory.mktemp("no-npm")  # PATH with nothing on it: no npm, no node
    lock_before = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    env = {k: v for k, v in os.environ.items() if k != "HATCH_JUPYTER_BUILDER_SKIP_NPM"}
    env["PATH"] = str(empty)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "Skip-if-exists file(s) found" in done.stdout + done.stderr
    assert hashlib.sha256(LOCK.read_bytes()).hexdigest() == lock_before
    return out


def _one(folder: Path, pattern: str) -> Path:
    (found,) = folder.glob(pattern)
    return found


def _metadata(dist: Path) -> email.message.Message:
    with zipfile.ZipFile(_one(dist, "*.whl")) as wheel:
        name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        return email.message_from_bytes(wheel.read(name))


def test_sdist_and_wheel_build_without_npm_and_pass_twine_check_strict(dist):
    files = sorted(str(p) for p in dist.iterdir())
    assert len(files) == 2
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_license_and_bundle_ship_in_both(dist):
    with zipfile.ZipFile(_one(dist, "*.whl")) as wheel:
        names = wheel.namelist()
        assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
        assert "rummy_widget/static/widget.js" in names
    with tarfile.open(_one(dist, "*.tar.gz")) as sdist:
        names = [n.split("/", 1)[1] for n in sdist.getnames() if "/" in n]
        assert "LICENSE" in names
        assert "rummy_widget/static/widget.js" in names
        assert not [n for n in names if n.startswith("js/node_modules")]
    assert (REPO / "LICENSE").read_text().startswith("MIT License")


def test_metadata_pypi_shows(dist):
    meta = _metadata(dist)
    assert meta["License-Expression"] == "MIT"
    classifiers = meta.get_all("Classifier")
    for wanted in (
        "Framework :: Jupyter",
        "Framework :: Jupyter :: JupyterLab",
        "Intended Audience :: Education",
        "Programming Language :: Python :: 3.10",
    ):
        assert wanted in classifiers
    assert "rummy" in meta["Keywords"].split(",")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(urls)
    requires = meta.get_all("Requires-Dist")
    core = [r for r in requires if "extra ==" not in r]
    assert not [r for r in core if r.startswith("matplotlib")]  # plotting is the [plot] extra
    assert {"lab", "plot", "app", "lite", "dev"} <= set(meta.get_all("Provides-Extra"))
    assert any(r.startswith("matplotlib") and "extra == 'plot'" in r for r in requires)
    assert any(r.startswith("voila") and "extra == 'app'" in r for r in requires)
    assert any(r.startswith("ipykernel") and "extra == 'app'" in r for r in requires)


def test_readme_links_are_absolute_and_it_says_pip_install(dist):
    meta = _metadata(dist)
    readme = meta.get_payload()
    assert "pip install rummy_widget" in readme
    home = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))["Source"]
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links, "the README links to the docs"
    relative = [link for link in links if not re.match(r"https?://", link)]
    assert relative == [], "PyPI cannot follow relative links"
    assert all(link.startswith(home) for link in links if "github.com" in link)


def test_the_sdist_installs_with_pip_where_there_is_no_npm(dist, tmp_path):
    target = tmp_path / "site-packages"
    sdist = str(_one(dist, "*.tar.gz"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), sdist],
        env={**os.environ, "PATH": str(tmp_path)},  # an empty folder: no npm, no node
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (target / "rummy_widget" / "static" / "widget.js").is_file()
    assert (target / "rummy_widget" / "locales" / "fi.json").is_file()
    # The installed package, not this checkout, gives a teacher the lessons and handouts.
    lessons = tmp_path / "oppitunnit"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rummy_widget",
            "lessons",
            "--lang",
            "fi",
            "--no-open",
            str(lessons),
        ],
        env={**os.environ, "PYTHONPATH": str(target)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "11 oppituntia ja 2 sääntömonistetta" in done.stdout
    for notebook in (REPO / "tutorials" / "fi").glob("*.ipynb"):
        assert (lessons / notebook.name).read_bytes() == notebook.read_bytes()
    assert (lessons / "rules_handout_rummy_royal.html").is_file()


def test_the_wheel_ships_the_lessons_of_both_languages_once(dist):
    """tutorials/<lang>/*.ipynb become rummy_widget/lessons/<lang>/ in the wheel, byte for
    byte; the repository itself has no second copy."""
    assert not (REPO / "rummy_widget" / "lessons").exists()
    with zipfile.ZipFile(_one(dist, "*.whl")) as wheel:
        names = set(wheel.namelist())
        for lang in ("en", "fi"):
            tutorials = sorted((REPO / "tutorials" / lang).glob("*.ipynb"))
            assert len(tutorials) == 11
            shipped = {n for n in names if n.startswith(f"rummy_widget/lessons/{lang}/")}
            assert shipped == {f"rummy_widget/lessons/{lang}/{p.name}" for p in tutorials}
            for path in tutorials:
                assert wheel.read(f"rummy_widget/lessons/{lang}/{path.name}") == path.read_bytes()


#: Builds an editable wheel the way pip does (PEP 660), printing the build hook's log.
EDITABLE = """
import sys
from build import ProjectBuilder
from build.env import DefaultIsolatedEnv
with DefaultIsolatedEnv() as env:
    builder = ProjectBuilder.from_isolated_env(env, sys.argv[1])
    env.install(builder.build_system_requires)
    env.install(builder.get_requires_for_build("editable"))
    print(builder.build("editable", sys.argv[2]))
"""


def test_an_editable_build_with_a_current_bundle_runs_no_npm(tmp_path):
    """A developer's `pip install -e .` (npm is on PATH: the hook looks for it first)."""
    if BUNDLE.stat().st_mtime < max(p.stat().st_mtime for p in (REPO / "js" / "src").rglob("*")):
        pytest.fail("the bundle is older than js/src: run `make install` first", pytrace=False)
    lock_before = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    env = {k: v for k, v in os.environ.items() if k != "HATCH_JUPYTER_BUILDER_SKIP_NPM"}
    done = subprocess.run(
        [sys.executable, "-c", EDITABLE, str(REPO), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "No build required" in done.stdout + done.stderr
    assert hashlib.sha256(LOCK.read_bytes()).hexdigest() == lock_before


def test_every_install_script_in_js_is_approved():
    """npm warns at install about a package whose install script `allowScripts` does not cover
    (esbuild's postinstall picks its binary); none may be left unreviewed."""
    npm = shutil.which("npm")
    if npm is None or not (REPO / "js" / "node_modules").is_dir():
        pytest.fail("npm and js/node_modules are needed: run `make install`", pytrace=False)
    done = subprocess.run(
        [npm, "install-scripts", "ls", "--json"],
        cwd=REPO / "js",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"allowScripts": []}
    assert json.loads((REPO / "js" / "package.json").read_text())["allowScripts"] == {
        "esbuild": True
    }
