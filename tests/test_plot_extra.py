"""Plotting is the [plot] extra: without matplotlib the core works and plots say what to install.

matplotlib is installed in the test environment, so its absence is simulated: a ``None`` entry
in ``sys.modules`` makes ``import matplotlib`` raise ImportError, as on a machine without it.
"""

from __future__ import annotations

import sys

import pytest

from rummy_widget.__main__ import main
from rummy_widget.bots.tournament import PLOT_MISSING, PlotUnavailable, tournament
from rummy_widget.i18n import t


@pytest.fixture
def no_matplotlib(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_plot_without_matplotlib_names_the_extra_in_the_learners_language(no_matplotlib, lang):
    result = tournament(["basic", "random"], deals=2, seed=1, executor=None, progress=False)
    with pytest.raises(PlotUnavailable) as err:
        result.plot(lang=lang)
    assert str(err.value) == t("tournament.plot_missing", lang, **PLOT_MISSING)
    assert 'pip install "rummy_widget[plot]"' in str(err.value)
    assert isinstance(err.value, ImportError) and err.value.name == "matplotlib"
    assert "Basic" in result.table("en")  # the table still shows the same figures


def test_the_messages_differ_by_language():
    english, finnish = (t("tournament.plot_missing", lang, **PLOT_MISSING) for lang in ("en", "fi"))
    assert english != finnish
    assert "matplotlib" in finnish and 'pip install "rummy_widget[plot]"' in finnish


def test_cli_plot_without_matplotlib_stops_before_playing(no_matplotlib, capsys, tmp_path):
    chart = tmp_path / "chart.png"
    argv = ["tournament", "--bots", "basic", "random", "--deals", "2", "--jobs", "1"]
    code = main([*argv, "--no-progress", "--lang", "fi", "--plot", str(chart)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.strip() == t("tournament.plot_missing", "fi", **PLOT_MISSING)
    assert captured.out == ""  # no tournament was played
    assert not chart.exists()


def test_cli_plot_with_matplotlib_saves_the_chart(capsys, tmp_path):
    chart = tmp_path / "chart.svg"
    argv = ["tournament", "--bots", "basic", "random", "--deals", "2", "--jobs", "1"]
    assert main([*argv, "--no-progress", "--plot", str(chart)]) == 0
    assert chart.read_text().lstrip().startswith("<?xml")
    assert "Basic" in capsys.readouterr().out
