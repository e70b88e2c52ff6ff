"""A classroom seat in the kernel (``RummyTable(server=..., room=..., name=...)``) against the
real server process, with the browser's relay (js/src/remote.ts) played by a Python
WebSocket pipe: join, a whole deal against the server's bots, refusals, the seat taken back
with its token, views shaped like a local table's, and no hidden card in any synced view."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets", reason="the [classroom] extra is not installed")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom.conftest import Server
from hidden_cards import card_ids_in, hidden_from
from websockets.sync.client import connect as ws_connect

from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.classroom import Classroom
from rummy_widget.i18n import t
from rummy_widget.table.core import Table
from rummy_widget.table.widget import RummyTable

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "test" / "fixtures"


class Relay:
    """What js/src/remote.ts does in the browser, in Python: one socket per widget, every
    server frame to the kernel as a custom message, the kernel's frames out, the seat's token
    kept per (server, room, name) in ``storage`` (the browser's localStorage)."""

    def __init__(self, widget: RummyTable, storage: dict) -> None:
        self.widget, self.storage = widget, storage
        where = widget.remote
        self.key = (where["url"], where["room"], where["name"])
        self.ws = ws_connect(where["url"], open_timeout=5).__enter__()
        widget.send = self.from_kernel  # the widget's custom messages to the front end
        self.synced: list[tuple[dict | None, str]] = []  # (server state, synced JSON) seen
        self.events: list[list] = []  # what the kernel was told, in order (for the replay)
        self.to_kernel({"type": "remote_open", "token": storage.get(self.key)})

    def from_kernel(self, content: dict, buffers=None) -> None:
        assert content["type"] == "remote_send"
        self.ws.send(content["text"])

    def to_kernel(self, content: dict) -> None:
        self.events.append(["relay", content])
        self.widget._handle_custom_msg(content, [])
        state = self.widget.core.state
        self.synced.append((state, json.dumps(self.widget.get_state(), default=str)))

    def pump(self, until, timeout: float = 30.0) -> None:
        """Relay frames until ``until()`` holds."""
        while not until():
            text = self.ws.recv(timeout=timeout)
            message = json.loads(text)
            if message["type"] == "welcome":
                self.storage[self.key] = message["token"]
            self.to_kernel({"type": "remote_frame", "text": text})

    def drop(self) -> None:
        """The socket closes (a page reload, a network cut): the relay tells the kernel."""
        self.ws.close()
        self.to_kernel({"type": "remote_closed"})


@pytest.fixture
def server(tmp_path):
    # --rate: the relay plays the learner's moves as fast as a script, past a class's 20 a
    # second; --room: learners join only rooms the teacher made.
    options = ["--replace-after", "600", "--rate", "1000", "--room", "KETTU"]
    started = Server(tmp_path, "--players", "2", "--deals", "1", *options)
    yield started.start()
    started.stop()


def seat_table(server: Server, name: str = "Alex", lang: str = "en") -> RummyTable:
    return RummyTable(server=server.url, room="KETTU", name=name, lang=lang, bot_speed="instant")


def act(relay: Relay, action) -> bool:
    """The learner's intent, then the frames until the server has answered it."""
    table = relay.widget
    intent = {"type": "action", "rev": table.view["rev"], "action": action}
    relay.events.append(["intent", intent])
    done = table.handle_intent(intent)
    relay.pump(lambda: table.core._pending is None)
    return done


def playing(table: RummyTable) -> bool:
    view = table.view
    return (
        view["pass"] is None and view["phase"] != "over" and view["current_player"] == view["seat"]
    )


def step_keys(view: dict) -> set[tuple[str, ...]]:
    """The shapes of a view's steps: a step's keys, then its table's ("hands" only with
    the teacher's open hands)."""
    return {(*sorted(s), "|", *sorted(set(s["table"]) - {"hands"})) for s in view["steps"]}


def test_a_learner_plays_a_whole_deal_against_the_servers_bot(server):
    storage: dict = {}
    table = seat_table(server)
    assert table.view["pass"]["title"].startswith("Connecting to the classroom server")
    relay = Relay(table, storage)
    relay.pump(lambda: table.core.table is not None and table.core.state is not None)
    assert table.view["pass"]["title"] == t(
        "ui.remote.waiting", "en", room="KETTU", table=1, seated=1, seats=2
    )
    assert Classroom(server.url, server.key).start("KETTU") == [0]  # a bot in the empty seat
    relay.pump(lambda: table.core.observation() is not None)
    local = Table(opponents=["basic"], seed=1).view(0, "en")
    start = json.loads((FIXTURES / "start_2p.json").read_text())
    bots = json.loads((FIXTURES / "bots_4p_reveal.json").read_text())  # a local bots' turn
    assert table.view["classroom"] is True  # what a classroom seat cannot do is not shown
    # rules: its own trait; classroom: only a classroom seat's view has it
    assert sorted({*table.view, "rules"} - {"classroom"}) == sorted(local) == sorted(start)
    bot = get_bot("basic", seed=3)
    steps_seen = 0
    while table.view["phase"] != "over":
        relay.pump(lambda: playing(table) or table.view["phase"] == "over")
        if table.view["phase"] == "over":
            break
        steps_seen += len(table.view["steps"])
        if table.view["steps"]:  # the other seat's moves, to animate like a local bot's
            assert step_keys(table.view) == step_keys(bots)
            assert {s["actor"] for s in table.view["steps"]} == {1 - table.core.seat}
        assert act(relay, bot.act(table.core.observation()).to_json())
        view = table.view
        assert view["message"] is None and view["penalty"] is not None
    assert steps_seen > 0
    board = table.view["scoreboard"]
    assert board["match_over"] and board["outcome"]
    # The seat saw what the stored game shows it, at every move.
    game = Classroom(server.url, server.key).game("KETTU", 0, 0)
    seat = table.core.seat
    assert table.core.observation() == json.loads(json.dumps(game.observation(seat)))
    save = game.to_dict()
    for state, synced in relay.synced:
        if state is None or state["view"] is None:
            continue
        at = Game.from_dict(save, upto=state["move"])
        assert not card_ids_in(json.loads(synced)) & hidden_from(at, seat), state["move"]
        assert storage[relay.key] not in synced  # the token is in no synced trait


def test_refusals_reach_the_message_line_in_the_tables_language(server):
    storage: dict = {}
    ann, bo = seat_table(server, "Ann"), seat_table(server, "Bo", lang="fi")
    relays = [Relay(ann, storage), Relay(bo, storage)]
    for relay in relays:
        relay.pump(lambda r=relay: r.widget.core.observation() is not None)
    mover = ann if playing(ann) else bo
    waiter = bo if mover is ann else ann
    moving, waiting = relays[0 if mover is ann else 1], relays[1 if mover is ann else 0]
    # Not this seat's turn: refused in the kernel, with the server's own words.
    assert not waiter.handle_intent(
        {"type": "action", "rev": waiter.view["rev"], "action": {"type": "draw", "source": "stock"}}
    )
    name = mover.core.name
    assert waiter.view["message"]["text"] == t("error.not_your_turn", waiter.lang, player=name)
    # A discard before drawing: sent, refused by the server's engine, nothing moves.
    move = mover.core.state["move"]
    card = mover.core.observation()["hand"][0]["id"]
    assert act(moving, {"type": "discard", "card": card})
    assert mover.view["message"]["text"] == t("error.draw_first", mover.lang)
    assert mover.core.state["move"] == move
    mover.lang = "fi" if mover.lang == "en" else "en"  # the learner switches the language
    assert mover.view["message"]["text"] == t("error.draw_first", mover.lang)
    # An illegal meld names its rule, as at a local table.
    assert act(moving, {"type": "draw", "source": "stock"})
    hand = mover.core.observation()["hand"]
    # A meld that is not there has the number the intent sent, as the table numbers melds.
    missing = {"type": "lay_off", "card": hand[0]["id"], "meld_index": 5}
    assert act(moving, missing)
    assert mover.view["message"]["text"] == t("error.no_such_meld", mover.lang, index=5)
    pick = [hand[0]["id"], hand[1]["id"]]
    mover.handle_intent(
        {"type": "action", "rev": mover.view["rev"], "action": {"type": "meld", "cards": pick}}
    )
    assert (
        "not a meld" in mover.view["message"]["text"] or "ei ole" in mover.view["message"]["text"]
    )
    # Take-backs are off; the next deal is the server's.
    assert not mover.handle_intent({"type": "take_back", "rev": mover.view["rev"]})
    assert mover.view["message"]["text"] == t("ui.error.take_back_off", mover.lang)
    # A stale revision is refused before anything is sent.
    assert not mover.handle_intent({"type": "hint", "rev": mover.view["rev"] - 1})
    assert mover.view["message"]["text"] == t("ui.error.stale", mover.lang)
    assert mover.handle_intent({"type": "hint", "rev": mover.view["rev"]})
    assert mover.view["hint"]["text"]
    assert waiting.synced  # the other seat's relay is untouched by all this


def test_the_seat_comes_back_after_a_reload_and_after_a_kernel_restart(server):
    storage: dict = {}
    ann, bo = seat_table(server, "Ann"), seat_table(server, "Bo")
    relays = [Relay(ann, storage), Relay(bo, storage)]
    for relay in relays:
        relay.pump(lambda r=relay: r.widget.core.observation() is not None)
    seat, hand = ann.core.seat, ann.core.observation()["hand"]
    # A page reload: the socket drops and the relay opens a new one with the stored token.
    relays[0].drop()
    assert ann.view["message"]["text"] == t("ui.remote.lost", "en")
    again = Relay(ann, storage)
    again.pump(
        lambda: ann.core.connected and ann.core.table is not None and ann.view["message"] is None
    )
    again.pump(lambda: ann.core.observation() is not None)
    assert ann.core.seat == seat and ann.core.observation()["hand"] == hand
    # A kernel restart: a new table object, the same seat through the browser's token.
    again.drop()
    fresh = seat_table(server, "Ann")
    restarted = Relay(fresh, storage)
    restarted.pump(lambda: fresh.core.observation() is not None)
    assert fresh.core.seat == seat and fresh.core.observation()["hand"] == hand
    # A move sent just before the socket dropped is sent again under its id, applied once.
    mover, relay = (fresh, restarted) if playing(fresh) else (bo, relays[1])
    move = mover.core.state["move"]
    mover.handle_intent(
        {"type": "action", "rev": mover.view["rev"], "action": {"type": "draw", "source": "stock"}}
    )
    relay.drop()
    back = Relay(mover, storage)
    back.pump(lambda: mover.core._pending is None)
    back.pump(lambda: mover.core.state["move"] == move + 1)
    assert mover.view["phase"] == "play"
    for _state, synced in [*relays[0].synced, *again.synced, *restarted.synced, *back.synced]:
        assert storage[(ann.remote["url"], "KETTU", "Ann")] not in synced


REPLAY = """
import json

from rummy_widget.table.remote import RemoteTable

table = RemoteTable("http://127.0.0.1:1", "KETTU", "Alex")
table.ids = IDS
views = []
for kind, content in json.loads(EVENTS):
    if kind == "relay":
        table.relayed(content)
    else:
        table.intent(content)
    views.append(table.screen("fi"))
text = json.dumps(views, sort_keys=True)
text  # Pyodide's runPython returns the last expression
"""


def test_pyodide_builds_the_same_views_from_the_same_frames(server, tmp_path):
    """The zero-install site runs the kernel in Pyodide (32-bit WebAssembly): the frames of a
    real session, replayed there, give the same views (hints and refusals included)."""
    import runpy
    import shutil
    import subprocess

    from test_pyodide import PYODIDE, REPO, RUNNER, missing

    table = seat_table(server)
    relay = Relay(table, {})
    Classroom(server.url, server.key).start("KETTU")
    relay.pump(lambda: table.core.observation() is not None)
    bot = get_bot("basic", seed=5)
    for _ in range(12):
        relay.pump(lambda: playing(table))
        if table.view["phase"] == "draw":  # a hint, and a discard the server refuses
            hint = {"type": "hint", "rev": table.view["rev"]}
            relay.events.append(["intent", hint])
            table.handle_intent(hint)
            act(relay, {"type": "discard", "card": table.core.observation()["hand"][0]["id"]})
        act(relay, bot.act(table.core.observation()).to_json())
    events = json.dumps(relay.events)
    script = tmp_path / "replay.py"
    script.write_text(f"EVENTS = {events!r}\nIDS = {table.core.ids!r}\n{REPLAY}")
    here = json.loads(runpy.run_path(str(script))["text"])
    assert len(here) == len(relay.events) and any(v["hint"] for v in here)
    assert any(v["message"] and v["message"]["kind"] == "error" for v in here)
    lack = missing() or (None if shutil.which("node") else "Node.js")
    if lack:
        pytest.skip(f"the Pyodide replay needs {lack}")
    run = subprocess.run(
        ["node", str(RUNNER), str(PYODIDE), str(REPO / "rummy_widget"), str(script)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout) == here


def test_an_origin_is_read_from_a_pasted_notebook_address():
    from rummy_widget.classroom.cli import origin_of
    from rummy_widget.classroom.server import origin_allowed

    allowed = [
        origin_of("http://localhost:8888/lab/tree/KETTU.ipynb"),
        origin_of(" https://Hub.School.fi/ "),
    ]
    assert allowed == ["http://localhost:8888", "https://hub.school.fi"]
    assert origin_allowed("http://localhost:8888", "10.0.0.5:8765", allowed)
    assert not origin_allowed("http://localhost:8889", "10.0.0.5:8765", allowed)
    assert origin_of("*") == "*"


def play_deal(relay: Relay, bot) -> None:
    """The learner plays with ``bot``'s moves until the deal shown is over."""
    table = relay.widget
    while table.view["phase"] != "over":
        relay.pump(lambda: playing(table) or table.view["phase"] == "over")
        if table.view["phase"] != "over":
            act(relay, bot.act(table.core.observation()).to_json())


def test_each_deals_result_shows_until_next_deal(server):
    """The server deals on in the push of a deal's last move; the seat still sees that deal's
    final update, keeps its scoreboard (with the match's totals) until Next deal, then
    shows the deal the server started meanwhile."""
    classroom = Classroom(server.url, server.key)
    classroom.create_room("DUO", players=2, deals=2)
    table = RummyTable(server=server.url, room="DUO", name="Alex", lang="fi")
    relay = Relay(table, {})
    relay.pump(lambda: table.core.state is not None)
    assert table.view["classroom"] is True  # the waiting screen too
    classroom.start("DUO")
    relay.pump(lambda: table.core.observation() is not None)
    assert table.core.state["deals"] == 2 and table.core.state["totals"] == [0, 0]
    assert table.view["deal"] == {"number": 1, "total": 2}
    bot = get_bot("basic", seed=11)
    play_deal(relay, bot)
    relay.pump(lambda: table.core.queued is not None)  # the next deal, held back
    first = table.view["scoreboard"]
    assert table.core.state["deal"] == 0 and table.view["deal"] == {"number": 1, "total": 2}
    assert first["deal"] == 1 and first["deals"] == 2 and not first["match_over"]
    assert first["totals"] == first["penalties"] and table.view["message"] is None
    assert table.core.queued["deal"] == 1 and table.core.queued["view"]["phase"] != "over"
    rev = table.view["rev"]
    relay.events.append(["intent", {"type": "next_deal", "rev": rev}])
    assert table.handle_intent({"type": "next_deal", "rev": rev})
    assert table.core.queued is None and table.view["rev"] > rev
    assert table.view["deal"] == {"number": 2, "total": 2} and table.view["phase"] != "over"
    assert table.view["scoreboard"] is None and table.view["message"] is None
    play_deal(relay, bot)
    last = table.view["scoreboard"]
    assert last["deal"] == 2 and last["match_over"] and last["standing"]
    rows = [r for r in classroom.results() if r["room"] == "DUO" and r["table"] == 0]
    results = [[r["penalty"] for r in rows if r["deal"] == deal] for deal in (0, 1)]
    assert [first["penalties"], last["penalties"]] == results
    assert last["totals"] == [a + b for a, b in zip(*results, strict=True)]
    # No further deal: Next deal says so (the table's button is not shown then, see board.ts).
    assert not table.handle_intent({"type": "next_deal", "rev": table.view["rev"]})
    assert table.view["message"]["text"] == t("ui.remote.finished", "fi")


def test_a_seat_back_during_the_next_deal_is_shown_that_deal(server):
    """A seat that comes back during the next deal (a kernel restart, a page reload after
    the end) simply gets the new deal's state, with the match's totals."""
    classroom = Classroom(server.url, server.key)
    classroom.create_room("DUO", players=2, deals=2)
    storage: dict = {}
    table = RummyTable(server=server.url, room="DUO", name="Alex", lang="fi")
    relay = Relay(table, storage)
    relay.pump(lambda: table.core.state is not None)
    classroom.start("DUO")
    relay.pump(lambda: table.core.observation() is not None)
    play_deal(relay, get_bot("basic", seed=11))
    relay.pump(lambda: table.core.queued is not None)
    penalties = table.view["scoreboard"]["penalties"]
    relay.drop()
    fresh = RummyTable(server=server.url, room="DUO", name="Alex", lang="fi")
    again = Relay(fresh, storage)
    again.pump(lambda: fresh.core.observation() is not None)
    assert fresh.core.queued is None and fresh.view["deal"] == {"number": 2, "total": 2}
    assert fresh.core.state["totals"] == penalties and fresh.view["phase"] != "over"


def test_a_server_that_never_answers_is_named_with_its_likely_causes():
    """The relay's socket closes before it opens (a wrong address, or a notebook origin the
    server was not started with): after the second try the table says what to check."""
    table = RummyTable(server="http://10.0.0.5:8765", room="KETTU", name="Alex", lang="fi")
    connecting = t("ui.remote.connecting", "fi", server="http://10.0.0.5:8765")
    table._handle_custom_msg({"type": "remote_closed"}, [])
    assert table.view["pass"]["title"] == connecting
    table._handle_custom_msg({"type": "remote_closed"}, [])
    unreachable = t("ui.remote.unreachable", "fi", server="http://10.0.0.5:8765")
    assert table.view["pass"]["title"] == unreachable
    assert "--origin" in t("ui.remote.unreachable", "en", server="x")


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_classroom_seat_says_it_has_no_local_game(lang):
    """``RummyTable.game`` is the engine of a local table; a classroom seat's deal is on the
    server, and asking for it says so in the table's language instead of a bare attribute
    error about a field the seat never had."""
    table = RummyTable(server="http://10.0.0.5:8765", room="KETTU", name="Alex", lang=lang)
    with pytest.raises(AttributeError) as raised:
        _ = table.game
    assert str(raised.value) == t("ui.remote.no_game", lang)
    assert table.core.observation() is None and table.match is None


@pytest.mark.parametrize(
    ("server", "url"),
    [
        ("http://10.0.0.5:8765", "ws://10.0.0.5:8765/ws"),
        ("https://rummy.school.fi/board?lang=fi", "wss://rummy.school.fi/ws"),
        ("10.0.0.5:8765", "ws://10.0.0.5:8765/ws"),  # as a teacher may say it aloud
    ],
)
def test_the_seat_finds_the_servers_websocket_from_what_the_teacher_gives(server, url):
    """The address the server prints (or one without its scheme, or a page's address) leads
    the browser's relay to the server's one WebSocket path."""
    table = RummyTable(server=server, room="KETTU", name="Alex")
    assert table.remote["url"] == table.core.url == url
    # The scripting client reaches the same address from the same words.
    from rummy_widget.classroom import client

    assert client.ws_url(server) == url
