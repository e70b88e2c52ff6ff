"""A policy over the environment's numbers, seated as a bot: for tournaments and the table.

``PolicyBot(policy)`` turns any function of the environment's observation dict (the encoded
``"observation"`` and its ``"action_mask"``) into a move number into a bot with
``act(observation) -> Action``, so a trained agent plays in ``rummy_widget.tournament``
against the ladder, reading exactly what the environment would have shown it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..bots import legal_actions
from ..engine.actions import Action
from ..engine.rules import Rules
from ..errors import RuleError
from .encoding import ActionCodec, KnownCards, ObservationEncoder, sorted_hand

Policy = Callable[[dict], int]


class PolicyBot:
    """``policy({"observation": array, "action_mask": array}) -> number`` as a bot."""

    def __init__(self, policy: Policy, rules: str | Rules = "traditional", name: str = "policy"):
        self.policy = policy
        self.rules = Rules.preset(rules)
        self.name = name
        self.codec = ActionCodec(self.rules)
        self.encoder = ObservationEncoder(self.rules)

    def encode(self, observation: dict) -> tuple[dict, dict[int, Action]]:
        """What the environment shows this seat, and its legal moves by number."""
        known = KnownCards(len(observation["players"])).update(observation["log"])
        hand = sorted_hand(observation["hand"])
        moves = {self.codec.encode(a, hand): a for a in legal_actions(observation)}
        mask = np.zeros(self.codec.size, np.int8)
        mask[list(moves)] = 1
        return {"observation": self.encoder.encode(observation, known), "action_mask": mask}, moves

    def act(self, observation: dict) -> Action:
        seen, moves = self.encode(observation)
        number = int(self.policy(seen))
        if number not in moves:
            raise RuleError("env_illegal_action", number=number)
        return moves[number]

    def label(self, lang: str = "en") -> str:
        return self.name

    def __repr__(self) -> str:
        return f"PolicyBot({self.name})"
