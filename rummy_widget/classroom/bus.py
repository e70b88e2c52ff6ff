"""How workers tell each other that a table changed: nothing for one process, Redis for many.

The store stays the truth; a message says "table T of room R changed" (or "the learner of
seat S is back"), and for a move just stored it carries the move (deal, number, seat, action,
nonce), often with the update every connection but the mover's was sent. A worker that hears
it forwards that update to its own connections and keeps the move for later when it can
(``Hub._forward``); else it applies the move if it follows on from the table as it knows it,
or reads the table from the store, and pushes to its own connections.
Redis pub/sub may drop a message when a worker is down, which is harmless: the store refuses
a move on a table a worker did not know had moved, and that worker then reads it.

What a worker publishes in one turn of its sender goes as one Redis message (its id on the
first line, then one line a change: the change as JSON, and after a change that carries one,
a line with the encoded update its connections were sent), because redis-py parses each
message it receives in pure Python, which cost the receiver more than the change itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

CHANNEL = "rummy_widget:classroom"
log = logging.getLogger(__name__)
Listener = Callable[[str, int, int | None, tuple | None, str | None], Awaitable[None]]
#: A stored move as it travels: (deal, number, seat, action JSON, nonce).
Move = tuple[int, int, int, dict, str]


class LocalBus:
    """One worker: every connection is in this process, so there is no one to tell."""

    async def start(self, listener: Listener) -> None:
        pass

    async def publish(self, *change: object, **parts: object) -> None:
        """Nothing to do: no other worker (``RedisBus.publish`` names the arguments)."""

    async def close(self) -> None:
        pass


class RedisBus:
    """Several workers: one pub/sub channel; a worker ignores its own messages."""

    def __init__(self, url: str, worker: str) -> None:
        import redis.asyncio as redis

        # RESP2: redis-py's RESP3 parser formats every pub/sub message it receives for a
        # debug log line, logged or not (the whole batch as a string).
        self.redis = redis.from_url(url, protocol=2)
        self.worker = worker
        self._tasks: list[asyncio.Task] = []
        self._outbox: asyncio.Queue[str] = asyncio.Queue()

    async def start(self, listener: Listener) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._tasks = [
            asyncio.create_task(self._listen(pubsub, listener)),
            asyncio.create_task(self._send()),
        ]

    async def _send(self) -> None:
        """One publisher, in order: hundreds of moves at once would each take a connection
        from redis-py's pool and exhaust it ("Too many connections"). Whatever queued up
        while one round trip ran leaves together in one message."""
        while True:
            texts = [self.worker, await self._outbox.get()]
            while not self._outbox.empty():
                texts.append(self._outbox.get_nowait())
            try:
                await self.redis.publish(CHANNEL, "\n".join(texts))
            except Exception:
                log.exception("telling the other workers of a change")

    async def _listen(self, pubsub, listener: Listener) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            lines = message["data"].decode().split("\n")
            if lines[0] == self.worker:
                continue
            at = 1
            while at < len(lines):
                room, table, present, move, has_update = json.loads(lines[at])
                update = lines[at + 1] if has_update else None
                at += 2 if has_update else 1
                try:
                    await listener(room, table, present, tuple(move) if move else None, update)
                except Exception:  # one table's failure must not deafen this worker
                    log.exception(
                        "reading table %s of room %s after another worker's move", table, room
                    )

    async def publish(
        self,
        room: str,
        table: int,
        present: int | None = None,
        move: Move | None = None,
        update: str | None = None,
    ) -> None:
        """Queue a change (sent after its move's commit); ``update``: the encoded update of
        the move, as every connection but the mover's was sent it (no newline in it)."""
        text = json.dumps([room, table, present, move, update is not None], separators=(",", ":"))
        self._outbox.put_nowait(text if update is None else f"{text}\n{update}")

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()
