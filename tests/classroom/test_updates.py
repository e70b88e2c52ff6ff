"""Updates: after each move the server sends only what changed (``update``), and a client
that applies them holds exactly the seat's ``game.observation(seat)``, move after move."""

from __future__ import annotations

import json

import pytest

from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.classroom import Classroom, connect
from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.protocol import VERSION, apply_update
from rummy_widget.engine.cards import CARD_JSON


def plain(data: object) -> object:
    """JSON as it crosses the wire (read-only dicts become plain ones)."""
    return json.loads(json.dumps(data))


def spectator_view(game: Game) -> dict:
    view = game.observation(0)
    del view["hand"]
    view["seat"] = None
    return plain(view)


def test_a_rebuilt_view_equals_the_seat_observation_after_every_move_of_a_deal(server_factory):
    server = server_factory()
    start = Game(2, seed=5)
    Classroom(server.url, server.key).create_room(
        "ILVES", players=2, deals=1, layouts=[start.to_dict()]
    )
    seats = [connect(server.url, "ILVES", name) for name in ("Ann", "Bo")]
    for seat in seats:
        seat.frames = []
    spectator = open_socket(server.url)
    spectator.send(json.dumps(public_watch(server)))
    assert json.loads(spectator.recv(timeout=10))["type"] == "welcome"
    watched = json.loads(spectator.recv(timeout=10))
    local = Game.from_dict({**start.to_dict(), "players": ["Ann", "Bo"]})
    bots = [get_bot("basic", seed=i) for i in range(2)]
    seats[0].wait(lambda s: s["view"] is not None)
    moves = 0
    while local.phase != "over":
        player = local.current_player
        seat = seats[player]
        seat.wait(lambda s, n=moves: s["move"] == n)
        action = bots[player].act(seat.state["view"])
        seat.act(action)
        local.apply(action, player)
        moves += 1
        for other in seats:
            state = other.wait(lambda s, n=moves: s["move"] == n)
            assert state["view"] == plain(local.observation(other.seat)), (moves, other.seat)
        message = json.loads(spectator.recv(timeout=10))
        assert message["type"] == "update" and message["move"] == moves
        watched = apply_update(watched, message)
        assert watched["view"] == spectator_view(local)
    assert moves > 20
    for seat in seats:
        kinds = [json.loads(f)["type"] for f in seat.frames]
        # after the deal's first state, every move reached this seat as an update
        assert kinds.count("update") == moves and kinds.count("state") <= 2, kinds
        # a seat's ack for move n comes after the update that shows move n played
        messages = [json.loads(f) for f in seat.frames]
        for i, message in enumerate(messages):
            if message["type"] == "ack":
                shown = [m["move"] for m in messages[:i] if m["type"] in ("state", "update")]
                assert shown and shown[-1] == message["move"] + 1
        sizes = [len(f) for f in seat.frames if '"type":"update"' in f]
        assert max(sizes) < 1500  # no update carries the deal's whole log


def play_a_move(seats: list, local: Game, bots: list) -> int:
    """The player to move plays its bot's move through its seat and in ``local``; who."""
    player = local.current_player
    seat, done = seats[player], len(local.history)
    seat.wait(lambda s: s["view"] is not None and s["move"] == done)
    action = bots[player].act(seat.state["view"])
    seat.act(action)
    local.apply(action, player)
    return player


def public_watch(server) -> dict:
    """A spectator's ``watch``: the teacher key, no hands."""
    return {"v": VERSION, "type": "watch", "room": "ILVES", "key": server.key, "hands": False}


class Watcher:
    """A spectator's socket (the teacher key's; every hand with ``hands``), its state rebuilt
    from each frame."""

    def __init__(self, url: str, key: str, hands: bool = False) -> None:
        self.socket = open_socket(url)
        watch = {"v": VERSION, "type": "watch", "room": "ILVES", "key": key, "hands": hands}
        self.socket.send(json.dumps(watch))
        assert json.loads(self.socket.recv(timeout=10))["type"] == "welcome"
        self.state = json.loads(self.socket.recv(timeout=10))

    def until(self, move: int) -> dict:
        while self.state["move"] != move:
            message = json.loads(self.socket.recv(timeout=10))
            kind = message["type"]
            self.state = apply_update(self.state, message) if kind == "update" else message
        return self.state["view"]


@pytest.mark.parametrize("workers", [1, 2])
def test_every_seat_spectator_and_teacher_holds_its_view_after_every_move(
    server_factory, request, workers
):
    """Four seats, spectators and the teacher (open hands), spread by the kernel over the
    workers: after every move each holds exactly its view, also a seat that comes back on a
    new connection and a spectator that arrives mid-deal. With two workers, a worker sends
    its connections the update of a move the other worker played as that worker encoded it
    (``Hub._forward``), and applies the move only when the table is next needed."""
    if workers == 1:
        server = server_factory()
    else:
        server = server_factory(workers=2, redis=request.getfixturevalue("redis_url"))
    start = Game(4, seed=11)
    Classroom(server.url, server.key).create_room(
        "ILVES", players=4, deals=1, layouts=[start.to_dict()]
    )
    names = ["Ann", "Bo", "Cy", "Di"]
    seats = [connect(server.url, "ILVES", name) for name in names]
    watchers = [Watcher(server.url, server.key) for _ in range(3)]
    teacher = Watcher(server.url, server.key, hands=True)
    local = Game.from_dict({**start.to_dict(), "players": names})
    bots = [get_bot("basic", seed=i) for i in range(4)]
    moves = 0
    while local.phase != "over":
        player = play_a_move(seats, local, bots)
        moves += 1
        if moves % 9 == 0:  # a seat back on a new connection, a spectator arriving
            back = (player + moves) % 4
            again = connect(server.url, "ILVES", names[back], token=seats[back].token)
            seats[back].close()
            seats[back] = again
            watchers.append(Watcher(server.url, server.key))
        for other in seats:
            state = other.wait(lambda s, n=moves: s["move"] == n)
            assert state["view"] == plain(local.observation(other.seat)), (moves, other.seat)
        for watcher in watchers:
            assert watcher.until(moves) == spectator_view(local), moves
        hands = [[CARD_JSON[c.id] for c in local.hand(p)] for p in range(4)]
        assert teacher.until(moves) == {**spectator_view(local), "hands": plain(hands)}
    assert moves > 20


def test_an_update_applies_only_to_the_state_it_is_based_on():
    state = {"type": "state", "table": 0, "deal": 0, "move": 3, "seats": [], "view": {"log": []}}
    update = {"type": "update", "table": 0, "deal": 0, "move": 5, "base": 4, "view": {}}
    with pytest.raises(ValueError):
        apply_update(state, {**update, "log": {"from": 0, "events": []}})
    with pytest.raises(ValueError):
        apply_update({**state, "view": None}, update)


@pytest.mark.parametrize("workers", [1, 2])
def test_every_connection_sees_a_deals_end_before_the_next_deals_state(
    server_factory, request, workers
):
    """The server deals on in the push of a deal's last move; each seat and the spectators
    still get that deal's final update (over, with its result and the match's totals) first,
    then the next deal's state with ``deals`` and the same totals. With two workers the
    kernel spreads the connections over both, so a worker also shows the end of a deal
    that the other one played."""
    if workers == 1:
        server = server_factory()
    else:
        server = server_factory(workers=2, redis=request.getfixturevalue("redis_url"))
    starts = [Game(2, seed=5).to_dict(), Game(2, seed=6).to_dict()]
    Classroom(server.url, server.key).create_room("ILVES", players=2, deals=2, layouts=starts)
    seats = [connect(server.url, "ILVES", name) for name in ("Ann", "Bo")]
    for seat in seats:
        seat.frames = []
    spectators = [open_socket(server.url) for _ in range(4)]
    watched = []
    for spectator in spectators:
        spectator.send(json.dumps(public_watch(server)))
        watched.append([json.loads(spectator.recv(timeout=10)) for _ in range(2)])
        assert watched[-1][1]["deals"] == 2 and watched[-1][1]["totals"] == [0, 0]
    bots = [get_bot("basic", seed=i) for i in range(2)]
    local = Game.from_dict({**starts[0], "players": ["Ann", "Bo"]})
    moves = 0
    while local.phase != "over":
        play_a_move(seats, local, bots)
        moves += 1
    for seat in seats:
        seat.wait(lambda s: s["deal"] == 1)
    penalties = None
    for frames in [seat.frames for seat in seats]:
        messages = [json.loads(f) for f in frames if '"type":"ack"' not in f]
        turn = next(i for i, m in enumerate(messages) if m.get("deal") == 1)
        last, first = messages[turn - 1], messages[turn]
        assert last["type"] == "update" and last["deal"] == 0
        assert last["view"]["phase"] == "over" and not last["finished"]
        penalties = last["view"]["result"]["penalties"]
        assert last["totals"] == penalties
        assert first["type"] == "state" and first["deals"] == 2 and first["totals"] == penalties
        assert first["view"]["phase"] != "over"
    for spectator, seen in zip(spectators, watched, strict=True):
        while seen[-1].get("deal") != 1:
            seen.append(json.loads(spectator.recv(timeout=10)))
        assert seen[-2]["type"] == "update" and seen[-2]["view"]["phase"] == "over"
        assert seen[-2]["totals"] == penalties == seen[-1]["totals"]
        assert seen[-1]["type"] == "state"
        spectator.close()
