"""RummyTable without a browser: whole deals played only through the widget's message handler.

After every message, neither the synced state nor anything sent may hold a card the learner
cannot see (another hand, the stock), and every refused intent leaves the game unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import traitlets
from hidden_cards import card_ids_in, hidden_from
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy_widget.engine.actions import Action
from rummy_widget.engine.cards import Card
from rummy_widget.engine.game import Game
from rummy_widget.i18n import t
from rummy_widget.table.widget import MAX_INTENT_BYTES, RummyTable


class DiscardHighBot:
    """Test-only opponent: draws from the stock and throws away its costliest card."""

    def __init__(self) -> None:
        self.seen: list[dict] = []

    def act(self, observation: dict) -> Action:
        self.seen.append(observation)
        if observation["phase"] == "draw":
            return Action.draw("stock")
        hand = observation["hand"]
        points = {"A": 1, "J": 10, "Q": 10, "K": 10}
        card = max(hand, key=lambda c: (points.get(c["code"][:-1]) or int(c["code"][:-1]), c["id"]))
        return {"type": "discard", "card": card["id"]}


class BrokenBot:
    def act(self, observation: dict) -> object:
        return {"type": "fly away"}


class Harness:
    """A table with its outgoing messages captured and a leak check after every intent."""

    def __init__(self, table: RummyTable) -> None:
        self.table = table
        self.sent: list[dict] = []
        table._send = lambda msg, buffers=None: self.sent.append(msg)
        self.messages = 0

    def check_no_leak(self) -> None:
        game, seat = self.table.game, self.table.seat
        hidden = hidden_from(game, seat)
        state = json.loads(json.dumps(self.table.get_state()))
        assert not card_ids_in(state) & hidden
        assert not card_ids_in(self.sent) & hidden
        self.sent.clear()

    def intent(self, content: object) -> bool:
        ok = self.table.handle_intent(content)
        self.messages += 1
        self.check_no_leak()
        return ok

    def custom_msg(self, content: object) -> None:
        """The path a real front end's message takes through ipywidgets."""
        self.table._handle_custom_msg(content, [])
        self.messages += 1
        self.check_no_leak()

    def action(self, action: dict) -> bool:
        return self.intent({"type": "action", "rev": self.table.view["rev"], "action": action})


def greedy_move(game: Game) -> dict:
    """The learner's policy for whole-deal tests: meld or lay off if possible, else discard
    the costliest card."""
    if game.phase == "draw":
        return {"type": "draw", "source": "stock"}
    legal = game.legal_actions()
    table_plays = [a for a in legal if a.kind in ("meld", "lay_off")]
    if table_plays:
        return table_plays[0].to_json()
    discards = [a for a in legal if a.kind == "discard"]
    return max(discards, key=lambda a: (game.rules.card_points(a.card), a.card.id)).to_json()


def play_deal(h: Harness, via_custom_msg: bool = True) -> None:
    game = h.table.game
    for _ in range(3000):
        if game.phase == "over":
            return
        assert game.current_player == h.table.seat  # the bots have already moved
        rev = h.table.view["rev"]
        content = {"type": "action", "rev": rev, "action": greedy_move(game)}
        if via_custom_msg:
            h.custom_msg(content)
        else:
            h.intent(content)
        assert h.table.view["message"] is None, h.table.view["message"]
        assert h.table.view["rev"] == rev + 1
    raise AssertionError("the deal did not end")


# --- whole deals ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 7), (4, 11)])
def test_whole_match_through_the_handler_never_leaks(players: int, seed: int) -> None:
    bots = [DiscardHighBot() for _ in range(players - 1)]
    h = Harness(RummyTable(opponents=bots, seed=seed, deals=2, bot_speed="instant"))
    h.check_no_leak()
    play_deal(h)
    board = h.table.view["scoreboard"]
    assert board["deal"] == 1 and board["deals"] == 2 and not board["match_over"]
    assert board["totals"] == h.table.match.totals
    first = h.table.game
    h.custom_msg({"type": "next_deal", "rev": h.table.view["rev"]})
    assert h.table.game is not first and h.table.game.phase != "over"
    play_deal(h, via_custom_msg=False)
    board = h.table.view["scoreboard"]
    assert board["match_over"] and board["deal"] == 2
    assert board["totals"] == [
        sum(d[p] for d in h.table.match.deal_penalties) for p in range(players)
    ]
    before = h.table.game.to_dict()
    assert not h.intent({"type": "next_deal", "rev": h.table.view["rev"]})
    assert h.table.game.to_dict() == before
    assert h.table.view["message"]["text"] == t("error.match_over", "en")


def test_bots_only_ever_get_their_own_observation() -> None:
    bot = DiscardHighBot()
    h = Harness(RummyTable(opponents=[bot], seed=5))
    play_deal(h)
    assert bot.seen and all(obs["seat"] == 1 for obs in bot.seen)


def test_bot_moves_are_sent_as_public_steps() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=2))
    h.action({"type": "draw", "source": "stock"})
    game = h.table.game
    discard = next(a for a in game.legal_actions() if a.kind == "discard")
    h.action(discard.to_json())
    steps = h.table.view["steps"]
    assert [e["type"] for s in steps for e in s["events"]][:2] == ["draw", "discard"]
    draw = steps[0]["events"][0]
    assert draw == {  # never which card
        "type": "draw",
        "player": 1,
        "source": "stock",
        "text": "Aino drew from the stock.",
    }
    assert steps[-1]["table"]["current_player"] == 0
    assert steps[-1]["table"]["stock_size"] == h.table.view["stock_size"]


def test_a_named_bot_from_the_ladder_plays() -> None:
    h = Harness(RummyTable(opponents=["random"], seed=3))
    play_deal(h)
    assert h.table.game.result is not None


def test_a_broken_bot_cannot_freeze_the_table() -> None:
    h = Harness(RummyTable(opponents=[BrokenBot()], seed=4))
    h.action({"type": "draw", "source": "stock"})
    game = h.table.game
    h.action(next(a for a in game.legal_actions() if a.kind == "discard").to_json())
    assert game.current_player == 0 and game.phase == "draw"
    assert h.table.view["message"]["text"] == t("ui.error.bot_failed", "en", name="Aino")


# --- refused intents ------------------------------------------------------------------------


def _bad_intents(table: RummyTable) -> list[tuple[object, str]]:
    """(intent, expected English message) pairs; the learner is to draw."""
    rev = table.view["rev"]
    hidden = next(iter(sorted(hidden_from(table.game, 0))))
    mine = table.game.hand(0)[0].id
    act = lambda action: {"type": "action", "rev": rev, "action": action}  # noqa: E731
    bad = t("ui.error.bad_intent", "en")
    return [
        (None, bad),
        ([], bad),
        ("draw", bad),
        ({}, bad),
        ({"type": 3}, bad),
        ({"type": "cheat", "rev": rev}, bad),
        ({"type": "action", "action": {"type": "draw", "source": "stock"}}, bad),
        ({"type": "action", "rev": "0", "action": {"type": "draw", "source": "stock"}}, bad),
        ({"type": "action", "rev": True, "action": {"type": "draw", "source": "stock"}}, bad),
        ({"type": "action", "rev": rev + 1, "action": {}}, t("ui.error.stale", "en")),
        ({"type": "action", "rev": rev - 1, "action": {}}, t("ui.error.stale", "en")),
        ({"type": "hint", "rev": rev + 5}, t("ui.error.stale", "en")),
        ({"type": "replay", "step": 1}, bad),
        (act(None), t("error.bad_action", "en", action="None")),
        (act({"type": "draw"}), t("error.bad_action", "en", action="{'type': 'draw'}")),
        (act({"type": "draw", "source": "sky"}), t("error.bad_source", "en")),
        (act({"type": "discard", "card": mine}), t("error.draw_first", "en")),
        (act({"type": "discard", "card": 999}), t("error.unknown_card", "en", card="999")),
        (act({"type": "discard", "card": -1}), t("error.unknown_card", "en", card="-1")),
        (act({"type": "discard", "card": "AS"}), t("error.unknown_card", "en", card="'AS'")),
        (act({"type": "discard", "card": None}), t("error.unknown_card", "en", card="None")),
        (act({"type": "meld", "cards": "AS 2S 3S"}), None),
        (act({"type": "meld", "cards": [mine, mine, mine]}), t("error.draw_first", "en")),
        (act({"type": "lay_off", "card": hidden, "meld_index": "0"}), None),
        ({"type": "next_deal", "rev": rev}, t("error.deal_not_over", "en")),
        (
            act({"type": "meld", "cards": list(range(MAX_INTENT_BYTES))}),
            t("ui.error.too_large", "en"),
        ),
        (
            {"type": "action", "rev": rev, "pad": "x" * MAX_INTENT_BYTES},
            t("ui.error.too_large", "en"),
        ),
        ({"type": "action", "rev": rev, "action": {1, 2}}, bad),
    ]


def test_malformed_intents_change_nothing_and_explain() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=9))
    for intent, expected in _bad_intents(h.table):
        before = h.table.game.to_dict()
        rev = h.table.view["rev"]
        count = (h.table.view["message"] or {"id": 0})["id"]
        assert h.intent(intent) is False, intent
        assert h.table.game.to_dict() == before, intent
        message = h.table.view["message"]
        assert message["kind"] == "error" and message["id"] == count + 1
        assert message["text"], intent
        if expected is not None:
            assert message["text"] == expected, intent
        assert h.table.view["rev"] == rev


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_intent = st.fixed_dictionaries(
    {"type": st.sampled_from(["action", "hint", "next_deal", "replay", "x"])},
    optional={
        "rev": st.integers(-1, 3) | _json,
        "step": _json,
        "action": st.fixed_dictionaries(
            {"type": st.sampled_from(["draw", "meld", "lay_off", "discard", "nap"])},
            optional={
                "source": _json,
                "card": st.integers(-1, 104) | _json,
                "cards": st.lists(st.integers(-1, 104), max_size=5) | _json,
                "meld_index": st.integers(-1, 3) | _json,
            },
        )
        | _json,
    },
)


@settings(max_examples=100, deadline=None)
@given(intent=_intent | _json)
def test_any_json_intent_is_answered_without_an_exception(intent: object) -> None:
    table = RummyTable(opponents=[DiscardHighBot()], seed=9)
    table.handle_intent({"type": "action", "rev": 0, "action": {"type": "draw", "source": "stock"}})
    before = table.game.to_dict()
    if table.handle_intent(intent):
        return  # a well-formed, legal move (hypothesis does find some)
    assert table.game.to_dict() == before
    assert table.view["message"]["kind"] == "error"
    assert not card_ids_in(table.get_state()) & hidden_from(table.game, 0)


def test_refused_moves_in_the_play_phase() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=9))
    h.action({"type": "draw", "source": "stock"})
    game = h.table.game
    hand = game.hand(0)
    hidden = sorted(hidden_from(game, 0))
    cases = [
        ({"type": "draw", "source": "stock"}, t("error.already_drawn", "en")),
        ({"type": "meld", "cards": []}, t("error.no_cards", "en")),
        ({"type": "meld", "cards": [hand[0].id, hand[0].id, hand[1].id]}, None),
        ({"type": "discard", "card": hidden[0]}, None),
        ({"type": "lay_off", "card": hand[0].id, "meld_index": 7}, None),
    ]
    for action, expected in cases:
        before = game.to_dict()
        assert h.action(action) is False
        assert game.to_dict() == before
        if expected:
            assert h.table.view["message"]["text"] == expected


def test_messages_follow_the_language() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=9, lang="fi"))
    h.intent({"type": "action", "rev": 99, "action": {}})
    assert h.table.view["message"]["text"] == t("ui.error.stale", "fi")
    h.table.lang = "en"  # as the front end's language switch does
    assert h.table.view["message"]["text"] == t("ui.error.stale", "en")
    assert h.table.rules["title"] == h.table.game.rules.describe("en").title
    with pytest.raises(traitlets.TraitError):
        h.table.lang = "sv"


def test_a_successful_move_clears_the_message() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=9))
    h.intent({"type": "action", "rev": 99, "action": {}})
    assert h.action({"type": "draw", "source": "stock"})
    assert h.table.view["message"] is None


# --- hint, reveal, lessons, replay ----------------------------------------------------------


class FakeExpert:
    def act(self, observation: dict) -> Action:
        if observation["phase"] == "draw":
            return Action.draw("stock")
        return Action.discard(Card(observation["hand"][0]["id"]))

    def advise(self, observation: dict, action: Action, lang: str) -> str:
        return {"en": f"Do {action}.", "fi": f"Tee {action}."}[lang]

    def why(self, observation: dict, action: Action, lang: str) -> str:
        return {"en": "Because.", "fi": "Koska."}[lang]


def test_hint_shows_the_expert_suggestion(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummy_widget.bots as bots

    monkeypatch.setattr(bots, "get_bot", lambda name, seed=0: FakeExpert())
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=9))
    h.intent({"type": "hint", "rev": h.table.view["rev"]})
    hint = h.table.view["hint"]
    assert hint["action"] == {"type": "draw", "source": "stock"}
    assert hint["text"] == "Do draw stock."
    assert hint["why"] == "Because."  # the detailed reason, for a "why?" under the hint
    h.table.lang = "fi"
    assert h.table.view["hint"]["text"] == "Tee draw stock."  # the language follows the table
    assert h.table.view["hint"]["why"] == "Koska."
    h.action({"type": "draw", "source": "stock"})
    assert h.table.view["hint"] is None  # a hint belongs to one position
    h.intent({"type": "hint", "rev": h.table.view["rev"]})
    assert h.table.view["hint"]["action"]["card"] == h.table.view["hand"][0]


def _as_intent_action(shown: dict) -> dict:
    """A view's action (whole cards) in the intent form (card ids)."""
    action = {k: v for k, v in shown.items() if k in ("type", "source", "meld_index")}
    if "card" in shown:
        action["card"] = shown["card"]["id"]
    if "cards" in shown:
        action["cards"] = [c["id"] for c in shown["cards"]]
    return action


def test_following_every_hint_of_the_real_expert_plays_a_deal() -> None:
    h = Harness(RummyTable(opponents=["basic", "basic"], seed=5))
    game = h.table.game
    for _ in range(500):
        if game.phase == "over":
            break
        assert h.intent({"type": "hint", "rev": h.table.view["rev"]})
        hint = h.table.view["hint"]
        assert hint["text"]
        assert h.action(_as_intent_action(hint["action"])), h.table.view["message"]
    assert game.result is not None


def test_reveal_is_the_only_way_hidden_cards_reach_the_browser() -> None:
    table = RummyTable(opponents=[DiscardHighBot()], seed=9)
    assert "reveal" not in table.keys  # the browser cannot switch it on
    assert "hand" not in table.view["players"][1]
    table.reveal = True
    assert table.view["players"][1]["hand"] == [c.to_json() for c in table.game.hand(1)]
    assert "hand" not in table.view["players"][0]  # the learner's own hand is in "hand"
    shown = RummyTable(opponents=[DiscardHighBot()], seed=9, reveal=True)
    assert shown.view["reveal"] is True and "hand" in shown.view["players"][1]


def test_a_prepared_lesson() -> None:
    game = Game.from_layout(
        hands=["7H 8H 9H KS 2C", "3D 4D 5D 6C 6S"], stock="QC JD 10S", discard="9C"
    )
    h = Harness(RummyTable(game=game, opponents=[DiscardHighBot()], name="Oona"))
    assert h.table.game is game and h.table.match is None
    assert [p["name"] for p in h.table.view["players"]] == ["Oona", "Aino"]
    h.action({"type": "draw", "source": "discard"})
    h.action({"type": "meld", "cards": [c.id for c in game.hand(0)[:3]]})
    assert h.table.view["melds"][0]["owner"] == 0
    assert h.table.view["penalty"] == 21  # KS 2C 9C: nothing left to meld


def test_replay_steps_through_a_finished_game() -> None:
    h = Harness(RummyTable(opponents=[DiscardHighBot()], seed=1))
    play_deal(h)
    game = h.table.game
    total = len(game.history)
    replay = Harness(RummyTable.replay(game))
    assert replay.table.view["replay"] == {"step": 0, "total": total}
    assert replay.table.view["mode"] == "replay"
    for step in range(1, total + 1):
        replay.intent({"type": "replay", "step": step})
        assert replay.table.view["replay"]["step"] == step
        assert len(replay.table.view["steps"]) == 1
    assert replay.table.game.to_dict() == game.to_dict()
    assert replay.table.view["phase"] == "over"
    replay.intent({"type": "replay", "step": 2})
    assert replay.table.view["steps"] == []
    assert not replay.intent({"type": "action", "rev": 2, "action": {"type": "draw"}})
    assert replay.table.view["message"]["text"] == t("ui.error.replay", "en")
    replay.intent({"type": "replay", "step": 10**6})
    assert replay.table.view["replay"]["step"] == total
    opened = RummyTable.replay(game, open_hands=True)
    assert "hand" in opened.view["players"][1]


# --- the widget itself ----------------------------------------------------------------------


def test_repr_is_short_and_deterministic() -> None:
    table = RummyTable(opponents=[DiscardHighBot(), DiscardHighBot()], seed=3, deals=2)
    assert repr(table) == "RummyTable(traditional, 3 players, deal 1 of 2: You to draw)"
    assert "0x" not in repr(RummyTable.replay(table.game))
    bundle = table._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == repr(table)


def test_repr_speaks_the_tables_language() -> None:
    """Where no kernel runs, a saved notebook shows only the repr: it follows ``lang``."""
    table = RummyTable(opponents=[DiscardHighBot(), DiscardHighBot()], seed=3, deals=2, lang="fi")
    assert repr(table) == "RummyTable(traditional, 3 pelaajaa, jako 1/2: vuorossa Sinä, nosto)"
    table.lang = "en"  # the names stay as dealt; the rest of the line follows
    assert repr(table) == "RummyTable(traditional, 3 players, deal 1 of 2: Sinä to draw)"
    replay = RummyTable.replay(table.game, lang="fi")
    assert repr(replay) == "RummyTable(toisto, traditional, 3 pelaajaa: vuorossa Sinä, nosto)"


def test_assets_and_traits() -> None:
    static = Path(__file__).resolve().parent.parent / "rummy_widget" / "static"
    table = RummyTable(opponents=[DiscardHighBot()], seed=1)
    if (static / "widget.js").is_file():  # built by `npm run build` in js/ (pip install does it)
        bundle = (static / "widget.js").read_text("utf-8")
        assert table.get_state()["_esm"] == bundle
        # The style sheet is inside the bundle (js/src/styles.ts adopts it once a page), not
        # in anywidget's `_css`, which the page would parse again for every new table.
        assert ".rw-root{" in bundle and "_css" not in table.get_state()
    table = RummyTable(opponents=[DiscardHighBot()], seed=1, four_color=True, size="large")
    state = table.get_state()
    assert state["four_color"] is True and state["size"] == "large"
    assert state["bot_speed"] == "normal" and state["lang"] == "en"
    with pytest.raises(traitlets.TraitError):
        RummyTable(opponents=[DiscardHighBot()], bot_speed="warp")
    with pytest.raises(traitlets.TraitError):
        table.size = "huge"


def test_the_learner_is_named_in_the_tables_language():
    assert RummyTable(lang="fi", seed=1, bot_speed="instant").names[0] == "Sinä"
    assert RummyTable(lang="en", seed=1, bot_speed="instant").names[0] == "You"
    assert RummyTable(name="Aada", seed=1, bot_speed="instant").names[0] == "Aada"


def test_a_hint_is_advice_to_the_learner_in_their_language():
    table = RummyTable(seed=3, bot_speed="instant")
    assert table.handle_intent({"type": "hint", "rev": table.view["rev"]})
    english = table.view["hint"]["text"]
    # The reason first, then the move, addressed to the learner: "...: draw from the stock."
    assert not english.startswith("I ") and english.endswith(
        ("draw from the stock.", "take it from the discard pile.")
    )
    table.lang = "fi"
    assert table.view["hint"]["text"].endswith(("nosta nostopakasta.", "ota se poistopakasta."))


def test_the_rules_table_is_synced_once_per_language() -> None:
    table = RummyTable(opponents=[DiscardHighBot()], seed=9)
    assert "rules" not in table.view
    assert table.rules["title"] == table.game.rules.describe("en").title
    changes: list[str] = []
    table.observe(lambda change: changes.append(change["name"]), names=["rules", "view"])
    table.handle_intent({"type": "action", "rev": 0, "action": {"type": "draw", "source": "stock"}})
    assert changes == ["view"]  # a move sends the view, not the rules again
    table.lang = "fi"
    assert changes.count("rules") == 1  # the switch sends the rules once
    assert table.rules["title"] == table.game.rules.describe("fi").title


def test_the_review_progress_reaches_the_synced_trait_while_it_runs() -> None:
    table = RummyTable(opponents=["basic"], seed=1, review_samples=2)
    while table.game.phase != "over":
        assert table.handle_intent(
            {"type": "action", "rev": table.view["rev"], "action": greedy_move(table.game)}
        )
    lines: list[str] = []
    table.observe(lambda change: lines.append(change["new"]), names=["progress"])
    table.lang = "fi"
    assert table.handle_intent({"type": "review", "rev": table.view["rev"]})
    assert lines[0].startswith("Arvioidaan jakoa: siirto 1/") and lines[-1] == ""
    assert table.progress == "" and table.view["review"]["summary"]


def _capture_comm(monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict], list[dict]]:
    """Every new widget's opening state, and every message sent on its comm, in order."""
    import ipywidgets.widgets.widget as ipywidget

    opened: list[dict] = []
    sent: list[dict] = []

    class Comm:
        kernel = object()
        comm_id = "rw-test"

        def __init__(self, **args: object) -> None:
            opened.append(args["data"]["state"])

        def close(self, *args: object, **kwargs: object) -> None:
            pass

        def send(self, data: dict, buffers: object = None) -> None:
            sent.append(data)

        def on_msg(self, _callback: object) -> None:
            pass

    monkeypatch.setattr(ipywidget.comm, "create_comm", lambda **args: Comm(**args))
    return opened, sent


def test_the_opening_message_carries_the_first_view_and_no_update_follows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page draws the table from the widget's comm_open alone (docs/widget.md, "Speed"):
    the first view and the rules are in its state, and nothing is sent after it."""
    opened, sent = _capture_comm(monkeypatch)
    table = RummyTable(opponents=[DiscardHighBot()], seed=9)
    state = opened[-1]
    assert state["view"] == table.view and state["view"]["hand"]
    assert state["view"]["penalty"] == table.view["penalty"] is not None
    assert state["rules"] == table.rules and state["rules"]["rows"]
    assert sent == []


@pytest.mark.parametrize("source", ["stock", "discard"])
def test_a_drawn_card_goes_to_the_page_ahead_of_its_view(
    monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    """docs/widget.md, "The drawn card first": one custom message with the seat's own new card,
    then the view; any other move sends the view alone."""
    _opened, sent = _capture_comm(monkeypatch)
    table = RummyTable(opponents=[DiscardHighBot()], seed=9)
    rev = table.view["rev"]
    assert table.handle_intent(
        {"type": "action", "rev": rev, "action": {"type": "draw", "source": source}}
    )
    first, second = sent
    card = table.game.hand(0)[-1]
    assert first["method"] == "custom"
    assert first["content"] == {
        "type": "drawn",
        "rev": rev + 1,
        "card": card.to_json(),
        "source": source,
    }
    assert second["method"] == "update" and second["state"]["view"]["rev"] == rev + 1
    assert card.to_json() in second["state"]["view"]["hand"]
    sent.clear()
    discard = {"type": "discard", "card": table.game.hand(0)[0].id}
    assert table.handle_intent({"type": "action", "rev": rev + 1, "action": discard})
    assert [m["method"] for m in sent] == ["update"]
    sent.clear()
    assert not table.handle_intent(
        {"type": "action", "rev": 0, "action": {"type": "draw", "source": source}}
    )
    assert all(m["method"] == "update" for m in sent)


def test_the_drawers_key_list_names_every_key_the_table_answers() -> None:
    """The keys in the drawer (ui.keys, sent with the rules) are the front end's shortcuts
    (js/src/index.ts, SHORTCUTS) and Esc, as lesson 6 lists them, in both languages."""
    import re

    source = (Path(__file__).resolve().parents[1] / "js" / "src" / "index.ts").read_text("utf-8")
    block = source[source.index("const SHORTCUTS") : source.index("};", source.index("SHORTCUTS"))]
    letters = re.findall(r"^\s+(\w): ", block, flags=re.MULTILINE)
    assert {"o", "n"} <= set(letters)
    for lang in ("en", "fi"):
        keys = RummyTable(opponents=["basic"], seed=1, lang=lang).rules["keys"]
        named = set(re.findall(r"\b([A-Z]) ", keys))
        assert {c.upper() for c in letters} <= named and "Esc " in keys
