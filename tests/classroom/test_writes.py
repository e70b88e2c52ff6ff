"""How a connection's messages reach its socket: in the order they were made, also when a
write has to wait (a client reading slowly) and the rest follow in a task."""

from __future__ import annotations

import asyncio

from rummy_widget.classroom.hub import Conn


def test_a_write_that_waits_keeps_later_messages_behind_it():
    async def scenario() -> list:
        written: list = []

        async def send_text(text: str) -> None:
            await asyncio.sleep(0.01)
            written.append(text)

        conn = Conn(send_text)
        for text in ("state", "update", "ack"):
            conn.push(text)
        await asyncio.sleep(0.1)
        return written

    assert asyncio.run(scenario()) == ["state", "update", "ack"]
