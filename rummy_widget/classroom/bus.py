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
the receiver a parse and a wake-up of its own. The worker speaks RESP2 to Redis itself, over
two connections (one publishing without waiting for each reply, one subscribed), rather than
through redis-py, whose commands and pub/sub parser cost a worker more than the changes it
sent and received (its connection pool, a round trip a publish, a dict a message).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
from collections.abc import Awaitable, Callable
from urllib.parse import unquote, urlsplit

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
        self.url = url
        self.worker = worker
        self.channel = CHANNEL.encode()
        self._listener: Listener | None = None
        self._tasks: list[asyncio.Task] = []
        self._publisher: _Connection | None = None
        self._outbox: list[str] = []
        self._flush: asyncio.Handle | None = None
        self._inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._subscribed = asyncio.Event()

    async def start(self, listener: Listener) -> None:
        self._listener = listener
        self._tasks = [
            asyncio.create_task(self._keep(self._publishing)),
            asyncio.create_task(self._keep(self._listening)),
            asyncio.create_task(self._deliver()),
        ]
        await asyncio.wait_for(self._subscribed.wait(), timeout=30)

    async def _keep(self, session: Callable[[_Connection], Awaitable[None]]) -> None:
        """Run ``session`` on a new connection, and again whenever the connection closes."""
        while True:
            try:
                conn = await _Connection.open(self.url)
                try:
                    await session(conn)
                finally:
                    conn.close()
            except OSError as err:
                log.warning("cannot reach Redis (%s), trying again", err)
            except Exception:
                log.exception("the connection to Redis")
            await asyncio.sleep(RECONNECT)

    async def _publishing(self, conn: _Connection) -> None:
        self._publisher = conn
        try:
            await conn.closed
        finally:
            self._publisher = None

    async def _listening(self, conn: _Connection) -> None:
        conn.on_message = self._inbox.put_nowait
        conn.send(b"SUBSCRIBE", self.channel)
        await conn.subscribed
        self._subscribed.set()
        await conn.closed

    async def _deliver(self) -> None:
        """Each message another worker published, change by change, in order."""
        while True:
            lines = (await self._inbox.get()).decode().split("\n")
            if lines[0] == self.worker:
                continue
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
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_soon(self._send)

    def _send(self) -> None:
        self._flush = None
        texts, self._outbox = self._outbox, []
        if self._publisher is None:
            log.warning("Redis is not connected: the other workers miss %d changes", len(texts))
            return
        self._publisher.send(b"PUBLISH", self.channel, "\n".join([self.worker, *texts]).encode())

    async def close(self) -> None:
        if self._flush is not None:  # what this turn queued still leaves
            self._flush.cancel()
            self._send()
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class RedisError(Exception):
    """An error reply from Redis."""


def _command(*parts: bytes) -> bytes:
    """A command as RESP2: an array of bulk strings."""
    return b"".join([b"*%d\r\n" % len(parts), *(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)])


#: ``_parse``'s answer for a reply not yet all read.
_PARTIAL = (None, -1)


def _parse(data: bytearray, at: int) -> tuple[object, int]:
    """The RESP2 reply starting at ``data[at]`` and where it ends, or ``_PARTIAL``."""
    end = data.find(b"\r\n", at)
    if end < 0:
        return _PARTIAL
    kind, head, at = data[at], bytes(data[at + 1 : end]), end + 2
    if kind == 36:  # $: a bulk string of that many bytes (-1: none)
        size = int(head)
        if size < 0:
            return None, at
        if len(data) < at + size + 2:
            return _PARTIAL
        return bytes(data[at : at + size]), at + size + 2
    if kind == 42:  # *: an array of that many replies
        items = []
        for _ in range(int(head)):
            item, at = _parse(data, at)
            if at < 0:
                return _PARTIAL
            items.append(item)
        return items, at
    if kind == 58:  # :
        return int(head), at
    if kind == 45:  # -
        return RedisError(head.decode(errors="replace")), at
    return head.decode(errors="replace"), at  # +


class _Connection(asyncio.Protocol):
    """One connection to Redis: commands go out as they are sent, replies are parsed as they
    arrive; a reply is logged if it is an error, and a pub/sub message goes to
    ``on_message`` (its payload)."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        self.closed = loop.create_future()
        self.subscribed = loop.create_future()
        self.on_message: Callable[[bytes], None] | None = None
        self._data = bytearray()
        self._transport: asyncio.Transport | None = None

    @classmethod
    async def open(cls, url: str) -> _Connection:
        """Connect to ``redis://[[user]:password@]host[:port][/db]`` (``rediss://`` over TLS,
        ``unix:///path``); pub/sub does not depend on the database."""
        parts = urlsplit(url)
        loop = asyncio.get_running_loop()
        if parts.scheme == "unix":
            _, conn = await loop.create_unix_connection(cls, parts.path)
        elif parts.scheme in ("redis", "rediss"):
            tls = ssl.create_default_context() if parts.scheme == "rediss" else None
            host, port = parts.hostname or "localhost", parts.port or 6379
            _, conn = await loop.create_connection(cls, host, port, ssl=tls)
        else:
            raise ValueError(f"not a Redis address: {parts.scheme}://...")
        if parts.password is not None:
            user = unquote(parts.username) if parts.username else None
            auth = [user.encode()] if user else []
            conn.send(b"AUTH", *auth, unquote(parts.password).encode())
        return conn

    def connection_made(self, transport) -> None:
        self._transport = transport

    def send(self, *parts: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(_command(*parts))

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    def data_received(self, data: bytes) -> None:
        self._data += data
        at = 0
        while at < len(self._data):
            reply, end = _parse(self._data, at)
            if end < 0:
                break
            at = end
            self._reply(reply)
        del self._data[:at]

    def _reply(self, reply: object) -> None:
        if isinstance(reply, list) and reply and reply[0] == b"message":
            if self.on_message is not None:
                self.on_message(reply[2])
        elif isinstance(reply, list) and reply and reply[0] == b"subscribe":
            if not self.subscribed.done():
                self.subscribed.set_result(None)
        elif isinstance(reply, RedisError):
            log.error("Redis refused a command: %s", reply)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
