"""The reinforcement-learning environment: PettingZoo's and Gymnasium's own checks, the move
numbering against the engine's legal moves, hidden cards, rewards, illegal moves and rendering.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hidden_cards import hidden_from
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from rummy_widget import Action, Game, RuleError, Rules
from rummy_widget.bots import get_bot
from rummy_widget.bots.tournament import play_game, tournament
from rummy_widget.display import table_html
from rummy_widget.engine.cards import DECK
from rummy_widget.env import (
    REWARDS,
    ActionCodec,
    ObservationEncoder,
    PolicyBot,
    SingleAgent,
    env,
    raw_env,
    slot_order,
)

PRESETS = ("traditional", "rummy_royal")
TABLES = [(p, r) for p in (2, 3, 4) for r in PRESETS]


@pytest.fixture(autouse=True)
def _quiet():
    """PettingZoo's ``api_test`` warns that a dict observation is not a NumPy array and that a
    dict space is not a Box (it skips both warnings for its own classic games, by name), and
    that a mask is all zeros (a seat whose deal has ended has no move); every other warning
    still shows."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        warnings.filterwarnings("ignore", "Action mask numpy array is all zeros")
        yield


# --- PettingZoo's and Gymnasium's own tests --------------------------------------------------


@pytest.mark.parametrize(("players", "rules"), TABLES)
def test_pettingzoo_api_test(players: int, rules: str) -> None:
    api_test(env(players=players, rules=rules, seed=players), num_cycles=150)


@pytest.mark.parametrize(("players", "rules"), TABLES)
def test_pettingzoo_seed_test(players: int, rules: str) -> None:
    seed_test(lambda: env(players=players, rules=rules), num_cycles=60)


def test_max_cycles_test_does_not_apply_and_max_moves_truncates() -> None:
    """``max_cycles_test`` needs a parallel API, which a turn-based game has not (none of
    PettingZoo's classic games runs it). Its AEC half, for ``max_moves``: every seat is
    truncated after exactly that many moves and then leaves the game."""
    game = env(players=3, seed=5, max_moves=7)
    game.reset()
    moves = 0
    for agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        if truncation:
            assert moves == 7 and not termination
            game.step(None)
            continue
        game.step(game.action_space(agent).sample(observation["action_mask"]))
        moves += 1
    assert game.agents == []


@pytest.mark.parametrize("rules", PRESETS)
def test_single_agent_passes_gymnasiums_env_checker(rules: str) -> None:
    check_env(
        SingleAgent(players=3, rules=rules, opponents="random", seed=1), skip_render_check=True
    )


def test_single_agent_plays_a_deal_against_the_basic_bot() -> None:
    single = SingleAgent(players=2, opponents="basic", seed=3, reward="both")
    observation, _ = single.reset(seed=3)
    rng = np.random.default_rng(0)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.size and single.aec.game.current_player == 0
        observation, reward, terminated, truncated, _ = single.step(int(rng.choice(legal)))
        total += reward
        done = terminated or truncated
        steps += 1
    result = single.aec.game.result
    assert total == pytest.approx(0.0 if result.void else REWARDS["both"](result, 0))
    with pytest.raises(RuleError):
        SingleAgent(players=3, opponents=["basic"])


# --- the numbering --------------------------------------------------------------------------


def test_space_sizes_follow_from_the_rules() -> None:
    for rules in PRESETS:
        codec = ActionCodec(Rules.preset(rules))
        assert (codec.slots, codec.table, codec.melds) == (11, 34, 1981)
        assert (codec.lay_off_base, codec.discard_base, codec.size) == (1983, 2357, 2368)
        encoder = ObservationEncoder(Rules.preset(rules))
        assert (encoder.slots_at, encoder.table_at, encoder.state_at) == (468, 1051, 2989)
        assert encoder.size == 3016  # the ranges rummy.py's docstring gives
    spaces = raw_env(players=4, rules="rummy_royal")
    assert spaces.action_space("player_3").n == 2368
    assert spaces.observation_space("player_3")["observation"].shape == (3016,)


def random_positions(players: int, rules: str, count: int, seed: int):
    """``count`` positions of random deals (random legal moves, a new deal every 150 moves at
    most, so that openings and long deals both appear), each with its environment."""
    rng = random.Random(seed)
    deal = 0
    while True:
        aec = raw_env(players=players, rules=rules, seed=seed * 100 + deal)
        aec.reset()
        deal += 1
        for _ in range(rng.choice((40, 150))):
            if aec.game.phase == "over":
                break
            yield aec
            count -= 1
            if not count:
                return
            aec.play(rng.choice(aec.game.legal_actions()))


def held(action: Action, hand: list) -> bool:
    """Does the hand hold the very cards (ids) the action names?"""
    return {c.id for c in (*action.cards, action.card) if c is not None} <= {c.id for c in hand}


def same_move(a: Action, b: Action, exact: bool = True) -> bool:
    """The same move: the same physical cards (a meld's in any order), or with ``exact=False``
    the same faces (a move may name a face by a copy the hand does not hold)."""

    def key(action: Action) -> tuple:
        cards = [*action.cards, *([action.card] if action.card else [])]
        names = sorted(c.id if exact else c.face_index for c in cards)
        return (action.kind, action.source, names, action.meld_index)

    return key(a) == key(b)


@pytest.mark.parametrize(("players", "rules"), TABLES)
def test_mask_is_the_engines_legal_moves_one_number_each(players: int, rules: str) -> None:
    positions = 0
    for aec in random_positions(players, rules, count=500, seed=players):
        game, agent = aec.game, aec.agent_selection
        hand = slot_order(game.hand(game.current_player))
        legal = game.legal_actions()
        numbers = [aec.codec.encode(a, hand) for a in legal]
        assert len(set(numbers)) == len(legal), "two legal moves share a number"
        mask = aec.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == sorted(numbers)
        for other in aec.agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        for number, action in zip(numbers, legal, strict=True):
            assert same_move(aec.codec.decode(number, hand), action, exact=held(action, hand))
        positions += 1
    assert positions == 500


def test_copies_of_a_face_get_different_numbers() -> None:
    """Whichever copies a list of moves names, two different moves never share a number."""
    codec = ActionCodec(Rules.preset("traditional"))
    hand = slot_order(DECK[i] for i in (4, 56, 5, 57, 6, 58, 20))  # 5♠ 6♠ 7♠, twice; 8♥
    runs = {(a, b, c) for a in (4, 56) for b in (5, 57) for c in (6, 58)}
    numbers = {codec.encode(Action.meld(DECK[i] for i in run), hand) for run in runs}
    assert len(numbers) == 8
    singles = [Action.discard(c) for c in hand] + [Action.lay_off(c, 3) for c in hand]
    assert len({codec.encode(a, hand) for a in singles}) == 2 * len(hand)
    with pytest.raises(ValueError):
        codec.encode(Action.discard(DECK[0]), hand)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 103), min_size=3, max_size=11, unique=True), st.data())
def test_numbers_are_one_to_one_on_every_move_of_any_hand(ids: list[int], data) -> None:
    """Any hand of up to 11 cards (twins included): every choice of cards is its own number,
    in its part of the space, and reads back as the same cards."""
    codec = ActionCodec(Rules.preset("traditional"))
    hand = slot_order(DECK[i] for i in ids)
    subsets = data.draw(
        st.lists(st.sets(st.sampled_from(hand), min_size=3), min_size=1, max_size=20)
    )
    melds = {frozenset(c.id for c in chosen): Action.meld(chosen) for chosen in subsets}
    numbers = {codec.encode(m, hand) for m in melds.values()}
    assert len(numbers) == len(melds)
    assert all(codec.meld_base <= n < codec.lay_off_base for n in numbers)
    for meld in melds.values():
        assert same_move(codec.decode(codec.encode(meld, hand), hand), meld)
    index = data.draw(st.integers(0, codec.table - 1))
    singles = [Action.discard(c) for c in hand] + [Action.lay_off(c, index) for c in hand]
    single_numbers = [codec.encode(a, hand) for a in singles]
    assert len(set(single_numbers)) == len(singles)
    assert all(n >= codec.lay_off_base for n in single_numbers)
    for action, number in zip(singles, single_numbers, strict=True):
        assert codec.decode(number, hand) == action


# --- hidden cards ---------------------------------------------------------------------------


def with_hidden_cards_swapped(game: Game, seat: int, seed: int) -> Game:
    """The same deal with the cards ``seat`` never saw shuffled among their places (other hands
    and the stock): the same moves replay, only what ``seat`` cannot see differs."""
    hidden = sorted(hidden_from(game, seat))
    moved = hidden[:]
    random.Random(seed).shuffle(moved)
    swap = dict(zip(hidden, moved, strict=True))
    data = game.to_dict()
    start = data["initial"]
    start["hands"] = [[swap.get(i, i) for i in hand] for hand in start["hands"]]
    start["stock"] = [swap.get(i, i) for i in start["stock"]]
    return Game.from_dict(data)


@pytest.mark.parametrize(("players", "rules"), TABLES)
def test_hidden_cards_never_change_a_seats_observation(players: int, rules: str) -> None:
    rng = random.Random(players)
    compared = 0
    for deal in range(3):
        game = Game(players, rules, seed=deal)
        for _ in range(rng.randrange(5, 60)):
            if game.phase == "over":
                break
            game.apply(rng.choice(game.legal_actions()))
        for seat in range(players):
            other = with_hidden_cards_swapped(game, seat, seed=deal)
            differ = [p for p in range(players) if other.hand(p) != game.hand(p)]
            if game.phase != "over" and len(hidden_from(game, seat)) > len(game.stock):
                assert [p for p in differ if p != seat], "the swap changed no hidden hand"
            views = []
            for position in (game, other):
                aec = raw_env(players=players, rules=rules)
                aec.reset(options={"game": position})
                seen = aec.observe(aec.possible_agents[seat])
                views.append(seen["observation"].tobytes() + seen["action_mask"].tobytes())
            assert views[0] == views[1]
            compared += 1
    assert compared == 3 * players


def test_cards_taken_from_the_pile_are_known_until_played() -> None:
    game = Game.from_layout(hands=["5H 6H 7H KS 2C", "9D 9S 3C 4C 8H"], stock="QS JD", discard="9C")
    aec = raw_env(players=2)
    aec.reset(options={"game": game})
    aec.play(Action.draw("stock"))
    aec.play(Action.discard(game.hand(0)[3]))  # K♠
    aec.play(Action.draw("discard"))  # seat 1 takes K♠
    known = aec.observe("player_0")["observation"][5 * 52 : 6 * 52]
    assert np.flatnonzero(known).tolist() == [12]  # K♠: face 12
    unplaced = aec.observe("player_0")["observation"][8 * 52 : 9 * 52]
    assert unplaced[12] == 1  # the other K♠ is somewhere unseen
    seat_one = aec.observe("player_1")["observation"]
    assert not seat_one[5 * 52 : 8 * 52].any()  # seat 0 took nothing from the pile


# --- rewards and illegal moves --------------------------------------------------------------


def going_out() -> Game:
    """Seat 0 draws K♠, melds 5♥-8♥ and discards K♠: out, Rummy (nothing melded before)."""
    return Game.from_layout(hands=["5H 6H 7H 8H", "AD 9S 4C"], stock="KS 2C", discard="3D")


def play_out(aec: raw_env) -> None:
    hand = aec.game.hand
    aec.play(Action.draw("stock"))
    aec.play(Action.meld(hand(0)[:4]))
    aec.play(Action.discard(hand(0)[0]))


@pytest.mark.parametrize(
    ("reward", "expected"),
    [
        ("win", [1.0, -1.0]),
        ("penalty", [0.0, -39.0]),  # A + 9 + 4 = 14, and 25 for going Rummy
        ("both", [1.0, -1.39]),
        (lambda result, seat: 10.0 * seat, [0.0, 10.0]),
    ],
)
def test_rewards_at_the_end_of_a_deal(reward: object, expected: list[float]) -> None:
    aec = raw_env(players=2, reward=reward)
    aec.reset(options={"game": going_out()})
    play_out(aec)
    assert aec.game.result.winner == 0 and aec.game.result.rummy
    assert [aec._cumulative_rewards[a] for a in aec.possible_agents] == pytest.approx(expected)
    assert all(aec.terminations.values()) and not any(aec.truncations.values())


def test_default_reward_is_win_and_a_void_deal_gives_nothing() -> None:
    assert raw_env().reward_fn is REWARDS["win"]
    aec = raw_env(players=2, rules=Rules.preset("traditional").with_changes(max_turns=2))
    aec.reset(seed=1)
    while aec.game.phase != "over":
        aec.play(aec.game.legal_actions()[-1])
    assert aec.game.result.void
    assert set(aec._cumulative_rewards.values()) == {0.0}
    with pytest.raises(RuleError) as err:
        raw_env(reward="money", lang="fi")
    assert "palkkio" in str(err.value)


def test_an_illegal_number_ends_the_deal_with_minus_one_for_its_maker() -> None:
    wrapped = env(players=3, seed=2)
    wrapped.reset()
    observation, *_ = wrapped.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert [wrapped._cumulative_rewards[a] for a in wrapped.possible_agents] == [-1, 0, 0]


def illegal_move_trace(game, wrong: int | None) -> list[tuple]:
    """What ``last()`` says at each step of a deal with random moves in which the tenth move
    is the number ``wrong`` (None: the lowest number the mask forbids)."""
    rng = random.Random(1)
    game.reset()
    steps = []
    for number, agent in enumerate(game.agent_iter()):
        observation, reward, termination, truncation, _ = game.last()
        mask = observation["action_mask"]
        steps.append((agent, reward, termination, truncation, int(mask.sum())))
        if termination or truncation:
            game.step(None)
        elif number == 9:
            game.step(int(np.flatnonzero(mask == 0)[0]) if wrong is None else wrong)
        else:
            game.step(rng.choice(np.flatnonzero(mask).tolist()))
    return steps


def test_the_illegal_move_ending_is_pettingzoos_wrapper_step_for_step() -> None:
    theirs = wrappers.OrderEnforcingWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(players=3, seed=8), illegal_reward=-1)
    )
    ours = illegal_move_trace(env(players=3, seed=8), None)
    assert ours == illegal_move_trace(theirs, None)
    mover = ours[9][0]
    ending = [(a, -1 if a == mover else 0, True, True, 0) for a in ("player_0", "player_1")]
    assert len(ours) == 13 and sorted(ours[10:])[:2] == ending
    # a number outside the space ends the deal the same way (the wrapper would fail on it)
    assert illegal_move_trace(env(players=3, seed=8), 10**6) == ours


def test_the_raw_environment_refuses_an_illegal_number_and_changes_nothing() -> None:
    aec = raw_env(players=2, seed=4, lang="fi")
    aec.reset()
    before = aec.game.to_dict()
    with pytest.raises(RuleError) as err:
        aec.step(aec.codec.discard_base)  # a discard in the draw phase
    assert err.value.code == "env_illegal_action" and "action_mask" in str(err.value)
    assert aec.game.to_dict() == before and aec.moves == 0


# --- rendering ------------------------------------------------------------------------------


def test_render_ansi_and_html_show_the_seat_to_move() -> None:
    text = raw_env(players=2, render_mode="ansi")
    text.reset(options={"game": going_out()})
    assert text.render().startswith("Seen by Player 1")
    assert "5♥ 6♥ 7♥ 8♥" in text.render()
    page = raw_env(players=3, render_mode="html", seed=1, lang="fi")
    page.reset()
    game = page.game
    assert page.render() == table_html(game.observation(game.current_player), lang="fi")
    assert "<svg" in page.render()
    assert raw_env().render() is None
    with pytest.raises(ValueError):
        raw_env(render_mode="human")


# --- a policy in a tournament ---------------------------------------------------------------


def first_legal(seen: dict) -> int:
    return int(np.flatnonzero(seen["action_mask"])[-1])


def test_policy_bot_sees_what_the_environment_shows() -> None:
    aec = raw_env(players=3, rules="rummy_royal", seed=6)
    aec.reset()
    bot = PolicyBot(first_legal, rules="rummy_royal")
    for _ in range(40):
        seat = aec.game.current_player
        shown = aec.observe(aec.agent_selection)
        seen, _ = bot.encode(aec.game.observation(seat))
        assert seen["observation"].tobytes() == shown["observation"].tobytes()
        assert seen["action_mask"].tobytes() == shown["action_mask"].tobytes()
        aec.play(bot.act(aec.game.observation(seat)))


def test_a_policy_plays_a_tournament_against_the_ladder() -> None:
    bot = PolicyBot(first_legal, name="last-move")
    result = tournament([bot, "random"], deals=3, executor=None, progress=False)
    assert result.labels == ["last-move", "Random"]
    assert sum(s.games for s in result.stats) == 2 * 6
    game = play_game(Game(2, seed=1), [bot, get_bot("basic")])
    assert game.phase == "over"


def test_the_table_names_each_seat_as_its_agent() -> None:
    """One name for a seat: the picture says ``player_0`` where the API says ``player_0``."""
    table = raw_env(players=3, render_mode="ansi", seed=2)
    table.reset()
    assert table.game.names == table.possible_agents
    assert table.render().startswith(f"Seen by {table.agents[0]}")
