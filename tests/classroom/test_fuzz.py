"""Malformed and fuzzed messages: each gets a localized error and changes nothing."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from rummy_widget.classroom import Classroom, connect
from rummy_widget.classroom.protocol import MAX_MESSAGE
from rummy_widget.i18n import table as locale

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "meld", "lay_off", "discard", "x"])},
    optional={
        "source": st.sampled_from(["stock", "discard", "", 3]),
        "card": st.integers(-5, 110) | st.text(max_size=3),
        "cards": st.lists(st.integers(-5, 110), max_size=12),
        "meld_index": st.integers(-3, 20) | st.booleans(),
    },
)
shaped = st.fixed_dictionaries(
    {
        "v": st.sampled_from([1, 1, 1, 2, "1"]),
        "type": st.sampled_from(["join", "watch", "act", "x"]),
    },
    optional={
        "id": st.text(max_size=45),
        "move": st.integers(-2, 5) | st.text(max_size=2),
        "deal": st.integers(-1, 2) | st.none(),
        "action": actions | json_values,
        "room": st.text(max_size=30),
        "name": st.text(max_size=40),
        "token": st.text(max_size=70),
        "key": st.text(max_size=70),
        "lang": st.sampled_from(["en", "fi", "sv", 1]),
    },
)
messages = (
    shaped.map(json.dumps)
    | json_values.map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=60)
    | st.just("x" * (MAX_MESSAGE + 1))
)


def in_finnish(code: str, text: str) -> bool:
    """Is ``text`` the Finnish message of ``error.<code>``, placeholders filled?"""
    template = locale("fi")[f"error.{code}"]
    pattern = ".+".join(re.escape(part) for part in re.split(r"\{[^}]*\}", template))
    return re.fullmatch(pattern, text, re.DOTALL) is not None


@pytest.fixture(scope="module")
def seated(tmp_path_factory):
    from .conftest import Server

    server = Server(
        tmp_path_factory.mktemp("fuzz"), "--players", "2", "--rate", "100000", "--room", "PUMA"
    ).start()
    ann, bo = connect(server.url, "PUMA", "Ann"), connect(server.url, "PUMA", "Bo", lang="fi")
    bo.wait(lambda s: s["view"] is not None)
    yield server, ann, bo
    server.stop()


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=messages)
def test_a_fuzzed_message_gets_a_localized_error_and_changes_nothing(seated, message):
    server, _ann, bo = seated  # Bo (Finnish) is not to play: no message of his can be a move
    before = bo.observation()
    reply = bo.send_raw(message)
    assert reply["type"] == "error" and reply["code"]
    assert in_finnish(reply["code"], reply["text"])
    assert bo.observation() == before
    (record,) = Classroom(server.url, server.key).tables()
    assert record["move"] == 0


def test_too_many_messages_are_refused_then_the_connection_is_closed(server_factory):
    server = server_factory("--players", "2", "--rate", "5", "--room", "ORAVA")
    ann = connect(server.url, "ORAVA", "Ann", lang="fi")
    codes = []
    with pytest.raises(ConnectionClosed):
        for _ in range(30):  # a burst's worth of refusals (10 at --rate 5) is let through
            codes.append(ann.send_raw("{}")["code"])
    # The last word may still wait unread when a send finds the connection closed: read it.
    with contextlib.suppress(ConnectionClosed):
        while True:
            codes.append(json.loads(ann._ws.recv(timeout=5))["code"])
    assert "classroom.rate" in codes and "classroom.version" in codes
    assert codes[-1] == "classroom.refused_too_often" and 10 <= len(codes) < 30
