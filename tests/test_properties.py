"""Invariants under random play (hypothesis): cards accounted for, deals end, refusals are no-ops,
observations hide what they must, and saving round-trips."""

import json
import random

from hidden_cards import card_ids_in, hidden_from
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy_widget import Action, Card, Game, RuleError

games = st.builds(
    lambda seed, players, rules: Game(players=players, rules=rules, seed=seed),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    rules=st.sampled_from(["traditional", "rummy_royal"]),
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 3000  # random play ends by going out or by the void-deal rule long before this


def all_cards(game: Game) -> list[int]:
    ids = [c.id for c in game.stock] + [c.id for c in game.discard_pile]
    ids += [c.id for m in game.melds for c in m.cards] + [c.id for c in game.out_of_play]
    for p in range(game.players):
        ids += [c.id for c in game.hand(p)]
    return ids


def shape(action: Action) -> tuple:
    """An action up to the choice between the two copies of a card."""
    faces = tuple(sorted(c.face for c in action.cards))
    card = action.card.face if action.card else None
    return (action.kind, action.source, faces, card, action.meld_index)


def random_illegal(game: Game, rng: random.Random) -> Action:
    """A move drawn from a wide pool, most of them illegal now."""
    card = Card(rng.randrange(104))
    choices = [
        Action.draw("stock"),
        Action.draw("discard"),
        Action.discard(card),
        Action.lay_off(card, rng.randrange(-1, len(game.melds) + 2)),
        Action.meld(tuple(Card(rng.randrange(104)) for _ in range(rng.randrange(0, 5)))),
    ]
    return rng.choice(choices)


@SETTINGS
@given(game=games, policy_seed=st.integers(0, 10**6))
def test_random_play_keeps_every_invariant(game, policy_seed):
    rng = random.Random(policy_seed)
    steps = 0
    while game.phase != "over":
        assert sorted(all_cards(game)) == list(range(104))
        legal = game.legal_actions()
        assert legal, "a live deal always offers a move"
        # a random, probably illegal, action is either legal or a no-op
        attempt = random_illegal(game, rng)
        before = game.to_dict()
        turn = game.current_player
        player = rng.choice([None, game.current_player, (game.current_player + 1) % game.players])
        try:
            game.apply(attempt, player=player)
        except RuleError as err:
            assert err.code and str(err)
            assert game.to_dict() == before
        else:
            assert player in (None, turn)  # nobody moves out of turn
            assert game.history[-1][0] == turn
            assert shape(attempt) in {shape(a) for a in legal}
        if game.phase == "over":
            break
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < MAX_ACTIONS
        seat = rng.randrange(game.players)
        observation = game.observation(seat)
        json.dumps(observation)
        assert not card_ids_in(observation) & hidden_from(game, seat)
        assert "stock" not in observation  # only its size
        assert not any(  # a stock draw never names its card
            e["type"] == "draw" and e["source"] == "stock" and "card" in e for e in game.log
        )
    assert sorted(all_cards(game)) == list(range(104))
    assert game.result is not None and game.legal_actions() == []


@SETTINGS
@given(game=games, policy_seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_save_round_trip_reproduces_the_game_and_its_continuation(game, policy_seed, cut):
    rng = random.Random(policy_seed)
    while game.phase != "over" and rng.random() > 0.002 + (1 - cut) * 0.01:
        game.apply(rng.choice(game.legal_actions()))
    data = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(data)
    assert copy.to_dict() == game.to_dict()
    for seat in range(game.players):
        assert copy.observation(seat) == game.observation(seat)
    continuation = random.Random(policy_seed + 1)
    twin = random.Random(policy_seed + 1)
    while game.phase != "over":
        game.apply(continuation.choice(game.legal_actions()))
        copy.apply(twin.choice(copy.legal_actions()))
        assert copy.to_dict() == game.to_dict()
    assert copy.result.penalties == game.result.penalties


@SETTINGS
@given(game=games, policy_seed=st.integers(0, 10**6))
def test_every_listed_legal_action_is_accepted(game, policy_seed):
    rng = random.Random(policy_seed)
    for _ in range(60):
        if game.phase == "over":
            break
        legal = game.legal_actions()
        for action in rng.sample(legal, min(4, len(legal))):
            assert game.is_legal(action), action
        game.apply(rng.choice(legal))


def test_same_seed_same_game():
    def play(seed):
        game = Game(players=3, rules="rummy_royal", seed=seed)
        rng = random.Random(seed)
        while game.phase != "over":
            game.apply(rng.choice(game.legal_actions()))
        return game.to_dict()

    assert play(11) == play(11)
    assert play(11) != play(12)
