"""The authority of one worker: it seats learners, checks every move with the engine,
stores it, and pushes each connection its own view. Bots play the seats the teacher gave
them and the seats of learners who left; a learner who comes back takes over again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ..errors import RuleError
from . import keys, views
from .bus import LocalBus, RedisBus
from .collector import full_collections, quiet_collector
from .protocol import ProtocolError, encode, error, frame_hints
from .rooms import Room, RoomConfig, Table
from .settings import Settings
from .store import Conflict, Store

log = logging.getLogger(__name__)
#: How often every worker looks in the store for replacements that fell due.
SWEEP_EVERY = 0.5
#: Messages waiting in one connection's outbox (a client that does not read) before the
#: connection is closed: the server's memory stays bounded whatever a client does.
MAX_OUTBOX = 512


@dataclass(eq=False)
class Conn:
    """One WebSocket: a seat's, a spectator's or the teacher's (``open_hands``)."""

    send_text: object  # async callable(str)
    #: Frames and writes texts at once, or returns False (``websocket.write_now``); None
    #: where the server has no such path (every message then goes through ``send_text``).
    write: Callable[[list[str]], bool] | None = None
    lang: str = "en"
    room: str | None = None
    table: int | None = None  # None for a watcher of the whole room
    seat: int | None = None
    open_hands: bool = False
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)
    #: The client's address (the per-address caps) and how to close its socket.
    address: str = ""
    close_socket: Callable[[int], Awaitable] | None = None
    #: Refused frames it may still send (a second bucket); at 0 the connection is closed.
    strikes: float = 0.0
    closing: bool = False
    #: The snapshot (``rev``) each table's last push to this connection was built from;
    #: an ``update`` goes only to a connection that has its base.
    seen: dict[int, int | None] = field(default_factory=dict)
    _out: deque = field(default_factory=deque)
    _sender: asyncio.Task | None = None
    _held: list[str] | None = None

    async def send(self, message: dict) -> None:
        self.push(encode(message))

    def hold(self) -> None:
        """Keep what is pushed until ``release``, which writes it all at once (a move's
        update and its ``ack``: two frames, one write)."""
        self._held = []

    def release(self) -> None:
        held, self._held = self._held or [], None
        if len(held) > 1 and self._idle() and self.write is not None and self.write(held):
            return
        for text in held:
            self.push(text)

    def _idle(self) -> bool:
        return not self._out and (self._sender is None or self._sender.done())

    def push(self, text: str) -> None:
        """Queue one encoded message; messages leave in the order they were queued, so an
        update never overtakes the state it is based on, nor an ack its move's update.

        An idle connection's message is written right here: straight to the socket where
        the server allows it (``write``), else by running the ASGI send, which normally
        finishes at once, rather than as a task of its own per message; only a write that
        has to wait (a client reading slowly) goes on in a task, with the rest of the queue
        after it.
        """
        if self.closing:
            return
        if self._held is not None:
            self._held.append(text)
            return
        if not self._idle():
            if len(self._out) >= MAX_OUTBOX:  # a client that does not read: let it go
                self._out.clear()
                self.shut()
                return
            self._out.append(text)
            return
        if self.write is not None and self.write([text]):
            return
        sending = self.send_text(text)
        try:
            waiting = sending.send(None)
        except StopIteration:
            return
        except Exception:  # a closed socket: its reader cleans up
            return
        self._sender = asyncio.get_running_loop().create_task(self._finish(sending, waiting))

    async def _finish(self, sending, waiting) -> None:
        """Carry on a write that had to wait (``waiting``: what it yielded), then the queue."""
        with contextlib.suppress(Exception):  # a closed socket: its reader cleans up
            await _Resumed(sending, waiting)
        sending.close()
        await self._drain()

    async def _drain(self) -> None:
        while self._out:
            text = self._out.popleft()
            with contextlib.suppress(Exception):  # a closed socket: its reader cleans up
                await self.send_text(text)

    def allow(self, rate: float, burst: int) -> bool:
        """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""
        now = time.monotonic()
        elapsed, self.last = now - self.last, now
        self.tokens = min(burst, self.tokens + elapsed * rate)
        self.strikes = min(burst, self.strikes + elapsed * rate / 4)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def strike(self) -> bool:
        """Count a refused frame; False once the connection has had too many (a quarter of
        the rate on average, a burst's worth at once): then it is closed."""
        self.strikes -= 1
        return self.strikes >= 0

    def shut(self, last: str | None = None) -> None:
        """Close the connection after ``last`` (an encoded message) and what was queued
        before it; nothing pushed after this is sent."""
        if self.closing:
            return
        if last is not None:
            self.push(last)
        self.closing = True
        asyncio.get_running_loop().create_task(self._close_after_sending())

    async def _close_after_sending(self) -> None:
        sender = self._sender
        if sender is not None and not sender.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(sender), 2.0)
        if self.close_socket is not None:
            with contextlib.suppress(Exception):  # closed meanwhile
                await asyncio.wait_for(self.close_socket(1008), 2.0)


class _Resumed:
    """Awaiting this carries on a coroutine that was started by hand (``coro.send(None)``)
    and yielded ``waiting``, as ``await`` would have: what it yields goes up to the task
    unchanged, and what the task sends or throws goes back down. (Awaiting the yielded
    future itself instead fails with "await wasn't used with future": the write was lost.)
    """

    def __init__(self, coro, waiting) -> None:
        self.coro, self.waiting = coro, waiting

    def __await__(self):
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as err:  # a cancellation too: the coroutine handles it
                step = coro.throw
                sent = err
            else:
                step = coro.send
            try:
                waiting = step(sent)
            except StopIteration:
                return


class Hub:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.database)
        #: The teacher key's digest (``keys.py``); the key itself is in no worker.
        self.key_digest = keys.stored_digest(self.store)
        self.worker = secrets.token_hex(4)
        self.bus = RedisBus(settings.redis, self.worker) if settings.redis else LocalBus()
        # With one worker this process is the store's only writer: its tables are the store
        # (read at start), so a move needs no read first; a Conflict would still catch one.
        self.shared = bool(settings.redis)
        self.rooms: dict[str, Room] = {}
        # Connections by (room, table); a room's watchers under (room, None).
        self.conns: dict[tuple[str, int | None], set[Conn]] = {}
        # Replacements due in this worker; the store keeps them too (``departures``), and
        # every worker's sweep keeps those whose worker died.
        self._timers: dict[tuple[str, int, int], asyncio.Task] = {}
        self._sweeper: asyncio.Task | None = None
        self._collector: asyncio.Task | None = None
        # Tables whose next message to the other workers must make them read the store.
        self._reread: set[tuple[str, int]] = set()
        # What was last pushed for each table: the base of the next update.
        self.pushed: dict[tuple[str, int], views.Snapshot] = {}
        # Tables whose last push here forwarded another worker's update: the rev, deal, move
        # and seats of that push, whose snapshot is built when the table is next needed.
        self.forwarded: dict[tuple[str, int], tuple[int, int, int, list]] = {}
        #: Open WebSockets by client address, and rooms each address made (open rooms).
        self.connections: dict[str, int] = {}
        self.rooms_made: dict[str, int] = {}

    # --- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every room from the store, then let the bots play whatever is theirs."""
        for name in self.store.rooms():
            self.room(name)
        quiet_collector()
        await self.bus.start(self._remote)
        if not self.shared:
            self._await_everyone()
        self._sweeper = asyncio.create_task(self._sweep())
        self._collector = asyncio.create_task(full_collections())
        for room in self.rooms.values():
            for table in room.tables.values():
                await self.run_bots(table)

    def _await_everyone(self) -> None:
        """After a restart of the only worker nobody is connected yet: each learner of a
        table still playing is away from now on, so one who never comes back is replaced in
        time like one who left (an earlier departure keeps its time)."""
        for room in self.rooms.values():
            due = time.time() + room.config.replace_after
            for table in room.tables.values():
                if table.deal is None or table.finished:
                    continue
                for seat, row in enumerate(table.seats):
                    if row is not None and row.control == "human":
                        self.store.depart(room.name, table.index, seat, due, keep_earlier=True)

    async def close(self) -> None:
        for task in (self._sweeper, self._collector):
            if task is not None:
                task.cancel()
        for timer in self._timers.values():
            timer.cancel()
        await self.bus.close()
        self.store.close()

    def room(self, name: str, create: bool = False, lang: str = "en") -> Room | None:
        """The room ``name``; ``create``: made with the server's settings in ``lang`` if new."""
        if name in self.rooms:
            return self.rooms[name]
        config = self.store.room(name)
        if config is None:
            if not create:
                return None
            config = self.default_config(lang).to_dict()
            with contextlib.suppress(Conflict):  # another worker made it: read it back
                self.store.add_room(name, config)
            config = self.store.room(name)
        room = Room(name, RoomConfig(**config))
        room.load(self.store)
        self.rooms[name] = room
        return room

    def default_config(self, lang: str = "en") -> RoomConfig:
        """A room a learner's join makes. A room is a class: it takes the language of the
        learner who made it, so a Finnish class's bots are "perusbotti 2", not "basic bot 2"."""
        s = self.settings
        return RoomConfig(
            players=s.players, bots=s.bots, replace_after=s.replace_after, deals=s.deals, lang=lang
        ).with_secret()

    def create_room(self, name: str, config: RoomConfig) -> Room:
        """The teacher's new room; refused if a room of that name, in any case, exists
        ("kettu" beside "KETTU" would be a second room that looks like the first)."""
        if self._look_alike(name):
            raise ProtocolError("room_exists")
        try:
            self.store.add_room(name, config.with_secret().to_dict())
        except Conflict:
            raise ProtocolError("room_exists") from None
        return self.room(name)

    def _look_alike(self, name: str) -> bool:
        return any(other.casefold() == name.casefold() for other in self.store.rooms())

    def _room_to_join(self, conn: Conn, name: str) -> Room:
        """The room a join names: one the teacher made; with open rooms, one this join makes
        (at most ``rooms_per_address`` from one address). A closed room is refused."""
        room = self.room(name)
        if room is None:
            if not self.settings.open_rooms or self._look_alike(name):
                raise ProtocolError("room_not_made", room=name)
            made = self.rooms_made.get(conn.address, 0)
            if made >= self.settings.rooms_per_address:
                raise ProtocolError("too_many_rooms", limit=self.settings.rooms_per_address)
            self.rooms_made[conn.address] = made + 1
            room = self.room(name, create=True, lang=conn.lang)
        if room.config.closed:
            raise ProtocolError("room_closed", room=name)
        return room

    # --- messages from a connection --------------------------------------------------------

    async def handle(self, conn: Conn, message: dict) -> None:
        kind = message["type"]
        if kind == "act":
            await self.act(conn, message)
            return
        if conn.room is not None:
            raise ProtocolError("already_joined")
        conn.lang = message["lang"]
        if kind == "join":
            await self.join(conn, message)
        else:
            await self.watch(conn, message)

    async def join(self, conn: Conn, message: dict) -> None:
        room = self._room_to_join(conn, message["room"])
        table, seat, token = room.join(
            self.store, message["name"], message["token"], self.settings.max_tables
        )
        conn.room, conn.table, conn.seat = room.name, table.index, seat
        self.conns.setdefault((room.name, table.index), set()).add(conn)
        timer = self._timers.pop((room.name, table.index, seat), None)
        if timer:
            timer.cancel()
        if message["token"] is not None:
            self.store.arrive(room.name, table.index, seat)  # back: no replacement is due
        welcome = {"type": "welcome", "table": table.index, "seat": seat, "token": token}
        await conn.send({**welcome, **_echo(message)})
        await self.changed(table, present=seat)
        await self.run_bots(table)

    async def watch(self, conn: Conn, message: dict) -> None:
        if message["key"] is None:  # the tables' public views would show the same deals
            raise ProtocolError("key_needed")  # still in play at this room's other tables
        if not keys.matches(message["key"], self.key_digest):
            raise ProtocolError("bad_key")
        room = self.room(message["room"])
        if room is None:
            raise ProtocolError("no_room")
        conn.room, conn.open_hands = room.name, message["hands"]
        self.conns.setdefault((room.name, None), set()).add(conn)
        await conn.send({"type": "welcome", "table": None, "seat": None, **_echo(message)})
        for table in sorted(room.tables.values(), key=lambda t: t.index):
            await self.send_state(conn, table)

    async def act(self, conn: Conn, message: dict) -> None:
        if conn.seat is None:
            raise ProtocolError("not_seated")
        table = self.rooms[conn.room].tables[conn.table]
        if table.config.closed:
            raise ProtocolError("room_closed", room=conn.room)
        self._fresh(table)
        nonce, move, deal = message["id"], message["move"], message["deal"]
        behind = (deal, move) != (table.deal, table.moves)
        if behind and self.shared:
            table.sync(self.store)  # a move stored by another worker, or before a restart
        # A move on the table as this worker knows it needs no read first: if another worker
        # stored that number meanwhile, the store refuses it (Conflict) and the table is read.
        done = table.nonces.get(nonce) if deal == table.deal else None
        if done is None and (deal, move) != (table.deal, table.moves):
            done = self.store.find_move(table.room, table.index, deal, nonce)
        if done is not None:  # a retry of a move already stored: acknowledge it again
            if done[0] != conn.seat:
                raise ProtocolError("bad_field", field="id")
            await conn.send({"type": "ack", "id": nonce, "move": done[1]})
            return
        if (deal, move) != (table.deal, table.moves):
            await self.send_state(conn, table)
            raise ProtocolError("stale", move=table.moves)
        try:
            number = await table.play(self.store, conn.seat, message["action"], nonce)
        except Conflict:
            await self.changed(table, local=False)  # the table as the store has it
            if nonce in table.nonces:
                await conn.send({"type": "ack", "id": nonce, "move": table.nonces[nonce][1]})
                return
            await self.send_state(conn, table)
            raise ProtocolError("stale", move=table.moves) from None
        conn.hold()
        try:
            await self.changed(table, moved=(deal, number, conn.seat, nonce))
            await conn.send({"type": "ack", "id": nonce, "move": number})
        finally:
            conn.release()
        await self.run_bots(table)

    async def left(self, conn: Conn) -> None:
        """A socket closed; a learner's seat passes to the bot unless they come back in time."""
        self.conns.get((conn.room, conn.table), set()).discard(conn)
        if conn.seat is None:
            return
        table = self.rooms[conn.room].tables[conn.table]
        row = table.seats[conn.seat]
        if table.config.closed or row is None or row.control == "removed":
            return  # nothing to hand over: the bot has the seat, or the room is closed
        key = (conn.room, conn.table, conn.seat)
        if any(c.seat == conn.seat for c in self.conns[(conn.room, conn.table)]):
            return
        delay = self.rooms[conn.room].config.replace_after
        self.store.depart(*key, time.time() + delay)
        self._timers[key] = asyncio.create_task(self._replace(key, delay))

    async def _replace(self, key: tuple[str, int, int], delay: float) -> None:
        await asyncio.sleep(delay)
        self._timers.pop(key, None)
        await self._replace_now(key)

    async def _sweep(self) -> None:
        """Keep the replacements that fell due in the store, whichever worker stored them:
        the one that did may have died since (its own timer died with it)."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                for key in self.store.due_departures(time.time()):
                    await self._replace_now(key)
            except Exception:
                log.exception("replacing learners who left")

    async def _replace_now(self, key: tuple[str, int, int]) -> None:
        """The bot takes over a seat whose learner is still away, if this worker is the
        one that claims the due replacement in the store (exactly one worker does)."""
        room_name, index, seat = key
        if not self.store.claim_departure(room_name, index, seat, time.time()):
            return  # the learner came back, or another worker replaced them
        room = self.room(room_name)
        if room is None:
            return
        table = room.table(index)
        table.sync(self.store)
        row = table.seats[seat]
        if row is not None and row.control == "human" and not table.finished:
            self.store.set_control(room_name, index, seat, "replaced")
            table.sync(self.store)
            await self.changed(table)
            await self.run_bots(table)

    # --- pushing views ---------------------------------------------------------------------

    async def changed(
        self,
        table: Table,
        present: int | None = None,
        local: bool = True,
        moved: tuple[int, int, int, str] | None = None,
    ) -> None:
        """Send every connection on this table (and the room's watchers) its new view, and
        tell the other workers; ``moved`` (deal, number, seat, nonce) is the move just
        stored, which they apply without reading the store if it follows on from theirs."""
        key = (table.room, table.index)
        if table.unstored:  # a move is waiting for its commit; its own push shows this too
            if local and moved is None:
                self._reread.add(key)  # a seat changed: the others must read, not follow
            return
        if not local:
            self.push_views(table)
            return
        action = None
        if key in self._reread:
            self._reread.discard(key)
        elif moved is not None and table.game is not None:
            deal, number, seat, nonce = moved
            game = table.game if deal == table.deal else None
            if table.ended is not None and table.ended[0] == deal:  # the move ended its deal
                game = table.ended[1]
            if game is not None and number < len(game.history):
                action = (deal, number, seat, game.history[number][1].to_json(), nonce)
        shared = self.push_views(table, action[:3] if action and self.shared else None)
        await self.bus.publish(table.room, table.index, present, action, shared)

    async def send_state(self, conn: Conn, table: Table) -> None:
        """A full ``state`` outside a push. It is the base of the next update only if the
        last push showed the table as it is now (the same deal, move and seats)."""
        self._fresh(table)
        last = self.pushed.get((table.room, table.index))
        same = last is not None and (last.deal, last.move, last.seats) == (
            table.deal,
            table.moves,
            views.seats_view(table),
        )
        conn.seen[table.index] = last.rev if same else None
        await conn.send(views.state(table, conn.seat, conn.open_hands))

    def push_views(self, table: Table, mover: tuple[int, int, int] | None = None) -> str | None:
        """Queue every connection's message for the table as it is now, without awaiting.

        A connection holding the last push gets an ``update``: the public part is encoded
        once and shared, and only a seat whose hand changed gets a message of its own. Any
        other connection (new, or sent a state outside a push) gets a full ``state``. When
        the last push showed a deal that has ended since, and the next deal has begun, the
        ended deal's final view goes first: every seat sees each deal's result.

        ``mover`` (deal, number, seat) names the move just stored; the shared update is
        returned if it is all that move changed for any connection but the mover's seat
        (``_forwardable``), for the other workers to forward.
        """
        self._fresh(table)
        key = (table.room, table.index)
        old = self.pushed.get(key)
        was = views.ended(table) if old is not None and old.deal != table.deal else None
        if was is not None and was.deal == old.deal:
            old, _ = self._push(was, old)
        self.pushed[key], shared = self._push(table, old, mover)
        return shared

    def _push(
        self, table: Table, old: views.Snapshot | None, mover: tuple | None = None
    ) -> tuple[views.Snapshot, str | None]:
        """Queue the messages from ``old`` (the last push) to ``table``; its snapshot, and
        the shared update if another worker may forward it (``mover``: see push_views)."""
        new = views.snapshot(table, old.rev + 1 if old else 1)
        update = views.update(old, new) if old else None
        texts: dict[tuple, str] = {}
        forward = _forwardable(old, new, update, mover)
        # The update encoded once; a hand is spliced into its view.
        shared = encode(update) if forward else None
        here = self.conns.get((table.room, table.index), set())
        for conn in [*here, *self.conns.get((table.room, None), ())]:
            seat, open_hands = conn.seat, conn.open_hands
            if update is not None and conn.seen.get(table.index) == old.rev:
                own = seat is not None and old.hands[seat] != new.hands[seat]
                hands = open_hands and old.hands != new.hands
                kind = ("update", seat if own else None, hands)
                if kind not in texts:
                    shared = shared or encode(update)
                    texts[kind] = shared
                    if own or hands:
                        extra = {"hand": new.hands[seat]} if own else {"hands": new.hands}
                        texts[kind] = views.add_to_view(shared, extra)
            else:
                kind = ("state", seat, open_hands)
                if kind not in texts:
                    texts[kind] = encode(views.state(table, seat, open_hands))
            conn.seen[table.index] = new.rev
            conn.push(texts[kind])
        return new, shared if forward else None

    def _forward(self, table: Table, move: tuple, update: str) -> bool:
        """Send our connections another worker's update of its move as it is, and keep the
        move for later (``Table.defer``) instead of applying it, building a snapshot and
        encoding an update here. Only when every connection here holds the push that
        update is based on and is neither the mover's seat nor open hands; else False."""
        key = (table.room, table.index)
        deal, number, seat = move[:3]
        mark = self.forwarded.get(key)
        if mark is None:
            last = self.pushed.get(key)
            if last is None or last.public is None:
                return False
            mark = (last.rev, last.deal, last.move, last.seats)
        rev, was_deal, was_move, seats = mark
        if (was_deal, was_move) != (deal, number):
            return False
        conns = [*self.conns.get(key, ()), *self.conns.get((table.room, None), ())]
        for conn in conns:
            if conn.open_hands or conn.seat == seat or conn.seen.get(table.index) != rev:
                return False
        if not table.defer(*move):
            return False
        for conn in conns:
            conn.seen[table.index] = rev + 1
            conn.push(update)
        self.forwarded[key] = (rev + 1, deal, number + 1, seats)
        return True

    def _fresh(self, table: Table) -> None:
        """Before the table is used here: apply the moves kept back, and build the snapshot
        of the last forwarded update (the base of the next update here). If the table is
        not where that update left it (it was read from the store meanwhile), the snapshot
        is one no connection holds, so each gets a full state next."""
        key = (table.room, table.index)
        if table.pending and table.catch_up() and table.game is None:
            table.sync(self.store)
        mark = self.forwarded.pop(key, None)
        if mark is None:
            return
        rev, deal, move, seats = mark
        if (table.deal, table.moves) == (deal, move):
            new = views.snapshot(table, rev)
            new.seats = seats
        else:
            new = views.Snapshot(rev, table.index, None, -1, False, seats, [], None)
        self.pushed[key] = new

    async def _remote(
        self,
        room_name: str,
        index: int,
        present: int | None,
        move: tuple | None = None,
        update: str | None = None,
    ) -> None:
        """Another worker changed a table: apply its move (or read the table from the store)
        and tell our connections."""
        room = self.room(room_name)
        if room is None:
            return
        if present is not None:
            timer = self._timers.pop((room_name, index, present), None)
            if timer:
                timer.cancel()
        table = room.table(index)
        if update is not None and move is not None and self._forward(table, move, update):
            return
        self._fresh(table)
        # Push even when nothing is new here: another path (a join scanning the tables, a
        # move's own read) may have read the change first without telling anyone.
        if move is None or not table.follow(self.store, *move):
            table.sync(self.store)
        if move is None:  # a seat changed, or the teacher closed the room
            room.config.closed = bool((self.store.room(room_name) or {}).get("closed"))
            self._evict(room, None if room.config.closed else table)
        await self.changed(table, local=False)

    async def run_bots(self, table: Table) -> None:
        """Play every bot turn that is due, each one stored and pushed like a learner's."""
        self._fresh(table)
        while (move := table.bot_move()) is not None:
            seat, action = move
            deal, nonce = table.deal, f"bot{table.deal}.{table.moves}"
            try:
                number = await table.play(self.store, seat, action, nonce)
            except (Conflict, RuleError):
                await self.changed(table, local=False)
                return  # another worker played it; its message brings the move here
            await self.changed(table, moved=(deal, number, seat, nonce))

    async def start_room(self, name: str) -> list[int]:
        room = self.room(name)
        if room is None:
            raise ProtocolError("no_room")
        if room.config.closed:
            raise ProtocolError("room_closed", room=name)
        started = room.start(self.store)
        for table in started:
            await self.changed(table)
            await self.run_bots(table)
        return [table.index for table in started]

    async def refuse(self, conn: Conn, err: RuleError, frame: object) -> None:
        """The localized refusal of ``frame``, with its ``id`` when it has one (a client
        waiting for that frame's answer gets it); a connection refused too often is closed."""
        found, lang = frame_hints(frame)
        if conn.room is None and lang is not None:  # not joined: the frame's language
            conn.lang = lang
        extra = {**getattr(err, "extra", {}), **({"id": found} if found else {})}
        await conn.send(error(err, conn.lang, **extra))
        if not conn.strike():
            conn.shut(encode(error(ProtocolError("refused_too_often"), conn.lang)))

    # --- the teacher's controls ------------------------------------------------------------

    async def close_room(self, name: str) -> None:
        """No join or move any more; every connection to the room is closed, its records
        stay. Other workers hear of it with each table's change and read the room again."""
        room = self.room(name)
        if room is None:
            raise ProtocolError("no_room")
        config = room.config.to_dict()
        config["closed"] = True
        self.store.put_room(name, config)
        room.config.closed = True
        for table in room.tables.values():
            await self.changed(table)
        self._evict(room)

    async def remove(self, name: str, index: int, seat: int) -> None:
        """Take a learner off a seat for good: the room's bot plays it from now on, and the
        learner's token no longer takes it back (``classroom.removed``)."""
        room = self.room(name)
        if room is None:
            raise ProtocolError("no_room")
        if index not in {row.tbl for row in self.store.seats(name)}:
            raise ProtocolError("bad_field", field="table")
        table = room.table(index)  # perhaps not held here yet (another worker seated it)
        table.sync(self.store)
        if not 0 <= seat < len(table.seats) or table.seats[seat] is None:
            raise ProtocolError("bad_field", field="seat")
        if table.seats[seat].control not in ("human", "replaced"):
            raise ProtocolError("bad_field", field="seat")
        self.store.set_control(name, index, seat, "removed")
        self.store.arrive(name, index, seat)  # no replacement is due: the bot has it now
        timer = self._timers.pop((name, index, seat), None)
        if timer:
            timer.cancel()
        table.sync(self.store)
        self._evict(room, table)
        await self.changed(table)
        await self.run_bots(table)

    def _evict(self, room: Room, table: Table | None = None) -> None:
        """Close this worker's connections to a closed room, or to removed seats of
        ``table``, each told why in its language."""
        tables = [table] if table is not None else list(room.tables.values())
        for each in tables:
            for conn in list(self.conns.get((room.name, each.index), ())):
                row = each.seats[conn.seat] if conn.seat is not None else None
                if room.config.closed:
                    err = ProtocolError("room_closed", room=room.name)
                elif row is not None and row.control == "removed":
                    err = ProtocolError("removed")
                else:
                    continue
                conn.shut(encode(error(err, conn.lang)))
        if room.config.closed:
            for conn in list(self.conns.get((room.name, None), ())):
                conn.shut(encode(error(ProtocolError("room_closed", room=room.name), conn.lang)))


def _echo(message: dict) -> dict:
    """The ``id`` a join or watch came with, for its welcome (none if it had none)."""
    return {"id": message["id"]} if message.get("id") else {}


def _forwardable(
    old: views.Snapshot | None, new: views.Snapshot, update: dict | None, mover: tuple | None
) -> bool:
    """Whether the shared update is all that the move ``mover`` (deal, number, seat) changed
    for anyone but the mover and the teacher: one move on from ``old``, no seat or totals
    change, the deal not over, no other seat's hand changed (in Rummy none does)."""
    if mover is None or update is None or "seats" in update or "totals" in update:
        return False
    deal, number, seat = mover
    if (old.deal, old.move, new.move) != (deal, number, number + 1) or new.public is None:
        return False
    if new.public["phase"] == "over":
        return False
    hands = zip(old.hands, new.hands, strict=True)
    return all(a == b for s, (a, b) in enumerate(hands) if s != seat)
