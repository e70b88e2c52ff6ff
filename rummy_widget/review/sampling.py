"""Guesses at the cards a seat could not see, made from its observation and nothing else.

A review judges a decision by what the seat knew when it made it. Each guess (a *world*) deals
the cards the seat had not seen (the stock and the opponents' hidden cards) at random; cards an
opponent took from the discard pile stay in that hand until the log shows them played
(``bots/memory.py``). Nothing here receives the ``Game``: only the observation dict, so the
true hands cannot leak into a guess (OpenSpiel #1613: resampling that returned the true state
made search cheat). A world also gets its own seed for later rebuilds of the stock, so even the
order a rebuilt stock would have comes from the guess, not from the real deal's seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots.memory import Memory
from ..bots.seen import Seen
from ..engine.cards import Card
from ..engine.game import Game


@dataclass(frozen=True)
class World:
    """One guess: every seat's hand (the reviewed seat's as it was), the stock top card first,
    and the seed of the world's stock rebuilds."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    seed: int


def sample_world(seen: Seen, memory: Memory, rng: random.Random) -> World:
    """Deal the unseen cards: each opponent's hidden cards, then the stock."""
    pool = list(memory.unseen)
    rng.shuffle(pool)
    hands = []
    for seat in range(seen.players):
        if seat == seen.seat:
            hands.append(tuple(seen.hand))
            continue
        hidden = seen.hand_sizes[seat] - len(memory.known[seat])  # the cards nobody else saw
        hands.append(tuple(memory.known[seat]) + tuple(pool[:hidden]))
        pool = pool[hidden:]
    return World(tuple(hands), tuple(pool[: seen.stock_size]), rng.getrandbits(32))


def played_this_turn(seen: Seen) -> bool:
    """Has the seat put cards on the table since its draw? (it counts for going Rummy)"""
    for event in reversed(seen.log):
        if event["type"] == "draw":
            return False
        if event["type"] in ("meld", "lay_off"):
            return True
    return False


def world_game(observation: dict, seen: Seen, world: World) -> Game:
    """The world as a game at the very moment of the observation, the seat to play."""
    game = Game.from_layout(
        hands=[list(h) for h in world.hands],
        stock=list(world.stock),
        discard=list(seen.discard_pile),
        rules=seen.rules,
        current_player=seen.seat,
        melds=[(list(m.cards), m.owner) for m in seen.melds],
        has_melded=list(seen.has_melded),
        dealer=seen.dealer,
        seed=world.seed,
    )
    game.rebuilds = seen.rebuilds
    game.turns = observation.get("turns", 0)
    if seen.phase == "play":  # the seat has drawn: continue its turn where it stands
        game._phase = "play"
        game._taken = seen.taken
        game._played_this_turn = played_this_turn(seen)
    game._log = list(seen.log)  # the imagined players remember what the real ones saw
    return game
