"""Hidden information across the network: two rooms whose deals differ only in cards that
one seat has not seen send that seat, and a spectator, byte-identical messages."""

from __future__ import annotations

import json

from rummy_widget import Game
from rummy_widget.classroom import Classroom, connect
from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.protocol import VERSION

ROUNDS = 6


def layouts() -> tuple[dict, dict]:
    """A deal, and the same deal with a card of seat 1's hand swapped for the bottom card
    of the stock: seat 0 and a spectator cannot tell them apart."""
    start = Game(2, seed=11).to_dict()
    other = json.loads(json.dumps(start))
    hand, stock = other["initial"]["hands"][1], other["initial"]["stock"]
    hand[3], stock[-1] = stock[-1], hand[3]
    assert hand != start["initial"]["hands"][1]
    return start, other


def record_room(server, room: str, layout: dict) -> tuple[list[str], list[str], list[str]]:
    teacher = Classroom(server.url, server.key)
    teacher.create_room(room, players=2, deals=1, layouts=[layout])
    first, second = connect(server.url, room, "Ann"), connect(server.url, room, "Bo")
    first.frames = []
    spectator, teacher_view = open_socket(server.url), open_socket(server.url)
    watch = {"v": VERSION, "type": "watch", "room": room, "key": server.key}
    spectator.send(json.dumps({**watch, "hands": False}))
    teacher_view.send(json.dumps(watch))
    first.wait(lambda s: s["view"] is not None)
    for turn in range(ROUNDS * 2):
        seat = (first, second)[turn % 2]
        seat.wait(seat.my_turn)
        seat.act({"type": "draw", "source": "stock"}, id=f"d{turn}")
        drawn = seat.observation()["hand"][-1]["id"]  # the card just drawn: the same in both
        seat.act({"type": "discard", "card": drawn}, id=f"x{turn}")
    first.wait(lambda s: s["move"] == ROUNDS * 4)
    return first.frames, until_last_move(spectator), until_last_move(teacher_view)


def until_last_move(socket) -> list[str]:
    """Every message a watcher got: its welcome, the table, then one state per move."""
    frames = [socket.recv(timeout=10)]
    while json.loads(frames[-1]).get("move") != ROUNDS * 4:
        frames.append(socket.recv(timeout=10))
    assert len(frames) == 2 + ROUNDS * 4
    return frames


def test_two_rooms_differing_only_in_hidden_cards_send_identical_bytes(server_factory):
    server = server_factory()
    one, other = layouts()
    seat_a, spectator_a, teacher_a = record_room(server, "KARHU", one)
    seat_b, spectator_b, teacher_b = record_room(server, "HIRVI", other)
    assert len(seat_a) > ROUNDS * 4 and seat_a == seat_b
    assert spectator_a == spectator_b
    # The teacher's open hands do show seat 1's hand, so the same recording tells them apart.
    assert teacher_a != teacher_b
