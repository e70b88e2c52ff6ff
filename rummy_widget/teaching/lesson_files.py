"""The lessons for a pip install: the notebooks the wheel ships, written into a teacher's folder.

The wheel carries ``tutorials/<lang>/*.ipynb`` as ``rummy_widget/lessons/<lang>/`` (hatch's
``force-include`` in pyproject.toml, so the repository holds them once). In a source checkout
the package has no such folder and the lessons are read from ``tutorials/`` beside it.
``write_lessons`` copies one language's lessons and both presets' rules handouts into a folder;
``rummy-widget lessons`` calls it and opens JupyterLab there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from ..engine.rules import PRESETS
from ..i18n import check_lang
from .handout import handout

#: The first lesson, the one JupyterLab opens.
FIRST_LESSON = "01_using_the_kit.ipynb"


@dataclass
class Written:
    """What ``write_lessons`` did: files it wrote and files it left as they were."""

    folder: Path
    lessons: list[Path] = field(default_factory=list)
    handouts: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)


def lessons_source(lang: str) -> Traversable:
    """The folder of ``lang``'s lesson notebooks: the package's, else the checkout's."""
    check_lang(lang)
    shipped = resources.files(__package__.rpartition(".")[0]).joinpath("lessons", lang)
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "tutorials" / lang


def write_lessons(folder: str | Path, lang: str = "en", overwrite: bool = False) -> Written:
    """Copy ``lang``'s lessons and the rules handouts (one per preset) into ``folder``.

    A file already there is kept unless ``overwrite``: a class's edited notebooks are never
    replaced by a second run.
    """
    source = lessons_source(lang)
    notebooks = sorted(
        (item for item in source.iterdir() if item.name.endswith(".ipynb")), key=lambda i: i.name
    )
    if not notebooks:
        raise FileNotFoundError(f"no lessons in {source}")
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = Written(target)
    for notebook in notebooks:
        _write(target / notebook.name, notebook.read_bytes(), overwrite, written.lessons, written)
    for preset in PRESETS:
        page = handout(preset, lang).encode("utf-8")
        _write(target / f"rules_handout_{preset}.html", page, overwrite, written.handouts, written)
    return written


def _write(path: Path, data: bytes, overwrite: bool, into: list[Path], written: Written) -> None:
    if path.exists() and not overwrite:
        written.kept.append(path)
        return
    path.write_bytes(data)
    into.append(path)
