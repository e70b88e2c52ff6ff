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
from rummy_widget.bots.consistency import (
    Judge,
    Verdicts,
    fewest_misfits,
    fit_likelihood,
    misfits,
    past_turns,
)
from rummy_widget.bots.inference import face_weights
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


def _fast(name: str, seed: int = 0):
    """Bots for tests: the master with two worlds and no time limit (deterministic)."""
    if name == "master":
        return get_bot("master", seed=seed, worlds=2, budget=1e9, horizon=20)
    return get_bot(name, seed=seed)


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_seed_fixes_every_move(name):
    histories = []
    for _ in range(2):
        bots = [_fast(name, 1), _fast(name, 2)]
        game = _play_to(Game(2, "traditional", seed=11), 40 if name == "master" else 400, bots)
        histories.append(game.history)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_are_picklable_and_see_plain_json(name):
    bot = _fast(name, 3)
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
            assert _fast(name, 4).act(obs) == _fast(name, 4).act(other.observation(seat))


@pytest.mark.parametrize("inference", [False, True])
def test_masters_worlds_follow_the_log_and_are_not_the_real_hands(inference):
    game = _play_to(Game(2, "traditional", seed=8), 30, [get_bot("expert"), get_bot("basic")])
    seat = game.current_player
    other = 1 - seat
    obs = game.observation(seat)
    master = get_bot("master", seed=6, inference=inference)
    seen = Seen.read(obs)
    memory = master.memory(seen)
    visible = {c["id"] for c in obs["hand"] + obs["discard_pile"]}
    visible |= {c["id"] for m in obs["melds"] for c in m["cards"]}
    truth = sorted(game.hand(other))
    rng = random.Random(0)
    worlds = [master.sample_world(seen, memory, rng) for _ in range(50)]
    for world in worlds:
        theirs = world.hands[other]
        assert len(theirs) == len(truth) and len(world.stock) == obs["stock_size"]
        assert set(memory.known[other]) <= set(theirs)  # what they took is still theirs
        assert not visible & {c.id for c in theirs + world.stock}
        assert list(world.hands[seat]) == seen.hand
    assert all(sorted(w.hands[other]) != truth for w in worlds)
    assert len({w.hands[other] for w in worlds}) > 40  # real guesses, not one fixed answer


@pytest.mark.parametrize("moves", [30, 31])
def test_a_masters_world_looks_to_its_seat_exactly_like_the_real_table(moves):
    """In draw and play phases alike, the imagined game shows the seat the same observation
    (hand, piles, table, log), so the imagined players remember what the real ones saw."""
    game = _play_to(Game(2, "rummy_royal", seed=8), moves, [get_bot("expert"), get_bot("basic")])
    seat = game.current_player
    obs = game.observation(seat)
    master = get_bot("master", seed=6)
    seen = Seen.read(obs)
    world = master.sample_world(seen, master.memory(seen), random.Random(1))
    imagined = master.world_game(seen, world).observation(seat)
    for key in ("hand", "discard_pile", "melds", "stock_size", "phase", "players", "log"):
        assert imagined[key] == obs[key], key


def test_inference_doubts_cards_that_go_with_what_an_opponent_threw_away():
    """After the opponent discarded 7♥ and left 2♣ for the stock, unseen 7s and 2s and the
    hearts next to 7♥ weigh less than an unrelated card; cards next to its pick-up weigh
    more."""
    game = Game.from_layout(
        hands=["AS 3D 5S 9S JD QD KC 4C 6D 8D", "7H 10C 10D 3S 4S 8C 9C JH QH KH"],
        stock="AH 2H 3H 4H 5H 6H 2D 4D 5D 7D 9D",
        discard="2C",
        current_player=1,
    )
    game.draw("stock")
    game.discard("7H")
    game.draw("discard")  # seat 0 takes 7H back into play
    game.discard("KC")
    game.draw("discard")  # seat 1 takes KC
    game.discard("JH")
    seen = Seen.read(game.observation(0))
    master = get_bot("master")
    weights = face_weights(seen, master.memory(seen), 1)
    face = lambda text: Card.parse(text).face_index  # noqa: E731
    plain = weights[face("5C")]
    assert weights[face("7S")] < plain and weights[face("8H")] < plain
    assert weights[face("2S")] < plain  # refused from the pile
    assert weights[face("KS")] > plain and weights[face("QC")] > plain  # next to its pick-up


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_masters_search_replays_under_a_seed_and_keeps_legal_moves(rules):
    """The endgame search (inference, the log in its worlds; off by default) gives the same
    moves twice."""
    histories = []
    every = ("draw", "discard", "meld")
    for _ in range(2):
        master = get_bot("master", seed=3, worlds=3, budget=1e9, searches=every)
        bots = [master, get_bot("expert", seed=4)]
        game = play_game(Game(2, rules, seed=31), bots)
        histories.append(game.history)
        assert bots[0].searched > 0  # the deal reached an endgame the master searched
    assert histories[0] == histories[1] and game.phase == "over"


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
    bot = _fast(name, 5)
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


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_an_experts_past_turns_fit_its_real_hand(rules):
    """Rebuilt from the public log, an expert's last turn is what an expert holding its real
    cards plays: its real hand is never a misfit for its plays and discard (the check the
    master's consistent worlds rely on; the real hand is used here only to test the check)."""
    judge = get_bot("expert")
    checked = 0
    for game, obs, seat in _expert_positions(rules, (40, 41, 42)):
        turns = past_turns(Seen.read(obs), 1 - seat, 1)
        if turns and obs["phase"] == "draw":
            last = replace(turns[0], choice=False)  # the draw's card is a guess: not here
            assert misfits([last], list(game.hand(1 - seat)), judge, random.Random(0)) == 0
            checked += 1
    assert checked > 20


def _expert_positions(rules: str, seeds):
    """(game, observation, seat to move) at every move of expert-against-expert deals."""
    bots = [get_bot("expert", seed=1), get_bot("expert", seed=2)]
    for seed in seeds:
        game = Game(2, rules, seed=seed)
        while game.phase != "over":
            seat = game.current_player
            obs = game.observation(seat)
            yield game, obs, seat
            game.apply(bots[seat].act(obs), seat)


def test_consistent_worlds_doubt_hands_an_expert_would_have_played_otherwise():
    """The opponent (an expert) drew from the stock and threw a card. Its real hand fits that
    turn; a guess in which that card completed a run in its hand does not: an expert would
    never have thrown it. Only the log and the guessed cards are read."""
    game = Game.from_layout(
        hands=["AS 3D 5S 9S JD QD KC 4C 6D 8D", "2C 4D 6S 8H 10C QH AH 3C 5C 7D"],
        stock="KS 5H 6H 2H 3H 4H 9H 10D 7C 9C 10S",
        discard="9D",
        current_player=1,
    )
    expert = get_bot("expert", seed=2)
    while game.current_player == 1:
        game.apply(expert.act(game.observation(1)), 1)
    seen = Seen.read(game.observation(0))
    (turn,) = past_turns(seen, 1, 1)
    assert turn.source == "stock" and turn.draw_seen.discard_pile[0] == Card.parse("9D")
    thrown = game.discard_pile[0]
    turn = replace(turn, choice=False)  # which card it drew is a guess: not tested here
    judge = get_bot("expert")
    real = list(game.hand(1))
    assert misfits([turn], real, judge, random.Random(0)) == 0
    low = 1 if thrown.rank > 2 else -1  # two cards below the thrown one (above for A, 2)
    run = [Card.of(thrown.rank - low * k, thrown.suit, deck=1) for k in (1, 2)]
    others = sorted((c for c in real if c.suit != thrown.suit), key=lambda c: c.rank)
    guess = others[2:] + [c for c in real if c.suit == thrown.suit] + run
    assert len(guess) == len(real)
    assert misfits([turn], guess, judge, random.Random(0)) == 1


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_consistent_masters_see_only_their_observation(rules):
    """Consistency weighting reads the log, never the hidden cards: positions that differ
    only in hidden cards give the same worlds and the same move, and the worlds are guesses."""
    warm = [get_bot("expert", seed=1), get_bot("expert", seed=2)]
    game = _play_to(Game(2, rules, seed=27), 24, warm)
    seat = game.current_player
    real, other = _hidden_swapped(game, seat, seed=3)
    found = []
    for position in (real, other):
        master = get_bot("master", seed=5, worlds=12, budget=1e9, consistent=2)
        seen = Seen.read(position.observation(seat))
        rng = random.Random(1)
        found.append(master.sample_worlds(seen, master.memory(seen), rng, 0.0))
        assert master.act(position.observation(seat)) == get_bot(
            "master", seed=5, worlds=12, budget=1e9, consistent=2
        ).act(real.observation(seat))
    assert found[0] == found[1]
    truth = sorted(game.hand(1 - seat))
    assert all(sorted(w.hands[1 - seat]) != truth for w in found[0])


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_with_the_drawn_cards_chosen_to_fit_the_real_hand_never_misfits_three_turns_deep(rules):
    """Three turns back, draws included: a stock draw's card picked at random makes the real
    hand misfit now and then, but chosen to fit (over every card it could have been) the real
    hand always fits, and no random pick ever fits better than the chosen ones."""
    judge = get_bot("expert")
    checked = random_misfits = 0
    for game, obs, seat in _expert_positions(rules, range(60, 64)):
        turns = past_turns(Seen.read(obs), 1 - seat, 3)
        if len(turns) == 3 and obs["phase"] == "draw":
            real = list(game.hand(1 - seat))
            assert fewest_misfits(turns, real, judge, random.Random(0), checks=10**6) == 0
            random_misfits += misfits(turns, real, judge, random.Random(checked)) > 0
            guess = real[1:] + [c for c in game.stock[:1]]
            fewest = fewest_misfits(turns, guess, judge, random.Random(0), 10**6, most=7)
            assert fewest <= misfits(turns, guess, judge, random.Random(checked))
            checked += 1
    assert checked > 20 and random_misfits > 0


def test_fitting_gives_up_on_a_hand_after_most_misfits():
    """``most`` caps the answer: a guess that misfits is given up on once it reaches it."""
    bots = [get_bot("expert", seed=1), get_bot("expert", seed=2)]
    game = _play_to(Game(2, "traditional", seed=62), 12, bots)
    seat = game.current_player
    turns = past_turns(Seen.read(game.observation(seat)), 1 - seat, 3)
    judge = get_bot("expert")
    rng = random.Random(2)
    found = []
    for _ in range(30):
        guess = rng.sample(list(game.stock), len(game.hand(1 - seat)))
        full = fewest_misfits(turns, guess, judge, random.Random(0), 10**6, most=7)
        assert fewest_misfits(turns, guess, judge, random.Random(0), 10**6, most=1) == min(1, full)
        found.append(full)
    assert max(found) > 1


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_fitting_masters_see_only_their_observation_and_replay(rules):
    """With the drawn cards chosen to fit, worlds still come from the log alone: positions
    differing only in hidden cards give the same worlds and move, and the seed fixes both."""
    warm = [get_bot("expert", seed=1), get_bot("expert", seed=2)]
    game = _play_to(Game(2, rules, seed=27), 24, warm)
    seat = game.current_player
    real, other = _hidden_swapped(game, seat, seed=3)
    options = {"worlds": 12, "budget": 1e9, "consistent": 3, "fit_draws": True}
    found = []
    for position in (real, other, real):
        master = get_bot("master", seed=5, **options)
        seen = Seen.read(position.observation(seat))
        found.append(master.sample_worlds(seen, master.memory(seen), random.Random(1), 0.0))
        assert master.act(position.observation(seat)) == get_bot("master", seed=5, **options).act(
            real.observation(seat)
        )
    assert found[0] == found[1] == found[2]
    truth = sorted(game.hand(1 - seat))
    assert all(sorted(w.hands[1 - seat]) != truth for w in found[0])


def test_the_judge_remembers_and_decides_as_the_expert_does():
    """The judge reads each past position's log once and adds the guessed hand, and stops
    scoring discards at the first that beats the one played: what it remembers is exactly
    what ``Memory.read`` gives, and its verdicts are the plain expert's."""
    from rummy_widget.bots.consistency import play_misfit
    from rummy_widget.bots.memory import Memory

    judge, expert = Judge(), get_bot("expert")
    rng = random.Random(3)
    checked = misfit = 0
    for rules in ("traditional", "rummy_royal"):
        for game, obs, seat in _expert_positions(rules, (64,)):
            for depth, past in enumerate(past_turns(Seen.read(obs), 1 - seat, 2)):
                played = {c.id for c in past.played}
                unseen = [c for c in Memory.read(past.play_seen).unseen if c.id not in played]
                hands = [rng.sample(unseen, 7)] + [list(game.hand(1 - seat))] * (depth == 0)
                for hand in hands:
                    after = hand + list(past.played)
                    for position in (past.draw_seen, past.play_seen):
                        seen = replace(position, hand=hand)
                        assert judge.memory(seen) == Memory.read(seen)
                    verdict = play_misfit(past, after, judge)
                    assert verdict == play_misfit(past, after, expert)
                    checked += 1
                    misfit += verdict
    assert checked > 50 and 0 < misfit < checked


def test_a_hands_likelihood_averages_its_histories_and_never_beats_its_best_one():
    """Averaged over the cards the stock draws could have brought, a hand's weight lies
    between the worst and the best history: at most ``weight ** fewest_misfits`` and at
    least ``weight ** 2`` (paths stop at two misfits)."""
    judge = get_bot("expert")
    checked = 0
    for game, obs, seat in _expert_positions("traditional", (62,)):
        turns = past_turns(Seen.read(obs), 1 - seat, 2)
        if len(turns) < 2 or obs["phase"] != "draw":
            continue
        real = list(game.hand(1 - seat))
        for hand in (real, real[1:] + list(game.stock[:1])):
            fewest = fewest_misfits(turns, hand, judge, random.Random(0), 10**6)
            likely = fit_likelihood(Verdicts(turns, judge), hand, random.Random(0), 0.1, 99)
            assert 0.1**2 <= likely <= 0.1**fewest + 1e-12
        checked += 1
    assert checked > 5


def test_a_master_searching_no_kind_of_choice_plays_the_experts_game():
    """``searches`` names what the endgame search may change; with none (and own progress
    off), the master is the expert (same seed, same moves) and never searches."""
    histories = []
    bare = get_bot("master", seed=3, searches=(), budget=1e9, progress=0)
    for first in (bare, get_bot("expert", seed=3)):
        game = play_game(Game(2, "traditional", seed=34), [first, get_bot("expert", seed=4)])
        histories.append(game.history)
    assert histories[0] == histories[1]
    master = get_bot("master", seed=3, searches=("discard",), worlds=3, budget=1e9)
    play_game(Game(2, "traditional", seed=34), [master, get_bot("expert", seed=4)])
    assert master.searched > 0


def test_own_progress_counts_the_draw_orders_that_go_out():
    """A hand one card from going out goes out in exactly the orders that bring that card
    within the look-ahead (later draws count less with a discount); the pile's top card
    counts as the first draw when it is taken."""
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
    assert out_rates(turn, hand, orders, policy, discount=0.5) == [1.0, 0.5, 0.0, 0.0]
    assert out_rates(turn, hand, orders, policy, first=nine) == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_own_progress_sees_only_its_observation_and_replays(rules):
    """The own-progress master deals its draw orders from the observation alone: positions
    differing only in hidden cards get the same move, and a seed fixes a whole deal."""
    options = {"progress": 3, "progress_samples": 40, "searches": ()}
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
    never = {"progress": 3, "progress_samples": 20, "progress_margin": 2.0, "searches": ()}
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
    opponent holds 4 cards or more, and lays them once it holds fewer. ``hold_points`` sets
    the cap whatever the rules."""

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
    assert first_play(get_bot("master", seed=1, hold_points=None), many).kind == "discard"
    assert first_play(get_bot("master", seed=1, hold_points=40), many).kind == "meld"
    assert first_play(get_bot("expert", seed=1), many).kind == "meld"
