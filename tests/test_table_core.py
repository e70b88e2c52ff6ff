"""The table core without any widget: seats, intents, bots, per-seat views, reasons, replay.

The classroom server and the game review drive ``rummy_widget.table.core.Table`` directly, so
everything here runs with no anywidget, no traitlets and no browser. The contract test at the
end writes real views as JSON fixtures that the front end's tests read (js/test/contract.test.ts):
one definition of each shape that crosses the wire.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hidden_cards import card_ids_in, hidden_from
from test_widget import greedy_move as greedy

from rummy_widget.engine.actions import Action
from rummy_widget.engine.cards import parse_cards
from rummy_widget.engine.game import Game
from rummy_widget.engine.rules import Rules
from rummy_widget.i18n import t
from rummy_widget.table.core import Table
from rummy_widget.table.reasons import meld_reason
from rummy_widget.table.remote import RemoteTable
from rummy_widget.table.seat import TableSeat

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "js" / "test" / "fixtures"


class StockBot:
    """Draws from the stock and throws away its first card: moves that depend only on its hand."""

    def act(self, observation: dict) -> Action | dict:
        if observation["phase"] == "draw":
            return Action.draw("stock")
        return {"type": "discard", "card": observation["hand"][0]["id"]}


def act(table: Table, action: dict, seat: int | None = None) -> bool:
    return table.intent({"type": "action", "rev": table.rev, "action": action}, seat)


def assert_no_leak(table: Table, seat: int) -> None:
    view = json.loads(json.dumps(table.view(seat)))
    assert not card_ids_in(view) & hidden_from(table.game, seat)


def test_the_core_imports_no_widget_library() -> None:
    code = (
        "import sys; from rummy_widget.table.core import Table; "
        "t = Table(opponents=['basic'], seed=1); t.view(0); "
        "print(sorted(m for m in ('anywidget', 'ipywidgets', 'traitlets') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 8)])
def test_a_whole_deal_through_the_core_never_leaks(players: int, seed: int) -> None:
    table = Table(opponents=[StockBot()] * (players - 1), seed=seed)
    game = table.game
    for _ in range(2000):
        assert_no_leak(table, 0)
        if game.phase == "over":
            break
        assert game.current_player == 0  # the bots have moved already
        rev = table.rev
        assert act(table, greedy(game)), table.message(0)
        assert table.rev == rev + 1
        for step in table.view(0)["steps"]:
            assert step["actor"] != 0 and step["events"]
            assert all(e.get("player", step["actor"]) == step["actor"] for e in step["events"])
    assert game.result is not None


def _twin_positions() -> tuple[Game, Game]:
    """Two positions the learner cannot tell apart: the opponent's hand and the stock swapped."""
    common = {"discard": "9C", "current_player": 0, "melds": [("4D 5D 6D", 1)]}
    mine = "7H 8H 9H KS 2C 3C 4S"
    real = Game.from_layout(hands=[mine, "3D 7D 6C 6S QD"], stock="QC JD 10S AH 2H", **common)
    other = Game.from_layout(hands=[mine, "QC JD 10S AH 2H"], stock="3D 7D 6C 6S QD", **common)
    return real, other


def test_views_of_positions_differing_only_in_hidden_cards_are_identical() -> None:
    tables = [Table(game=g, opponents=[StockBot()]) for g in _twin_positions()]
    same = lambda: [json.dumps(tb.view(0, "fi"), sort_keys=True) for tb in tables]  # noqa: E731
    first, second = same()
    assert first == second
    for tb in tables:  # a known card moves: still nothing to tell them apart
        assert act(tb, {"type": "draw", "source": "discard"})
    first, second = same()
    assert first == second
    for tb in tables:  # a refused meld: the reason names only the learner's cards
        assert not act(tb, {"type": "meld", "cards": [c.id for c in parse_cards("KS 2C 9C")]})
    first, second = same()
    assert first == second
    assert json.loads(first)["message"]["text"].startswith("K♠ 2♣ 9♣ ei ole pöytäys")


def test_two_people_at_one_table_each_see_only_their_own_hand() -> None:
    table = Table(opponents=[StockBot()], seed=4, humans=(0, 1), name="Oona")
    assert table.humans == [0, 1] and not table.bots
    game = table.game
    assert game.current_player == 0
    assert not act(table, {"type": "draw", "source": "stock"}, seat=1)
    assert table.message(1, "en")["text"] == t("error.not_your_turn", "en", player="Oona")
    assert table.message(0) is None  # a message goes to the seat that sent the intent
    assert act(table, {"type": "draw", "source": "stock"}, seat=0)
    for seat in (0, 1):
        assert_no_leak(table, seat)
        view = table.view(seat)
        assert [c["id"] for c in view["hand"]] == [c.id for c in game.hand(seat)]
    # The other person's move is an animation step for everyone.
    assert table.view(1)["steps"][0]["actor"] == 0


def test_reveal_keeps_every_hand_face_up_in_every_step() -> None:
    table = Table(opponents=["basic", "basic"], seed=3, reveal=True)
    act(table, {"type": "draw", "source": "stock"})
    act(table, greedy(table.game))
    steps = table.view(0)["steps"]
    assert steps
    for step in steps:
        snap = step["table"]
        sizes = [len(h) for h in snap["hands"]]
        assert sizes == [p["hand_size"] for p in snap["players"]]
    plain = Table(opponents=["basic", "basic"], seed=3)
    act(plain, {"type": "draw", "source": "stock"})
    act(plain, greedy(plain.game))
    assert all("hands" not in s["table"] for s in plain.view(0)["steps"])


@pytest.mark.parametrize(
    ("rules", "cards", "key"),
    [
        ("rummy_royal", "KS KD KD", "ui.reason.set_suits"),
        ("traditional", "QH KH AH", "ui.reason.ace_low"),
        ("traditional", "7H 8H", "ui.reason.too_few"),
        ("rummy_royal", "KH AH 2H", "ui.reason.corner"),
        ("rummy_royal", "7S 7H 7D 7C 7S", "ui.reason.set_max"),
        ("traditional", "7H 8H 8H", "ui.reason.run_twice"),
        ("traditional", "7H 8H 10H", "ui.reason.gap"),
        ("traditional", "7H 8S 9H", "ui.reason.mixed"),
    ],
)
def test_an_illegal_meld_names_the_rule_it_breaks(rules: str, cards: str, key: str) -> None:
    hand = f"{cards} 2C 3D 4S"
    game = Game.from_layout(hands=[hand, "5C 6C 7C"], stock="9D 9S", rules=rules)
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    chosen = list(game.hand(0))[: len(cards.split())]
    assert meld_reason(chosen, Rules.preset(rules))[0] == key
    rev, before = table.rev, game.to_dict()
    assert not act(table, {"type": "meld", "cards": [c.id for c in chosen]})
    assert game.to_dict() == before and table.rev == rev
    english = table.message(0, "en")["text"]
    finnish = table.message(0, "fi")["text"]
    n = 3 if key == "ui.reason.too_few" else 4
    assert english.startswith(" ".join(str(c) for c in chosen) + " is not a meld: ")
    assert t(key, "en", n=n) in english
    assert t(key, "fi", n=n) in finnish
    assert "[" not in english  # a plain card list


def test_the_issues_examples_read_as_promised() -> None:
    game = Game.from_layout(hands=["KS KD KD 2C", "5C 6C 7C"], stock="9D", rules="rummy_royal")
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    act(table, {"type": "meld", "cards": [c.id for c in game.hand(0)[:3]]})
    assert table.message(0)["text"] == "K♠ K♦ K♦ is not a meld: a set needs different suits."
    game = Game.from_layout(hands=["QH KH AH 2C", "5C 6C 7C"], stock="9D")
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    act(table, {"type": "meld", "cards": [c.id for c in game.hand(0)[:3]]})
    assert table.message(0)["text"] == (
        "Q♥ K♥ A♥ is not a meld: the ace is low in traditional rummy (A-2-3, not Q-K-A)."
    )
    assert table.message(0, "fi")["text"].startswith("Q♥ K♥ A♥ ei ole pöytäys: perinteisessä")


def test_replay_in_the_core_moves_one_step_or_jumps() -> None:
    live = Table(opponents=[StockBot()], seed=1)
    while live.game.phase != "over":
        act(live, greedy(live.game))
    replay = Table.replay(live.game, seat=1)
    total = len(live.game.history)
    assert replay.view(1)["replay"] == {"step": 0, "total": total}
    assert replay.intent({"type": "replay", "step": 1}, 1)
    (step,) = replay.view(1)["steps"]
    assert step["actor"] == live.game.history[0][0]
    assert replay.intent({"type": "replay", "step": total}, 1)
    assert replay.view(1)["steps"] == [] and replay.view(1)["phase"] == "over"
    assert not replay.intent({"type": "action", "rev": replay.rev, "action": {}}, 1)
    assert replay.message(1)["text"] == t("ui.error.replay", "en")


def test_the_deal_number_is_in_the_view() -> None:
    table = Table(opponents=[StockBot()], seed=12, deals=2)
    assert table.view()["deal"] == {"number": 1, "total": 2}
    while table.game.phase != "over":
        act(table, greedy(table.game))
    assert table.intent({"type": "next_deal", "rev": table.rev})
    assert table.view()["deal"] == {"number": 2, "total": 2}


# --- the contract with the front end ---------------------------------------------------------


def contract_views() -> dict[str, dict]:
    """Real views of every kind the front end must read."""
    views: dict[str, dict] = {}
    two = Table(opponents=["basic"], seed=19)
    views["start_2p"] = two.view(0)
    four = Table(opponents=["basic", "basic", "basic"], seed=5, deals=2, reveal=True)
    act(four, {"type": "draw", "source": "stock"})
    act(four, greedy(four.game))
    views["bots_4p_reveal"] = four.view(0, "fi")
    over = Table(opponents=[StockBot()], seed=1, deals=2)
    while over.game.phase != "over":
        act(over, greedy(over.game))
    views["over_2p"] = over.view(0)
    game = Game.from_layout(hands=["KS KD KD 2C", "5C 6C 7C"], stock="9D", rules="rummy_royal")
    game.draw("stock")
    refused = Table(game=game, opponents=[StockBot()])
    refused.intent({"type": "hint", "rev": refused.rev})
    act(refused, {"type": "meld", "cards": [c.id for c in game.hand(0)[:3]]})  # after the hint
    views["message_hint"] = refused.view(0)
    replay = Table.replay(over.game, seat=1)
    replay.intent({"type": "replay", "step": 3}, 1)
    replay.intent({"type": "replay", "step": 4}, 1)
    views["replay"] = replay.view(1)
    return views


def contract_messages() -> dict[str, dict]:
    """Real exchanges of other messages, each with the views around it."""
    table = Table(opponents=["basic"], seed=19)
    before = table.view(0)
    assert act(table, {"type": "draw", "source": "stock"})
    drawn = {"before": before, "drawn": table.drawn, "after": table.view(0)}
    return {"messages/drawn": drawn}


def test_contract_fixtures_are_the_views_python_sends() -> None:
    """js/test/fixtures/*.json are real views (and messages/*.json other messages, with the
    views around them); RUMMY_UPDATE_FIXTURES=1 rewrites them."""
    (FIXTURES / "messages").mkdir(parents=True, exist_ok=True)
    stale = []
    for name, view in {**contract_views(), **contract_messages()}.items():
        text = json.dumps(view, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        path = FIXTURES / f"{name}.json"
        if os.environ.get("RUMMY_UPDATE_FIXTURES"):
            path.write_text(text, "utf-8")
        elif not path.is_file() or path.read_text("utf-8") != text:
            stale.append(name)
    assert not stale, f"stale fixtures {stale}: rerun with RUMMY_UPDATE_FIXTURES=1"


def test_play_again_after_a_finished_match_deals_a_new_one() -> None:
    table = Table(opponents=[StockBot()], seed=1)
    assert not table.intent({"type": "play_again", "rev": table.rev})
    assert table.message()["text"] == t("error.deal_not_over", "en")
    while table.game.phase != "over":
        act(table, greedy(table.game))
    old = table.game
    assert table.intent({"type": "play_again", "rev": table.rev})
    assert table.game is not old and table.game.phase != "over"
    assert table.view()["deal"] == {"number": 1, "total": 1} and table.match.results == []


MELD_NUMBER = re.compile(r"(?:meld|Meld|pöytäykseen|Pöytäys|pöytäystä)(?: number| numero)? (\d+)")


def meld_numbers(text: str) -> list[int]:
    """The numbers a text gives melds: "meld 1", "Meld 1: set", "pöytäykseen 1", "meld number 1"."""
    return [int(n) for n in MELD_NUMBER.findall(text)]


def test_every_text_numbers_a_meld_as_the_api_does() -> None:
    """One meld numbering (docs/display.md): the felt's labels, the log, the errors and the
    lessons' instructions give a meld the index ``game.lay_off(card, i)`` takes, from 0."""
    from rummy_widget.display import table_html
    from rummy_widget.teaching.lessons import describe

    game = Game.from_layout(
        hands=["JH KS 2C 3D", "5C 6C 7C 9D"], stock="9S 8S", melds=["4H 5H 6H", "JS JD JC"]
    )
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    ids = {c.code: c.id for c in game.hand(0)}
    assert not act(table, {"type": "lay_off", "card": ids["KS"], "meld_index": 1})
    assert meld_numbers(table.message()["text"]) == [1]
    assert not act(table, {"type": "lay_off", "card": ids["KS"], "meld_index": 4})
    assert meld_numbers(table.message()["text"]) == [4]
    assert meld_numbers(describe(Action.lay_off(game.hand(0)[0], 1), "en")) == [1]
    assert act(table, {"type": "lay_off", "card": ids["JH"], "meld_index": 1})
    assert "JH" in [c.code for c in game.melds[1].cards]  # the API's meld 1 took it
    for lang in ("en", "fi"):
        view = table.view(lang=lang)
        laid = [e["text"] for e in view["log"] if e["type"] == "lay_off"]
        assert [meld_numbers(text) for text in laid] == [[1]]
        assert [m["index"] for m in view["melds"]] == [0, 1]
        picture = table_html(game.observation(0), lang=lang)
        assert sorted(set(meld_numbers(picture))) == [0, 1]  # each label is also its aria-label


def test_a_wrong_lay_off_names_what_the_meld_takes_in_both_languages() -> None:
    game = Game.from_layout(
        hands=["7S 2C 3D", "5C 6C 7C 9D"], stock="9S 8S", melds=["JS JD JC", "5H 6H 7H"]
    )
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    seven = game.hand(0)[0].id
    said = {}
    for index in (0, 1):
        assert not act(table, {"type": "lay_off", "card": seven, "meld_index": index})
        said[index] = {lang: table.message(lang=lang)["text"] for lang in ("en", "fi")}
    assert said[0] == {
        "en": "7♠ does not fit meld 0: a set of jacks takes only jacks.",
        "fi": "7♠ ei sovi pöytäykseen 0: tähän settiin käy vain sotilas.",
    }
    assert said[1] == {
        "en": "7♠ does not fit meld 1: a run of hearts takes only the next card at either end: "
        "4♥ or 8♥.",
        "fi": "7♠ ei sovi pöytäykseen 1: herttasuoraan käy vain seuraava kortti "
        "jommastakummasta päästä: 4♥ tai 8♥.",
    }
    assert len(game.hand(0)) == 4 and game.melds[0].cards[0].code == "JS"  # nothing changed


def test_a_lay_off_reason_covers_full_melds_and_suits_a_set_has() -> None:
    from rummy_widget.engine.melds import Meld
    from rummy_widget.table.reasons import explain_lay_off, lay_off_reason

    royal = Rules.preset("rummy_royal")
    jacks = Meld.make(parse_cards("JH JD JC"), royal, 0)
    text = explain_lay_off(parse_cards("JD")[0], jacks, 2, royal)
    assert text("en") == (
        "J♦ does not fit meld 2: a set's suits all differ in these rules, so it takes only J♠."
    )
    four = Meld.make(parse_cards("JS JH JD JC"), royal, 0)
    assert lay_off_reason(parse_cards("JS")[0], four, royal) == ("ui.reason.set_max", {"n": 4})
    whole = Meld.make(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), royal, 0)
    assert lay_off_reason(parse_cards("AH")[0], whole, royal) == ("ui.lay_off_reason.run_full", {})
    low = Meld.make(parse_cards("AH 2H 3H"), Rules.preset("traditional"), 0)
    key, params = lay_off_reason(parse_cards("KH")[0], low, Rules.preset("traditional"))
    assert key == "ui.lay_off_reason.run_one" and str(params["card"]) == "4♥"


def test_the_view_sends_the_whole_log_its_moves_numbered_as_the_history() -> None:
    from rummy_widget.display.log_words import event_text

    table = Table(opponents=[StockBot()] * 3, seed=8)
    game = table.game
    while len(game.log) < 60 and game.phase != "over":
        act(table, greedy(game))
    log = table.view()["log"]
    assert [e["text"] for e in log] == [
        event_text(e, table.names, "en", table.seat) for e in game.log
    ]
    numbered = [e for e in log if "move" in e]
    assert [e["move"] for e in numbered] == list(range(1, len(game.history) + 1))
    for event, (seat, action) in zip(numbered, game.history, strict=True):  # history's n-th
        assert (event["type"], event["player"]) == (action.kind, seat)
    assert {e["type"] for e in log if "move" not in e} <= {"deal", "rebuild", "end"}


def test_play_again_after_a_lesson_starts_the_same_position() -> None:
    lesson = Game.from_layout(hands=["7H 8H 9H", "3D 4D 5D 6C 6S"], stock="QC JD", discard="9C")
    first = lesson.to_dict()
    table = Table(game=lesson, opponents=[StockBot()])
    act(table, {"type": "draw", "source": "stock"})
    act(table, {"type": "meld", "cards": [c.id for c in parse_cards("7H 8H 9H")]})
    act(table, {"type": "discard", "card": parse_cards("QC")[0].id})
    assert table.game.phase == "over" and table.game.result.winner == 0
    assert table.intent({"type": "play_again", "rev": table.rev})
    assert table.game.to_dict() == first


# --- take-backs ------------------------------------------------------------------------------


def test_take_backs_are_on_only_against_bots_alone() -> None:
    assert Table(opponents=["basic"], seed=2).take_back is True
    assert Table(opponents=[StockBot()], seed=2, humans=(0, 1)).take_back is False
    assert Table(opponents=["basic"], seed=2, take_back=False).view()["take_back"] is None
    assert Table.replay(Table(seed=2).game).view()["take_back"] is None


def test_a_pile_draw_goes_back_and_a_stock_draw_is_refused_with_its_reason() -> None:
    table = Table(opponents=[StockBot()], seed=7)
    assert table.view()["take_back"] is False  # nothing drawn yet
    assert not table.intent({"type": "take_back", "rev": table.rev})
    assert table.message(0, "fi")["text"] == t("error.nothing_to_take_back", "fi")
    top = table.game.discard_pile[-1]
    assert act(table, {"type": "draw", "source": "discard"})
    assert table.view()["take_back"] is True
    assert table.intent({"type": "take_back", "rev": table.rev})
    assert table.game.phase == "draw" and table.game.discard_pile[-1] == top
    assert act(table, {"type": "draw", "source": "stock"})
    rev = table.rev
    assert table.view()["take_back"] is False
    assert not table.intent({"type": "take_back", "rev": table.rev})
    assert table.message()["text"] == t("error.stock_draw_kept", "en", player="You")
    assert table.rev == rev and table.game.phase == "play"


def test_a_take_back_says_what_it_undid() -> None:
    game = Game.from_layout(
        hands=["7H 8H 9H 7S 2C", "5C 6C 7C 9D"], stock="KC QC", discard="10H", melds=["4S 5S 6S"]
    )
    table = Table(game=game, opponents=[StockBot()])

    def back() -> dict[str, str]:
        assert table.intent({"type": "take_back", "rev": table.rev})
        message = table.message()
        assert message["kind"] == "info"
        return {lang: table.message(lang=lang)["text"] for lang in ("en", "fi")}

    assert act(table, {"type": "draw", "source": "discard"})
    assert back() == {
        "en": "Taken back: 10♥ is on the discard pile again. Draw again.",
        "fi": "Peruttu: kortti 10♥ on taas poistopakan päällä. Nosta uudelleen.",
    }
    assert act(table, {"type": "draw", "source": "discard"})
    ids = {c.code: c.id for c in game.hand(0)}
    assert act(table, {"type": "meld", "cards": [ids[c] for c in ("7H", "8H", "9H", "10H")]})
    assert back() == {
        "en": "Taken back: your meld 7♥ 8♥ 9♥ 10♥ is in your hand again.",
        "fi": "Peruttu: pöytäyksesi 7♥ 8♥ 9♥ 10♥ on taas kädessäsi.",
    }
    assert act(table, {"type": "lay_off", "card": ids["7S"], "meld_index": 0})
    assert back() == {
        "en": "Taken back: 7♠ came back from meld 0 to your hand.",
        "fi": "Peruttu: kortti 7♠ palasi pöytäyksestä 0 käteesi.",
    }
    assert len(game.hand(0)) == 6 and len(game.melds[0].cards) == 3


def test_a_table_without_take_backs_refuses_them() -> None:
    table = Table(opponents=[StockBot()], seed=7, take_back=False)
    act(table, {"type": "draw", "source": "discard"})
    assert not table.intent({"type": "take_back", "rev": table.rev})
    assert table.message()["text"] == t("ui.error.take_back_off", "en")
    assert table.game.phase == "play"


# --- review ----------------------------------------------------------------------------------


def finished_table(**extra) -> Table:
    table = Table(opponents=[StockBot()], seed=1, **extra)
    while table.game.phase != "over":
        act(table, greedy(table.game))
    return table


def test_review_at_the_end_of_a_deal_lists_decisions_and_reports_progress() -> None:
    table = Table(opponents=[StockBot()], seed=1, review_samples=2)
    assert not table.intent({"type": "review", "rev": table.rev})  # the deal is not over
    assert table.message()["text"] == t("error.deal_not_over", "en")
    while table.game.phase != "over":
        act(table, greedy(table.game))
    seen = []
    table.on_progress = lambda seat, done, total: seen.append((seat, done, total))
    assert table.view()["review"] is None
    assert table.intent({"type": "review", "rev": table.rev})
    assert seen and seen[-1][1] == seen[-1][2] and {s for s, _, _ in seen} == {0}
    shown = table.view(0, "fi")["review"]
    assert shown["summary"] == table._coach.result.headline("fi")
    for item in shown["items"]:
        assert item["label"].startswith(f"Siirto {item['move'] + 1}:") and item["reason"]


def blunder_table() -> Table:
    """Seat 0 could go Rummy at move 1 (meld both, throw K♦ away) and throws 5♥ instead
    (tests/test_review.py's planted blunder), then the deal is played out."""
    game = Game.from_layout(
        hands=["5H 6H 7H 9S 9D 9C", "2D 3S 8H 4S 8C JC"], stock="KD 4D 10S QS JS", discard="2C"
    )
    game.draw("stock")
    game.discard("5H")
    table = Table(game=game, opponents=[StockBot()], review_samples=8, seed=3)
    while table.game.phase != "over":
        act(table, greedy(table.game))
    return table


def test_a_hint_after_an_error_takes_the_message_line() -> None:
    game = Game.from_layout(hands=["KS KD 7D 2C", "5C 6C 7C"], stock="9D")
    game.draw("stock")
    table = Table(game=game, opponents=[StockBot()])
    assert not act(table, {"type": "meld", "cards": [c.id for c in game.hand(0)[:3]]})
    assert table.view()["message"]["kind"] == "error"
    assert table.intent({"type": "hint", "rev": table.rev})
    view = table.view()
    assert view["hint"]["text"] and view["message"] is None  # the newest message wins
    assert not act(table, {"type": "draw", "source": "stock"})  # an error after the hint
    assert table.view()["message"]["text"] == t("error.already_drawn", "en")


def test_a_hint_that_leaves_the_last_hints_meld_says_why() -> None:
    """The expert answers each position afresh: after "J♦ completes J♠ J♥ J♦ J♣: take it" it
    throws J♠ away. The second hint says first why the plan changed (table/plans.py)."""
    game = Game.from_layout(
        hands=["AS 6D 2C JC 2H 6C JS AD JH 3C", "4S 5S 8H 9C KD QD 7S 3H 10C 5D"],
        stock="KC 4D 9S",
        discard="JD 7D",
    )
    table = Table(game=game, opponents=[StockBot()])
    assert table.intent({"type": "hint", "rev": table.rev})
    first = table.view()["hint"]
    assert first["action"] == {"type": "draw", "source": "discard"}
    assert first["text"] == "J♦ completes J♠ J♥ J♦ J♣: take it from the discard pile."
    assert act(table, {"type": "draw", "source": "discard"})
    assert table.intent({"type": "hint", "rev": table.rev})
    second = table.view()["hint"]
    assert second["action"]["type"] == "discard" and second["action"]["card"]["code"] == "JS"
    assert second["text"].startswith(
        "The plan changed since the last hint: J♥ J♦ J♣ is a meld even without J♠. "
    )
    assert table.view(lang="fi")["hint"]["text"].startswith(
        "Suunnitelma muuttui edellisestä vihjeestä: J♥ J♦ J♣ on pöytäys myös ilman korttia J♠. "
    )


def test_each_bot_seat_says_which_bot_it_is() -> None:
    table = Table(opponents=["basic", "expert", "master"], seed=5)
    for lang, said in (
        ("en", ["Basic bot", "Expert bot", "Master bot"]),
        ("fi", ["Perusbotti", "Asiantuntijabotti", "Mestaribotti"]),
    ):
        players = table.view(lang=lang)["players"]
        assert "bot" not in players[0] and [p["bot"] for p in players[1:]] == said
    assert "bot" not in Table(opponents=[StockBot()]).view()["players"][1]  # no label, no word


@pytest.mark.parametrize("reveal", [True, False])
def test_open_hands_name_the_card_a_bot_draws_from_the_stock(reveal: bool) -> None:
    table = Table(opponents=[StockBot()], seed=2, reveal=reveal)
    assert act(table, {"type": "draw", "source": "stock"})
    assert act(table, {"type": "discard", "card": table.game.hand(0)[0].id})
    step = table.view()["steps"][0]
    (draw,) = step["events"]
    assert draw["source"] == "stock" and draw["player"] == 1
    if reveal:  # the card drawn is the one the open hand shows last
        assert draw["card"] == step["table"]["hands"][1][-1]
    else:  # hidden: a stock draw never says its card
        assert "card" not in draw


def test_review_replay_and_log_agree_on_a_moves_number() -> None:
    """One move numbering (docs/widget.md): the review's "Move n" is the n-th entry of the
    history; its link opens the replay where move n is at hand, which the bar calls "Move n of
    len(history)" (js/src/board.ts, replayPosition: step + 1); one step on, the log's newest
    line is that move, numbered n."""
    table = blunder_table()
    assert table.intent({"type": "review", "rev": table.rev})
    item = table.view()["review"]["items"][0]
    n = int(re.match(r"Move (\d+):", item["label"]).group(1))
    history = table.game.history
    assert (history[n - 1][1].kind, history[n - 1][1].card.code) == ("discard", "5H")
    assert table.intent({"type": "review_open", "move": item["move"]})
    replay = table.view()["replay"]
    assert (replay["step"] + 1, replay["total"]) == (n, len(history))
    assert table.intent({"type": "replay", "step": replay["step"] + 1})
    newest = [e for e in table.view()["log"] if "move" in e][-1]
    assert newest["move"] == n and newest["text"] == "You discarded 5 of hearts."


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_review_screen_heads_with_the_deals_headline_and_grades_each_item(lang) -> None:
    """The Review screen says what the review's own summary says ("1 blunder; the biggest:
    ...") and names each flagged move by its grade, as chess reviews do (docs/review.md)."""
    table = blunder_table()
    assert table.intent({"type": "review", "rev": table.rev})
    shown = table.view(0, lang)["review"]
    result = table._coach.result
    assert shown["summary"] == result.headline(lang)
    blunders = result.count("blunder")
    form = "one" if blunders == 1 else "other"
    assert blunders and shown["summary"].startswith(t(f"plural.blunders.{form}", lang, n=blunders))
    first = shown["items"][0]
    assert first["move"] == 1
    assert t("review.grade.blunder", lang) in first["label"]


def test_a_review_item_opens_the_replay_there_with_the_better_move_outlined() -> None:
    table = blunder_table()
    assert table.intent({"type": "review", "rev": table.rev})
    item = next(i for i in table.view()["review"]["items"] if i["move"] == 1)
    assert item["move"] == 1 and item["verdict"] == "mistake" and "5♥" in item["reason"]
    assert not table.intent({"type": "review_open", "move": 0})  # not a listed decision
    assert table.intent({"type": "review_open", "move": 1})
    view = table.view()
    assert view["mode"] == "replay" and view["replay"]["step"] == 1
    assert view["phase"] == "play" and len(view["hand"]) == 7  # before the discard
    better = table._coach.better(1)
    assert view["hint"]["action"]["type"] == better.kind and view["hint"]["text"] == item["reason"]
    assert_no_leak(table, 0)
    table.intent({"type": "replay", "step": 2})
    assert table.view()["hint"] is None  # the outline belongs to the item's position
    assert table.intent({"type": "review_close"})
    assert table.view()["mode"] == "play" and table.game.phase == "over"
    assert item in table.view()["review"]["items"]


# --- hot seat --------------------------------------------------------------------------------


def test_hot_seat_passes_the_screen_and_shows_no_hand_before_the_press() -> None:
    table = Table(players=["Ann", "Bo"], opponents=[StockBot()], seed=4)
    assert table.names == ["Ann", "Bo", "Aino"] and table.humans == [0, 1]
    assert table.take_back is False and table.screen()["take_back"] is None
    assert table.screen()["pass"] is None and table.screen_seat == 0
    game = table.game
    assert act(table, {"type": "draw", "source": "stock"}, 0)
    assert act(table, {"type": "discard", "card": game.hand(0)[0].id}, 0)
    assert game.current_player == 1 and table.passing == 1
    shown = json.loads(json.dumps(table.screen("fi")))
    assert shown["pass"]["title"] == t("ui.pass.title", "fi", name="Bo")
    hands = {c.id for p in (0, 1) for c in game.hand(p)}
    assert not card_ids_in(shown) & hands
    assert table.intent({"type": "pass_ready"}, 0)
    after = table.screen()
    assert after["pass"] is None and after["seat"] == 1
    assert [c["id"] for c in after["hand"]] == [c.id for c in game.hand(1)]


def test_the_scoreboards_sentences_come_from_python_in_the_seats_words() -> None:
    table = finished_table()
    board = table.view(0, "fi")["scoreboard"]
    winner = board["winner"]
    key = "ui.result.rummy" if board["rummy"] else "ui.result.out"
    key += ".you" if winner == 0 else ""
    name = table.names[winner]
    assert board["outcome"] == t(key, "fi", name=name, bonus=board["bonus"])
    leader = board["totals"].index(min(board["totals"]))
    own = ".you" if leader == 0 else ""
    assert board["standing"] == t("ui.match_over" + own, "fi", name=table.names[leader])


def test_a_replay_is_built_by_the_constructor_and_plays_no_move_itself():
    """``Table.replay`` goes through ``__init__`` like every table: each field a table has is
    set, no bot sits at the replayed seats (the recorded moves play them), nothing can be
    taken back, and the first position is the game's first position."""
    live = Table(opponents=["basic", "basic"], seed=5)
    move = live.game.legal_actions()[0].to_json()
    assert live.intent({"type": "action", "rev": live.rev, "action": move})
    replay = Table.replay(live.game, seat=1, open_hands=True)
    assert set(vars(Table(seed=5))) == set(vars(replay))
    assert (replay.mode, replay.bots, replay.take_back, replay.match) == ("replay", {}, False, None)
    assert (replay.seat, replay.humans, replay.reveal) == (1, [1], True)
    assert replay.seed == live.game.seed
    assert replay.names == live.game.names and len(replay.game.log) < len(live.game.log)
    assert replay.replay_total == len(live.game.to_dict()["history"])


def classroom_seat(table: Table) -> RemoteTable:
    """A classroom seat shown ``table``'s position from seat 0, offline: the frames a server
    would send (welcome, then the seat's state) go straight to ``receive``."""
    seat = RemoteTable("http://127.0.0.1:1", "KETTU", "Alex", send=lambda _text: None)
    seat.seed = table.seed  # the same expert as the local table's hints
    seat.relayed({"type": "remote_open"})
    seat.receive(json.dumps({"type": "welcome", "seat": 0, "table": 0}))
    view = table.game.observation(0)
    state = {"deal": 0, "move": 0, "deals": 1, "view": view, "finished": False}
    seat.receive(json.dumps({"type": "state", **state, "seats": [{"name": n} for n in "AB"]}))
    return seat


def test_the_local_table_and_the_classroom_seat_are_both_table_seats():
    """One written interface (table/seat.py): both tables have every member ``TableSeat``
    names, with the methods' parameters as it writes them."""
    local: TableSeat = Table(seed=1)
    remote: TableSeat = classroom_seat(Table(seed=1))
    members = set(TableSeat.__annotations__) | {
        name for name in vars(TableSeat) if not name.startswith("_")
    }
    assert {"intent", "message", "view", "screen", "describe", "names", "seat", "match"} <= members
    for table in (local, remote):
        assert isinstance(table, TableSeat)
        assert all(hasattr(table, name) for name in members)
        for name, member in vars(TableSeat).items():
            if callable(member) and not name.startswith("_"):
                wanted = inspect.signature(member).parameters
                assert list(inspect.signature(getattr(type(table), name)).parameters) == list(
                    wanted
                )


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_hints_messages_and_refusals_behave_alike_at_both_tables(lang):
    """Hints, messages and intent refusals live in one place (``Notes``, ``expert_hint``,
    ``attempt``): the same position gives the same hint, the same refusal the same message,
    and the newest message wins at both tables."""
    local = Table(seed=1)
    remote = classroom_seat(local)
    for table in (local, remote):
        assert table.intent({"type": "hint", "rev": table.rev + 5}) is False
        assert table.message(lang=lang)["text"] == t("ui.error.stale", lang)
        assert table.intent("not an intent") is False
        assert table.message(lang=lang)["text"] == t("ui.error.bad_intent", lang)
        assert table.intent({"type": "hint", "x": "x" * 5000}) is False
        assert table.message(lang=lang)["text"] == t("ui.error.too_large", lang)
        assert table.intent({"type": "hint", "rev": table.rev}) is True
        assert table.message(lang=lang) is None  # the hint replaced the error
    assert local.view(lang=lang)["hint"] == remote.view(lang=lang)["hint"] is not None


def test_a_hint_out_of_turn_is_refused_alike_at_both_tables():
    local = Table(players=["Ann", "Ben"], seed=1)  # hot seat: the turn passes to Ben
    for _ in range(2):
        assert act(local, local.game.legal_actions()[0].to_json(), seat=0)
    remote = classroom_seat(local)
    assert local.game.current_player == remote.observation()["current_player"] == 1
    for table in (local, remote):
        assert table.intent({"type": "hint", "rev": table.rev}, 0) is False
        assert table.message(0, "fi")["text"] == t("ui.hint_unavailable", "fi")
        assert table.view(0, "fi")["hint"] is None
