"""What each connection is sent about a table: a seat's own view, or the public one.

A seat gets ``game.observation(seat)`` and nothing else; a spectator gets the same
observation with no hand at all; only the teacher's key adds every hand (``open_hands``).
Seat tokens are never part of any view.
"""

from __future__ import annotations

from .rooms import Table


def seats_view(table: Table) -> list[dict | None]:
    return [
        None if row is None else {"name": row.name, "control": row.control} for row in table.seats
    ]


def game_view(table: Table, seat: int | None, open_hands: bool = False) -> dict | None:
    game = table.game
    if game is None:
        return None
    if seat is not None:
        return game.observation(seat)
    view = game.observation(0)
    del view["hand"]
    view["seat"] = None
    if open_hands:
        view["hands"] = [[c.to_json() for c in game.hand(p)] for p in range(game.players)]
    return view


def state(table: Table, seat: int | None, open_hands: bool = False) -> dict:
    """The ``state`` message for one connection (no room name: a seat knows its room)."""
    return {
        "type": "state",
        "table": table.index,
        "deal": table.deal,
        "move": table.moves,
        "finished": table.finished,
        "seat": seat,
        "seats": seats_view(table),
        "view": game_view(table, seat, open_hands),
    }
