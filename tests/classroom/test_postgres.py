"""The same server on PostgreSQL (``--database $PG_URL``): run only where PG_URL is set."""

from __future__ import annotations

import os
import secrets
import threading

import pytest

from rummy_widget.classroom import Classroom

from .conftest import wait_for
from .players import play_all, table_of_four

PG_URL = os.environ.get("PG_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="PG_URL names no PostgreSQL database")


def test_a_deal_on_postgresql_survives_kill_9(server_factory):
    pytest.importorskip("psycopg", reason="the [postgres] extra is not installed")
    server = server_factory("--deals", "1", "--database", PG_URL)
    room = "PG" + secrets.token_hex(4)
    seats = table_of_four(server.url, room)
    seats[0].wait(lambda s: s["view"] is not None)
    acked: list = []
    done: list = []
    runner = threading.Thread(target=lambda: done.append(play_all(seats, acked)))
    runner.start()
    wait_for(lambda: len(acked) >= 10, what="moves on PostgreSQL")
    server.kill()
    server.start()
    runner.join(300)
    assert done and all(state["finished"] for state in done[0])
    teacher = Classroom(server.url, server.key)
    game = teacher.game(room, 0, 0)
    assert game.phase == "over" and len(game.history) == done[0][0]["move"]
    stored = {r["name"] for r in teacher.results() if r["room"] == room}
    assert stored == {"Ann", "Bo", "Cy", "Di"}
