"""Bots in empty seats, and a learner who leaves: replaced by the bot, then back with the token."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request

from rummy_widget.classroom import Classroom, connect

from .players import play, play_all


def test_the_teacher_fills_empty_seats_with_bots_and_the_learner_plays_them(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("KOTKA", players=3, deals=1, bots="basic")
    ann = connect(server.url, "KOTKA", "Ann")
    assert ann.observation() is None  # no deal before the table is full or started
    assert teacher.start("KOTKA") == [0]
    final = play(ann)
    assert [s["control"] for s in final["seats"]] == ["human", "bot", "bot"]
    (record,) = teacher.tables()
    assert record["finished"]
    assert [r["control"] for r in teacher.results()] == ["human", "bot", "bot"]


def test_a_room_made_by_a_join_names_its_bots_in_that_learners_language(server_factory):
    server = server_factory("--open-rooms")  # a trusted class: a learner's join makes a room
    teacher = Classroom(server.url, server.key)
    for room, lang, bot in (("HIRVI", "fi", "perusbotti"), ("MOOSE", "en", "basic bot")):
        learner = connect(server.url, room, "Aino", lang=lang)  # no room yet: the join makes it
        assert teacher.start(room) == [0]
        state = learner.wait(lambda s: s["view"] is not None)
        names = [seat["name"] for seat in state["seats"]]
        assert names == ["Aino"] + [f"{bot} {n}" for n in range(2, len(names) + 1)]
        learner.close()


def moves_by(server, seat: int) -> list[str]:
    rows = sqlite3.connect(server.database).execute(
        "SELECT nonce FROM moves WHERE room = 'SOPULI' AND seat = ? ORDER BY n", (seat,)
    )
    return [nonce for (nonce,) in rows]


def test_a_learner_who_leaves_is_replaced_by_a_bot_and_takes_the_seat_back(server_factory):
    server = server_factory()
    Classroom(server.url, server.key).create_room("SOPULI", players=2, deals=1, replace_after=0.5)
    ann, bo = connect(server.url, "SOPULI", "Ann"), connect(server.url, "SOPULI", "Bo")
    bo.wait(lambda s: s["view"] is not None)
    token = ann.token
    ann.close()
    bo.wait(lambda s: s["seats"][0]["control"] == "replaced")
    # Bo plays on; the bot plays Ann's turns (two bot moves: a draw and a discard).
    play(bo, until=lambda s: sum(n.startswith("bot") for n in moves_by(server, 0)) >= 2)
    assert all(n.startswith("bot") for n in moves_by(server, 0))
    back = connect(server.url, "SOPULI", "Ann", token=token)
    assert (back.table, back.seat) == (0, 0)
    bo.wait(lambda s: s["seats"][0]["control"] == "human")
    final = play_all([back, bo])[0]
    assert final["finished"]
    nonces = moves_by(server, 0)
    assert any(n.startswith("bot") for n in nonces) and not all(n.startswith("bot") for n in nonces)


def opening_hands(server, room: str) -> list:
    (record,) = [
        r for r in Classroom(server.url, server.key).rooms(open_hands=True) if r["room"] == room
    ]
    return [table["view"]["hands"] for table in record["tables"]]


def test_every_table_of_a_room_plays_the_same_deals_unless_the_teacher_says_otherwise(
    server_factory,
):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("SAMA", players=2, deals=1)
    teacher.create_room("ERI", players=2, deals=1, duplicate=False)
    for room in ("SAMA", "ERI"):
        seats = [connect(server.url, room, name) for name in ("Ann", "Bo", "Cy", "Di")]
        seats[3].wait(lambda s: s["view"] is not None)
    same, different = opening_hands(server, "SAMA"), opening_hands(server, "ERI")
    assert len(same) == len(different) == 2
    assert same[0] == same[1] and different[0] != different[1]


def test_a_bad_room_config_is_refused_with_a_localized_error(server_factory):
    server = server_factory()
    body = json.dumps({"room": "VIKA", "config": {"players": 7}}).encode()
    request = urllib.request.Request(
        server.url + "/api/rooms?lang=fi",
        data=body,
        headers={"Authorization": f"Bearer {server.key}"},
        method="POST",
    )
    try:
        urllib.request.urlopen(request)
        raise AssertionError("a room of 7 players was made")
    except urllib.error.HTTPError as refused:
        assert refused.code == 400
        reply = json.loads(refused.read())
    assert reply["code"] == "classroom.bad_field"
    assert reply["text"] == "Kenttä players puuttuu tai ei kelpaa."
    assert Classroom(server.url, server.key).rooms() == []


def test_two_learners_of_one_name_stand_apart_in_the_class_standings(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("KAIMA", players=2, deals=1)
    seats = [connect(server.url, "KAIMA", name) for name in ("Alex", "Bo", "Alex", "Cy")]
    finals = play_all(seats[:2]) + play_all(seats[2:])
    (room,) = teacher.rooms()
    standings = {(s["table"], s["seat"]): s for s in room["standings"]}
    assert len(standings) == 4  # one entry a seat, not a name
    for seat, final in zip(seats, finals, strict=True):
        entry = standings[(seat.table, seat.seat)]
        assert entry["name"] == seat.name and entry["deals"] == 1
        assert entry["penalty"] == final["view"]["result"]["penalties"][seat.seat]
        assert entry["same_name"] == (seat.name == "Alex")
