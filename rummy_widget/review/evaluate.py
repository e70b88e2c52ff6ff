"""What each alternative of one decision is worth: the deal played on many times by the bots.

For one decision the review deals ``samples`` worlds (``sampling.py``) and, in every world,
plays each option and then the rest of the deal with the expert bot in every seat (the
reviewed seat's turn included). All options meet the same worlds and the same bots, so the
difference between two options is measured world by world (common random numbers): far less
noisy than comparing two separate averages. A playout scores the deal from the seat's view in
points: the opponents' penalty points (their average, with more than two players) less its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots.expert import ExpertBot
from ..bots.legal import legal_actions
from ..bots.memory import Memory
from ..bots.progress import paired
from ..bots.seen import Seen
from ..engine.actions import Action
from ..engine.game import Game
from .sampling import sample_world, world_game

#: A playout that has not ended after this many moves counts as a void deal (0 points). The
#: engine's own limits end every deal; this only bounds a playout's time.
PLAYOUT_MOVES = 400


@dataclass(frozen=True)
class Measured:
    """An option's results, one per world, and its mean gain over the played move (with its
    standard error, from the world-by-world differences)."""

    action: Action
    scores: tuple[float, ...]
    gain: float
    error: float

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


def same_choice(a: Action, b: Action) -> bool:
    """Two actions that differ only in which copy of a face they use are the same choice."""
    if a.kind != b.kind:
        return False
    if a.kind == "draw":
        return a.source == b.source
    if a.kind == "meld":
        return sorted(c.id % 52 for c in a.cards) == sorted(c.id % 52 for c in b.cards)
    return a.card.id % 52 == b.card.id % 52 and a.meld_index == b.meld_index


def options(
    seen: Seen,
    played: Action,
    expert: Action,
    bot: ExpertBot,
    alternatives: int,
    better: Action | None = None,
) -> list[Action]:
    """The played move first, then up to ``alternatives`` others worth comparing: ``better``
    (a learner's blunder's better move, ``patterns.py``; it comes on top of the others), the
    expert's choice (``expert``), melding when the seat held back, the expert's best discards,
    the other table plays; only legal moves, one per choice. A draw has at most two options."""
    legal = legal_actions(seen)
    found = [played]
    if better is not None and not same_choice(better, played) and better in legal:
        found.append(better)
        alternatives += 1

    def add(action: Action) -> None:
        fresh = not any(same_choice(action, f) for f in found)
        if len(found) <= alternatives and fresh and any(action == m for m in legal):
            found.append(action)

    if seen.phase == "draw":
        for action in legal:
            add(action)
        return found
    add(expert)
    turn = bot.turn(seen)
    plays = turn.table_plays()
    if plays and played.kind == "discard":
        add(plays[0])  # the seat held melds back: what melding would have done
    memory = bot.memory(seen)
    for _, card in bot.discard_choices(turn, list(turn.hand), memory):
        add(Action.discard(card))
    for action in legal:
        if action.kind != "discard":
            add(action)
    return found


def points(game: Game, seat: int) -> float:
    """The deal's worth to ``seat``: the others' mean penalty less its own (0: void or unended)."""
    result = game.result
    if result is None or result.void:
        return 0.0
    others = [p for p in range(game.players) if p != seat]
    return sum(result.penalties[p] for p in others) / len(others) - result.penalties[seat]


def playout(game: Game, seat: int, action: Action, seed: int, memo: dict) -> float:
    """Play ``action`` in ``game``, then the expert for everyone until the deal ends."""
    game.apply(action)
    bots = [ExpertBot(seed + s) for s in range(game.players)]
    for bot in bots:
        bot._memo = memo  # the same rules give the same solver answers: share the cache
    moves = 0
    while game.phase != "over" and moves < PLAYOUT_MOVES:
        player = game.current_player
        game.apply(bots[player].act(game.observation(player)), player)
        moves += 1
    return points(game, seat)


def measure(
    observation: dict, actions: list[Action], samples: int, rng: random.Random, memo: dict
) -> list[Measured]:
    """Each action (the first is the played one) over the same ``samples`` worlds."""
    seen = Seen.read(observation)
    memory = Memory.read(seen)
    scores: list[list[float]] = [[] for _ in actions]
    for _ in range(samples):
        world = sample_world(seen, memory, rng)
        seed = rng.getrandbits(32)
        for i, action in enumerate(actions):
            game = world_game(observation, seen, world)
            scores[i].append(playout(game, seen.seat, action, seed, memo))
    found = []
    for action, row in zip(actions, scores, strict=True):
        gain, error = paired([a - b for a, b in zip(row, scores[0], strict=True)])
        found.append(Measured(action, tuple(row), gain, error))
    return found
