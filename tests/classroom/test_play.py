"""A whole deal through the network, the records it leaves, and the seats' tokens."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import InvalidStatus

from rummy_widget import Game
from rummy_widget.classroom import Classroom, ServerError, connect
from rummy_widget.classroom.client import open_socket
from rummy_widget.classroom.protocol import VERSION
from rummy_widget.i18n import t

from .players import play_all, table_of_four


def test_four_learners_play_a_whole_deal_and_the_teacher_gets_the_records(server_factory):
    server = server_factory("--deals", "1", "--room", "KETTU")
    seats = table_of_four(server.url, "KETTU")
    assert [(s.table, s.seat) for s in seats] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    finals = play_all(seats)
    assert all(f["finished"] for f in finals)
    assert len({f["move"] for f in finals}) == 1
    result = finals[0]["view"]["result"]

    teacher = Classroom(server.url, server.key)
    rows = teacher.results()
    assert [r["name"] for r in rows] == ["Ann", "Bo", "Cy", "Di"]
    assert [r["penalty"] for r in rows] == result["penalties"]
    assert sum(r["winner"] for r in rows) == (0 if result["void"] else 1)
    game = teacher.game("KETTU", 0, 0)
    assert isinstance(game, Game) and game.phase == "over"
    assert game.result.penalties == result["penalties"]
    assert len(game.history) == finals[0]["move"]
    csv = teacher.results_csv().splitlines()
    assert csv[0].startswith("room,table,deal,seat,name") and len(csv) == 5
    (record,) = teacher.tables()
    assert record["finished"] and [s["name"] for s in record["seats"]] == ["Ann", "Bo", "Cy", "Di"]


def test_an_illegal_move_is_refused_in_the_learners_language_and_changes_nothing(server_factory):
    server = server_factory("--players", "2", "--room", "ILVES")
    ann, bo = connect(server.url, "ILVES", "Ann"), connect(server.url, "ILVES", "Bo", "fi")
    before = bo.wait(lambda s: s["view"] is not None)
    ann.wait(lambda s: s["view"] is not None)
    assert ann.observation()["current_player"] == ann.seat == 0  # the dealer's left plays first
    before_ann = ann.observation()
    with pytest.raises(ServerError) as refused:
        bo.act({"type": "draw", "source": "stock"})
    assert refused.value.code == "not_your_turn"
    assert str(refused.value) == t("error.not_your_turn", "fi", player="Ann")
    with pytest.raises(ServerError) as refused:
        ann.act({"type": "discard", "card": ann.observation()["hand"][0]["id"]})
    assert refused.value.code == "draw_first"
    assert str(refused.value) == t("error.draw_first", "en")
    assert ann.observation() == before_ann and bo.observation() == before["view"]
    assert ann.state["move"] == bo.state["move"] == 0


def test_a_seat_is_played_only_with_its_token_and_tokens_never_leak(server_factory):
    server = server_factory("--players", "2", "--room", "SUSI")
    ann = connect(server.url, "SUSI", "Ann")
    with pytest.raises(ServerError) as refused:
        connect(server.url, "SUSI", "Mallory", token="x" * 32)
    assert refused.value.code == "classroom.bad_token"
    bo = connect(server.url, "SUSI", "Bo")
    # The same token takes back the same seat, on a new connection.
    again = connect(server.url, "SUSI", "Ann", token=ann.token)
    assert (again.table, again.seat) == (ann.table, ann.seat)
    teacher = Classroom(server.url, server.key)
    board = json.dumps(teacher.rooms(open_hands=True))
    spectator = open_socket(server.url)
    watch = {"v": VERSION, "type": "watch", "room": "SUSI", "key": server.key, "hands": False}
    spectator.send(json.dumps(watch))
    seen = [spectator.recv(timeout=10) for _ in range(2)]
    page = urllib.request.urlopen(server.url + "/board").read().decode()
    database = sqlite3.connect(server.database).iterdump()
    stored = "\n".join(database)
    for token in (ann.token, bo.token):
        assert token not in board
        assert token not in "".join(seen)
        assert token not in page
        assert token not in server.log.read_text()
        assert token not in stored  # only its SHA-256 digest is kept


def test_the_board_and_its_data_need_the_teacher_key(server_factory):
    server = server_factory()
    page = urllib.request.urlopen(server.url + "/board?lang=fi").read().decode()
    assert "Rummy-luokka: opettajan taulu" in page and server.key not in page
    for path in ("/api/rooms", "/api/results", "/api/results.csv"):
        request = urllib.request.Request(
            server.url + path + "?lang=fi", headers={"Authorization": "Bearer wrong-key-12345678"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 401
        body = json.loads(refused.value.read())
        assert body["code"] == "classroom.bad_key" and body["text"] == "Opettajan avain ei kelpaa."
    assert Classroom(server.url, server.key).rooms() == []


def test_a_foreign_origin_cannot_open_a_seat(server_factory):
    server = server_factory("--origin", "http://localhost:8888")
    with pytest.raises(InvalidStatus):
        open_socket(server.url, origin="http://evil.example")
    for origin in ("http://localhost:8888", server.url):
        open_socket(server.url, origin=origin).close()
