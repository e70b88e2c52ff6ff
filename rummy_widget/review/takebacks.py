"""When a table offers take-backs, if its caller does not say (docs/review.md).

A take-back helps a learner try a move again; against people it would let a player undo a move
an opponent has reacted to in their head, and in a tournament it changes the game. So a table
offers them by default only when one person plays and every other seat is a bot; hot seat,
classroom tables and tournaments leave them off unless asked. The engine enforces the limits
(``Game.take_back``: back to the turn's draw, never past a stock draw).
"""

from __future__ import annotations


def take_back_default(people: int, bots: int) -> bool:
    """Offer take-backs at a table of ``people`` human players and ``bots`` bots?"""
    return people == 1 and bots >= 1
