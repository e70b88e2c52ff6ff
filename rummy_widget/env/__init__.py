"""Reinforcement-learning interfaces: a PettingZoo AEC environment of the game for 2-4 seats
and both presets, a Gymnasium one-seat wrapper against the built-in bots, and a bot that
seats a trained policy in tournaments. Needs the ``[env]`` extra (pettingzoo, gymnasium).

``from rummy_widget.env import env, raw_env``; the user doc is ``rummy.py``'s docstring, the
reference ``docs/env.md``.
"""

from .encoding import ActionCodec, KnownCards, ObservationEncoder, slot_order, sorted_hand
from .policy import PolicyBot
from .rummy import REWARDS, env, raw_env
from .single_agent import SingleAgent

__all__ = [
    "REWARDS",
    "ActionCodec",
    "KnownCards",
    "ObservationEncoder",
    "PolicyBot",
    "SingleAgent",
    "env",
    "raw_env",
    "slot_order",
    "sorted_hand",
]
