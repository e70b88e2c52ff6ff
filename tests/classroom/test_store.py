"""The store's group commit and departures on a real SQLite file, two stores standing in for
two workers: what is acknowledged is stored, and a refused move takes its table's later moves
of the same group with it."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from rummy_widget.classroom.store import Conflict, Store

ACTION = {"type": "draw", "source": "stock"}


def stored(path) -> list[tuple]:
    rows = sqlite3.connect(path).execute("SELECT tbl, n, nonce FROM moves ORDER BY tbl, n")
    return rows.fetchall()


def test_a_refused_move_takes_its_tables_later_moves_of_the_same_group_along(
    tmp_path,
):
    path = tmp_path / "classroom.sqlite3"
    ours, theirs = Store(str(path)), Store(str(path))

    async def play() -> list:
        # Another worker stored move 1 of table 0 first.
        await theirs.queue_move("R", 0, 0, 1, 1, ACTION, "theirs")
        futures = [
            ours.queue_move("R", 0, 0, 0, 0, ACTION, "a0"),
            ours.queue_move("R", 0, 0, 1, 1, ACTION, "a1"),  # taken
            ours.queue_move("R", 0, 0, 2, 2, ACTION, "a2"),  # played on top of a1
            ours.queue_move("R", 1, 0, 0, 0, ACTION, "b0"),
        ]
        return await asyncio.gather(*futures, return_exceptions=True)

    results = asyncio.run(play())
    assert [type(r) for r in results] == [type(None), Conflict, Conflict, type(None)]
    assert stored(path) == [(0, 0, "a0"), (0, 1, "theirs"), (1, 0, "b0")]
    ours.close()
    theirs.close()


def test_moves_queued_behind_a_refused_one_are_dropped_and_nothing_waits_forever(tmp_path):
    path = tmp_path / "classroom.sqlite3"
    store = Store(str(path))

    async def play() -> list:
        first = store.queue_move("R", 0, 0, 0, 0, ACTION, "a0")
        other = store.queue_move("R", 1, 0, 0, 0, ACTION, "b0")
        store.drop_queued("R", 0)
        return await asyncio.gather(first, other, return_exceptions=True)

    first, other = asyncio.run(play())
    assert isinstance(first, Conflict) and other is None
    assert stored(path) == [(1, 0, "b0")]
    store.close()


def test_a_due_departure_is_claimed_by_exactly_one_worker(tmp_path):
    path = str(tmp_path / "classroom.sqlite3")
    one, two = Store(path), Store(path)
    one.depart("R", 0, 1, due=100.0)
    assert two.due_departures(now=99.0) == []
    assert not two.claim_departure("R", 0, 1, now=99.0)  # not due yet
    assert two.due_departures(now=100.0) == [("R", 0, 1)]
    assert [one.claim_departure("R", 0, 1, now=101.0), two.claim_departure("R", 0, 1, 101.0)] == [
        True,
        False,
    ]
    one.depart("R", 0, 2, due=100.0)
    two.arrive("R", 0, 2)  # back in time: nothing to claim
    assert not one.claim_departure("R", 0, 2, now=101.0)
    one.depart("R", 0, 3, due=100.0)
    one.depart("R", 0, 3, due=200.0, keep_earlier=True)
    assert one.due_departures(now=150.0) == [("R", 0, 3)]
    one.close()
    two.close()


@pytest.mark.parametrize("count", [1, 300])
def test_every_acknowledged_move_is_in_the_file_when_its_future_is_done(tmp_path, count):
    path = tmp_path / "classroom.sqlite3"
    store = Store(str(path))

    async def play() -> list:
        seen = []
        for n in range(count):
            await store.queue_move("R", 0, 0, n, n % 4, ACTION, f"m{n}")
            # read through another connection, as a restarted server would
            seen.append(len(stored(path)))
        return seen

    assert asyncio.run(play()) == list(range(1, count + 1))
    store.close()
