"""Checks of what callers hand the engine: whole numbers, seats, seeds, and short quotes of bad
input for error messages (a message never repeats a long input whole)."""

from __future__ import annotations

import secrets

from ..errors import RuleError

#: The longest quote of an input an error message gives.
EXCERPT = 40


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``value`` as an error message quotes it: text as it is, anything else by ``repr``,
    cut to ``limit`` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_whole(value: object) -> bool:
    """An ``int`` that is not a ``bool`` (``True`` is not seat 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_seat(value: object, players: int, lang: str) -> int:
    """A seat number 0..players-1, or ``RuleError("bad_player")``."""
    if not is_whole(value) or not 0 <= value < players:
        raise RuleError("bad_player", lang, player=excerpt(value))
    return value


def check_seed(value: object, lang: str) -> int:
    """A seed: a whole number 0 or more; ``None`` draws a fresh one."""
    if value is None:
        return secrets.randbelow(2**32)
    if not is_whole(value) or value < 0:
        raise RuleError("bad_seed", lang, seed=excerpt(value))
    return value
