"""Invariants under random play (hypothesis): cards accounted for, deals end, refusals are no-ops,
observations hide what they must, and saving round-trips."""

import itertools
import json
import random

import pytest
from hidden_cards import card_ids_in, hidden_from
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy_widget import Action, Card, Game, RuleError, Rules
from rummy_widget.engine.cards import DECK, SUITS
from rummy_widget.engine.melds import possible_melds

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


# --- legal moves against a brute force -------------------------------------------------------
#
# An independent statement of the rules of a turn's play phase (rows 7, 8, 12-15): every subset
# of the hand as a meld, every card onto every table meld, every card as a discard, each with
# its exact copies; a table play is legal when the turn can still end legally afterwards.


def bf_is_meld(cards, rules) -> str | None:
    if len(cards) < rules.min_meld:
        return None
    ranks = [c.rank for c in cards]
    suits = [c.suit for c in cards]
    if len(set(ranks)) == 1:
        if rules.set_max is not None and len(cards) > rules.set_max:
            return None
        if rules.set_distinct_suits and len(set(suits)) != len(suits):
            return None
        return "set"
    if len(set(suits)) != 1 or len(set(ranks)) != len(ranks):
        return None
    lows = sorted(ranks)
    highs = sorted(14 if r == 1 else r for r in ranks) if rules.ace_high else lows
    for order in (lows, highs):
        if order == list(range(order[0], order[0] + len(order))):
            return "run"
    return None


def bf_plays(hand, table, rules):
    """Every table play by exact cards: ("meld", cards) and ("lay_off", card, index), each with
    the hand and the table it leaves."""
    for size in range(rules.min_meld, len(hand) + 1):
        for cards in itertools.combinations(hand, size):
            if bf_is_meld(cards, rules):
                left = [c for c in hand if c not in cards]
                yield ("meld", cards), left, [*table, list(cards)]
    for index, meld in enumerate(table):
        for card in hand:
            grown = [*meld, card]
            if bf_is_meld(grown, rules) == bf_is_meld(meld, rules):
                left = [c for c in hand if c != card]
                yield ("lay_off", card, index), left, [*table[:index], grown, *table[index + 1 :]]


def bf_can_end(hand, table, taken, rules) -> bool:
    """Can the turn still end legally: a discard of a card that may go, or going out by table
    plays alone where no final discard is required?"""
    if not hand:
        return not rules.final_discard
    if any(c != taken or rules.discard_taken_card for c in hand):
        return True
    return any(
        bf_can_end(left, after, taken, rules) for _, left, after in bf_plays(hand, table, rules)
    )


def bf_legal(game):
    """The play phase's legal moves, by exact cards, as Actions."""
    hand, rules, taken = list(game.hand(game.current_player)), game.rules, game.taken_from_discard
    table = [list(m.cards) for m in game.melds]
    legal = []
    for move, left, after in bf_plays(hand, table, rules):
        if bf_can_end(left, after, taken, rules):
            legal.append(Action.meld(move[1]) if move[0] == "meld" else Action.lay_off(*move[1:]))
    legal += [Action.discard(c) for c in hand if c != taken or rules.discard_taken_card]
    return legal


def bf_candidates(game):
    """Every move by exact cards, legal or not."""
    hand = list(game.hand(game.current_player))
    melds = [
        Action.meld(c) for n in range(1, len(hand) + 1) for c in itertools.combinations(hand, n)
    ]
    lay_offs = [Action.lay_off(c, i) for i in range(len(game.melds)) for c in hand]
    return melds + lay_offs + [Action.discard(c) for c in hand]


def move_key(action: Action, game: Game) -> tuple:
    """A move up to the choice between copies, which matters only for the card just taken."""
    taken = None if game.rules.discard_taken_card else game.taken_from_discard
    mark = lambda c: (c.face_index, c == taken and action.kind != "discard")  # noqa: E731
    if action.kind == "meld":
        return ("meld", tuple(sorted(map(mark, action.cards))))
    return (action.kind, mark(action.card), action.meld_index)


def play_to_a_position(game: Game, rng: random.Random, steps: int) -> bool:
    """Random play that often takes the discard (where copies matter); True if it stopped in a
    play phase."""
    for _ in range(steps):
        if game.phase == "over":
            return False
        legal = game.legal_actions()
        take = [a for a in legal if a.kind == "draw" and a.source == "discard"]
        game.apply(take[0] if take and rng.random() < 0.6 else rng.choice(legal))
    return game.phase == "play"


def check_legal_actions_against_the_brute_force(game: Game) -> None:
    listed = game.legal_actions()
    keys = [move_key(a, game) for a in listed]
    assert len(keys) == len(set(keys)), "legal_actions lists a move twice"
    truth = bf_legal(game)
    assert set(keys) == {move_key(a, game) for a in truth}
    truth_set = set(truth)
    for action in bf_candidates(game):
        assert game.is_legal(action) == (action in truth_set), action
    for action in truth:  # named by face, the engine finds copies that make the move legal
        trial = Game.from_dict(game.to_dict())
        text = " ".join(c.code for c in action.cards) if action.kind == "meld" else action.card.code
        if action.kind == "meld":
            trial.meld(text)
        elif action.kind == "lay_off":
            trial.lay_off(text, action.meld_index)
        else:
            trial.discard(text)


positions = st.tuples(
    st.integers(0, 2**32 - 1),
    st.integers(2, 4),
    st.sampled_from(["traditional", "rummy_royal"]),
    st.integers(0, 10**6),
    st.integers(1, 120),
)


def _legal_actions_match_the_brute_force(position) -> None:
    seed, players, rules, policy_seed, steps = position
    game = Game(players=players, rules=rules, seed=seed)
    rng = random.Random(policy_seed)
    if not play_to_a_position(game, rng, steps):
        return
    check_legal_actions_against_the_brute_force(game)
    while game.phase == "play":  # and after each table play of the turn
        table_plays = [a for a in game.legal_actions() if a.kind != "discard"]
        if not table_plays:
            break
        game.apply(rng.choice(table_plays))
        if game.phase == "play":
            check_legal_actions_against_the_brute_force(game)


def built_position(seed: int, players: int, rules: str) -> Game:
    """A position where copies matter: seat 0 has just taken the discard pile's top card,
    often holding its twin and its neighbours, with random melds on the table."""
    rng = random.Random(seed)
    free = list(DECK)
    rng.shuffle(free)

    def take(card):
        if card in free:
            free.remove(card)
            return [card]
        return []

    top = free.pop()
    hand = []
    if rng.random() < 0.7:
        hand += take(DECK[(top.id + 52) % 104])  # its twin
    for step in rng.sample([-2, -1, 1, 2], rng.randint(0, 3)):
        if 1 <= top.rank + step <= 13:
            hand += take(Card.of(top.rank + step, top.suit, rng.randint(0, 1)))
    for other in rng.sample(SUITS, rng.randint(0, 2)):
        hand += take(Card.of(top.rank, other, rng.randint(0, 1)))
    table = []
    if rng.random() < 0.3:  # a meld in hand, and a set on the table that takes the top card
        hand = []
        start = rng.randint(1, 11)
        suit = rng.choice(SUITS)
        hand += [c for r in range(start, start + 3) for c in take(Card.of(r, suit, 0))]
        same_rank = [
            c for other in SUITS if other != top.suit for c in take(Card.of(top.rank, other))
        ]
        if len(same_rank) >= 3:
            table.append((same_rank, rng.randrange(players)))
    else:
        hand += [free.pop() for _ in range(rng.randint(0, 10 - len(hand)))]
    for cards in possible_melds(free[:30], Rules.preset(rules))[: rng.randint(0, 4)]:
        if all(c in free for c in cards):
            table.append(([c for c in cards if take(c)], rng.randrange(players)))
    others = [[free.pop()] for _ in range(players - 1)]
    game = Game.from_layout(
        hands=[hand or [free.pop()], *others],
        stock=[free.pop() for _ in range(5)],
        discard=[top, free.pop()],
        melds=table,
        rules=rules,
    )
    game.draw("discard")
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions)
def test_legal_actions_match_a_brute_force_over_every_move_and_copy(position):
    _legal_actions_match_the_brute_force(position)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    rules=st.sampled_from(["traditional", "rummy_royal"]),
)
def test_legal_actions_match_a_brute_force_just_after_taking_the_discard(seed, players, rules):
    _built_position_matches_the_brute_force(seed, players, rules)


def _built_position_matches_the_brute_force(seed: int, players: int, rules: str) -> None:
    game = built_position(seed, players, rules)
    rng = random.Random(seed)
    check_legal_actions_against_the_brute_force(game)
    while game.phase == "play":
        table_plays = [a for a in game.legal_actions() if a.kind != "discard"]
        if not table_plays:
            break
        game.apply(rng.choice(table_plays))
        if game.phase == "play":
            check_legal_actions_against_the_brute_force(game)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions, built=st.integers(0, 2**32 - 1))
def test_legal_actions_match_a_brute_force_on_many_positions(position, built):
    _legal_actions_match_the_brute_force(position)
    _built_position_matches_the_brute_force(built, position[1], position[2])


@pytest.mark.parametrize("rules", ["traditional", "rummy_royal"])
def test_the_brute_force_sees_the_taken_cards_twin(rules):
    """The brute force itself finds the move the engine once hid (so it can catch it)."""
    game = Game.from_layout(hands=["5H 6H 7H", "2C 3C"], stock="JS", discard="7H#1", rules=rules)
    taken = game.draw("discard")
    assert Action.meld((Card.parse("5H"), Card.parse("6H"), taken)) in bf_legal(game)
    check_legal_actions_against_the_brute_force(game)
