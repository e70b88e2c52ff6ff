"""One test per row of the decisions table (docs/rules.md), for each preset, with real cards."""

import pytest

from rummy_widget import Card, Game, RuleError, Rules, parse_cards, payout

PRESETS = ["traditional", "rummy_royal"]


@pytest.fixture(params=PRESETS)
def preset(request):
    return request.param


def layout(preset, hands, stock="2C 3C 4C", discard="9D", **kw):
    return Game.from_layout(hands=hands, stock=stock, discard=discard, rules=preset, **kw)


def test_row01_deck_is_104_cards_no_jokers(preset):
    game = Game(rules=preset, seed=1)
    everything = [*game.stock, *game.discard_pile, *game.hand(0), *game.hand(1)]
    assert len(everything) == 104
    assert len({c.id for c in everything}) == 104
    faces = {}
    for card in everything:
        faces[card.face] = faces.get(card.face, 0) + 1
    assert len(faces) == 52 and set(faces.values()) == {2}


@pytest.mark.parametrize("count", [2, 3, 4])
def test_row02_two_to_four_players(preset, count):
    assert Game(players=count, rules=preset, seed=0).players == count


@pytest.mark.parametrize("count", [1, 5])
def test_row02_other_counts_refused(preset, count):
    with pytest.raises(RuleError) as err:
        Game(players=count, rules=preset)
    assert err.value.code == "bad_players"


def test_row03_deal_one_at_a_time_from_dealers_left(preset):
    import random

    from rummy_widget.engine.cards import full_deck

    game = Game(players=3, rules=preset, seed=7, dealer=0)
    deck = full_deck()
    random.Random(7).shuffle(deck)
    top_first = deck[::-1]
    # seat 1 (left of dealer 0) gets the 1st, 4th, 7th... cards
    assert list(game.hand(1)) == top_first[0:30:3]
    assert list(game.hand(2)) == top_first[1:30:3]
    assert list(game.hand(0)) == top_first[2:30:3]
    assert list(game.discard_pile) == [top_first[30]]
    assert list(game.stock) == top_first[31:]
    assert game.current_player == 1  # the player left of the dealer starts
    assert [len(game.hand(p)) for p in range(3)] == [10, 10, 10]


def test_row03_dealer_rotates_each_deal(preset):
    from rummy_widget import Match

    match = Match(players=3, rules=preset, seed=2, deals=3)
    dealers = [match.game.dealer]
    for _ in range(2):
        game = match.game
        while game.phase != "over":
            game.apply(game.legal_actions()[0])  # stock draws: the deal must end
        match.next_deal()
        dealers.append(match.game.dealer)
    assert dealers == [2, 0, 1]


def test_row04_ace_in_runs(preset):
    rules = Rules.preset(preset)
    assert rules.meld_kind("AS 2S 3S") == "run"
    assert rules.meld_kind("KS AS 2S") is None  # never around the corner
    expected = "run" if preset == "rummy_royal" else None
    assert rules.meld_kind("QS KS AS") == expected
    # never both low and high in one run
    assert rules.meld_kind("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS#1") is None


def test_row05_ace_value(preset):
    assert Rules.preset(preset).points("AH") == (1 if preset == "traditional" else 11)


def test_row06_other_values(preset):
    rules = Rules.preset(preset)
    assert [rules.points([Card.parse(f"{r}C")]) for r in range(2, 11)] == list(range(2, 11))
    assert rules.points("JC QD KH") == 30


def test_row07_sets(preset):
    rules = Rules.preset(preset)
    assert rules.meld_kind("7S 7H 7D") == "set"
    assert rules.meld_kind("7S 7H 7D 7C") == "set"
    repeated = "7S 7S#1 7H"
    five = "7S 7H 7D 7C 7S#1"
    if preset == "traditional":
        assert rules.meld_kind(repeated) == "set"
        assert rules.meld_kind(five) == "set"
        assert rules.meld_kind("7S 7H 7D 7C 7S#1 7H#1 7D#1 7C#1") == "set"
    else:
        assert rules.meld_kind(repeated) is None
        assert rules.meld_kind(five) is None
    assert rules.meld_kind("7S 7H") is None


def test_row07_lay_off_on_sets(preset):
    game = layout(preset, ["7S#1 KD QD", "2H 3H"], melds=[("7S 7H 7D 7C", 1)])
    game.draw("stock")
    if preset == "traditional":
        game.lay_off("7S", 0)
        assert len(game.melds[0].cards) == 5
    else:
        with pytest.raises(RuleError) as err:
            game.lay_off("7S", 0)
        assert err.value.code == "cannot_lay_off"


def test_row08_runs(preset):
    rules = Rules.preset(preset)
    assert rules.meld_kind("4H 5H 6H 7H 8H 9H 10H") == "run"
    assert rules.meld_kind("4H 5H 7H") is None  # a gap
    assert rules.meld_kind("4H 5H 6D") is None  # mixed suits
    assert rules.meld_kind("4H 5H 5H#1 6H") is None  # a rank twice


def test_row09_one_meld_per_card(preset):
    game = layout(preset, ["5H 6H 7H 7S 7D JC QC", "2H 3H"])
    game.draw("stock")
    game.meld("5H 6H 7H")
    with pytest.raises(RuleError) as err:
        game.meld("7H 7S 7D")  # 7♥ is already in the run
    assert err.value.code == "not_in_hand"


def test_row10_draw_stock_or_discard(preset):
    game = layout(preset, ["KS QD", "2H 3H"], stock="5C 6C", discard="9D 8D")
    assert game.draw("discard") == Card.parse("9D")
    assert game.discard_pile == parse_cards("8D")
    game.discard("KS")
    assert game.draw("stock", player=1) == Card.parse("5C")
    with pytest.raises(RuleError) as err:
        game.draw("stock", player=1)
    assert err.value.code == "already_drawn"


def test_row11_any_number_of_melds_per_turn(preset):
    game = layout(preset, ["5H 6H 7H 8S 8D 8C 2D 3D 4D KC", "2H 3H"])
    game.draw("stock")
    game.meld("5H 6H 7H")
    game.meld("8S 8D 8C")
    game.meld("2D 3D 4D")
    assert len(game.melds) == 3 and game.phase == "play"


def test_row12_lay_off_on_any_meld_never_rearranged(preset):
    game = layout(preset, ["8H 9H 4C KD", "2H 3H"], melds=[("5H 6H 7H", 1)])
    game.draw("stock")
    game.lay_off("8H", 0)  # onto the opponent's meld
    game.lay_off("9H", 0)  # chains on the card just laid off
    assert game.melds[0].cards == tuple(parse_cards("5H 6H 7H 8H 9H"))
    assert game.melds[0].owner == 1
    with pytest.raises(RuleError):
        game.lay_off("4C", 0)


def test_row13_discarding_the_card_just_taken(preset):
    game = layout(preset, ["KS QD", "2H 3H"], discard="9D")
    game.draw("discard")
    before = game.to_dict()
    with pytest.raises(RuleError) as err:
        game.discard("9D")
    assert err.value.code == "taken_card"
    assert game.to_dict() == before
    game.discard("KS")


def test_row13_the_twin_of_the_taken_card_may_go(preset):
    game = layout(preset, ["9D QD", "2H 3H"], discard="9D")
    taken = game.draw("discard")
    game.discard("9D")
    assert game.discard_pile[0].face == taken.face and game.discard_pile[0] != taken


def test_row14_15_going_out(preset):
    game = layout(preset, ["5H 6H 7H 8H", "AH KS 2D"], stock="9H 2C", has_melded=[True, True])
    game.draw("stock")  # 9♥
    if preset == "traditional":
        game.meld("5H 6H 7H 8H 9H")  # the last card goes by meld: out without a discard
    else:
        before = game.to_dict()
        with pytest.raises(RuleError) as err:
            game.meld("5H 6H 7H 8H 9H")
        assert err.value.code == "must_keep_card"
        assert game.to_dict() == before
        game.meld("5H 6H 7H 8H")
        game.discard("9H")  # out with the final discard
    assert game.phase == "over"
    assert game.result.winner == 0 and not game.result.rummy


def _rummy_turn(game, preset):
    game.draw("stock")  # 8♥
    game.meld("5H 6H 7H")
    game.meld("8S 8D 8C")
    game.meld("JC QC KC")
    if preset == "traditional":
        game.lay_off("8H", 0)  # the last card goes by lay-off
    else:
        game.discard("8H")


def test_row16_going_rummy(preset):
    game = layout(preset, ["5H 6H 7H 8S 8D 8C JC QC KC", "2H 3H KS"], stock="8H")
    _rummy_turn(game, preset)
    assert game.result.winner == 0 and game.result.rummy
    assert game.result.penalties == [0, 2 + 3 + 10 + 25]


def test_row16_not_rummy_after_melding_on_an_earlier_turn(preset):
    game = layout(preset, ["5H 6H 7H 8S 8D 8C 2D 3D KC", "2H 3H KS 4C"], stock="9S 10S 4D")
    game.draw("stock")  # 9♠
    game.meld("5H 6H 7H")
    game.discard("9S")
    game.draw("stock", player=1)  # 10♠
    game.discard("10S", player=1)
    game.draw("stock")  # 4♦
    game.meld("8S 8D 8C")
    game.meld("2D 3D 4D")
    game.discard("KC")
    assert game.result.winner == 0 and not game.result.rummy
    assert game.result.penalties == [0, 2 + 3 + 10 + 4]


def test_row17_stock_rebuilt_from_discard_pile(preset):
    game = layout(preset, ["KS QD JC", "2H 3H 4D"], stock="5C", discard="9D 8D 7D")
    game.draw("stock")  # the last stock card
    game.discard("KS")  # this card starts the new discard pile
    assert game.rebuilds == 1
    assert game.discard_pile == parse_cards("KS")
    assert sorted(game.stock) == sorted(parse_cards("9D 8D 7D"))
    assert game.log[-1] == {"type": "rebuild", "count": 1}


def test_row18_void_deal_after_max_rebuilds(preset):
    rules = Rules.preset(preset).with_changes(max_rebuilds=1)
    game = Game.from_layout(
        hands=["KS QD JC 4S", "2H 3H 4D 6S"], stock="5C", discard="9D", rules=rules
    )
    game.draw("stock")
    game.discard("KS")  # rebuild 1: stock = [9♦]
    game.draw("stock", player=1)
    game.discard("2H", player=1)  # stock empty again: the deal is void
    assert game.phase == "over"
    assert game.result.void and game.result.winner is None
    assert game.result.penalties == [0, 0]
    assert Rules.preset(preset).max_rebuilds == 3


def test_row18_void_deal_when_players_only_swap_discards(preset):
    rules = Rules.preset(preset).with_changes(max_turns=6)
    game = Game.from_layout(hands=["KS QD JC", "2H 3H 4D"], stock="5C", discard="9D", rules=rules)
    for _ in range(6):  # each player takes the other's discard: the stock never runs out
        seat = game.current_player
        taken = game.draw("discard")
        game.discard(next(c for c in game.hand(seat) if c != taken))
    assert game.phase == "over" and game.result.void and game.turns == 6
    assert len(game.stock) == 1
    assert Rules.preset(preset).max_turns == 1000


def test_row19_penalty_is_the_value_of_the_cards_left(preset):
    game = layout(
        preset,
        ["AH KS 2D 4C", "5H 6H 7H 9C"],
        stock="3S 8H",
        current_player=1,
        has_melded=[True, True],
    )
    game.draw("stock", player=1)  # 3♠
    game.meld("5H 6H 7H", player=1)
    game.discard("3S", player=1)
    game.draw("discard", player=0)  # 3♠
    game.discard("4C", player=0)
    game.draw("stock", player=1)  # 8♥
    game.lay_off("8H", 0, player=1)
    game.discard("9C", player=1)
    ace = 1 if preset == "traditional" else 11
    assert game.result.winner == 1
    assert game.result.penalties == [ace + 10 + 2 + 3, 0]


def test_row20_rummy_bonus_is_25(preset):
    assert Rules.preset(preset).rummy_bonus == 25


def test_row21_payout(preset):
    shares = payout(10_000, [12, 30, 62], rules=preset)  # 62 is 50 behind: out
    assert sum(shares) == 10_000
    assert shares[0] >= 7_500 and shares[1] > 0 and shares[2] == 0
