"""The legal moves of the seat to play, computed from its observation alone.

Learners' bots call ``legal_actions(observation)``. It asks the engine's own move list
(``rummy_widget.moves``) with only what the seat sees, so it lists the same moves in the same
order as ``Game.legal_actions()`` without needing the game.
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.moves import legal_actions as moves_from
from .seen import Seen


def legal_actions(observation: dict | Seen) -> list[Action]:
    """Every move the observing seat may make now; empty when it is not that seat's turn."""
    seen = observation if isinstance(observation, Seen) else Seen.read(observation)
    if not seen.my_turn:
        return []
    return moves_from(
        seen.phase,
        seen.hand,
        seen.melds,
        seen.taken,
        seen.rules,
        seen.stock_size,
        len(seen.discard_pile),
    )
