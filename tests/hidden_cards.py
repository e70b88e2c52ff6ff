"""What a seat must never be sent: shared by the engine's and the widget's leak tests."""

from __future__ import annotations

from rummy_widget import Game


def card_ids_in(data: object) -> set[int]:
    """Card ids anywhere in JSON data: card objects and the id form of actions."""
    found: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "id" in item and "code" in item:
                found.add(item["id"])
            for key in ("card", "cards"):
                value = item.get(key)
                ids = value if isinstance(value, list) else [value]
                found |= {i for i in ids if isinstance(i, int) and not isinstance(i, bool)}
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def hidden_from(game: Game, seat: int) -> set[int]:
    """Cards ``seat`` has never seen: in the stock or another hand, and never shown face up.

    At the end of a deal every hand is shown, so only the stock stays hidden.
    """
    hidden = {c.id for c in game.stock}
    if game.phase != "over":
        for p in range(game.players):
            if p != seat:
                hidden |= {c.id for c in game.hand(p)}
    return hidden - card_ids_in(game.log)
