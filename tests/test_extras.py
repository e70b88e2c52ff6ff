"""Optional extras: a lesson that needs one says so in its language, and why where it cannot be
installed (the offline site), instead of a bare ModuleNotFoundError."""

from __future__ import annotations

import importlib.util

import pytest

from rummy_widget.errors import EXTRAS, ExtraMissing, require_extra
from rummy_widget.i18n import t


def hide(monkeypatch, module: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a)
    )


def test_an_installed_extra_passes_silently():
    assert require_extra("env", "fi") is None


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_missing_module_names_the_extra_and_its_install_command(monkeypatch, lang):
    hide(monkeypatch, "gymnasium")
    with pytest.raises(ExtraMissing) as err:
        require_extra("env", lang)
    modules = ", ".join(EXTRAS["env"])
    assert str(err.value) == t(
        "error.extra_missing",
        lang,
        extra="env",
        modules=modules,
        missing="gymnasium",
        command='pip install "rummy_widget[env]"',
    )
    assert 'pip install "rummy_widget[env]"' in str(err.value)
    assert err.value.name == "gymnasium" and isinstance(err.value, ImportError)


def test_in_pyodide_it_says_the_site_cannot_hold_it(monkeypatch):
    hide(monkeypatch, "numpy")
    monkeypatch.setattr("sys.platform", "emscripten")
    with pytest.raises(ExtraMissing) as err:
        require_extra("env", "fi")
    assert "verkoton sivusto" in str(err.value) and "numpy" in str(err.value)
    english = ExtraMissing("env", "en", "numpy")
    assert "offline site" in str(english) and "JupyterLab" in str(english)


def test_an_unknown_language_or_extra_is_refused():
    with pytest.raises(ValueError):
        require_extra("env", "sv")
    with pytest.raises(KeyError):
        require_extra("sound", "en")
