"""What each connection is sent about a table: a seat's own view, or the public one.

A seat gets ``game.observation(seat)`` and nothing else; a spectator gets the same
observation with no hand at all; only the teacher's key adds every hand (``open_hands``).
Seat tokens are never part of any view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.cards import CARD_JSON
from .protocol import JSON
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
        view["hands"] = [[CARD_JSON[c.id] for c in game.hand(p)] for p in range(game.players)]
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


# --- updates: what changed since the last push -----------------------------------------------

#: The parts of a view every connection at a table shares (all but ``hand`` and ``seat``).
PUBLIC = (
    "rules",
    "players",
    "dealer",
    "current_player",
    "phase",
    "stock_size",
    "discard_pile",
    "melds",
    "taken_from_discard",
    "rebuilds",
    "turns",
    "result",
)


@dataclass(eq=False)
class Snapshot:
    """What one worker last pushed for a table: the base of the next ``update``."""

    rev: int
    table: int
    deal: int | None
    move: int
    finished: bool
    seats: list
    public: dict | None  # the spectator's view (no hand), or None before the deal
    hands: list[list] = field(default_factory=list)  # each seat's hand as JSON


def snapshot(table: Table, rev: int) -> Snapshot:
    """The table now, built once for every connection (the hands straight from the game)."""
    game = table.game
    public = game_view(table, None)
    hands = (
        []
        if game is None
        else [[CARD_JSON[c.id] for c in game.hand(p)] for p in range(game.players)]
    )
    return Snapshot(
        rev, table.index, table.deal, table.moves, table.finished, seats_view(table), public, hands
    )


def update(old: Snapshot, new: Snapshot) -> dict | None:
    """The public ``update`` from ``old`` to ``new`` (no hand), or None when only a full
    ``state`` will do (another deal, or no deal yet)."""
    if old.deal != new.deal or old.public is None or new.public is None:
        return None
    before, after = old.public, new.public
    view = {k: after[k] for k in PUBLIC if after[k] != before[k]}
    if "discard_pile" in view:  # it changes at the top (first): send the top, keep the rest
        pile, was = view.pop("discard_pile"), before["discard_pile"]
        keep = 0
        while keep < min(len(pile), len(was)) and pile[-1 - keep] is was[-1 - keep]:
            keep += 1
        view["discard"] = {"keep": keep, "top": pile[: len(pile) - keep]}
    message = {
        "type": "update",
        "table": new.table,
        "deal": new.deal,
        "move": new.move,
        "base": old.move,
        "finished": new.finished,
    }
    if new.seats != old.seats:
        message["seats"] = new.seats
    old_log, new_log = before["log"], after["log"]
    known = len(old_log)
    if known > len(new_log) or (known and new_log[known - 1] is not old_log[-1]):
        known = 0  # not a continuation (never in play; a take-back would be): resend it whole
    message["log"] = {"from": known, "events": new_log[known:]}
    message["view"] = view  # last, so that ``add_to_view`` can splice a hand into it
    return message


#: Each card's JSON text, for splicing hands into an encoded update.
CARD_TEXT = tuple(JSON.encode(card) for card in CARD_JSON)


def add_to_view(text: str, extra: dict[str, list]) -> str:
    """An encoded ``update`` (its view last) with ``extra`` added to its view: a seat's own
    ``hand`` (or every ``hands``, for the teacher) joins the shared update's text instead of
    the whole update being encoded again."""
    body = ",".join(f'"{key}":{_cards_text(value)}' for key, value in extra.items())
    head = text[:-2]  # without the view's and the message's closing braces
    return head + ("" if head.endswith("{") else ",") + body + "}}"


def _cards_text(cards: list) -> str:
    """A list of cards, or a list of such lists, as JSON."""
    if cards and isinstance(cards[0], list):
        return "[" + ",".join(_cards_text(hand) for hand in cards) + "]"
    return "[" + ",".join([CARD_TEXT[card["id"]] for card in cards]) + "]"
