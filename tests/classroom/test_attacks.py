"""The classroom attacked as a curious learner, a learner with the browser's developer tools,
and another class on the same Wi-Fi would: each attack runs against a real server process
and must fail (docs/classroom.md, "Threat model")."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import stat
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed

from rummy_widget.classroom import Classroom, ServerError, connect
from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.protocol import VERSION
from rummy_widget.classroom.rooms import deal_seed
from rummy_widget.classroom.store import digest
from rummy_widget.engine.game import Game
from rummy_widget.i18n import t

from .conftest import Server
from .players import play


def hand_codes(view: dict) -> list[str]:
    return sorted(card["code"] for card in view["hand"])


def dealt(server, room: str, names=("Ann", "Bo")) -> list[dict]:
    """Two learners at a room's first table, dealt: each one's first view."""
    seats = [connect(server.url, room, name) for name in names]
    views = [seat.wait(lambda s: s["view"] is not None)["view"] for seat in seats]
    for seat in seats:
        seat.close()
    return views


# --- 1. every hand could be predicted ---------------------------------------------------------


def test_a_learner_cannot_compute_the_deals_of_a_room_with_a_secret_seed(server_factory):
    server = server_factory()
    Classroom(server.url, server.key).create_room("SALA", players=2, deals=1)
    ann, _ = dealt(server, "SALA")
    mine = hand_codes(ann)
    # The attack: the package and a guessed seed. Seed 0 was every room's; a teacher's was
    # below 2**31 and each deal was ``random.Random(k)`` of a small number.
    guesses = [*range(2048), *(deal_seed(k, 0) for k in range(2048))]
    for guess in guesses:
        game = Game(["Ann", "Bo"], seed=guess)
        assert hand_codes(game.observation(0)) != mine


def test_a_teachers_seed_repeats_the_deals_and_the_finished_room_shows_its_seed(
    server_factory,
):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("TUNTI", players=2, deals=1, seed=7)
    teacher.create_room("TOINEN", players=2, deals=1, seed=7)
    first, second = dealt(server, "TUNTI"), dealt(server, "TOINEN")
    assert [hand_codes(v) for v in first] == [hand_codes(v) for v in second]
    lesson = Game(["Ann", "Bo"], seed=deal_seed(7, 0))  # predictable, as the docs say
    assert hand_codes(first[0]) == hand_codes(lesson.observation(0))
    rooms = {room["room"]: room for room in teacher.rooms()}
    assert rooms["TUNTI"]["config"]["seed"] is None  # not while a table still plays


def test_a_finished_room_shows_its_secret_seed_in_the_teachers_records(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("LOPPU", players=2, deals=1)
    ann = connect(server.url, "LOPPU", "Ann")
    assert teacher.rooms()[0]["config"]["seed"] is None
    teacher.start("LOPPU")
    start = ann.wait(lambda s: s["view"] is not None)["view"]
    play(ann)
    (room,) = teacher.rooms()
    assert room["finished"]
    seed = room["config"]["seed"]
    assert isinstance(seed, int) and seed.bit_length() > 64  # 128 bits from ``secrets``
    names = [s["name"] for s in room["tables"][0]["seats"]]
    assert hand_codes(start) == hand_codes(Game(names, seed=deal_seed(seed, 0)).observation(0))


# --- 2. the key was on the projector ----------------------------------------------------------


def test_the_key_is_printed_once_and_kept_only_as_a_digest_in_a_private_file(server_factory):
    server = server_factory("--room", "KETTU")
    connect(server.url, "KETTU", "Ann").close()  # a write: SQLite's -wal and -shm exist
    log = server.log.read_text()
    assert sum(server.key in line for line in log.splitlines()) == 1
    assert "#key=" not in log and f"{server.url}/board " in log
    dump = "\n".join(sqlite3.connect(server.database).iterdump())
    assert server.key not in dump and digest(server.key) in dump
    for suffix in ("", "-wal", "-shm"):
        mode = stat.S_IMODE(os.stat(server.database + suffix).st_mode)
        assert mode == 0o600, (suffix, oct(mode))


def test_a_restart_keeps_the_key_unprinted_and_rotate_key_replaces_it(server_factory):
    server = server_factory()
    old = server.key
    server.stop()
    server.start()
    assert server.key == old  # not printed again: the conftest kept the first one
    assert Classroom(server.url, old).rooms() == []
    server.stop()
    server.args.append("--rotate-key")
    server.start()
    assert server.key != old
    assert Classroom(server.url, server.key).rooms() == []
    with pytest.raises(urllib.error.HTTPError) as refused:
        Classroom(server.url, old).rooms()
    assert refused.value.code == 401


def test_the_projector_needs_no_key_and_never_shows_a_card(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("VALKO", players=2, deals=1)
    ann, bo = connect(server.url, "VALKO", "Ann"), connect(server.url, "VALKO", "Bo")
    hand = ann.wait(lambda s: s["view"] is not None)["view"]["hand"]
    page = get(server, "/projector?lang=fi")
    assert page.status == 200 and b"Rummy-luokka" in page.read()
    body = get(server, "/api/projector").read().decode()
    (room,) = json.loads(body)["rooms"]
    (table,) = room["tables"]
    assert table["view"] is None and table["log"] == [] and table["move"] is None
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bo"]
    assert '"hand' not in body and '"code"' not in body and '"discard' not in body
    assert all(f'"id":{card["id"]},' not in body for card in hand)
    for seat in (ann, bo):
        seat.close()


def get(server, path: str, **headers: str):
    request = urllib.request.Request(server.url + path, headers=headers)
    return urllib.request.urlopen(request, timeout=10)


# --- 3. anyone made rooms -------------------------------------------------------------------


def test_a_join_to_a_room_the_teacher_did_not_make_is_refused_in_the_learners_language(
    server_factory,
):
    server = server_factory()
    with pytest.raises(ServerError) as refused:
        connect(server.url, "KETTU", "Aino", lang="fi")
    assert refused.value.code == "classroom.room_not_made"
    assert str(refused.value) == t("error.classroom.room_not_made", "fi", room="KETTU")
    assert Classroom(server.url, server.key).rooms() == []


def test_open_rooms_are_capped_per_address_and_a_look_alike_room_is_refused(server_factory):
    server = server_factory("--open-rooms", "--rooms-per-address", "2")
    for room in ("YKSI", "KAKSI"):
        connect(server.url, room, "Ann").close()
    with pytest.raises(ServerError) as refused:
        connect(server.url, "KOLME", "Ann")
    assert refused.value.code == "classroom.too_many_rooms"
    with pytest.raises(ServerError) as refused:
        connect(server.url, "yksi", "Ann")  # not a second room that looks like YKSI
    assert refused.value.code == "classroom.room_not_made"
    with pytest.raises(urllib.error.HTTPError) as made:
        Classroom(server.url, server.key).create_room("Kaksi")
    assert made.value.code == 400
    assert sorted(r["room"] for r in Classroom(server.url, server.key).rooms()) == [
        "KAKSI",
        "YKSI",
    ]


def test_tables_a_room_and_connections_an_address_are_capped(server_factory):
    server = server_factory("--players", "2", "--max-tables", "1", "--max-connections", "3")
    Classroom(server.url, server.key).create_room("PIENI", players=2, deals=1)
    seats = [connect(server.url, "PIENI", name) for name in ("Ann", "Bo")]
    with pytest.raises(ServerError) as refused:
        connect(server.url, "PIENI", "Cy")  # the one table is full
    assert refused.value.code == "classroom.room_full"
    third = open_socket(server.url)  # the third socket of this address: allowed
    with pytest.raises(ServerError) as refused:
        connect(server.url, "PIENI", "Di")  # a fourth
    assert refused.value.code == "classroom.too_many_connections"
    third.close()
    for seat in seats:
        seat.close()


def test_the_teacher_removes_a_learner_for_good_and_the_bot_plays_the_seat(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("POIS", players=2, deals=1)
    ann, bo = connect(server.url, "POIS", "Ann"), connect(server.url, "POIS", "Bo", lang="fi")
    bo.wait(lambda s: s["view"] is not None)
    bo.frames = []
    teacher.remove("POIS", 0, 1)
    with pytest.raises(ConnectionClosed):
        bo._next(lambda m: False, timeout=10)
    told = [json.loads(f) for f in bo.frames if '"error"' in f]
    assert told[-1]["code"] == "classroom.removed"
    assert told[-1]["text"] == t("error.classroom.removed", "fi")
    with pytest.raises(ServerError) as refused:
        connect(server.url, "POIS", "Bo", token=bo.token)
    assert refused.value.code == "classroom.removed"
    final = play(ann)  # the bot plays Bo's turns to the end of the deal
    assert final["finished"] and final["seats"][1]["control"] == "removed"
    assert [r["control"] for r in teacher.results()] == ["human", "removed"]


def test_a_closed_room_ends_its_connections_and_takes_no_join_or_move(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("LOPPU", players=2, deals=1)
    ann, bo = connect(server.url, "LOPPU", "Ann"), connect(server.url, "LOPPU", "Bo")
    ann.wait(lambda s: s["view"] is not None)
    ann.frames = []
    teacher.close_room("LOPPU")
    with pytest.raises(ConnectionClosed):
        ann._next(lambda m: False, timeout=10)
    assert json.loads(ann.frames[-1])["code"] == "classroom.room_closed"
    for token in (None, ann.token):
        with pytest.raises(ServerError) as refused:
            connect(server.url, "LOPPU", "Ann", token=token)
        assert refused.value.code == "classroom.room_closed"
    (room,) = teacher.rooms()
    assert room["closed"] and [s["name"] for s in room["tables"][0]["seats"]] == ["Ann", "Bo"]
    bo.close()


# --- 4. names that fool the eye --------------------------------------------------------------

FOOLING = [
    ("room", "KETTU\n", "classroom.bad_field"),
    ("name", "Ann\u202etxt.exe", "classroom.name_hidden"),  # right-to-left override
    ("name", "An\u200bn", "classroom.name_hidden"),  # zero-width space
    ("name", "Ann\x85", "classroom.name_hidden"),  # a C1 control
    ("name", "Ann\u2028", "classroom.name_hidden"),  # a line separator
    ("name", "Z" + "\u0301" * 60, "classroom.name_marks"),
    ("name", "Zo\u0301\u0301\u0301e", "classroom.name_marks"),
    ("name", "basic bot 2", "classroom.name_reserved"),
    ("name", "Perusbotti 2", "classroom.name_reserved"),
    ("name", "EXPERT  BOT", "classroom.name_reserved"),
]


@pytest.mark.parametrize(("field", "value", "code"), FOOLING)
def test_a_name_that_fools_the_eye_is_refused_in_the_learners_language(
    shared_server, field, value, code
):
    server = shared_server
    join = {"v": VERSION, "type": "join", "room": "KETTU", "name": "Ann", "lang": "fi"}
    ws = open_socket(server.url)
    ws.send(json.dumps({**join, field: value}))
    reply = json.loads(ws.recv(timeout=10))
    ws.close()
    assert reply["type"] == "error" and reply["code"] == code
    assert reply["text"] == t(f"error.{code}", "fi", field=field, name=" ".join(value.split()))
    assert all(r["room"] == "KETTU" for r in Classroom(server.url, server.key).rooms())


def test_a_room_name_with_a_newline_is_refused_to_the_teacher_too(shared_server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        Classroom(shared_server.url, shared_server.key).create_room("KETTU\n")
    assert refused.value.code == 400


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("attacks"), "--players", "2", "--room", "KETTU")
    yield server.start()
    server.stop()
    assert "Traceback" not in server.log.read_text()


# --- 5. a formula in the results --------------------------------------------------------------


def test_a_learners_formula_is_text_in_the_results_csv(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("KAAVA", players=2, deals=1)
    name = '=HYPERLINK("http://x.fi","ok")'
    learner = connect(server.url, "KAAVA", name)
    teacher.start("KAAVA")
    play(learner)
    rows = list(csv.DictReader(io.StringIO(teacher.results_csv())))
    assert rows[0]["name"] == "'" + name
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r.values())
