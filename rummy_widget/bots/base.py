"""The bot protocol: a bot turns one seat's observation into that seat's next move.

A learner's bot needs only ``act(observation) -> Action`` (see docs/bots.md). The built-in
bots share ``BaseBot``: a seed, a translated name, and ``explain`` for the Hint button.
"""

from __future__ import annotations

import random
from typing import ClassVar, Protocol, runtime_checkable

from ..engine.actions import Action
from ..errors import Reason, RuleError
from ..i18n import check_lang, current_language, t
from .seen import Seen

#: Keeps a bot's per-position seed small (a Mersenne prime: positions rarely collide).
_MODULUS = (1 << 61) - 1


@runtime_checkable
class Bot(Protocol):
    """Anything with ``act(observation) -> Action`` can sit at the table."""

    def act(self, observation: dict) -> Action: ...


class BaseBot:
    """Shared plumbing of the built-in bots; subclasses implement ``decide``.

    A built-in bot's random choices are seeded from its seed and the position, never from
    earlier calls, so replaying a deal with the same seeds replays every move. (Within one turn
    the solver-based bots follow the plan they made at the turn's first play call.)
    """

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = int(seed)

    def act(self, observation: dict) -> Action:
        """The move for the observing seat, which must be the seat to play."""
        seen = Seen.read(observation)
        if not seen.my_turn:
            phase = Reason(f"phase_{seen.phase}")  # in words, not the code "draw"
            raise RuleError("not_to_play", current_language(), seat=seen.seat, phase=phase)
        return self.decide(seen)

    def decide(self, seen: Seen) -> Action:
        raise NotImplementedError

    def explain(self, observation: dict, action: Action, lang: str = "en") -> str:
        """Why this bot makes (or made) ``action`` here, in one short plain sentence."""
        return self._text("bot.explain.", observation, action, lang)

    def advise(self, observation: dict, action: Action, lang: str = "en") -> str:
        """The same reason as advice to the player to move: "7♥ completes ...: take it ...".

        The Hint button shows this; ``explain`` speaks of a move the bot made ("I took ...").
        """
        return self._text("bot.advise.", observation, action, lang)

    def why(self, observation: dict, action: Action, lang: str = "en") -> str:
        """The detailed reason behind ``explain`` and ``advise``, with the numbers, for the
        curious: the table shows it under the hint ("why?")."""
        return self._text("bot.why.", observation, action, lang)

    def _text(self, prefix: str, observation: dict, action: Action, lang: str) -> str:
        check_lang(lang)
        key, params = self.reason(Seen.read(observation), action)
        local = {k: decimal(v, lang) if isinstance(v, float) else v for k, v in params.items()}
        return t(key.replace("bot.explain.", prefix, 1), lang, **local)

    def reason(self, seen: Seen, action: Action) -> tuple[str, dict]:
        """The ``bot.explain.*`` key and the parameters that ``explain``, ``advise`` and
        ``why`` fill in (a float is shown with one decimal, in the language's way)."""
        raise NotImplementedError

    def label(self, lang: str = "en") -> str:
        """The bot's name as the UI shows it."""
        return t(f"bot.name.{self.name}", lang)

    def rng(self, seen: Seen) -> random.Random:
        """A generator seeded by the bot's seed and the position (never by earlier moves)."""
        # Not hash(): a tuple's hash depends on the word size, so 32-bit Pyodide would play
        # other games than 64-bit CPython from the same seed. Python's integers do not.
        key = self.seed
        for part in (len(seen.log), seen.phase == "draw", *[c.id for c in seen.hand]):
            key = (key * 1_000_003 + int(part)) % _MODULUS
        return random.Random(key)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def decimal(x: float, lang: str) -> str:
    """One decimal, as the language writes it: 7.3 in English, 7,3 in Finnish."""
    text = f"{x:.1f}"
    return text.replace(".", ",") if lang == "fi" else text
