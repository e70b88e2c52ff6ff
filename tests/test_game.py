"""The engine's public API: cards, errors, actions, observations, layouts and saving."""

import json

import pytest

from rummy_widget import Action, Card, Game, RuleError, Rules, best_arrangement, parse_cards
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
    broken["history"][3]["action"] = {"type": "draw", "source": "stock"}  # a second draw
    with pytest.raises(RuleError) as err:
        Game.from_dict(broken)
    assert "move 4 cannot be played" in str(err.value)
    broken["history"][3]["action"] = {"type": "discard", "card": 500}
    with pytest.raises(RuleError) as err:
        Game.from_dict(broken)
    assert "history[3].action" in str(err.value)  # refused before any move is replayed


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
    assert "puuttuu" in str(err.value) and "initial.melds" in str(err.value)
    with pytest.raises(RuleError) as err:
        Game.from_dict("not a save")
    assert err.value.code == "bad_save" and "not a rummy_widget.game save" in str(err.value)


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


# --- two copies of every card ----------------------------------------------------------------


def test_a_face_named_twice_gives_both_copies_and_a_third_is_an_error():
    both = parse_cards("3D 3D 3S")
    assert sorted(c.id for c in both if c.face == (3, "D")) == [Card.parse("3D").id, 28 + 52]
    assert best_arrangement(both, "traditional").penalty == 0  # 3♠ 3♦ 3♦ is a set
    assert [c.deck for c in parse_cards("3D#1 3D")] == [1, 0]  # the exact copy is served first
    assert [c.deck for c in parse_cards(["3D", Card.parse("3D")])] == [1, 0]
    with pytest.raises(RuleError) as err:
        parse_cards("3D 3D 3D", lang="fi")
    assert err.value.code == "too_many_copies" and "3 kertaa" in str(err.value)
    with pytest.raises(RuleError) as err:
        parse_cards("3D#1 3d#1")
    assert err.value.code == "same_card_twice" and "3D#1" in str(err.value)


def test_a_move_named_by_face_takes_the_copies_held():
    game = Game.from_layout(hands=["7H 7H#1 7S 2C", "2H 3H"], stock="JS", discard="4C")
    game.draw("stock")
    meld = game.meld("7H 7S 7H")
    assert sorted(c.id for c in meld.cards) == sorted(c.id for c in parse_cards("7H 7H 7S"))
    game2 = Game.from_layout(hands=["7H#1 8H 9H 2C", "2H 3H"], stock="JS", discard="4C", lang="fi")
    game2.draw("stock")
    before = game2.to_dict()
    with pytest.raises(RuleError) as err:
        game2.meld("7H#0 8H 9H")  # an exact copy is never swapped for its twin
    assert err.value.code == "copy_not_held" and "7H#0" in str(err.value)
    assert "Kirjoita" in str(err.value)
    with pytest.raises(RuleError) as err:
        game2.discard("Z" * 1_000_000)  # a long input is quoted short
    assert err.value.code == "unknown_card" and len(str(err.value)) < 200
    assert game2.to_dict() == before


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_taken_cards_twin_does_not_hide_a_meld(rules):
    game = Game.from_layout(hands=["5H 6H 7H", "2C 3C"], stock="JS", discard="7H#1", rules=rules)
    taken = game.draw("discard")
    with_taken = Action.meld((Card.parse("5H"), Card.parse("6H"), taken))
    assert with_taken in game.legal_actions()
    assert game.is_legal(with_taken)
    assert not game.is_legal(Action.meld(tuple(parse_cards("5H 6H 7H"))))  # leaves only 7H#1
    meld = game.meld("5H 6H 7H")
    assert taken in meld.cards
    game.discard("7H")
    assert game.result.winner == 0 and game.result.rummy


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_taken_cards_twin_does_not_hide_a_lay_off(rules):
    game = Game.from_layout(
        hands=["7H", "2C 3C"], stock="JS", discard="7H#1", melds=[("4H 5H 6H", 1)], rules=rules
    )
    taken = game.draw("discard")
    assert [a for a in game.legal_actions() if a.kind == "lay_off"] == [Action.lay_off(taken, 0)]
    game.lay_off("7H", 0)
    assert game.hand(0) == [Card.parse("7H")]
    game.discard("7H")
    assert game.result.winner == 0


def test_traditional_table_play_is_refused_only_when_the_turn_cannot_end():
    layout = dict(hands=["5H 6H 7H", "2C 3C"], stock="JS", discard="KS", melds=[("KC KD KH", 1)])
    game = Game.from_layout(**layout)
    game.draw("discard")
    assert Action.meld(tuple(parse_cards("5H 6H 7H"))) in game.legal_actions()
    game.meld("5H 6H 7H")  # only the taken K♠ is left, and it goes onto the kings
    game.lay_off("KS", 0)
    assert game.result.winner == 0 and game.result.rummy  # all at once, nothing before
    royal = Game.from_layout(**layout, rules="rummy_royal")
    royal.draw("discard")
    with pytest.raises(RuleError) as err:  # Rummy Royal ends with a discard: K♠ may not go
        royal.meld("5H 6H 7H")
    assert err.value.code == "keep_discardable"


def test_discarding_the_taken_card_object_is_refused_and_its_face_discards_the_twin():
    game = Game.from_layout(hands=["7H 2C 3C", "2H 3H"], stock="JS", discard="7H#1")
    taken = game.draw("discard")
    before = game.to_dict()
    with pytest.raises(RuleError) as err:
        game.discard(taken)
    assert err.value.code == "taken_card"
    assert game.to_dict() == before
    assert not game.is_legal(Action.discard(taken))
    assert Action.discard(taken) not in game.legal_actions()
    game.discard("7H")
    assert game.discard_pile[0] == Card.parse("7H") and game.discard_pile[0].deck == 0


def test_is_legal_asks_the_checks_without_rebuilding_the_game(monkeypatch):
    game = Game(seed=3)
    game.draw("stock")

    def no_rebuilding(*args, **kwargs):
        raise AssertionError("is_legal rebuilt the game")

    monkeypatch.setattr(Game, "from_dict", no_rebuilding)
    monkeypatch.setattr(Game, "to_dict", no_rebuilding)
    legal = game.legal_actions()
    assert all(game.is_legal(a) for a in legal)
    assert not game.is_legal(Action.draw("stock"))
    assert not game.is_legal("discard 7H")


def test_layout_serves_exact_copies_first():
    game = Game.from_layout(hands=["7H", "7H#0"], stock="3S")
    assert game.hand(0)[0].deck == 1 and game.hand(1)[0].deck == 0
    with pytest.raises(RuleError) as err:
        Game.from_layout(hands=["7H#1", "7H#1"], stock="3S")
    assert err.value.code == "same_card_twice"


# --- inputs that are refused, with nothing built or changed ------------------------------------


def _tamper(change):
    data = json.loads(json.dumps(Game(players=2, seed=8).to_dict()))
    change(data)
    return data


def _swap_a_card_into_the_other_hand(data):
    data["initial"]["hands"][1][0] = data["initial"]["hands"][0][0]  # still 104 ids in all


@pytest.mark.parametrize(
    ("change", "english"),
    [
        (_swap_a_card_into_the_other_hand, "appears 2 times"),
        (lambda d: d["initial"].update(dealer=7), "initial.dealer"),
        (lambda d: d["initial"].update(current_player=9), "initial.current_player"),
        (lambda d: d["initial"].update(dealer=True), "initial.dealer"),
        (lambda d: d.update(players=["Ann"]), "players"),
        (lambda d: d["initial"].update(has_melded=[]), "initial.has_melded"),
        (lambda d: d["rules"].update(hand_size="ten"), "hand_size must be a whole number"),
        (lambda d: d.update(seed="abc"), "seed"),
        (lambda d: d["initial"]["melds"].append({"owner": 0, "cards": [0, 1]}), "melds[0]"),
        (lambda d: d["history"].append({"player": 5, "action": {"type": "draw"}}), "history[0]"),
    ],
)
def test_a_tampered_save_is_refused_before_anything_is_built(change, english):
    data = _tamper(change)
    with pytest.raises(RuleError) as err:
        Game.from_dict(data, upto=None)
    assert err.value.code == "bad_save"
    assert english in str(err.value)
    assert "Tallennettua peliä ei voi lukea" in err.value.localized("fi")


@pytest.mark.parametrize(
    ("layout", "code", "english"),
    [
        (dict(has_melded=[True]), "bad_layout", "has_melded needs one True or False"),
        (dict(has_melded="no"), "bad_layout", "has_melded needs one True or False"),
        (dict(dealer=9), "bad_player", "no player 9"),
        (dict(current_player=True), "bad_player", "no player True"),
        (dict(hands=None), "bad_layout", "hands must be a list"),
        (dict(hands="7H 2S"), "bad_layout", "hands must be a list"),
        (dict(seed=1.5), "bad_seed", "not 1.5"),
        (dict(melds=[("2H 3H 4H", True)]), "bad_layout", "no player True"),
    ],
)
def test_a_bad_layout_argument_is_refused_with_a_clear_error(layout, code, english):
    layout = {"hands": ["7H", "2S"], "stock": "3S", **layout}
    with pytest.raises(RuleError) as err:
        Game.from_layout(**layout, lang="fi")
    assert err.value.code == code
    assert english in err.value.localized("en")


@pytest.mark.parametrize(
    ("make", "code", "english"),
    [
        (lambda: Game(seed="abc"), "bad_seed", "not abc"),
        (lambda: Game(seed=1.7), "bad_seed", "not 1.7"),
        (lambda: Game(seed=-1), "bad_seed", "0 or more"),
        (lambda: Game(dealer=True), "bad_player", "no player True"),
        (lambda: Game(players="x" * 1_000_000), "bad_players", "xxx"),
        (lambda: Rules(hand_size=60), "bad_rules", "hand_size must be a whole number from 1 to 25"),
        (lambda: Rules(hand_size=0), "bad_rules", "hand_size"),
        (lambda: Rules(min_meld=1), "bad_rules", "min_meld must be a whole number from 2"),
        (lambda: Rules(final_discard="yes"), "bad_rules", "final_discard must be True or False"),
        (lambda: Rules(payout_winner_share=2), "bad_rules", "from 0 to 1"),
        (lambda: Rules(name="gin"), "bad_rules", "name must be one of"),
        (lambda: Rules.preset("traditional").with_changes(set_max=2), "bad_rules", "set_max"),
        (lambda: Rules.preset("x" * 1_000_000), "unknown_rules", "xxx"),
        (lambda: parse_cards("AS " + "Z" * 1_000_000), "unknown_card", "ZZZ"),
    ],
)
def test_constructors_check_types_and_ranges_and_quote_input_short(make, code, english):
    with pytest.raises(RuleError) as err:
        make()
    assert err.value.code == code
    assert english in err.value.localized("en")
    assert len(str(err.value)) < 300 and err.value.localized("fi") != err.value.localized("en")


def test_custom_rules_in_range_still_play():
    rules = Rules.preset("traditional").with_changes(hand_size=25, max_players=4, min_meld=4)
    game = Game(players=4, rules=rules, seed=1)
    assert [len(game.hand(p)) for p in range(4)] == [25] * 4 and len(game.stock) == 3


def test_the_stock_runs_out_with_nothing_under_the_piles_top_and_the_deal_is_void():
    game = Game.from_layout(hands=["7H 9C", "2S 4D"], stock="", discard="KS")
    game.draw("discard")
    game.discard("9C")  # the stock is empty and the pile holds only 9♣: nothing to rebuild
    assert game.phase == "over" and game.result.void and game.rebuilds == 0
    assert game.log[-1]["type"] == "end" and game.log[-1]["void"]
    game2 = Game.from_layout(hands=["7H 9C", "2S 4D"], stock="", discard="KS QH")
    game2.draw("discard")
    game2.discard("9C")  # 9♣ on Q♥: Q♥ becomes the new stock
    assert game2.phase == "draw" and game2.rebuilds == 1 and game2.stock == parse_cards("QH")


def test_the_rules_table_says_how_the_stock_is_rebuilt_in_both_languages():
    for preset in ("traditional", "rummy_royal"):
        en = dict(Rules.preset(preset).describe("en").rows)["Stock runs out"]
        fi = dict(Rules.preset(preset).describe("fi").rows)["Nostopakka loppuu"]
        assert "shuffled" in en and "stays face up as the new discard pile" in en
        assert "sekoitetaan" in fi and "kuvapuoli ylöspäin uudeksi poistopakaksi" in fi
