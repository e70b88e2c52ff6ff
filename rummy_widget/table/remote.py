"""``RemoteTable``: one learner's seat at a classroom table, mirrored in the kernel.

The browser holds the WebSocket to the classroom server (Pyodide cannot open sockets, a page
can; js/src/remote.ts), relays every server frame here and sends the frames this table writes.
The table keeps the seat's server ``state`` (updates applied with ``protocol.apply_update``),
builds the same view as a local ``Table`` from the seat's observation, turns the learner's
intents into ``act`` messages, shows the server's refusals on the message line and keeps the
other seats' moves as animation steps, like a local table's bots. The server is the authority
and sends a seat only its own view, so nothing here ever holds another hand. No widget
import: the widget and the tests drive it. See docs/classroom.md, "Joining from a notebook".
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable

from ..classroom.protocol import NAME, ROOM, TOKEN, ProtocolError, apply_update, encode, ws_url
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import check_lang, t
from .reasons import explain_lay_off, explain_meld, seen_meld
from .seat import IntentError, MeldRefused, Notes, Text, attempt, expert_hint, intent_kind, is_int
from .view import Extras, observation_view, result_board, step_view

#: Custom messages from the front end's relay (js/src/remote.ts), not learner intents.
RELAY = ("remote_open", "remote_frame", "remote_closed")
#: The steps kept between two of the learner's own moves (a long absence starts afresh).
MAX_STEPS = 40
#: Sockets that close unopened before the waiting screen names the likely causes.
UNREACHABLE_AFTER = 2
#: The key of this screen's one seat in ``Notes`` (its seat number comes with the welcome).
LEARNER = 0


class RemoteTable:
    """A seat at a classroom server's table: ``RemoteTable(server, room, name, lang, send)``.

    ``send(text)`` writes one frame to the server (the widget hands it to the browser's
    relay); ``relayed(content)`` takes what the relay reports. The rest is the table
    interface (``seat.TableSeat``) that ``Table`` gives the widget too. The server decides
    what a local table's settings decide, so they have fixed answers: always in play, no open
    hands, no match or bots in the kernel, and no ``game`` (it raises, saying why).
    """

    mode = "play"
    reveal = False
    match = None
    #: Never a card sent ahead of the view (``Table.drawn``): the server says what was drawn,
    #: in the state that the view is built from.
    drawn = None

    def __init__(
        self,
        server: str,
        room: str,
        name: str,
        lang: str = "en",
        send: Callable[[str], object] | None = None,
    ) -> None:
        self.lang = check_lang(lang)
        if not isinstance(room, str) or not ROOM.match(room):
            raise ProtocolError("bad_field", self.lang, field="room")
        if not isinstance(name, str) or not NAME.match(name) or not name.strip():
            raise ProtocolError("bad_field", self.lang, field="name")
        self.server, self.url = server, ws_url(server)
        self.room, self.name = room, name.strip()
        self.send = send or (lambda _text: None)
        self.state: dict | None = None  # the seat's last ``state``, updates applied
        #: The next deal's state (updates applied) while the seat still looks at the last
        #: deal's scoreboard: the server deals on at once, the learner with Next deal.
        self.queued: dict | None = None
        self.seat: int | None = None
        self.table: int | None = None
        self.connected = False
        self.failures = 0  # sockets that closed before they opened
        self.rev = 0
        self.steps: list[dict] = []
        self.bots: dict = {}
        self.seed = 0
        self.on_progress = None
        #: Moves' ids start with this (a new table, after a kernel restart, has another).
        self.ids = secrets.token_hex(6)
        self._joined_lang = self.lang
        self._pending: dict | None = None  # the move sent and not yet acknowledged
        self._resend = False
        self.notes = Notes()  # the learner's message and hint, under ``LEARNER`` (seat.py)

    @property
    def game(self) -> Game:
        """Never: the classroom server holds the deal and sends this seat only its own view
        (``observation``). An ``AttributeError`` in the seat's language says so."""
        raise AttributeError(t("ui.remote.no_game", self.lang))

    @property
    def screen_seat(self) -> int:
        return 0 if self.seat is None else self.seat

    @property
    def names(self) -> list[str]:
        obs = self.observation()
        return [p["name"] for p in obs["players"]] if obs else [self.name]

    def observation(self) -> dict | None:
        """The seat's ``game.observation(seat)`` as the server sent it, or None before the deal."""
        return self.state.get("view") if self.state else None

    # --- the relay --------------------------------------------------------------------------

    def relayed(self, content: dict) -> None:
        """What the browser's relay reports: its socket opened (with the seat's stored token),
        a frame from the server, or the socket closed (it reconnects by itself)."""
        kind = content.get("type")
        if kind == "remote_open":
            self.connected = True
            self.notes.reconnected()
            token = content.get("token")
            self._join(token if isinstance(token, str) and TOKEN.match(token) else None)
        elif kind == "remote_frame" and isinstance(content.get("text"), str):
            self.receive(content["text"])
        elif kind == "remote_closed" and self.connected:
            self.connected = False
            self._say(lambda lang: t("ui.remote.lost", lang), kind="info", lost=True)
        elif kind == "remote_closed":
            self.failures += 1  # never opened: a wrong address, or an origin the server refuses

    def _join(self, token: str | None) -> None:
        join = {"type": "join", "room": self.room, "name": self.name, "lang": self.lang}
        if token:
            join["token"] = token
        self._joined_lang = self.lang
        self._resend = self._pending is not None
        self.send(encode(join))

    def receive(self, text: str) -> None:
        """One frame from the server."""
        try:
            message = json.loads(text)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "welcome":
            self.seat, self.table = message.get("seat"), message.get("table")
        elif kind == "state":
            self._new_state(message)
        elif kind == "update":
            self._update(message)
        elif kind == "ack":
            if self._pending and message.get("id") == self._pending["id"]:
                self._pending = None
        elif kind == "error":
            self._refused(message)

    def _showing_result(self, message: dict) -> bool:
        """True when ``message`` is a later deal's state and this seat still shows an earlier
        deal's result with more deals to come: it waits for the learner's Next deal."""
        old = self.state
        if old is None or old.get("view") is None or old.get("finished"):
            return False
        later = isinstance(message.get("deal"), int) and message["deal"] > old["deal"]
        return later and old["view"]["phase"] == "over"

    def _new_state(self, message: dict) -> None:
        if self._showing_result(message):
            self.queued = message
            return
        self.queued = None
        old, self.state = self.state, message
        same = old is not None and (old.get("deal"), old.get("move")) == (
            message.get("deal"),
            message.get("move"),
        )
        if not same or (old.get("view") is None) != (message.get("view") is None):
            self._changed([], own=True)
        ended = old is not None and old.get("view") is not None and message.get("view")
        if ended and old.get("deal") != message.get("deal") and old["view"]["phase"] != "over":
            # The server deals on in the push of the last move, so this seat never saw the end.
            n, later = old["deal"] + 1, message["deal"] + 1
            self._say(lambda lang: t("ui.remote.deal_over", lang, n=n, next=later), kind="info")
        if self._resend and self._pending and message.get("view") is not None:
            self._resend = False  # a move sent before the socket dropped: the same id again
            self.send(encode(self._pending["frame"]))

    def _update(self, message: dict) -> None:
        if self.queued is not None:  # the next deal goes on while the seat shows the last
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                self.queued = apply_update(self.queued, message)  # else a state follows
            return
        old = self.state
        try:
            new = apply_update(old, message)
        except (ValueError, KeyError, TypeError, AttributeError):
            return  # not based on what we hold (a second relay's copy): a state follows
        self.state = new
        if (old["deal"], old["move"]) == (new["deal"], new["move"]):
            return  # only the seats changed
        log = message.get("log") or {}
        events = log.get("events", []) if log.get("from") == len(old["view"]["log"]) else []
        actor = events[0].get("player") if events else None
        if actor is None or actor == self.seat:
            self._changed([], own=True)
            return
        steps = self.steps if len(self.steps) < MAX_STEPS else []
        self._changed([*steps, step_view(new["view"], events, actor)])

    def _changed(self, steps: list[dict], own: bool = False) -> None:
        """The table moved on: a new revision; the old hint and error go, and a notice (a new
        deal) stays until the learner's own move."""
        self.rev += 1
        self.steps = steps
        self.notes.forget(keep=lambda message: not own and message["kind"] != "error")

    def _refused(self, message: dict) -> None:
        code, text = str(message.get("code", "")), str(message.get("text", ""))
        pending = self._pending
        if message.get("id") is not None and pending and message["id"] == pending["id"]:
            self._pending = None
            self._say(self._refusal(code, text, pending["action"]))
            return
        if code == "classroom.bad_token":  # the stored seat is gone (a new database): join anew
            self._join(None)
            return
        if code == "classroom.already_joined":
            return  # another view's relay sent the same join on its own socket
        self._say(self._refusal(code, text, None))

    def _refusal(self, code: str, text: str, action: Action | None) -> Text:
        """The server's refusal in the table's language, the meld numbered as the screen and
        the API number it (from 0), and the rule an illegal meld or lay-off breaks named, as a
        local table does."""
        rules = self._rules()
        if action is not None and action.kind == "meld" and code == "not_a_meld":
            reason = explain_meld(action.cards, rules)
            if reason is not None:
                return reason
        melds = (self.observation() or {}).get("melds", [])
        if action is not None and action.kind == "lay_off" and code == "cannot_lay_off":
            index = action.meld_index
            if is_int(index) and 0 <= index < len(melds):
                reason = explain_lay_off(action.card, seen_meld(melds[index]), index, rules)
                if reason is not None:
                    return reason
        if action is not None and action.kind == "lay_off" and code == "no_such_meld":
            index = action.meld_index
            if is_int(index) and index >= 0:
                return RuleError(code, index=index).localized
        joined = self._joined_lang

        def localized(lang: str) -> str:
            if lang == joined:
                return text
            try:
                return t(f"error.{code}", lang)
            except (KeyError, IndexError, ValueError):
                return text

        return localized

    def _say(self, text: Text, kind: str = "error", lost: bool = False) -> None:
        self.notes.say(LEARNER, text, kind, lost)

    # --- intents ----------------------------------------------------------------------------

    def intent(self, content: object, seat: int | None = None) -> bool:
        """Check one intent of the learner and send its move; True if it went out (or was
        shown, for a hint). Anything refused here sets a localized message."""
        return attempt(self.notes, LEARNER, lambda: self._dispatch(content))

    def _dispatch(self, content: object) -> None:
        kind = intent_kind(content)
        if kind == "pass_ready":
            return  # the waiting screen's button: the view is live anyway
        obs = self.observation()
        if obs is None:
            raise ProtocolError("not_started")
        if kind == "take_back":
            raise IntentError("ui.error.take_back_off")
        if kind == "review":
            raise IntentError("ui.remote.no_review")
        if kind == "next_deal":
            return self._next_deal()
        if kind == "play_again":
            raise IntentError("ui.remote.finished")
        if kind not in ("action", "hint") or not is_int(content.get("rev")):
            raise IntentError("ui.error.bad_intent")
        if content["rev"] != self.rev:
            raise IntentError("ui.error.stale")
        if kind == "hint":
            hint = expert_hint(obs, self.seat, self.seed, self.rev)
            return self.notes.give_hint(LEARNER, hint)
        action = Action.from_json(content.get("action"))
        if self._pending is not None:
            raise IntentError("ui.wait_python")
        if obs["phase"] == "over":
            raise RuleError("deal_over")
        if obs["current_player"] != self.seat:
            raise RuleError("not_your_turn", player=obs["players"][obs["current_player"]]["name"])
        if action.kind == "meld":
            reason = explain_meld(action.cards, self._rules())
            if reason is not None:
                raise MeldRefused(reason)
        frame = {
            "type": "act",
            "id": f"{self.ids}-{self.notes.count}-{self.rev}",
            "deal": self.state["deal"],
            "move": self.state["move"],
            "action": action.to_json(),
        }
        self._pending = {"id": frame["id"], "action": action, "frame": frame}
        self.send(encode(frame))

    def _next_deal(self) -> None:
        """The learner has seen the deal's result: show the deal the server dealt since."""
        if self.queued is None:
            finished = self.state is not None and self.state.get("finished")
            raise IntentError("ui.remote.finished" if finished else "ui.remote.server_deals")
        self.state, self.queued = self.queued, None
        self._changed([], own=True)

    # --- views ------------------------------------------------------------------------------

    def _rules(self) -> Rules:
        obs = self.observation()
        return Rules.preset(obs["rules"] if obs else "traditional")

    def message(self, seat: int | None = None, lang: str = "en") -> dict | None:
        """The learner's latest message in ``lang`` (there is one seat on this screen)."""
        return self.notes.message(LEARNER, lang)

    def view(self, seat: int | None = None, lang: str = "en") -> dict:
        """The seat's view, shaped exactly like a local table's (js/src/types.ts)."""
        obs = self.observation()
        if obs is None:
            return self._waiting(lang)
        rules = Rules.preset(obs["rules"])
        hint = self.notes.hint(LEARNER, self.rev, lang)
        extras = Extras(rev=self.rev, message=self.message(lang=lang), hint=hint, steps=self.steps)
        number = self.state["deal"] + 1
        deal = {"number": number, "total": self.state.get("deals", number)}
        board = None
        result = obs["result"]
        if result is not None:
            board = result_board(
                result["winner"], result["rummy"], result["void"], result["penalties"], rules
            )
            totals = self.state.get("totals") or result["penalties"]
            board.update(
                deal=number, deals=deal["total"], totals=totals, match_over=self.state["finished"]
            )
        return {**observation_view(obs, rules, lang, extras, board, deal), "classroom": True}

    def _waiting(self, lang: str) -> dict:
        """Before the deal: the pass screen's title says what the seat waits for."""
        seats = (self.state or {}).get("seats") or []
        names = [s["name"] for s in seats if s] or [self.name]
        blank = {
            "seat": 0,
            "rules": "traditional",
            "players": [{"name": n, "hand_size": 0, "has_melded": False} for n in names],
            "dealer": 0,
            "current_player": 0,
            "phase": "draw",
            "hand": [],
            "stock_size": 0,
            "discard_pile": [],
            "melds": [],
            "taken_from_discard": None,
            "log": [],
            "result": None,
        }
        extras = Extras(rev=self.rev, message=self.message(lang=lang))
        view = observation_view(
            blank, Rules.preset("traditional"), lang, extras, None, {"number": 1, "total": 1}
        )
        found = self.notes.messages.get(LEARNER)
        if found is not None and not found["lost"] and self.connected:
            title = view["message"]["text"]
        elif not self.connected and self.failures >= UNREACHABLE_AFTER:
            title = t("ui.remote.unreachable", lang, server=self.server)
        elif not self.connected or self.table is None:
            title = t("ui.remote.connecting", lang, server=self.server)
        else:
            seated = sum(1 for s in seats if s)
            title = t(
                "ui.remote.waiting",
                lang,
                room=self.room,
                table=self.table + 1,
                seated=seated,
                seats=len(seats),
            )
        view["pass"] = {"title": title, "go": t("ui.remote.refresh", lang)}
        view["classroom"] = True
        return view

    def screen(self, lang: str = "en") -> dict:
        """What the widget syncs: the seat's view (there is one seat on this screen)."""
        return self.view(self.seat, lang)

    def describe(self, lang: str = "en") -> str:
        """One line about the seat in ``lang`` (the widget's repr)."""
        obs = self.observation()
        mode = t("repr.table.remote", lang, room=self.room)
        if obs is None:
            return f"RummyTable({mode.rstrip(', ')})"
        names = [p["name"] for p in obs["players"]]
        if obs["phase"] == "over":
            state = t("repr.table.over", lang)
        else:
            state = t(f"repr.table.{obs['phase']}", lang, name=names[obs["current_player"]])
        return t(
            "repr.table",
            lang,
            mode=mode,
            rules=obs["rules"],
            players=len(names),
            deal="",
            state=state,
        )
