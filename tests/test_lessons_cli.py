"""`rummy-widget handout` and `rummy-widget lessons`: the files a teacher gets from a pip install.

The wheel's copy of the lessons is tested in tests/test_packaging.py (a built wheel); here the
commands run in-process from the checkout, whose lessons are read from tutorials/.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummy_widget.__main__ import main
from rummy_widget.i18n import t
from rummy_widget.teaching import lesson_files
from rummy_widget.teaching.handout import handout
from rummy_widget.teaching.lesson_files import FIRST_LESSON, lessons_source, write_lessons

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"


def test_handout_writes_the_page_of_the_rules_and_language_asked(tmp_path, capsys):
    out = tmp_path / "moniste.html"
    assert main(["handout", "--rules", "rummy_royal", "--lang", "fi", "-o", str(out)]) == 0
    assert out.read_text("utf-8") == handout("rummy_royal", "fi")
    assert capsys.readouterr().out.strip() == t("cli.handout.written", "fi", file=out)


def test_handout_names_its_file_after_the_rules_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["handout"]) == 0
    assert (tmp_path / "rules_handout_traditional.html").read_text("utf-8") == handout()


def test_handout_refuses_rules_it_does_not_know(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["handout", "--rules", "royal", "-o", str(tmp_path / "x.html")])
    assert exit_.value.code == 2
    assert "invalid choice: 'royal'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_lessons_writes_every_lesson_and_both_handouts(tmp_path, capsys, lang):
    folder = tmp_path / "class 7b"
    assert main(["lessons", "--lang", lang, "--no-open", str(folder)]) == 0
    notebooks = sorted(p.name for p in (TUTORIALS / lang).glob("*.ipynb"))
    assert len(notebooks) == 11 and FIRST_LESSON in notebooks
    for name in notebooks:
        assert (folder / name).read_bytes() == (TUTORIALS / lang / name).read_bytes()
    for preset in ("traditional", "rummy_royal"):
        page = (folder / f"rules_handout_{preset}.html").read_text("utf-8")
        assert page == handout(preset, lang)
    out = capsys.readouterr().out
    assert t("cli.lessons.written", lang, lessons=11, handouts=2, folder=folder) in out
    assert "jupyter lab '" in out  # the folder's name has a space: quoted to paste in a shell


def test_a_second_run_keeps_a_class_s_edited_lessons_unless_told(tmp_path, capsys):
    write_lessons(tmp_path, "fi")
    edited = tmp_path / FIRST_LESSON
    edited.write_text("{}", "utf-8")
    assert main(["lessons", "--lang", "fi", "--no-open", str(tmp_path)]) == 0
    assert edited.read_text("utf-8") == "{}"
    out = capsys.readouterr().out
    assert FIRST_LESSON in out and "--overwrite" in out
    assert main(["lessons", "--lang", "fi", "--no-open", "--overwrite", str(tmp_path)]) == 0
    assert edited.read_bytes() == (TUTORIALS / "fi" / FIRST_LESSON).read_bytes()


def test_lessons_open_jupyterlab_at_the_first_lesson(tmp_path, monkeypatch):
    started = []

    def call(command, cwd):
        started.append((command, cwd))
        return 0

    monkeypatch.setattr(subprocess, "call", call)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: object())
    assert main(["lessons", str(tmp_path)]) == 0
    assert started == [([sys.executable, "-m", "jupyterlab", FIRST_LESSON], tmp_path)]


def test_without_jupyterlab_the_lessons_say_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr(subprocess, "call", lambda *a, **k: pytest.fail("nothing to start"))
    assert main(["lessons", "--lang", "fi", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pip install 'rummy_widget[lab]'" in out and "JupyterLabia ei ole asennettu" in out
    assert (tmp_path / FIRST_LESSON).is_file()


def test_a_checkout_reads_the_lessons_from_tutorials():
    """The package has no lessons/ folder in the repository: the wheel gets it at build time."""
    package = Path(lesson_files.__file__).resolve().parents[1]
    assert not (package / "lessons").exists()
    assert Path(str(lessons_source("fi"))) == TUTORIALS / "fi"
    with pytest.raises(ValueError, match="unknown language"):
        lessons_source("sv")
