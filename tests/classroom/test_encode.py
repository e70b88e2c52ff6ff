"""The server's fast JSON encoder (msgspec's) gives every message the text the standard
library's gives it, character for character: a whole deal of states and updates for each
seat, a spectator and the open hands, errors in Finnish, and names no ASCII can spell."""

from __future__ import annotations

import json

import pytest

from rummy_widget.bots import get_bot
from rummy_widget.classroom import protocol, views
from rummy_widget.classroom.rooms import Room, RoomConfig
from rummy_widget.classroom.store import SeatRow, Store
from rummy_widget.errors import RuleError

NAMES = ["Äijä", "Zoë \u2028 ✓", 'Bo "the" \\ /', "😀 Ann"]


def both(message: dict) -> tuple[str, str]:
    assert protocol._FAST is not None, "msgspec is in the classroom and dev extras"
    return protocol.encode(message), protocol.JSON.encode({"v": protocol.VERSION, **message})


def test_every_message_of_a_whole_deal_is_encoded_as_the_standard_library_does(tmp_path):
    store = Store(str(tmp_path / "classroom.sqlite3"))
    room = Room("R", RoomConfig(players=4, deals=2))
    table = room.table(0)
    for seat, name in enumerate(NAMES):
        store.add_seat("R", SeatRow(0, seat, name, None, "human"))
    table.sync(store)
    table.start_deal(store, 0)
    bots = [get_bot("basic", seed=seat) for seat in range(4)]
    old, messages = None, []
    while table.game.phase != "over":
        new = views.snapshot(table, old.rev + 1 if old else 1)
        if old is not None:
            update = views.update(old, new)
            messages.append(update)
            shared = protocol.encode(update)
            for seat in range(4):  # a seat's own hand spliced in, as the hub does
                spliced = views.add_to_view(shared, {"hand": new.hands[seat]})
                assert json.loads(spliced)["view"]["hand"] == new.hands[seat]
        messages += [views.state(table, seat) for seat in (0, 1, 2, 3, None)]
        messages.append(views.state(table, None, open_hands=True))
        old = new
        seat = table.game.current_player
        table.game.apply(bots[seat].act(table.game.observation(seat)), seat)
    messages.append(views.state(table, None, open_hands=True))
    for message in messages:
        fast, standard = both(message)
        assert fast == standard
    store.close()


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_errors_and_acks_are_encoded_as_the_standard_library_does(lang):
    messages = [
        protocol.error(RuleError("not_your_turn", lang, player=NAMES[1]), lang, id="a1"),
        protocol.error(protocol.ProtocolError("too_large", lang, limit=4096), lang),
        {"type": "ack", "id": "x" * 40, "move": 123456789012},
        {"type": "welcome", "table": 3, "seat": None, "name": "\x7f\u00a0\ufeff"},
    ]
    for message in messages:
        fast, standard = both(message)
        assert fast == standard
