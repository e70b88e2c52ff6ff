"""kill -9 in the middle of a move storm: every table goes on from its last acknowledged
move, none lost and none applied twice, and the clients reconnect by themselves."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

from rummy_widget.classroom import Classroom, connect

from .conftest import wait_for
from .players import play, table_of_four

TABLES = 3


def storm(server, room: str, acked: list) -> tuple[list, list[threading.Thread], list]:
    seats = []
    for t in range(TABLES):
        seats += table_of_four(server.url, room, names=[f"T{t}S{s}" for s in range(4)])
    errors: list[BaseException] = []

    def run(i, seat):
        try:
            play(seat, acked, seed=i)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(seats)]
    for thread in threads:
        thread.start()
    return seats, threads, errors


def check_nothing_lost(server, room: str, acked: list, seats) -> None:
    for thread in seats[1]:
        thread.join(300)
    assert not seats[2], seats[2]
    assert sum(seat.reconnects for seat in seats[0]) > 0
    db = sqlite3.connect(server.database)
    for table, deal, number, seat, nonce in acked:
        rows = db.execute(
            "SELECT n, seat FROM moves WHERE room = ? AND tbl = ? AND deal = ? AND nonce = ?",
            (room, table, deal, nonce),
        ).fetchall()
        assert rows == [(number, seat)]  # stored once, at the number acknowledged
    teacher = Classroom(server.url, server.key)
    records = teacher.tables()
    assert len(records) == TABLES and all(r["finished"] for r in records)
    for record in records:
        for deal in range(record["deals"]):
            game = teacher.game(room, record["table"], deal)  # replays move by move
            (count,) = db.execute(
                "SELECT COUNT(*) FROM moves WHERE room = ? AND tbl = ? AND deal = ?",
                (room, record["table"], deal),
            ).fetchone()
            assert len(game.history) == count and game.phase == "over"


def test_kill_9_the_server_mid_storm_and_restart_it(server_factory):
    server = server_factory("--deals", "2", "--room", "MYRSKY")
    acked: list = []
    seats = storm(server, "MYRSKY", acked)
    wait_for(lambda: len(acked) >= 60, what="a storm of moves")
    server.kill()
    at_kill = len(acked)
    server.start()
    wait_for(lambda: len(acked) > at_kill + 20, what="moves after the restart")
    check_nothing_lost(server, "MYRSKY", acked, seats)


def test_kill_9_one_of_two_workers_mid_storm(server_factory, redis_url):
    server = server_factory("--deals", "2", "--room", "TUULI", workers=2, redis=redis_url)
    wait_for(lambda: len(server.workers()) == 2, what="two workers")
    acked: list = []
    seats = storm(server, "TUULI", acked)
    wait_for(lambda: len(acked) >= 60, what="a storm of moves")
    # uvicorn's workers share one listening socket, so the kernel chose where each client
    # landed: kill the worker holding the most sockets (the clients' connections).
    fds = {pid: len(os.listdir(f"/proc/{pid}/fd")) for pid in server.workers()}
    victim = max(fds, key=fds.get)
    os.kill(victim, signal.SIGKILL)
    at_kill = len(acked)
    wait_for(lambda: len(acked) > at_kill + 20, what="moves after a worker died")
    check_nothing_lost(server, "TUULI", acked, seats)


def holder(server, seat) -> int:
    """The worker process holding this client's connection (uvicorn's workers share one
    listening socket, so the kernel chose): the one with the server end of its socket."""
    client_port = seat._ws.socket.getsockname()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":")[1], fields[2].split(":")[1]
        if int(local, 16) == server.port and int(remote, 16) == client_port:
            inode = fields[9]
    assert inode is not None, "the server end of the learner's connection"
    for pid in server.workers():
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) == f"socket:[{inode}]":
                    return pid
    raise AssertionError("no worker holds the learner's connection")


def test_a_learner_away_is_replaced_even_when_their_worker_is_killed(server_factory, redis_url):
    server = server_factory(workers=2, redis=redis_url)
    wait_for(lambda: len(server.workers()) == 2, what="two workers")
    teacher = Classroom(server.url, server.key)
    teacher.create_room("LAHTO", players=2, deals=1, replace_after=3)
    ann, bo = connect(server.url, "LAHTO", "Ann"), connect(server.url, "LAHTO", "Bo")
    bo.wait(lambda s: s["view"] is not None)
    victim = holder(server, ann)
    ann.close()
    db = sqlite3.connect(server.database)

    def departure():
        rows = db.execute("SELECT due FROM departures WHERE room = 'LAHTO' AND seat = 0")
        return rows.fetchone()

    (due,) = wait_for(departure, what="Ann's departure in the store")
    os.kill(victim, signal.SIGKILL)  # with Ann's timer in it, before it fires
    assert time.time() < due - 1, "the worker was killed only after its timer was due"
    # The other worker's sweep keeps the appointment; Bo sees the bot take Ann's seat.
    bo.wait(lambda s: s["seats"][0]["control"] == "replaced", timeout=30)
    assert time.time() >= due
    assert departure() is None  # claimed, and so done once
    play(bo, until=lambda s: s["move"] >= 8)  # Bo plays on; the bot plays Ann's turns
    nonces = [n for (n,) in db.execute("SELECT nonce FROM moves WHERE seat = 0 ORDER BY n")]
    assert nonces and all(n.startswith("bot") for n in nonces)
