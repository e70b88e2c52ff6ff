"""How workers tell each other that a table changed: nothing for one process, Redis for many.

The store stays the truth; a message says "table T of room R changed" (or "the learner of
seat S is back"), and for a move just stored it carries the move (deal, number, seat, action,
nonce), often with the update every connection but the mover's was sent. A worker that hears
it forwards that update to its own connections and keeps the move for later when it can
(``Hub._forward``); else it applies the move if it follows on from the table as it knows it,
or reads the table from the store, and pushes to its own connections.
Redis pub/sub may drop a message when a worker is down, which is harmless: the store refuses
a move on a table a worker did not know had moved, and that worker then reads it.

What a worker publishes in one turn of its event loop goes as one Redis message (its id on
the first line, then one line a change: the change as JSON, and after a change that carries
one, a line with the encoded update its connections were sent), because each message costs
the receiver a parse and a wake-up of its own. A worker keeps two of redis-py's connections
(its parser is hiredis's C one when that is installed, as the ``classroom`` extra does): one
publishes without waiting for each reply (a task of its own reads the replies), one is
subscribed and read as it arrives. redis-py's client and ``PubSub`` objects are not used:
their per-command connection pool and the dict they make of each message cost a worker more
than the changes it sent and received.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from redis.asyncio.connection import AbstractConnection

CHANNEL = "rummy_widget:classroom"
#: Seconds between attempts to reach Redis again after a connection closed.
RECONNECT = 0.5
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
    """Several workers: one pub/sub channel; a worker ignores its own messages.

    Redis pub/sub keeps no message for a worker that is not connected: a worker whose
    connection closed connects again (every ``RECONNECT`` seconds until it can), and what
    it would have sent or received meanwhile is lost, as when a worker is down (see above).
    """

    def __init__(self, url: str, worker: str) -> None:
        from redis.asyncio.connection import ConnectionPool  # the classroom extra's
        from redis.exceptions import ConnectionError as RedisConnectionError

        self._unreachable = (OSError, RedisConnectionError)
        # RESP2: redis-py's RESP3 parser formats every pub/sub message it receives for a
        # debug log line, logged or not. The pool only makes the two connections.
        self._pool = ConnectionPool.from_url(url, protocol=2)
        self.worker = worker
        self._listener: Listener | None = None
        self._tasks: list[asyncio.Task] = []
        self._outbox: list[str] = []
        self._ready = asyncio.Event()
        self._subscribed = asyncio.Event()

    async def start(self, listener: Listener) -> None:
        self._listener = listener
        self._tasks = [
            asyncio.create_task(self._keep(self._publishing)),
            asyncio.create_task(self._keep(self._listening)),
        ]
        await asyncio.wait_for(self._subscribed.wait(), timeout=30)

    async def _keep(self, session: Callable[[AbstractConnection], Awaitable[None]]) -> None:
        """Run ``session`` on a new connection, and again whenever the connection closes."""
        while True:
            conn = self._pool.make_connection()
            try:
                await conn.connect()
                await session(conn)
            except self._unreachable as err:
                log.warning("cannot reach Redis (%s), trying again", err)
            except Exception:
                log.exception("the connection to Redis")
            finally:
                with contextlib.suppress(Exception):
                    await conn.disconnect()
            await asyncio.sleep(RECONNECT)

    async def _publishing(self, conn: AbstractConnection) -> None:
        """Send what each turn of the loop queued as one PUBLISH, without waiting for its
        reply: a task of its own reads the replies (counts of receivers) as they come."""
        replies = asyncio.create_task(self._drain(conn))
        try:
            while not replies.done():
                if not self._outbox:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                texts, self._outbox = self._outbox, []
                text = "\n".join([self.worker, *texts])
                await conn.send_packed_command(conn.pack_command("PUBLISH", CHANNEL, text), False)
            await replies  # the connection closed: its error
        finally:
            replies.cancel()

    @staticmethod
    async def _drain(conn: AbstractConnection) -> None:
        while True:
            await conn.read_response()

    async def _listening(self, conn: AbstractConnection) -> None:
        await conn.send_command("SUBSCRIBE", CHANNEL)
        while True:
            reply = await conn.read_response()
            if reply[0] == b"message":
                await self._deliver(reply[2])
            elif reply[0] == b"subscribe":
                self._subscribed.set()

    async def _deliver(self, data: bytes) -> None:
        """A message another worker published, change by change, in order."""
        lines = data.decode().split("\n")
        if lines[0] != self.worker:
            at = 1
            while at < len(lines):
                room, table, present, move, has_update = json.loads(lines[at])
                update = lines[at + 1] if has_update else None
                at += 2 if has_update else 1
                try:
                    await self._listener(
                        room, table, present, tuple(move) if move else None, update
                    )
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
        the move, as every connection but the mover's was sent it (no newline in it). What
        is queued in one turn of the event loop leaves in one message, right after it."""
        text = json.dumps([room, table, present, move, update is not None], separators=(",", ":"))
        self._outbox.append(text if update is None else f"{text}\n{update}")
        self._ready.set()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._pool.disconnect()
