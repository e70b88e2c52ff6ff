"""Scripting clients: a seat for tests, bots and load, and the teacher's notebook view.

``connect(url, room, name)`` joins a room over the same WebSocket protocol a browser uses and
returns a ``Seat``: ``observation()`` is the seat's latest view, ``act(action)`` plays and
returns once the server has stored the move. A dropped connection is reopened with the seat's
token and an unacknowledged move is sent again under the same id, which the server applies at
most once. A message the server refuses for its rate (``classroom.rate``) is sent again after
the wait the refusal names, and later ones are paced to the server's rate: a script playing as
fast as it can never hangs. ``Classroom(url, key)`` is the teacher's: rooms, start, remove a
learner, close a room, and the records over HTTP.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from urllib.parse import urlencode

from websockets.exceptions import ConnectionClosed, InvalidMessage
from websockets.sync.client import connect as ws_connect

from ..engine.actions import Action
from ..engine.game import Game
from .protocol import VERSION, apply_update, encode, ws_url

STATES = ("state", "update")


class ServerError(ValueError):
    """An ``error`` message from the server: its stable ``code`` and its localized text."""

    def __init__(self, message: dict) -> None:
        super().__init__(message.get("text", ""))
        self.code = message.get("code", "")
        self.message = message


def open_socket(url: str, **options):
    """A sync WebSocket to the server (``with``-style opening: newer websockets warn about
    a connection opened without it)."""
    return ws_connect(ws_url(url), open_timeout=5, max_size=2**22, **options).__enter__()


class Seat:
    """One learner's seat, driven by a script."""

    def __init__(
        self,
        url: str,
        room: str,
        name: str,
        lang: str = "en",
        token: str | None = None,
        retry_for: float = 30.0,
    ) -> None:
        self.url, self.room, self.name, self.lang = url, room, name, lang
        self.token = token
        self.retry_for = retry_for
        self.table: int | None = None
        self.seat: int | None = None
        self.state: dict | None = None
        self.reconnects = 0
        self.frames: list[str] | None = None  # set to a list to record every message received
        self._ws = None
        self._gap = 0.0  # seconds between two messages, once the server said its rate
        self._sent = 0.0
        self._open()

    # --- connection ------------------------------------------------------------------------

    def _open(self) -> None:
        """Connect and join (again); retried until ``retry_for`` seconds have passed."""
        deadline = time.monotonic() + self.retry_for
        delay = 0.05
        while True:
            try:
                self._ws = open_socket(self.url)
                join = {"type": "join", "room": self.room, "name": self.name, "lang": self.lang}
                if self.token:
                    join["token"] = self.token
                welcome = self._ask(join)
                if welcome["type"] == "error":
                    self._ws.close()  # refused: the socket would count against the address
                    raise ServerError(welcome)
                self.token, self.table, self.seat = (
                    welcome["token"],
                    welcome["table"],
                    welcome["seat"],
                )
                return
            except (OSError, ConnectionClosed, TimeoutError, InvalidMessage):
                # InvalidMessage: the server went down during the handshake
                if time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.5)

    def _next(self, wanted, timeout: float | None = 30.0) -> dict:
        """Read messages until one is ``wanted``; keep the latest state on the way (an
        ``update`` is applied to it, so ``state`` is always the whole view)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            text = self._ws.recv(timeout=left)
            if self.frames is not None:
                self.frames.append(text)
            message = json.loads(text)
            if message.get("type") == "update":
                self.state = apply_update(self.state, message)
            elif message.get("type") == "state":
                self.state = message
            if wanted(message):
                return message

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()

    def drop(self) -> None:
        """Close the socket without leaving (as a crashed notebook would); ``act`` reopens."""
        self._ws.close()

    # --- playing ---------------------------------------------------------------------------

    def observation(self) -> dict | None:
        """The seat's latest view (``game.observation(seat)``), or None before the deal."""
        if self.state is None:
            self._call(lambda: self._next(lambda m: m["type"] in STATES))
        self._drain()
        return self.state["view"]

    def _drain(self) -> None:
        try:
            while True:
                self._next(lambda m: False, timeout=0)
        except TimeoutError:
            pass
        except ConnectionClosed:
            self._reopen()

    def wait(self, until, timeout: float = 30.0) -> dict:
        """Wait for a state message for which ``until(state)`` holds; returns it."""
        deadline = time.monotonic() + timeout
        while self.state is None or not until(self.state):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such state arrived")
            self._call(lambda left=left: self._next(lambda m: m["type"] in STATES, left))
        return self.state

    def my_turn(self, state: dict | None = None) -> bool:
        view = (state or self.state or {}).get("view")
        return bool(view) and view["phase"] != "over" and view["current_player"] == self.seat

    def act(self, action: Action | dict, id: str | None = None) -> int:
        """Play a move; returns its number once stored. An illegal move raises the server's
        localized error (``ServerError``) and changes nothing."""
        data = action.to_json() if isinstance(action, Action) else action
        nonce = id or secrets.token_hex(8)
        move = self.state["move"] if self.state else 0
        deal = (self.state or {}).get("deal") or 0
        message = {"type": "act", "id": nonce, "deal": deal, "move": move, "action": data}

        reply = self._call(lambda: self._ask(message))
        if reply["type"] == "error":
            raise ServerError(reply)
        self._drain()
        return reply["move"]

    def _ask(self, message: dict) -> dict:
        """Send ``message`` under an ``id`` and return the server's answer to it: ``welcome``
        for a join, ``ack`` for a move, or an ``error``. A ``classroom.rate`` refusal is
        waited out (its ``retry_after``) and the message sent again; from then on messages
        are spaced by the rate the server named."""
        message = {**message, "id": message.get("id") or secrets.token_hex(8)}
        answers = ("welcome", "ack", "error")
        while True:
            time.sleep(max(0.0, self._sent + self._gap - time.monotonic()))
            self._sent = time.monotonic()
            self._ws.send(encode(message))
            reply = self._next(lambda m: _answers(m, message["id"], answers))
            if reply["type"] != "error" or reply.get("code") != "classroom.rate":
                return reply
            rate = reply.get("rate")
            if isinstance(rate, int | float) and rate > 0:
                self._gap = 1.0 / rate
            time.sleep(float(reply.get("retry_after") or 0.05))

    def _call(self, step):
        """Run ``step``; after a dropped connection, rejoin with the token and run it again."""
        while True:
            try:
                return step()
            except ConnectionClosed:
                self._reopen()

    def _reopen(self) -> None:
        self.reconnects += 1
        self._open()

    def send_raw(self, text: str | bytes) -> dict:
        """Send anything (for tests of malformed input); returns the next error or state."""
        self._ws.send(text)
        return self._next(lambda m: m["type"] == "error")


def _answers(message: dict, wanted: str, kinds: tuple[str, ...]) -> bool:
    """Whether ``message`` answers the frame ``wanted``: its id, or an error of no frame
    (the server refusing the connection itself: too many from one address, removed...)."""
    if message.get("type") == "error" and "id" not in message:
        return True
    return message.get("id") == wanted and message["type"] in kinds


def connect(url: str, room: str, name: str, lang: str = "en", token: str | None = None) -> Seat:
    """Join ``room`` at the server ``url`` as ``name`` (or take back the seat of ``token``).

    The room must be one the teacher made (unless the server runs with ``--open-rooms``);
    a refusal raises ``ServerError`` with its code and localized text. A join or move refused
    for the server's rate is sent again after the wait the server names, so a script never
    hangs on one; a dropped connection is reopened with the seat's token."""
    return Seat(url, room, name, lang=lang, token=token)


def watch(url: str, room: str, key: str, hands: bool = True):
    """The teacher's spectator socket (the key is needed: with duplicate deals, a table's
    public view shows cards another table still holds); every hand unless ``hands=False``.
    Yields state and update messages."""
    ws = open_socket(url)
    ws.send(encode({"type": "watch", "room": room, "key": key, "hands": hands}))
    return ws


class Classroom:
    """The teacher's records in a notebook: tables and results as records, games to replay."""

    def __init__(self, url: str, key: str) -> None:
        self.url = url.rstrip("/")
        self.key = key

    def _get(self, path: str, **query: object) -> bytes:
        address = self.url + path + ("?" + urlencode(query) if query else "")
        request = urllib.request.Request(address, headers={"Authorization": f"Bearer {self.key}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()

    def _post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def create_room(self, room: str, **config: object) -> dict:
        """A room learners may join, with the teacher's choices (players, bots,
        replace_after, deals, lang, duplicate, layouts, seed); the rest from the server's
        command line. Leave ``seed`` out for secret deals (128 bits from ``secrets``); a
        seed given makes the deals predictable to anyone who knows it (a lesson, a replay)."""
        return self._post("/api/rooms", {"room": room, "config": config})

    def start(self, room: str) -> list[int]:
        """Seat bots in the empty seats and deal at every table with a learner."""
        return self._post(f"/api/rooms/{room}/start", {})["started"]

    def remove(self, room: str, table: int, seat: int) -> None:
        """Take a learner off a seat for good: the room's bot plays it from now on."""
        self._post(f"/api/rooms/{room}/remove", {"table": table, "seat": seat})

    def close_room(self, room: str) -> None:
        """Close a room: its connections end, no one joins or moves; its records stay."""
        self._post(f"/api/rooms/{room}/close", {})

    def rooms(self, open_hands: bool = False) -> list[dict]:
        return json.loads(self._get("/api/rooms", open=int(open_hands)))["rooms"]

    def tables(self) -> list[dict]:
        """One record per table: room, table, deal, move, seats, finished."""
        keep = ("room", "table", "deal", "deals", "move", "finished", "seats")
        return [{k: t[k] for k in keep} for r in self.rooms() for t in r["tables"]]

    def results(self) -> list[dict]:
        """One record per seat per finished deal (the CSV's rows)."""
        return json.loads(self._get("/api/results"))["results"]

    def results_csv(self) -> str:
        return self._get("/api/results.csv").decode()

    def game(self, room: str, table: int, deal: int) -> Game:
        """A finished deal rebuilt from its stored moves, ready to replay."""
        return Game.from_dict(json.loads(self._get("/api/game", room=room, table=table, deal=deal)))


__all__ = ["VERSION", "Classroom", "Seat", "ServerError", "connect", "watch"]
