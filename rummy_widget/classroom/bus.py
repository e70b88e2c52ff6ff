"""How workers tell each other that a table changed: nothing for one process, Redis for many.

The store stays the truth; a message says "table T of room R changed" (or "the learner of
seat S is back"), and for a move just stored it carries the move (deal, number, seat, action,
nonce), often with the update every connection but the mover's was sent. A worker that hears
it forwards that update to its own connections and keeps the move for later when it can
(``Hub._forward``); else it applies the move if it follows on from the table as it knows it,
or reads the table from the store, and pushes to its own connections.
Redis pub/sub may drop a message when a worker is down, which is harmless: the store refuses
a move on a table a worker did not know had moved, and that worker then reads it.

What a worker publishes in one turn of its event loop goes as one Redis message (one line
a change: the change as JSON, and after a change that carries one, a line with the encoded
update its connections were sent), because each message costs the receiver a parse and a
wake-up of its own. A worker keeps two of redis-py's connections (its parser is hiredis's C
one when that is installed, as the ``classroom`` extra does): one publishes, with Redis's
replies turned off (``CLIENT REPLY OFF``: a reply, the count of receivers, would only wake
the worker to be read and dropped), one is subscribed and read as it arrives. A worker
publishes on a channel of its own (``CHANNEL:<worker id>``) and subscribes to every other
worker's by patterns that leave out its own (``patterns``), so Redis does not send a worker
back what it published, which it would read and drop. redis-py's client and ``PubSub``
objects are not used: their per-command connection pool and the dict they make of each
message cost a worker more than the changes it sent and received.
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


def patterns(worker: str) -> list[str]:
    """Redis glob patterns that together match every worker's channel but ``worker``'s,
    each channel by exactly one of them (so each message arrives once): for each position
    of the id, its characters before as they are, that one any other. Worker ids are of
    one length, of characters with no meaning in a pattern (hex)."""
    return [f"{CHANNEL}:{worker[:i]}[^{worker[i]}]*" for i in range(len(worker))]


class LocalBus:
    """One worker: every connection is in this process, so there is no one to tell."""

    async def start(self, listener: Listener) -> None:
        pass

    async def publish(self, *change: object, **parts: object) -> None:
        """Nothing to do: no other worker (``RedisBus.publish`` names the arguments)."""

    async def close(self) -> None:
        pass


class RedisBus:
    """Several workers: a pub/sub channel a worker, each worker subscribed to the others'.

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
        """Send what each turn of the loop queued as one PUBLISH. Redis sends no replies on
        this connection; a task of its own reads it to learn that it closed (seen at the
        next publish, or by the failing write)."""
        await conn.send_packed_command(conn.pack_command("CLIENT", "REPLY", "OFF"), False)
        channel = f"{CHANNEL}:{self.worker}"
        closed = asyncio.create_task(conn.read_response())
        try:
            while not closed.done():
                if not self._outbox:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                texts, self._outbox = self._outbox, []
                text = "\n".join(texts)
                await conn.send_packed_command(conn.pack_command("PUBLISH", channel, text), False)
            await closed  # the connection closed: its error (or an unexpected reply)
            raise ConnectionError("Redis replied on a connection whose replies are off")
        finally:
            closed.cancel()

    async def _listening(self, conn: AbstractConnection) -> None:
        own = patterns(self.worker)
        await conn.send_command("PSUBSCRIBE", *own)
        subscribed = 0
        while True:
            reply = await conn.read_response()
            if reply[0] == b"pmessage":
                await self._deliver(reply[3])
            elif reply[0] == b"psubscribe":
                subscribed += 1
                if subscribed == len(own):
                    self._subscribed.set()

    async def _deliver(self, data: bytes) -> None:
        """A message another worker published, change by change, in order."""
        lines = data.decode().split("\n")
        at = 0
        while at < len(lines):
            room, table, present, move, has_update = json.loads(lines[at])
            update = lines[at + 1] if has_update else None
            at += 2 if has_update else 1
            try:
                await self._listener(room, table, present, tuple(move) if move else None, update)
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
