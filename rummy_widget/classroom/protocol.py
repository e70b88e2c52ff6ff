"""The classroom's wire format: JSON messages, one per WebSocket frame, versioned.

A learner's client sends ``join`` (or ``watch`` for a spectator or the teacher), then ``act``
for each move; the server answers with ``welcome``, ``state`` (the seat's view after every
move), ``ack`` (a move is stored) and ``error`` (localized; nothing changed). Every message
from a client is read here, so that anything malformed is refused in one place with a
``ProtocolError`` and never reaches the table.
"""

from __future__ import annotations

import json
import re

from ..engine.actions import Action
from ..errors import RuleError
from ..i18n import LANGUAGES

VERSION = 2
#: A client's message is small: the largest legal one is a meld of a whole hand.
MAX_MESSAGE = 4096
#: Names of rooms and learners: short, printable, no control characters.
NAME = re.compile(r"^[^\x00-\x1f\x7f]{1,32}$")
ROOM = re.compile(r"^[A-Za-z0-9_-]{1,24}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
NONCE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
CLIENT_TYPES = ("join", "watch", "act")


class ProtocolError(RuleError):
    """A message the server will not read; ``code`` names the key ``error.classroom.<code>``."""

    def __init__(self, code: str, lang: str = "en", /, **params: object) -> None:
        super().__init__(f"classroom.{code}", lang, **params)


#: One encoder for every message: a message is a tree (never circular), so the check for
#: cycles is skipped, and ``json.dumps`` with options would build a new encoder per call.
JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)

try:  # the server's (the classroom extra has it): the same text in about a third of the time
    from msgspec.json import Encoder

    _FAST = Encoder().encode
except ImportError:  # Pyodide's client, or an install without it
    _FAST = None


def encode(message: dict) -> str:
    """One message as compact JSON: the same state always gives the same bytes.

    msgspec's encoder when it is installed, else ``JSON``: for the messages made here
    (strings, integers, booleans, None, lists and dicts with string keys) both give the
    same text, character for character (``tests/classroom/test_encode.py``).
    """
    if _FAST is not None:
        return _FAST({"v": VERSION, **message}).decode()
    return JSON.encode({"v": VERSION, **message})


def decode(text: object) -> dict:
    """Read and check one client message; raise ``ProtocolError`` for anything else."""
    if isinstance(text, bytes):
        raise ProtocolError("not_text")
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", limit=MAX_MESSAGE)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("not_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("not_json")
    if data.get("v") != VERSION:
        raise ProtocolError("version", version=VERSION)
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", choices=", ".join(CLIENT_TYPES))
    lang = data.get("lang", "en")
    if lang not in LANGUAGES:
        raise ProtocolError("bad_field", field="lang")
    message = {"type": kind, "lang": lang}  # the language of a join or watch is the socket's
    if kind in ("join", "watch"):
        message["room"] = _text(data, "room", ROOM)
    if kind == "join":
        message["name"] = _text(data, "name", NAME).strip() or _fail("name")
        message["token"] = _text(data, "token", TOKEN, optional=True)
    if kind == "watch":
        key = data.get("key")
        message["key"] = _text(data, "key", TOKEN, optional=True) if key is not None else None
    if kind == "act":
        message["id"] = _text(data, "id", NONCE)
        move = data.get("move")
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 10**6:
            raise ProtocolError("bad_field", field="move")
        message["move"] = move
        deal = data.get("deal")
        if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < 10**4:
            raise ProtocolError("bad_field", field="deal")
        message["deal"] = deal
        message["action"] = Action.from_json(data.get("action"))  # its own RuleError
    return message


def _text(data: dict, field: str, pattern: re.Pattern, optional: bool = False) -> str | None:
    value = data.get(field)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not pattern.match(value):
        _fail(field)
    return value


def _fail(field: str):
    raise ProtocolError("bad_field", field=field)


def error(err: RuleError, lang: str, **extra: object) -> dict:
    """An ``error`` message in the connection's language; ``code`` stays the same in both."""
    return {"type": "error", "code": err.code, "text": err.localized(lang), **extra}


def apply_update(state: dict, update: dict) -> dict:
    """The ``state`` an ``update`` leads to from ``state`` (the client's copy of the last
    ``state`` or ``update`` it got): the changed parts of the view replace the old ones, the
    log's new events follow its first ``log.from`` events, and the discard pile is
    ``discard.top`` above the bottom ``discard.keep`` cards of the old one, and ``totals``
    (sent at a deal's end) replace the match's totals. Raises
    ``ValueError`` when the update is not based on that state (the server never sends one
    that is not)."""
    if state is None or state.get("view") is None or update.get("table") != state.get("table"):
        raise ValueError("an update without its state")
    if (state["deal"], state["move"]) != (update["deal"], update["base"]):
        raise ValueError("an update based on another state")
    old = state["view"]
    view = {**old, **update["view"]}
    if "discard" in view:
        discard = view.pop("discard")
        kept = old["discard_pile"][len(old["discard_pile"]) - discard["keep"] :]
        view["discard_pile"] = [*discard["top"], *kept]
    log = update["log"]
    view["log"] = [*old["log"][: log["from"]], *log["events"]]
    new = {
        **state,
        "deal": update["deal"],
        "move": update["move"],
        "finished": update["finished"],
        "seats": update.get("seats", state["seats"]),
        "view": view,
    }
    if "totals" in update:  # a deal's end: the match's totals with its penalties
        new["totals"] = update["totals"]
    return new
