"""The first rung of the ladder: any legal move, chosen at random."""

from __future__ import annotations

from ..engine.actions import Action
from .base import BaseBot
from .legal import legal_actions
from .seen import Seen


class RandomBot(BaseBot):
    """Plays a uniformly random legal move: the baseline every other bot must beat."""

    name = "random"

    def decide(self, seen: Seen) -> Action:
        return self.rng(seen).choice(legal_actions(seen))

    def reason(self, seen: Seen, action: Action) -> tuple[str, dict]:
        count = len(legal_actions(seen))
        if count == 1:  # a draw with an empty discard pile, say: no choice to speak of
            return "bot.explain.random_only", {}
        return "bot.explain.random", {"n": count}
