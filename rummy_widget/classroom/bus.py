"""How workers tell each other that a table changed: nothing for one process, Redis for many.

The store stays the truth; a message only says "table T of room R changed" (or "the learner
of seat S is back"), and each worker that hears it reads the new moves from the store and
pushes them to its own connections. Redis pub/sub may drop a message when a worker is down,
which is harmless: a worker also reads the store before it checks a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

CHANNEL = "rummy_widget:classroom"
log = logging.getLogger(__name__)
Listener = Callable[[str, int, int | None], Awaitable[None]]


class LocalBus:
    """One worker: every connection is in this process, so there is no one to tell."""

    async def start(self, listener: Listener) -> None:
        pass

    async def publish(self, room: str, table: int, present: int | None = None) -> None:
        pass

    async def close(self) -> None:
        pass


class RedisBus:
    """Several workers: one pub/sub channel; a worker ignores its own messages."""

    def __init__(self, url: str, worker: str) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(url)
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
        from redis-py's pool and exhaust it ("Too many connections")."""
        while True:
            text = await self._outbox.get()
            try:
                await self.redis.publish(CHANNEL, text)
            except Exception:
                log.exception("telling the other workers of a change")

    async def _listen(self, pubsub, listener: Listener) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            worker, room, table, present = message["data"].decode().split("|")
            if worker == self.worker:
                continue
            try:
                await listener(room, int(table), int(present) if present else None)
            except Exception:  # one table's failure must not deafen this worker to the rest
                log.exception(
                    "reading table %s of room %s after another worker's move", table, room
                )

    async def publish(self, room: str, table: int, present: int | None = None) -> None:
        mark = "" if present is None else str(present)
        self._outbox.put_nowait(f"{self.worker}|{room}|{table}|{mark}")  # sent after commit

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()
