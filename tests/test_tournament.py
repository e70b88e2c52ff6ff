"""Tournaments: duplicate deals, the same result on every executor, tables, plot and CLI."""

from __future__ import annotations

import importlib
import io
import math
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import pytest

from rummy_widget import Game, RuleError
from rummy_widget.__main__ import main
from rummy_widget.bots import get_bot
from rummy_widget.bots.random_bot import RandomBot
from rummy_widget.bots.tournament import _ratio, deal_seed, seatings, tournament

matplotlib.use("Agg")
#: The module (``rummy_widget.tournament`` names the function, which the package exports).
tournament_module = importlib.import_module("rummy_widget.bots.tournament")

SMALL = {"deals": 6, "seed": 3, "progress": False}


def test_every_deal_is_played_once_per_seating_with_the_same_shuffle():
    result = tournament(["random", "random"], executor=None, **SMALL)
    assert [(r.deal, r.seats) for r in result.records] == [
        (d, s) for d in range(6) for s in [(0, 1), (1, 0)]
    ]
    first, swapped = (Game(2, seed=deal_seed(3, 0)) for _ in range(2))
    assert first.hand(0) == swapped.hand(0)  # the seatings share the shuffle
    assert result.seatings == 2 and len(result.records) == 12
    assert sum(s.wins for s in result.stats) == len(result.records) - result.voids


def test_seatings_rotate_the_bots_round_the_table():
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    assert seatings(3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert seatings(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_the_result_is_the_same_on_every_executor():
    serial = tournament(["random", "basic"], executor=None, **SMALL)
    processes = tournament(["random", "basic"], jobs=2, chunk=2, **SMALL)
    with ThreadPoolExecutor(3) as pool:
        threads = tournament(["random", "basic"], executor=pool, chunk=1, **SMALL)
    assert serial.records == processes.records == threads.records
    assert repr(serial) == repr(processes) == repr(threads)


def test_a_tournament_played_in_parts_joins_into_the_whole():
    """Deals 0-2 and 3-5 (one part in worker processes) join into the 6-deal tournament:
    the same records and figures. Overlapping deals or other bots are refused."""
    whole = tournament(["random", "basic"], executor=None, **SMALL)
    first = tournament(["random", "basic"], executor=None, **{**SMALL, "deals": 3})
    rest = tournament(["random", "basic"], jobs=2, chunk=1, first_deal=3, **{**SMALL, "deals": 3})
    assert [r.deal for r in rest.records] == [3, 3, 4, 4, 5, 5]
    joined = first.join(rest)
    assert joined.records == whole.records and joined.deals == 6
    assert repr(joined) == repr(whole) and joined.stats == whole.stats
    with pytest.raises(RuleError) as overlap:
        first.join(first)
    assert overlap.value.code == "tournament_join"
    other = tournament(["random", "random"], executor=None, first_deal=3, **{**SMALL, "deals": 3})
    with pytest.raises(RuleError):
        first.join(other)
    assert "Yhdistää" in overlap.value.localized("fi")


def test_a_small_tournament_runs_on_a_local_dask_cluster():
    # dask[distributed] is a dev dependency: this test is never skipped.
    from distributed import Client, LocalCluster

    serial = tournament(["random", "basic"], executor=None, **SMALL)
    with (
        LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        result = tournament(["random", "basic"], executor=client.get_executor(), **SMALL)
    assert result.records == serial.records


def test_the_table_is_short_deterministic_and_translated():
    result = tournament(["basic", "random"], executor=None, **SMALL)
    text = repr(result)
    assert text == repr(tournament(["basic", "random"], executor=None, **SMALL))
    assert text.splitlines()[1].split()[:2] == ["Bot", "Games"]
    assert "Basic" in text and "Random" in text and "0x" not in text
    fi = result.table("fi")
    assert "Perus" in fi and "Satunnaisbotti" in fi and "Voitto-%" in fi
    html = result._repr_html_()
    assert html.startswith("<table") and "Basic" in html and "<caption>" in html


def test_win_rates_of_two_bots_add_up_and_intervals_hold_the_estimate():
    result = tournament(["basic", "random"], executor=None, deals=10, seed=1, progress=False)
    a, b = result.stats
    assert a.decided == b.decided
    assert math.isclose(a.win_rate + b.win_rate, 1.0)
    for s in result.stats:
        assert s.win_ci[0] <= s.win_rate <= s.win_ci[1]
        assert s.penalty_ci[0] <= s.mean_penalty <= s.penalty_ci[1]
    assert result["Basic"] is a


def test_the_interval_is_clustered_by_deal():
    # Two deals, each won once in two games: no spread between deals, so no width.
    assert _ratio([1, 1], [2, 2], (0, 1)) == (0.5, (0.5, 0.5))
    rate, (low, high) = _ratio([2, 0], [2, 2], (0, 1))
    assert rate == 0.5 and low == 0 and high == 1
    assert math.isnan(_ratio([1], [2], (0, 1))[1][0])  # one deal: no interval


def test_plot_returns_the_figure_and_axes_and_is_deterministic():
    result = tournament(["basic", "random"], executor=None, **SMALL)
    pictures = []
    for _ in range(2):
        fig, ax = result.plot()
        assert [p.get_width() for p in ax.patches] == pytest.approx(
            [100 * s.win_rate for s in reversed(result.stats)]
        )
        buffer = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "rummy"}):  # fixed clip-path ids
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        pictures.append(buffer.getvalue())
        matplotlib.pyplot.close(fig)
    assert pictures[0] == pictures[1]


def test_progress_bar_can_be_turned_off(capsys):
    tournament(["random", "random"], executor=None, deals=2, progress=False)
    assert capsys.readouterr().err == ""
    tournament(["random", "random"], executor=None, deals=2, progress=True)
    assert "Deals" in capsys.readouterr().err


def test_bad_line_ups_are_refused_in_the_language_asked_for():
    with pytest.raises(RuleError) as err:
        tournament(["random"], deals=1, progress=False)
    assert (
        str(err.value)
        == "A tournament needs 2 or more bots and 2–4 players, not 1 bot and 1 player."
    )
    with pytest.raises(RuleError) as err:
        tournament(["random"] * 3, deals=1, players=2, progress=False, lang="fi")
    assert str(err.value) == "3 bottia ei mahdu 2 pelaajan pöytään."
    with pytest.raises(RuleError) as err:
        tournament(["random", "random"], deals=1, players=5, progress=False)
    assert err.value.code == "tournament_seats" and "not 2 bots and 5 players" in str(err.value)


class NotebookBot(RandomBot):
    """As if written in a notebook cell: its class lives in ``__main__``."""


NotebookBot.__module__ = "__main__"


def test_notebook_bots_are_played_here_when_workers_could_not_import_them(monkeypatch):
    def no_workers(*args, **kwargs):
        raise AssertionError("a worker process would not find NotebookBot")

    monkeypatch.setattr(tournament_module.multiprocessing, "get_start_method", lambda **_: "spawn")
    monkeypatch.setattr(tournament_module, "ProcessPoolExecutor", no_workers)
    here = tournament([NotebookBot(seed=3), "basic"], jobs=2, chunk=2, **SMALL)
    assert here.records == tournament(["random", "basic"], executor=None, **SMALL).records
    with pytest.raises(AssertionError, match="worker process"):
        tournament(["random", "basic"], jobs=2, chunk=2, **SMALL)  # importable bots: workers


def test_bot_objects_and_names_mix_and_keep_their_seeds():
    by_name = tournament(["random", "random"], executor=None, **SMALL)
    by_object = tournament(
        [get_bot("random", seed=3), get_bot("random", seed=4)], executor=None, **SMALL
    )
    assert by_name.records == by_object.records


def test_command_line_prints_the_table(capsys):
    code = main(
        [
            "tournament",
            "--bots",
            "basic",
            "random",
            "--deals",
            "3",
            "--jobs",
            "1",
            "--no-progress",
            "--seed",
            "2",
            "--lang",
            "fi",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Perus" in out and "3 jakoa" in out


def test_a_clean_sweep_still_has_an_honest_interval():
    from rummy_widget.bots.tournament import _ratio

    rate, (low, high) = _ratio([2.0] * 40, [2.0] * 40, clip=(0.0, 1.0))  # won all 80 games
    assert rate == 1.0 and high == 1.0
    assert 0.85 < low < 0.95  # Wilson over 40 deals: about 0.912, not a point at 100%
