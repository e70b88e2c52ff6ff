"""The classroom attacked as a curious learner, a learner with the browser's developer tools,
and another class on the same Wi-Fi would: each attack runs against a real server process
and must fail (docs/classroom.md, "Threat model")."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import http.client
import io
import json
import os
import sqlite3
import ssl
import stat
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus

from rummy_widget.classroom import Classroom, ServerError, connect
from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.hub import MAX_OUTBOX, Conn
from rummy_widget.classroom.protocol import VERSION, learner_name
from rummy_widget.classroom.rooms import deal_seed
from rummy_widget.classroom.store import Store, digest
from rummy_widget.engine.game import Game
from rummy_widget.i18n import t

from .conftest import Server, port_open, wait_for
from .players import play, play_all


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


def test_a_room_an_earlier_version_made_with_seed_0_deals_in_secret_from_now_on(server_factory):
    """An earlier version stored every room with seed 0 (and no ``closed``). After the upgrade
    such a room's next deals come from a secret seed; a teacher's own seed stays."""
    server = server_factory()
    server.stop()
    store = Store(server.database)
    old = {"players": 2, "bots": "basic", "replace_after": 60.0, "deals": 1, "seed": 0}
    store.add_room("VANHA", {**old, "duplicate": True, "rules": "traditional", "lang": "en"})
    store.add_room("OMA", {**old, "seed": 7, "duplicate": True, "rules": "traditional"})
    store.close()
    server.start()
    ann, _ = dealt(server, "VANHA")
    guesses = [*range(2048), *(deal_seed(k, 0) for k in range(2048))]
    for guess in guesses:
        assert hand_codes(Game(["Ann", "Bo"], seed=guess).observation(0)) != hand_codes(ann)
    kept = Store(server.database)
    assert kept.room("OMA")["seed"] == 7 and kept.room("VANHA")["seed"] >= 2**64
    kept.close()


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


def test_a_key_an_earlier_version_kept_in_clear_is_digested_and_still_opens(tmp_path):
    server = Server(tmp_path)
    store = Store(server.database)
    store.put_setting("teacher_key", "an-old-key-kept-in-clear")
    store.close()
    server.start()
    try:
        assert server.key is None  # not printed: the teacher has it already
        assert Classroom(server.url, "an-old-key-kept-in-clear").rooms() == []
        dump = "\n".join(sqlite3.connect(server.database).iterdump())
        assert "an-old-key-kept-in-clear" not in dump
    finally:
        server.stop()


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
    # Letters and marks that show nothing (Default_Ignorable_Code_Point, not Cf; a blank)
    ("name", "basic bot 2\u3164", "classroom.name_hidden"),  # Hangul filler: a bot's name
    ("name", "\u115f", "classroom.name_hidden"),  # Hangul choseong filler: a blank name
    ("name", "Ann\u034f", "classroom.name_hidden"),  # combining grapheme joiner
    ("name", "Ann\ufe0f", "classroom.name_hidden"),  # variation selector
    ("name", "Ann\u17b4", "classroom.name_hidden"),  # Khmer inherent vowel
    ("name", "\u2800", "classroom.name_hidden"),  # braille blank
    # A bot's name in look-alike Cyrillic or Greek letters
    ("name", "b\u0430sic bot 2", "classroom.name_reserved"),  # Cyrillic a
    ("name", "\u0420\u0415RUSB\u039fTTI 2", "classroom.name_reserved"),  # Cyrillic P E, Greek O
    ("name", "expert b\u03bf\u0442 1", "classroom.name_reserved"),  # Greek o, Cyrillic t
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


# --- 6. crashes and floods ------------------------------------------------------------------


def test_credentials_the_server_cannot_read_are_a_401_not_a_500(shared_server):
    host, port = shared_server.url.removeprefix("http://").split(":")
    for header in (b"Bearer \xe4\xe4kk\xf6set", b"Bearer \xff\xfe", b"Basic x", b"Bearer "):
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        conn.putrequest("GET", "/api/rooms")
        conn.putheader("Authorization", header)
        conn.endheaders()
        answer = conn.getresponse()
        assert answer.status == 401, header
        assert json.loads(answer.read())["code"] == "classroom.bad_key"
        conn.close()


def test_a_host_name_the_server_was_not_given_is_refused(shared_server):
    """DNS rebinding: a page on evil.example whose name now resolves to the server."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        get(shared_server, "/board", Host="evil.example")
    assert refused.value.code == 400
    with pytest.raises(InvalidStatus):
        open_socket(shared_server.url, additional_headers={"Host": "evil.example:80"})
    assert get(shared_server, "/board", Host="localhost").status == 200


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


#: What a 10,000-frame flood may add to the server's resident memory.
FLOOD_BOUND_KIB = 16 * 1024


@pytest.mark.parametrize("rate", ["20", "1000000"])
def test_a_flood_of_frames_is_closed_and_the_servers_memory_stays_bounded(server_factory, rate):
    """10,000 frames as fast as one client can send them, never reading an answer: at the
    default rate the refusals close it after a burst's worth; at a rate that refuses
    nothing for its pace, the answers it does not read fill its outbox and close it."""
    server = server_factory("--rate", rate, "--room", "KETTU")
    seat = connect(server.url, "KETTU", "Ann")
    before = rss_kib(server.proc.pid)
    flood = open_socket(server.url)
    sent = 0
    frame = json.dumps({"v": VERSION, "type": "watch", "room": "KETTU", "key": "x" * 20})
    with contextlib.suppress(ConnectionClosed, OSError):
        for sent in range(1, 10_001):  # noqa: B007 (how many got out is the figure)
            flood.send(frame)
    wait_for(lambda: port_open(server.port) and health(server), what="the server")
    grown = rss_kib(server.proc.pid) - before
    assert grown < FLOOD_BOUND_KIB, f"{grown} KiB after {sent} frames"
    with pytest.raises((ConnectionClosed, TimeoutError)):
        for _ in range(10_001):
            flood.recv(timeout=5)  # the answers it got, then the close (none hang)
    assert seat.observation() is None  # the learner's seat is untouched and answers
    flood.close()
    seat.close()
    server.stop()
    assert "Traceback" not in server.log.read_text()


def health(server) -> bool:
    return get(server, "/health").read() == b"ok"


def test_an_outbox_past_its_bound_closes_the_connection():
    """A client that never reads: its socket's writes wait, its messages queue, and at
    ``MAX_OUTBOX`` the connection is closed and its queue dropped."""

    async def scenario() -> tuple[bool, int, list[int]]:
        stuck = asyncio.Event()
        closed: list[int] = []

        async def never_done(text: str) -> None:
            await stuck.wait()

        async def close(code: int) -> None:
            closed.append(code)

        conn = Conn(never_done, close_socket=close)
        for n in range(MAX_OUTBOX + 10):
            conn.push(f"message {n}")
        await asyncio.sleep(0)
        stuck.set()
        await asyncio.sleep(0.05)
        return conn.closing, len(conn._out), closed

    closing, queued, closed = asyncio.run(scenario())
    assert closing and queued == 0 and closed == [1008]


# --- hypothesis: whatever frames come, the server answers in the protocol and stores nothing bad


names = st.text(min_size=0, max_size=40) | st.sampled_from(["basic bot 1", "Ann\u202e", "Bo"])
frames = st.one_of(
    st.fixed_dictionaries(
        {"v": st.just(VERSION), "type": st.just("join"), "name": names},
        optional={
            "room": st.sampled_from(["KETTU", "KETTU\n", "kettu", "MUU", ""]),
            "lang": st.sampled_from(["en", "fi", "xx"]),
            "token": st.text(max_size=40),
            "id": st.text(max_size=12),
        },
    ),
    st.fixed_dictionaries(
        {"v": st.just(VERSION), "type": st.just("watch"), "room": st.just("KETTU")},
        optional={"key": st.text(max_size=40), "hands": st.booleans() | st.integers()},
    ),
    st.fixed_dictionaries(
        {"v": st.just(VERSION), "type": st.just("act"), "id": st.text(max_size=8)},
        optional={
            "deal": st.integers(-1, 3),
            "move": st.integers(-1, 3),
            "action": st.fixed_dictionaries({"type": st.sampled_from(["draw", "discard"])}),
        },
    ),
)
SERVER_TYPES = {"welcome", "state", "update", "ack", "error"}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(sequence=st.lists(frames, min_size=1, max_size=6))
def test_any_frames_get_answers_in_the_protocol_and_store_only_well_formed_seats(
    shared_server, sequence
):
    server = shared_server
    ws = open_socket(server.url)
    answers = []
    try:
        for frame in sequence:
            ws.send(json.dumps(frame))
            with contextlib.suppress(TimeoutError):
                while True:
                    answers.append(json.loads(ws.recv(timeout=0.3)))
    except ConnectionClosed:
        assert answers[-1]["code"] in ("classroom.refused_too_often", "classroom.removed")
    finally:
        ws.close()
    for answer in answers:
        assert answer["type"] in SERVER_TYPES and answer["v"] == VERSION
        if answer["type"] == "error":
            assert answer["code"] and answer["text"]
    db = sqlite3.connect(server.database)
    for (name,) in db.execute("SELECT name FROM seats WHERE control = 'human'"):
        assert learner_name(name) == name  # stored as shown, and nothing hidden
    assert {room for (room,) in db.execute("SELECT name FROM rooms")} == {"KETTU"}
    (twice,) = db.execute(
        "SELECT COUNT(*) FROM (SELECT 1 FROM moves GROUP BY room, tbl, deal, nonce"
        " HAVING COUNT(*) > 1)"
    ).fetchone()
    assert twice == 0


# --- 7. spectators saw what others still held -------------------------------------------------


def test_watching_needs_the_key_and_the_projector_shows_only_settled_deals(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("KAKSI", players=2, deals=2)
    for key, code in ((None, "classroom.key_needed"), ("x" * 32, "classroom.bad_key")):
        ws = open_socket(server.url)
        watch = {"v": VERSION, "type": "watch", "room": "KAKSI", "lang": "fi", "id": "w1"}
        ws.send(json.dumps({**watch, "key": key}))
        reply = json.loads(ws.recv(timeout=10))
        assert (reply["code"], reply["id"]) == (code, "w1")
        assert reply["text"] == t(f"error.{code}", "fi")
        ws.close()
    first = [connect(server.url, "KAKSI", name) for name in ("Ann", "Bo")]
    second = [connect(server.url, "KAKSI", name) for name in ("Cy", "Di")]
    play_all(first, until=lambda s: s["deal"] == 1)  # table 1 finishes deal 1 of 2
    (room,) = json.loads(get(server, "/api/projector").read())["rooms"]
    assert [t["results"] for t in room["tables"]] == [[], []]  # table 2 still plays it
    assert room["standings"] == []
    play_all(second, until=lambda s: s["deal"] == 1)
    (room,) = json.loads(get(server, "/api/projector").read())["rooms"]
    assert [[r["deal"] for r in t["results"]] for t in room["tables"]] == [[0], [0]]
    assert len(room["standings"]) == 4
    for seat in first + second:
        seat.close()


# --- 8. TLS --------------------------------------------------------------------------------


def test_the_server_speaks_tls_with_the_teachers_certificate(tmp_path, monkeypatch):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    # The docs' self-signed example (docs/classroom.md, "TLS"), for this machine's address.
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"]
    command += ["-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(command, check=True, capture_output=True)
    server = Server(tmp_path, "--certfile", str(cert), "--keyfile", str(key), "--room", "SUOJA")
    server.start()
    try:
        https = server.url.replace("http://", "https://")
        assert f"Learners join: {https}" in server.log.read_text()
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # trust the self-signed certificate
        context = ssl.create_default_context()
        with urllib.request.urlopen(https + "/health", context=context, timeout=10) as answer:
            assert answer.read() == b"ok"
        seat = connect(https, "SUOJA", "Ann")  # wss://
        assert seat.seat == 0
        seat.close()
        with pytest.raises((urllib.error.URLError, http.client.RemoteDisconnected, OSError)):
            urllib.request.urlopen(server.url + "/health", timeout=10)  # no plain http
    finally:
        server.stop()


# --- 9. bots hung -----------------------------------------------------------------------------


def test_a_script_playing_as_fast_as_it_can_is_paced_by_rate_refusals_not_hung(server_factory):
    server = server_factory("--rate", "5", "--room", "KIIRE")
    teacher = Classroom(server.url, server.key)
    seat = connect(server.url, "KIIRE", "Ann")
    seat.frames = []
    teacher.start("KIIRE")
    final = play(seat)  # a basic bot through ``connect()``: no pause of its own
    assert final["finished"]
    refusals = [json.loads(f) for f in seat.frames if '"classroom.rate"' in f]
    assert refusals and all(r["id"] and r["retry_after"] >= 0 for r in refusals)
    assert len(refusals) <= 3  # after the first, the client keeps to the server's rate
