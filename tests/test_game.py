"""The engine's public API: cards, errors, actions, observations, layouts and saving."""

import json

import pytest

from rummy_widget import Action, Card, Game, RuleError, Rules, parse_cards
from rummy_widget.engine.cards import full_deck


def test_card_parse_and_text():
    assert str(Card.parse("10H")) == "10♥"
    assert str(Card.parse("A♠")) == "A♠"
    assert Card.parse("qd") == Card.parse("Q♦")
    assert Card.parse("7H#1").deck == 1 and Card.parse("7H#1").face == (7, "H")
    assert repr(parse_cards("AS 2S 3S")) == "[A♠ 2♠ 3♠]"
    assert parse_cards("A♠,2♠, 3♠") == parse_cards(["AS", Card.parse("2S"), "3S"])
    assert Card.parse(Card.parse("KC").code) == Card.parse("KC")


def test_card_ids_are_stable_and_cover_both_decks():
    deck = full_deck()
    assert [c.id for c in deck] == list(range(104))
    assert Card.parse("AS").id == 0 and Card.parse("KC#1").id == 103
    assert {c.face for c in deck[:52]} == {c.face for c in deck[52:]}


@pytest.mark.parametrize("text", ["", "1X", "11H", "ZZ", "AS#2", "10", "♥"])
def test_bad_card_text_raises_a_clear_error(text):
    with pytest.raises(RuleError) as err:
        Card.parse(text)
    assert err.value.code == "unknown_card"
    assert "7H" in str(err.value)  # the message shows how to write a card


def test_errors_are_localized():
    game = Game(seed=0, lang="fi")
    with pytest.raises(RuleError) as err:
        game.discard(game.hand(0)[0])
    assert err.value.code == "draw_first"
    assert str(err.value) == "Nosta ensin kortti nostopakasta tai poistopakasta."
    assert err.value.localized("en").startswith("Draw a card first")


def test_not_your_turn_names_the_player_and_changes_nothing():
    game = Game(players=["Ann", "Bo"], seed=3)
    before = game.to_dict()
    with pytest.raises(RuleError) as err:
        game.draw("stock", player=1)
    assert err.value.code == "not_your_turn" and "Ann" in str(err.value)
    assert game.to_dict() == before


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (lambda g: g.draw("pile"), "bad_source"),
        (lambda g: g.meld("AS 2S 3S"), "draw_first"),
        (lambda g: g.lay_off("AS", 0), "draw_first"),
    ],
)
def test_refused_moves_before_drawing(move, code):
    game = Game(seed=5)
    before = game.to_dict()
    with pytest.raises(RuleError) as err:
        move(game)
    assert err.value.code == code
    assert game.to_dict() == before


def test_refused_moves_while_playing():
    game = Game.from_layout(hands=["5H 6H 7H 9C KD", "2H 3H"], stock="JS", discard="4C")
    game.draw("stock")
    cases = [
        (lambda: game.meld("5H 6H 9C"), "not_a_meld"),
        (lambda: game.meld("5H 5H 6H"), "duplicate_card"),
        (lambda: game.meld("2H 3H 4H"), "not_in_hand"),
        (lambda: game.meld([]), "no_cards"),
        (lambda: game.lay_off("9C", 0), "no_such_meld"),
        (lambda: game.discard("AS"), "not_in_hand"),
        (lambda: game.draw("stock"), "already_drawn"),
        (lambda: game.apply("discard KD"), "bad_action"),
    ]
    for move, code in cases:
        before = game.to_dict()
        with pytest.raises(RuleError) as err:
            move()
        assert err.value.code == code
        assert game.to_dict() == before


def test_actions_pick_either_copy_of_a_card():
    game = Game.from_layout(hands=["7H#1 8H 9H KD", "2H 3H"], stock="JS", discard="4C")
    game.draw("stock")
    meld = game.meld("7H 8H 9H")  # names the first deck's 7♥; the second deck's copy is held
    assert Card.parse("7H#1") in meld.cards


def test_keep_a_card_you_may_discard_after_taking_the_discard():
    game = Game.from_layout(hands=["5H 6H 7H KD", "2H 3H"], stock="JS", discard="8C")
    game.draw("discard")  # 8♣ may not go back this turn
    game.meld("5H 6H 7H")
    with pytest.raises(RuleError) as err:
        game.discard("8C")
    assert err.value.code == "taken_card"
    game2 = Game.from_layout(
        hands=["5H 6H 7H 8H", "2H 3H"], stock="JS", discard="KC", rules="traditional"
    )
    game2.draw("discard")
    with pytest.raises(RuleError) as err:
        game2.meld("5H 6H 7H 8H")  # only the taken K♣ would be left: it could never go
    assert err.value.code == "keep_discardable"
    assert all(a.kind != "meld" or len(a.cards) < 4 for a in game2.legal_actions())


def test_legal_actions_cover_each_phase():
    game = Game.from_layout(hands=["5H 6H 7H 9H", "2H 3H"], stock="JS", discard="4C")
    assert game.legal_actions() == [Action.draw("stock"), Action.draw("discard")]
    game.draw("stock")
    legal = game.legal_actions()
    assert Action.meld(tuple(parse_cards("5H 6H 7H"))) in legal
    assert {str(a) for a in legal if a.kind == "discard"} == {
        "discard 5♥",
        "discard 6♥",
        "discard 7♥",
        "discard 9♥",
        "discard J♠",
    }
    game.meld("5H 6H 7H")
    assert [str(a) for a in game.legal_actions() if a.kind == "lay_off"] == []


def test_observation_shows_only_what_the_seat_may_see():
    game = Game(players=["Ann", "Bo", "Cy"], seed=9)
    game.draw("stock")
    drawn_secretly = game.hand(0)[-1]
    obs = game.observation(1)
    assert obs["seat"] == 1
    assert [p["hand_size"] for p in obs["players"]] == [11, 10, 10]
    assert [c["id"] for c in obs["hand"]] == [c.id for c in game.hand(1)]
    assert obs["stock_size"] == len(game.stock)
    text = json.dumps(obs)
    assert all(f'"id": {c.id},' not in text for c in game.hand(0) if c not in game.hand(1))
    assert obs["log"][-1] == {"type": "draw", "player": 0, "source": "stock"}
    assert drawn_secretly.code not in json.dumps(obs["log"])


def test_drawing_from_the_discard_pile_is_public():
    game = Game.from_layout(hands=["KS QD", "2H 3H"], stock="5C", discard="9D")
    game.draw("discard")
    obs = game.observation(1)
    assert obs["taken_from_discard"] == {"id": Card.parse("9D").id, "code": "9D"}
    assert obs["log"][-1]["card"]["code"] == "9D"


def test_layout_names_cards_and_checks_copies():
    game = Game.from_layout(
        hands=["7H 7H", "2S"], stock="3S 4S", discard="5S", melds=[("JS QS KS", 1)]
    )
    assert {c.deck for c in game.hand(0)} == {0, 1}  # the two decks' copies
    assert game.stock == parse_cards("3S 4S")  # top card first
    assert len(game.out_of_play) == 104 - 2 - 1 - 2 - 1 - 3
    with pytest.raises(RuleError) as err:
        Game.from_layout(hands=["7H 7H", "7H"], stock="3S")
    assert err.value.code == "too_many_copies"
    with pytest.raises(RuleError) as err:
        Game.from_layout(hands=["7H", "2S"], melds=["2H 5C 9D"], stock="3S")
    assert err.value.code == "bad_layout"


@pytest.mark.parametrize(
    ("layout", "english", "finnish"),
    [
        (dict(hands=["7H"], players=["A", "B"]), "1 hand for 2 players", "1 käsi 2 pelaajalle"),
        (dict(hands=["7H", ""]), "every hand needs at least one card", "jokaisessa kädessä"),
        (
            dict(hands=["7H", "2S"], melds=["2H 5C 9D"]),
            "[2♥ 5♣ 9♦] is not a meld",
            "ei ole pöytäys",
        ),
        (dict(hands=["7H", "2S"], melds=[("2H 3H 4H", 5)]), "no player 5", "pelaajaa 5 ei ole"),
        (dict(hands=["7H", "2S"], stock=""), "both empty", "molemmat tyhjiä"),
    ],
)
def test_a_bad_layout_says_why_in_the_games_language(layout, english, finnish):
    layout = {"stock": "3S", **layout}
    with pytest.raises(RuleError) as err:
        Game.from_layout(**layout, lang="fi")
    assert err.value.code == "bad_layout"
    assert finnish in str(err.value) and "asetelmaa" in str(err.value)
    assert english in err.value.localized("en")


def test_layout_marks_owners_of_table_melds_as_having_melded():
    game = Game.from_layout(hands=["2C", "3D"], stock="4S", melds=[("JS QS KS", 1)])
    assert not game.has_melded(0) and game.has_melded(1)


def test_save_is_versioned_json_and_replays_move_by_move():
    game = Game(players=3, rules="rummy_royal", seed=21)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    data = game.to_dict()
    assert data["format"] == "rummy_widget.game" and data["version"] == 1
    assert len(data["history"]) == 12
    assert Game.from_dict(json.loads(json.dumps(data))).to_dict() == data
    halfway = Game.from_dict(data, upto=6)
    assert len(halfway.history) == 6
    with pytest.raises(RuleError) as err:
        Game.from_dict({**data, "version": 99})
    assert err.value.code == "bad_save"
    assert "not a rummy_widget.game save of version 1" in str(err.value)
    broken = json.loads(json.dumps(data))
    broken["history"][3]["action"] = {"type": "discard", "card": 500}
    with pytest.raises(RuleError) as err:
        Game.from_dict(broken)
    assert "move 4 cannot be played" in str(err.value)


def test_an_unreadable_save_says_why_in_its_own_language():
    game = Game(seed=5, lang="fi")
    game.apply(game.legal_actions()[0])
    data = json.loads(json.dumps(game.to_dict()))
    data["history"][0]["action"] = {"type": "discard", "card": 3}  # discarding before drawing
    with pytest.raises(RuleError) as err:
        Game.from_dict(data)
    assert str(err.value) == (
        "Tallennettua peliä ei voi lukea: siirtoa 1 ei voi pelata: "
        "Nosta ensin kortti nostopakasta tai poistopakasta."
    )
    del data["initial"]["melds"]
    with pytest.raises(RuleError) as err:
        Game.from_dict(data)
    assert "puuttuu osa" in str(err.value) and "melds" in str(err.value)
    with pytest.raises(RuleError) as err:
        Game.from_dict("not a save")
    assert err.value.code == "bad_save" and "missing or damaged" in str(err.value)


def test_rules_presets_and_describe():
    trad, royal = Rules.preset("traditional"), Rules.preset("rummy_royal")
    assert (trad.ace_points, royal.ace_points) == (1, 11)
    assert (trad.final_discard, royal.final_discard) == (False, True)
    with pytest.raises(RuleError):
        Rules.preset("gin")
    en, fi = royal.describe("en"), royal.describe("fi")
    assert len(en.rows) == len(fi.rows) == 14
    assert "Q-K-A" in str(en) and "setti" in str(fi).lower()
    assert Rules.from_dict(royal.to_dict()) == royal


def test_repr_is_short_and_deterministic():
    game = Game(players=2, seed=4)
    assert repr(game) == "Game(traditional, 2 players, seed=4: Player 1 to draw)"
    assert repr(Card.parse("7H")) == "7♥"


def test_solver_takes_text_hands_and_sets_print_in_suit_order():
    from rummy_widget import Meld, best_arrangement

    rules = Rules.preset("traditional")
    assert repr(Meld.make(parse_cards("KD KS KH"), rules, 0)) == "[K♠ K♥ K♦]"
    arrangement = best_arrangement("5H 6H 7H KS", "rummy_royal")
    assert arrangement.penalty == 10 and arrangement.leftover == parse_cards("KS")


def test_set_language_switches_how_objects_draw_themselves():
    import rummy_widget

    hand = parse_cards("7H QD")
    try:
        rummy_widget.set_language("fi")
        assert "herttaseiska" in hand._repr_html_() and "7 of hearts" not in hand._repr_html_()
    finally:
        rummy_widget.set_language("en")
    assert "7 of hearts" in hand._repr_html_()
    with pytest.raises(ValueError):
        rummy_widget.set_language("sv")


def test_tournament_is_exported_as_the_function():
    import rummy_widget
    import rummy_widget.bots.tournament  # importing the submodule must not shadow the function

    assert callable(rummy_widget.tournament)
    assert rummy_widget.tournament.__name__ == "tournament"
