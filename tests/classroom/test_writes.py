"""How a connection's messages reach its socket: in the order they were made, whichever
path they take (a direct write, uvicorn's send, or a task for a write that waits), and a
client that sends a burst of messages at once is answered for every one, in order."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.hub import Conn
from rummy_widget.classroom.protocol import VERSION


def run(conn_test) -> list:
    return asyncio.run(conn_test())


def make_conn(written: list, *, direct: bool, slow: bool = False) -> Conn:
    async def send_text(text: str) -> None:
        if slow:
            await asyncio.sleep(0.01)
        written.append(("send", text))

    def write(texts: list[str]) -> bool:
        if not direct:
            return False
        written.append(("write", *texts))
        return True

    return Conn(send_text, write=write)


@pytest.mark.parametrize(
    ("direct", "expected"),
    [
        (True, [("write", "update", "ack"), ("write", "next")]),  # held: one write for both
        (False, [("send", "update"), ("send", "ack"), ("send", "next")]),  # no direct write
    ],
)
def test_held_messages_leave_after_release_in_order(direct: bool, expected: list):
    async def scenario() -> list:
        written: list = []
        conn = make_conn(written, direct=direct)
        conn.hold()
        conn.push("update")
        conn.push("ack")
        assert written == []  # nothing leaves while held
        conn.release()
        conn.push("next")
        return written

    assert run(scenario) == expected


def test_a_write_that_waits_keeps_later_messages_behind_it():
    async def scenario() -> list:
        written: list = []
        conn = make_conn(written, direct=False, slow=True)
        conn.push("state")
        conn.write = lambda texts: written.append(("write", *texts)) or True
        conn.hold()
        conn.push("update")
        conn.push("ack")
        conn.release()  # the slow send is not done: these queue behind it
        await asyncio.sleep(0.1)
        return written

    assert run(scenario) == [("send", "state"), ("send", "update"), ("send", "ack")]


def test_a_burst_of_messages_in_one_packet_is_answered_in_order(server_factory):
    server = server_factory("--rate", "1000", "--room", "PURSKE")
    ws = open_socket(server.url)
    join = {"v": VERSION, "type": "join", "room": "PURSKE", "name": "Ann"}
    ws.send(json.dumps(join))
    assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    assert json.loads(ws.recv(timeout=10))["type"] == "state"
    ws.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)
    # more than the server reads ahead before it stops reading (websocket.QUEUED)
    for n in range(40):
        act = {"v": VERSION, "type": "act", "id": f"n{n}", "deal": 0, "move": 0}
        ws.send(json.dumps({**act, "action": {"type": "draw", "source": "stock"}}))
    ids = []
    while len(ids) < 40:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "error":
            ids.append(message["id"])
    assert ids == [f"n{n}" for n in range(40)]
    ws.close()
