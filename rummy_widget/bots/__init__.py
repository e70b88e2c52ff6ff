"""Bots for Traditional Rummy: the protocol, the legal-move helper and the ladder.

``get_bot("basic", seed=1)`` builds a built-in bot; a learner's bot is any object with
``act(observation) -> Action`` (see docs/bots.md). Bots only ever see observation dicts.
"""

from __future__ import annotations

from importlib import import_module

from ..engine.actions import Action
from ..errors import RuleError
from .base import BaseBot, Bot
from .legal import legal_actions
from .seen import Seen

#: The ladder, weakest first: name -> (module, class).
LADDER: dict[str, tuple[str, str]] = {
    "random": ("random_bot", "RandomBot"),
    "basic": ("basic", "BasicBot"),
    "expert": ("expert", "ExpertBot"),
    "master": ("master", "MasterBot"),
}
BOT_NAMES: tuple[str, ...] = tuple(LADDER)


def get_bot(name: str, seed: int = 0, **options: object) -> BaseBot:
    """A built-in bot by name (``random``, ``basic``, ``expert``, ``master``)."""
    if name not in LADDER:
        raise RuleError("unknown_bot", name=repr(name), choices=", ".join(BOT_NAMES))
    module, cls = LADDER[name]
    return getattr(import_module(f".{module}", __name__), cls)(seed=seed, **options)


__all__ = ["BOT_NAMES", "LADDER", "Action", "BaseBot", "Bot", "Seen", "get_bot", "legal_actions"]
