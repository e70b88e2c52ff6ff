"""Where a classroom lives between restarts: rooms, seats, deals and every move, in SQL.

SQLite in a file by default (the standard library's ``sqlite3``, nothing to install);
``postgresql://...`` uses psycopg. A move is committed here before the server acknowledges
it, and the primary key (table, deal, move number) lets only one of several workers store a
given move: the loser gets ``Conflict`` and catches up. Tokens are kept only as SHA-256
digests, so the file holds nothing a learner could replay.

Moves are committed in groups (``queue_move``): every move queued during one turn of the
event loop (or, on PostgreSQL, while the previous commit ran in its thread) goes into one
transaction, and each waits for its commit before it is acknowledged. A commit costs about
the same for one move as for a hundred, so under load the store keeps up with far more moves
a second. No move is acknowledged before it is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS rooms (name TEXT PRIMARY KEY, config TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS seats (room TEXT NOT NULL, tbl INTEGER NOT NULL,
        seat INTEGER NOT NULL, name TEXT NOT NULL, token TEXT, control TEXT NOT NULL,
        PRIMARY KEY (room, tbl, seat))""",
    """CREATE TABLE IF NOT EXISTS deals (room TEXT NOT NULL, tbl INTEGER NOT NULL,
        deal INTEGER NOT NULL, game TEXT NOT NULL, result TEXT,
        PRIMARY KEY (room, tbl, deal))""",
    """CREATE TABLE IF NOT EXISTS moves (room TEXT NOT NULL, tbl INTEGER NOT NULL,
        deal INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, nonce TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (room, tbl, deal, n))""",
    # No index of nonces: the primary key's first three columns narrow ``find_move`` (a
    # retry) to one deal's moves, and each commit wrote that index's pages as well as the
    # key's (a move's table is any of a room's, so each move of a group lands on a page of
    # its own in both).
    "DROP INDEX IF EXISTS moves_by_nonce",
    # A learner away: when the room's bot takes the seat over, unless they come back first.
    """CREATE TABLE IF NOT EXISTS departures (room TEXT NOT NULL, tbl INTEGER NOT NULL,
        seat INTEGER NOT NULL, due REAL NOT NULL, PRIMARY KEY (room, tbl, seat))""",
]
INSERT_MOVE = "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
#: How long an SQLite group waits for another worker's write lock, tried again between other
#: work, before its moves fail.
LOCK_PATIENCE = 30.0


class Conflict(Exception):
    """Another worker stored this move number (or this seat) first."""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def private_file(path: str) -> None:
    """Make the SQLite file readable and writable by this user only (0600) before SQLite
    opens it: it holds every hand. SQLite gives its ``-wal`` and ``-shm`` files the mode of
    the database file; those left by an earlier run are made private too."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    for name in (path, path + "-wal", path + "-shm"):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            os.chmod(name, 0o600)


@dataclass
class SeatRow:
    tbl: int
    seat: int
    name: str
    token: str | None  # the digest
    control: str  # "human", "bot" or "left" (a learner away, not yet replaced)


class Store:
    """A thin layer over one SQL connection; every write commits before it returns."""

    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith(("postgresql://", "postgres://")):
            import psycopg

            self._db = psycopg.connect(url, autocommit=False)
            self._integrity = psycopg.IntegrityError
            self._mark = "%s"
        else:
            path = url.removeprefix("sqlite:///")
            private_file(path)
            self._db = sqlite3.connect(path, timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # WAL with NORMAL survives a killed process (not a power cut) at a fraction of
            # FULL's cost: a commit is in the log once ``execute`` returns.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._integrity = sqlite3.IntegrityError
            self._mark = "?"
        for statement in SCHEMA:
            self._run(statement)
        # The group commit's own connection. SQLite's commits run on the event loop, and
        # this connection is told "locked" at once instead of sleeping in SQLite's busy
        # handler (which would stop the loop while another worker writes): the group is
        # tried again after the loop has done other work. PostgreSQL's commits (a round trip
        # and the server's fsync) run in a thread, which waits without holding the GIL.
        self._committer: ThreadPoolExecutor | None = None
        if self._mark == "?":
            self._writer = sqlite3.connect(
                path, timeout=0, isolation_level=None, check_same_thread=False
            )
            self._writer.execute("PRAGMA synchronous=NORMAL")
        else:
            self._writer = psycopg.connect(url, autocommit=False)
            self._committer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="commit")
        self._queue: list[tuple[tuple, asyncio.Future]] = []
        self._flush: asyncio.Handle | None = None
        self._committing = False
        self._locked_since: float | None = None

    def close(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
        if self._committer is not None:
            self._committer.shutdown(wait=True)  # the commit under way finishes
        if self._queue:  # and what was queued behind it
            self._settle_batch(self._queue, self._insert_moves([row for row, _ in self._queue]))
        self._writer.close()
        self._db.close()

    # --- plumbing --------------------------------------------------------------------------

    def _sql(self, statement: str) -> str:
        return statement if self._mark == "?" else statement.replace("?", "%s")

    def _run(self, statement: str, params: tuple = ()) -> int:
        """Run one write and commit it; returns how many rows it changed."""
        try:
            if self._mark == "?":
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    count = self._db.execute(statement, params).rowcount
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            else:
                with self._db.cursor() as cur:
                    cur.execute(self._sql(statement), params)
                    count = cur.rowcount
                self._db.commit()
        except self._integrity:
            if self._mark != "?":
                self._db.rollback()
            raise Conflict from None
        return count

    def _rows(self, statement: str, params: tuple = ()) -> list[tuple]:
        if self._mark == "?":
            return self._db.execute(statement, params).fetchall()
        with self._db.cursor() as cur:
            cur.execute(self._sql(statement), params)
            rows = cur.fetchall()
        self._db.commit()
        return rows

    # --- settings and rooms ----------------------------------------------------------------

    def setting(self, key: str, make) -> str:
        """The stored value of ``key``, made (and stored) the first time it is asked for."""
        rows = self._rows("SELECT value FROM settings WHERE key = ?", (key,))
        if rows:
            return rows[0][0]
        with contextlib.suppress(Conflict):  # another worker made it first
            self._run("INSERT INTO settings VALUES (?, ?)", (key, make()))
        return self._rows("SELECT value FROM settings WHERE key = ?", (key,))[0][0]

    def get_setting(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def put_setting(self, key: str, value: str | None) -> None:
        """Replace (or, with None, remove) the stored value of ``key``."""
        self._run("DELETE FROM settings WHERE key = ?", (key,))
        if value is not None:
            with contextlib.suppress(Conflict):  # another worker stored it at the same time
                self._run("INSERT INTO settings VALUES (?, ?)", (key, value))

    def add_room(self, name: str, config: dict) -> None:
        self._run("INSERT INTO rooms VALUES (?, ?)", (name, json.dumps(config)))

    def put_room(self, name: str, config: dict) -> None:
        self._run("UPDATE rooms SET config = ? WHERE name = ?", (json.dumps(config), name))

    def rooms(self) -> dict[str, dict]:
        return {n: json.loads(c) for n, c in self._rows("SELECT name, config FROM rooms")}

    def room(self, name: str) -> dict | None:
        rows = self._rows("SELECT config FROM rooms WHERE name = ?", (name,))
        return json.loads(rows[0][0]) if rows else None

    # --- seats -----------------------------------------------------------------------------

    def add_seat(self, room: str, row: SeatRow) -> None:
        """Take a seat; ``Conflict`` if someone took it first."""
        self._run(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
            (room, row.tbl, row.seat, row.name, row.token, row.control),
        )

    def set_control(self, room: str, tbl: int, seat: int, control: str) -> None:
        self._run(
            "UPDATE seats SET control = ? WHERE room = ? AND tbl = ? AND seat = ?",
            (control, room, tbl, seat),
        )

    def seats(self, room: str, tbl: int | None = None) -> list[SeatRow]:
        query = "SELECT tbl, seat, name, token, control FROM seats WHERE room = ?"
        params: tuple = (room,)
        if tbl is not None:
            query, params = query + " AND tbl = ?", (room, tbl)
        return [SeatRow(*row) for row in self._rows(query + " ORDER BY tbl, seat", params)]

    def seat_by_token(self, room: str, token: str) -> SeatRow | None:
        rows = self._rows(
            "SELECT tbl, seat, name, token, control FROM seats WHERE room = ? AND token = ?",
            (room, digest(token)),
        )
        return SeatRow(*rows[0]) if rows else None

    # --- learners away ---------------------------------------------------------------------

    def depart(
        self, room: str, tbl: int, seat: int, due: float, keep_earlier: bool = False
    ) -> None:
        """The seat's learner left: the bot takes over at ``due`` (seconds since the epoch)
        unless they come back. Stored, so that any worker can keep the appointment."""
        update = "DO NOTHING" if keep_earlier else "DO UPDATE SET due = excluded.due"
        self._run(
            f"INSERT INTO departures VALUES (?, ?, ?, ?) ON CONFLICT (room, tbl, seat) {update}",
            (room, tbl, seat, due),
        )

    def arrive(self, room: str, tbl: int, seat: int) -> None:
        """The seat's learner is back: no replacement is due."""
        self._run(
            "DELETE FROM departures WHERE room = ? AND tbl = ? AND seat = ?", (room, tbl, seat)
        )

    def due_departures(self, now: float) -> list[tuple[str, int, int]]:
        rows = self._rows("SELECT room, tbl, seat FROM departures WHERE due <= ?", (now,))
        return [tuple(row) for row in rows]

    def claim_departure(self, room: str, tbl: int, seat: int, now: float) -> bool:
        """Take on a replacement that is due; True for exactly one of several workers."""
        deleted = self._run(
            "DELETE FROM departures WHERE room = ? AND tbl = ? AND seat = ? AND due <= ?",
            (room, tbl, seat, now),
        )
        return deleted == 1

    # --- deals and moves -------------------------------------------------------------------

    def add_deal(self, room: str, tbl: int, deal: int, game: dict) -> None:
        self._run(
            "INSERT INTO deals VALUES (?, ?, ?, ?, NULL)", (room, tbl, deal, json.dumps(game))
        )

    def finish_deal(self, room: str, tbl: int, deal: int, result: dict) -> None:
        self._run(
            "UPDATE deals SET result = ? WHERE room = ? AND tbl = ? AND deal = ?",
            (json.dumps(result), room, tbl, deal),
        )

    def deals(self, room: str, tbl: int | None = None) -> list[tuple[int, int, dict, dict | None]]:
        """(table, deal, starting game, result or None), in order."""
        query = "SELECT tbl, deal, game, result FROM deals WHERE room = ?"
        params: tuple = (room,)
        if tbl is not None:
            query, params = query + " AND tbl = ?", (room, tbl)
        rows = self._rows(query + " ORDER BY tbl, deal", params)
        return [(t, d, json.loads(g), json.loads(r) if r else None) for t, d, g, r in rows]

    def last_deal(self, room: str, tbl: int) -> tuple[int, dict, bool] | None:
        """The table's latest deal: its number, its starting game, whether it has a result."""
        rows = self._rows(
            "SELECT deal, game, result IS NOT NULL FROM deals WHERE room = ? AND tbl = ?"
            " ORDER BY deal DESC LIMIT 1",
            (room, tbl),
        )
        return (rows[0][0], json.loads(rows[0][1]), bool(rows[0][2])) if rows else None

    def deal_status(self, room: str, tbl: int) -> tuple[int, bool] | None:
        """The table's latest deal number and whether it has a result (no game to decode)."""
        rows = self._rows(
            "SELECT deal, result IS NOT NULL FROM deals WHERE room = ? AND tbl = ?"
            " ORDER BY deal DESC LIMIT 1",
            (room, tbl),
        )
        return (rows[0][0], bool(rows[0][1])) if rows else None

    def queue_move(
        self, room: str, tbl: int, deal: int, n: int, seat: int, action: dict, nonce: str
    ) -> asyncio.Future:
        """Store move ``n`` of a deal with the other moves of this turn of the event loop.

        The future is done once the move is committed; it raises ``Conflict`` if that number
        was taken (by another worker), and so does every later move of the same table in
        the same group, since each was played on top of the one refused.
        """
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        row = (room, tbl, deal, n, seat, json.dumps(action), nonce, time.time())
        self._queue.append((row, future))
        if self._flush is None and not self._committing:
            self._flush = loop.call_soon(self._commit_queued)  # after this turn's moves
        return future

    def drop_queued(self, room: str, tbl: int) -> None:
        """Refuse the table's moves still waiting for a commit (``Conflict``): a move of the
        table was refused, and these were played on top of it."""
        keep = []
        for row, future in self._queue:
            if row[:2] != (room, tbl):
                keep.append((row, future))
            elif not future.done():
                future.set_exception(Conflict())
        self._queue = keep

    def _commit_queued(self) -> None:
        """Commit what is queued, as one group; the next group waits for this one."""
        self._flush = None
        batch, self._queue = self._queue, []
        if not batch:
            return
        loop = asyncio.get_running_loop()
        rows = [row for row, _ in batch]
        if self._committer is not None:
            self._committing = True
            done = loop.run_in_executor(self._committer, self._insert_moves, rows)
            done.add_done_callback(lambda result: self._committed(batch, result))
            return
        try:
            stored = self._insert_moves(rows)
        except sqlite3.OperationalError as err:
            now = time.monotonic()
            self._locked_since = self._locked_since or now
            if "locked" in str(err) and now - self._locked_since < LOCK_PATIENCE:
                self._queue = batch + self._queue  # another worker is writing: soon again
                self._flush = loop.call_later(0.0005, self._commit_queued)
                return
            self._locked_since = None
            self._fail_batch(batch, err)
            return
        except Exception as err:
            self._fail_batch(batch, err)
            return
        self._locked_since = None
        self._settle_batch(batch, stored)

    def _committed(self, batch: list, result: asyncio.Future) -> None:
        self._committing = False
        error = result.exception()
        if error is not None:
            self._fail_batch(batch, error)
        else:
            self._settle_batch(batch, result.result())
        if self._queue:  # the moves that came while this group was committed
            self._flush = asyncio.get_running_loop().call_soon(self._commit_queued)

    @staticmethod
    def _fail_batch(batch: list, error: BaseException) -> None:
        for _, future in batch:
            if not future.done():
                future.set_exception(error)

    @staticmethod
    def _settle_batch(batch: list, stored: list[bool]) -> None:
        for (_, future), ok in zip(batch, stored, strict=True):
            if future.done():
                continue
            if ok:
                future.set_result(None)
            else:
                future.set_exception(Conflict())

    def _insert_moves(self, rows: list[tuple]) -> list[bool]:
        """One transaction for all ``rows``: for each, whether it was stored; a table's rows
        after one refused are refused too."""
        refused: set[tuple] = set()
        stored = []
        sql = INSERT_MOVE if self._mark == "?" else self._sql(INSERT_MOVE)
        cur = self._writer.cursor()
        try:
            if self._mark == "?":
                cur.execute("BEGIN IMMEDIATE")
                # The usual group: every row is new, stored in one call. Else (another
                # worker stored one of these numbers) undo it and go row by row.
                cur.executemany(sql, rows)
                if cur.rowcount == len(rows):
                    cur.execute("COMMIT")
                    return [True] * len(rows)
                cur.execute("ROLLBACK")
                cur.execute("BEGIN IMMEDIATE")
            for row in rows:
                ok = row[:2] not in refused
                if ok:
                    cur.execute(sql, row)
                    ok = cur.rowcount == 1
                if not ok:
                    refused.add(row[:2])
                stored.append(ok)
            if self._mark == "?":
                cur.execute("COMMIT")
            else:
                self._writer.commit()
        except BaseException:
            if self._mark == "?":
                with contextlib.suppress(sqlite3.Error):
                    cur.execute("ROLLBACK")
            else:
                self._writer.rollback()
            raise
        finally:
            cur.close()
        return stored

    def find_move(self, room: str, tbl: int, deal: int, nonce: str) -> tuple[int, int] | None:
        """(seat, move number) of the move stored under ``nonce``, if any."""
        rows = self._rows(
            "SELECT seat, n FROM moves WHERE room = ? AND tbl = ? AND deal = ? AND nonce = ?",
            (room, tbl, deal, nonce),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def moves(self, room: str, tbl: int, deal: int, since: int = 0) -> list[tuple[int, dict, str]]:
        """(seat, action, nonce) of the deal's moves from number ``since`` on."""
        rows = self._rows(
            "SELECT seat, action, nonce FROM moves WHERE room = ? AND tbl = ? AND deal = ?"
            " AND n >= ? ORDER BY n",
            (room, tbl, deal, since),
        )
        return [(s, json.loads(a), nonce) for s, a, nonce in rows]
