"""Bots: the protocol, legal moves from observations, determinism, hidden cards, the ladder."""

from __future__ import annotations

import gc
import json
import pickle
import random
from dataclasses import replace

import pytest

from rummy_widget import Action, Game
from rummy_widget.bots import BOT_NAMES, Bot, Seen, get_bot, legal_actions
from rummy_widget.bots.master import Options
from rummy_widget.bots.tournament import play_game, tournament
from rummy_widget.bots.turn import Turn, lay_off_faces, meld_faces
from rummy_widget.engine.cards import Card, parse_cards
from rummy_widget.engine.melds import Meld
from rummy_widget.engine.rules import Rules
from rummy_widget.solver import min_penalty


def _random_positions(rules: str, players: int, seed: int, every: int = 1):
    """Positions of random games (draw and play phases), with the game to compare against."""
    rng = random.Random(seed)
    game = Game(players, rules, seed=seed)
    step = 0
    while game.phase != "over":
        if step % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    yield game


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_from_the_observation_agree_with_the_game(rules, players):
    checked = 0
    for seed in range(2):
        for game in _random_positions(rules, players, seed, every=3):
            for seat in range(players):
                obs = json.loads(json.dumps(game.observation(seat)))  # plain JSON only
                expected = game.legal_actions() if seat == game.current_player else []
                assert legal_actions(obs) == expected
            checked += 1
    assert checked > 50


def test_legal_actions_keep_a_card_to_discard_and_never_return_the_taken_card():
    # Rummy Royal must end with a discard; the 9♥ just taken may not go back at once.
    game = Game.from_layout(
        hands=["7H 8H 5C", "2S 3S 4S"], stock="KD QD", discard="9H", rules="rummy_royal"
    )
    game.draw("discard")
    moves = legal_actions(game.observation(0))
    assert moves == game.legal_actions()
    assert Action.meld([c for c in game.hand(0) if c.suit == "H"]) in moves
    assert all(a.card is None or a.card.code != "9H" for a in moves if a.kind == "discard")
    assert legal_actions(game.observation(1)) == []


class FirstMeldBot:
    """A learner's bot in a few lines: meld when it can, else draw from the stock and discard
    the highest card."""

    name = "first meld"

    def act(self, observation: dict) -> Action:
        moves = legal_actions(observation)
        melds = [m for m in moves if m.kind == "meld"]
        if melds:
            return melds[0]
        if observation["phase"] == "draw":
            return moves[0]
        discards = [m for m in moves if m.kind == "discard"]
        return max(discards, key=lambda m: m.card.rank)


def test_a_learners_bot_needs_only_act_and_plays_whole_deals():
    bot = FirstMeldBot()
    assert isinstance(bot, Bot)
    game = play_game(Game(2, seed=3), [bot, get_bot("random", seed=1)])
    assert game.result is not None


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_is_built_by_name_and_keeps_to_the_protocol(name):
    bot = get_bot(name, seed=4)
    assert isinstance(bot, Bot)
    assert bot.name == name
    assert bot.label("en") and bot.label("fi")
    with pytest.raises(ValueError):
        get_bot("grandmaster")


def _play_to(game: Game, moves: int, bots) -> Game:
    for _ in range(moves):
        if game.phase == "over":
            break
        seat = game.current_player
        game.apply(bots[seat].act(game.observation(seat)), seat)
    return game


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_seed_fixes_every_move(name):
    histories = []
    for _ in range(2):
        bots = [get_bot(name, seed=1), get_bot(name, seed=2)]
        game = _play_to(Game(2, "traditional", seed=11), 40 if name == "master" else 400, bots)
        histories.append(game.history)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_picklable_and_see_plain_json(name):
    bot = get_bot(name, seed=3)
    game = _play_to(Game(2, "rummy_royal", seed=5), 7, [get_bot("basic"), get_bot("basic")])
    obs = game.observation(game.current_player)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.act(json.loads(json.dumps(obs))) == bot.act(obs)


def _hidden_swapped(game: Game, seat: int, seed: int) -> tuple[Game, Game]:
    """The position as a layout, and the same position with every card ``seat`` cannot see
    (other hands, except cards they took from the pile, and the stock) dealt afresh."""
    obs = game.observation(seat)
    known = {
        e["card"]["id"]
        for e in obs["log"]
        if e["type"] == "draw" and e["source"] == "discard" and e["player"] != seat
    }
    hands = [list(game.hand(p)) for p in range(game.players)]
    hidden = [c for p in range(game.players) if p != seat for c in hands[p] if c.id not in known]
    hidden += list(game.stock)
    shuffled = hidden[:]
    random.Random(seed).shuffle(shuffled)
    other_hands = []
    for p in range(game.players):
        if p == seat:
            other_hands.append(hands[p])
            continue
        keep = [c for c in hands[p] if c.id in known]
        need = len(hands[p]) - len(keep)
        other_hands.append(keep + shuffled[:need])
        del shuffled[:need]
    common = {
        "discard": list(game.discard_pile),
        "melds": [(list(m.cards), m.owner) for m in game.melds],
        "current_player": game.current_player,
        "rules": game.rules,
        "has_melded": [game.has_melded(p) for p in range(game.players)],
    }
    real = Game.from_layout(hands=hands, stock=list(game.stock), **common)
    other = Game.from_layout(hands=other_hands, stock=shuffled, **common)
    assert [sorted(h) for h in other_hands] != [sorted(h) for h in hands]
    return real, other


def _swapped_positions(rules: str, seed: int, moves: tuple[int, ...], warm):
    """(real, hidden cards dealt afresh, seat to play) after each number of ``moves``."""
    for count in moves:
        game = _play_to(Game(2, rules, seed=seed + count), count, warm)
        if game.phase != "over":
            seat = game.current_player
            yield (*_hidden_swapped(game, seat, seed=count), seat)


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_no_bot_can_reach_hidden_cards(rules):
    """Positions that differ only in cards the seat cannot see give the same observation,
    so every bot makes the same move in both."""
    warm = [get_bot("expert", seed=1), get_bot("basic", seed=2)]
    for real, other, seat in _swapped_positions(rules, 21, (0, 9, 24), warm):
        assert real.observation(seat) == other.observation(seat)
        for name in BOT_NAMES:
            obs = real.observation(seat)
            assert get_bot(name, seed=4).act(obs) == get_bot(name, seed=4).act(
                other.observation(seat)
            )


def test_the_ladder_holds_over_a_few_hundred_deals():
    result = tournament(["basic", "random"], deals=150, seed=9, executor=None, progress=False)
    assert result.stats[0].win_rate > 0.9


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_faces_a_table_takes_are_those_its_melds_grow_by(rules):
    """``meld_faces`` skips ``Meld.with_card``'s work; it must still agree with it exactly."""
    preset = Rules.preset(rules)
    melds = []
    for seed in range(12):  # the tables of real deals: sets, runs, aces high and low
        game = play_game(Game(2, rules, seed=seed), [get_bot("basic", seed=1), get_bot("basic")])
        melds += game.melds
    melds += [
        Meld.make(parse_cards(text), preset, 0)
        for text in ("AH 2H 3H", "QS KS AS", "JD QD KD", "7C 7H 7S", "2S 2H 2D 2C", "9H 9H#1 9S")
    ]
    melds = [m for m in melds if m is not None]
    assert {m.kind for m in melds} == {"set", "run"} and len(melds) > 40
    table, fits = [], 0
    for meld in melds:
        ids = tuple(c.id for c in meld.cards)
        expected = 0
        for card in map(Card, range(104)):
            if meld.with_card(card, preset) is not None:
                expected |= 1 << card.face_index
        assert meld_faces(meld, preset, ids) == expected, meld
        if len(table) < 6:
            table.append(meld)
            fits |= expected
    key = tuple(tuple(c.id for c in m.cards) for m in table)
    assert lay_off_faces(table, preset, key) == fits


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_bots_quick_test_never_misses_a_meld_or_lay_off(rules):
    """``Turn.could_place`` lets most hands skip the solver; it may say yes wrongly, never no."""
    rng = random.Random(rules)
    preset = Rules.preset(rules)
    tables = [[]]
    for seed in range(6):
        game = play_game(Game(2, rules, seed=seed), [get_bot("basic", seed=1), get_bot("basic")])
        tables.append(game.melds)
    seen = Seen.read(Game(2, rules, seed=0).observation(0))  # the rules, as a bot reads them
    said_no = 0
    for _ in range(1500):
        table = rng.choice(tables)
        used = {c.id for m in table for c in m.cards}
        hand = [
            Card(i)
            for i in rng.sample([i for i in range(104) if i not in used], rng.randint(1, 12))
        ]
        key = tuple(tuple(c.id for c in m.cards) for m in table)
        turn = Turn(replace(seen, melds=list(table), table_key=key))
        ids = sum(1 << c.id for c in hand)
        if not turn.could_place(ids):
            said_no += 1
            assert min_penalty(hand, preset, table) == preset.points(hand), (hand, table)
    assert 300 < said_no < 1400  # a real filter, neither always yes nor always no


@pytest.mark.parametrize("name", ["basic", "expert"])
def test_bots_deals_leave_no_reference_cycles(name):
    """Whatever a deal builds is freed as soon as it is dropped: a cycle would wait for the
    garbage collector, whose full collections slowed bot-against-bot play by about 10%."""
    for rules in ("traditional", "rummy_royal"):
        play_game(Game(2, rules, seed=99), [get_bot(name, seed=1), get_bot(name, seed=2)])
    gc.collect()
    flags, enabled = gc.get_debug(), gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for seed, rules in enumerate(["traditional", "rummy_royal"] * 2):
            play_game(Game(2, rules, seed=seed), [get_bot(name, seed=1), get_bot(name, seed=2)])
        gc.collect()
        ours = [o for o in gc.garbage if "rummy_widget" in (getattr(o, "__module__", None) or "")]
    finally:
        gc.garbage.clear()
        gc.set_debug(flags)
        if enabled:
            gc.enable()
    assert ours == []


def test_basic_takes_the_card_that_completes_a_run_and_says_why():
    game = Game.from_layout(
        hands=["5H 6H KS QD 9C 2S", "3C 4D 8S JC 10D KH"], stock="AS 2D 3H", discard="7H"
    )
    bot = get_bot("basic")
    obs = game.observation(0)
    action = bot.act(obs)
    assert action == Action.draw("discard")
    assert bot.explain(obs, action, "en") == (
        "7♥ completes 5♥ 6♥ 7♥, so I took it from the discard pile."
    )
    assert "poistopakasta" in bot.explain(obs, action, "fi")


@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_explains_its_moves_in_both_languages(name):
    bot = get_bot(name, seed=5)
    game = Game(2, "traditional", seed=12)
    kinds = set()
    for _ in range(30 if name == "master" else 200):
        if game.phase == "over":
            break
        seat = game.current_player
        obs = game.observation(seat)
        action = bot.act(obs)
        en, fi = bot.explain(obs, action, "en"), bot.explain(obs, action, "fi")
        assert en and fi and en != fi
        if action.kind != "draw":
            shown = action.card or action.cards[0]
            assert str(shown) in en or name == "random"
        kinds.add(action.kind)
        game.apply(action, seat)
    assert {"draw", "discard"} <= kinds


def test_an_unknown_bot_name_gets_a_clear_localized_error():
    from rummy_widget import RuleError
    from rummy_widget.bots import get_bot

    with pytest.raises(RuleError) as err:
        get_bot("mestari")
    assert err.value.code == "unknown_bot"
    assert "expert" in str(err.value) and "Tuntematon botti" in err.value.localized("fi")


def test_own_progress_counts_the_draw_orders_that_go_out():
    """A hand one card from going out goes out in exactly the orders that bring that card
    within the look-ahead; the pile's top card counts as the first draw when it is taken."""
    from rummy_widget.bots.progress import goes_out, out_rates
    from rummy_widget.bots.turn import Turn
    from rummy_widget.engine.cards import parse_cards

    game = Game.from_layout(
        hands=["5H 6H 7H 9C 9D", "2S 3D 4C 8S KD"], stock="QS JD 10C", discard="4D"
    )
    seen = Seen.read(game.observation(0))
    turn = Turn(seen)
    hand = list(parse_cards("5H 6H 7H 9C 9D"))
    assert goes_out(turn, [*hand, *parse_cards("9S")])
    assert not goes_out(turn, [*hand, *parse_cards("8H")])  # a run of four, two 9s left over
    assert not goes_out(turn, [*hand, *parse_cards("KS")])
    nine, king, queen, other = parse_cards("9S KS QC QD")
    orders = [(nine, king), (king, nine), (king, queen), (queen, other)]
    expert = get_bot("expert")
    memory = expert.memory(seen)

    def policy(cards, barred):
        return expert.discard_choices(turn, [c for c in cards if c != barred], memory)[0][1]

    assert out_rates(turn, hand, orders, policy) == [1.0, 1.0, 0.0, 0.0]
    assert out_rates(turn, hand, orders, policy, first=nine) == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_own_progress_sees_only_its_observation_and_replays(rules):
    """The own-progress master deals its draw orders from the observation alone: positions
    differing only in hidden cards get the same move, and a seed fixes a whole deal."""
    options = {"options": Options(draws=3, samples=40)}
    warm = [get_bot("expert", seed=1), get_bot("expert", seed=2)]
    for real, other, seat in _swapped_positions(rules, 31, (9, 24, 41), warm):
        first = get_bot("master", seed=5, **options).act(real.observation(seat))
        assert first == get_bot("master", seed=5, **options).act(other.observation(seat))
    histories = []
    for _ in range(2):
        master = get_bot("master", seed=3, **options)
        game = play_game(Game(2, rules, seed=35), [master, get_bot("expert", seed=4)])
        histories.append(game.history)
    assert histories[0] == histories[1]
    assert master.progressed > 0


def test_own_progress_that_never_passes_its_test_plays_the_experts_game():
    """With a margin no gain can pass, the own-progress master is the expert (same seed,
    same moves): the option changes play only through choices that pass its test."""
    histories = []
    never = {"options": Options(draws=3, samples=20, margin=2.0)}
    master = get_bot("master", seed=3, **never)
    for first in (master, get_bot("expert", seed=3)):
        game = play_game(Game(2, "traditional", seed=34), [first, get_bot("expert", seed=4)])
        histories.append(game.history)
    assert histories[0] == histories[1]
    assert master.progressed > 0 and master.progress_deviated == 0


@pytest.mark.parametrize(("rules", "seed"), [("traditional", 5), ("rummy_royal", 1)])
def test_a_master_that_leaves_the_experts_choice_says_how_often_each_went_out(rules, seed):
    """Where own progress leaves the expert's draw or discard, the master's reason names the
    expert's choice and how often each went out over the draw orders it tried (the chosen one
    more often); for the expert's own choice in that position it gives the expert's reason."""
    game = Game(2, rules, seed=seed)
    bots = [get_bot("master", seed=3), get_bot("expert", seed=4)]
    explained = set()
    while game.phase != "over" and not {"draw", "discard"} <= explained:
        seat = game.current_player
        observation = game.observation(seat)
        before = getattr(bots[seat], "progress_deviated", 0)
        action = bots[seat].act(observation)
        if seat == 0 and bots[0].progress_deviated > before and action.kind in ("draw", "discard"):
            key, params = bots[0].reason(Seen.read(observation), action)
            expert = get_bot("expert", seed=3).act(observation)
            if action.kind == "draw":
                way = "take" if action.source == "discard" else "stock"
                assert key == f"bot.explain.master_progress_{way}"
                assert params["other"] == expert.source != action.source
                assert params["card"] == str(Seen.read(observation).top)
            else:
                assert key == "bot.explain.master_progress_discard"
                assert params["card"] == str(action.card) != params["other"] == str(expert.card)
            assert params["rate"] > params["other_rate"] >= 0
            assert (params["tried"], params["draws"]) == (100, 3)
            en = bots[0].explain(observation, action, "en")
            fi = bots[0].explain(observation, action, "fi")
            for text in (en, fi, bots[0].advise(observation, action, "en")):
                assert params["card"] in text and f"{params['rate']}" not in text  # short
            why_en = bots[0].why(observation, action, "en")
            why_fi = bots[0].why(observation, action, "fi")
            for text in (why_en, why_fi):
                assert params["card"] in text and f"{params['rate']}" in text
            assert "ulos" in fi and "3 nostoa" in why_fi and "3 draws each" in why_en
            fallback = bots[0].reason(Seen.read(observation), expert)[0]
            assert not fallback.startswith("bot.explain.master_progress")
            explained.add(action.kind)
        game.apply(action, seat)
    assert explained, "own progress left the expert's choice at least once"


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_master_holds_melds_for_rummy_by_the_rules_cap(rules):
    """Melds worth 60 points: the expert (40 at most) lays them down; so does the master in
    traditional rummy, while in Rummy Royal (no cap) it keeps them for Rummy as long as the
    opponent holds 4 cards or more, and lays them once it holds fewer.
    ``Options.hold_points`` sets the cap whatever the rules."""

    def first_play(bot, opponent: str) -> Action:
        game = Game.from_layout(
            hands=["KS KH KD QC QD QH 2C 3D 5S 7H", opponent],
            stock="9C JD 10C 4H",
            discard="8C",
            rules=rules,
        )
        game.apply(Action.draw("stock"), 0)
        return bot.act(game.observation(0))

    many, few = "2D 3H 4C 6S 8D", "2D 3H 4C"
    default = "discard" if rules == "rummy_royal" else "meld"
    assert first_play(get_bot("master", seed=1), many).kind == default
    assert first_play(get_bot("master", seed=1), few).kind == "meld"
    uncapped, capped = Options(hold_points=None), Options(hold_points=40)
    assert first_play(get_bot("master", seed=1, options=uncapped), many).kind == "discard"
    assert first_play(get_bot("master", seed=1, options=capped), many).kind == "meld"
    assert first_play(get_bot("expert", seed=1), many).kind == "meld"
