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
import unicodedata
from functools import cache
from urllib.parse import urlsplit, urlunsplit

from ..engine.actions import Action
from ..errors import RuleError
from ..i18n import LANGUAGES, t

VERSION = 2
#: A client's message is small: the largest legal one is a meld of a whole hand.
MAX_MESSAGE = 4096
#: Names of rooms and learners: short, printable, no control characters. Anchored at the
#: string's very ends (``\A``, ``\Z``): ``$`` also matches before a final newline, which
#: made ``"KETTU\n"`` a second room that looks like KETTU. ``learner_name`` checks more.
NAME = re.compile(r"\A[^\x00-\x1f\x7f]{1,32}\Z")
ROOM = re.compile(r"\A[A-Za-z0-9_-]{1,24}\Z")
TOKEN = re.compile(r"\A[A-Za-z0-9_-]{16,64}\Z")
NONCE = re.compile(r"\A[A-Za-z0-9_-]{1,40}\Z")
#: Unicode categories no name may hold: controls, format characters (the right-to-left
#: override U+202E, zero-width spaces and joiners), line and paragraph separators, private
#: use, surrogates and unassigned code points. Each hides or rearranges what is shown.
HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
#: Characters that show nothing but are letters or marks, not format characters: Unicode's
#: Default_Ignorable_Code_Point outside Cf (the combining grapheme joiner, the Hangul
#: fillers, Khmer's inherent vowels, the variation selectors), and the braille blank.
#: "basic bot 2\u3164" would pass for a bot, "Ann\u034f" for another Ann.
INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164"
    "\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
#: Combining marks allowed on one letter (Vietnamese needs two); hundreds stack into a
#: tower that covers the names around it.
MARKS_ON_A_LETTER = 2
CLIENT_TYPES = ("join", "watch", "act")
#: Cyrillic and Greek letters drawn like Latin ones, as the Latin letter: "b\u0430sic bot 2"
#: (a Cyrillic a) is a bot's name to the eye, so it is one to ``bots_name`` too.
LOOK_ALIKES = str.maketrans(
    "\u0430\u0432\u0435\u0456\u0458\u043a\u043c\u043d\u043e\u0440\u0441\u0442\u0443\u0445"
    "\u0455\u04bb\u0501\u051b\u051d\u04cf\u0131"
    "\u0410\u0412\u0415\u0406\u0408\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425"
    "\u0405\u04ba"
    "\u03b1\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03f2\u03f3"
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7",
    "abeijkmhopctyxshdqwliABEIJKMHOPCTYXSHaikvoptuxcjABEZHIKMNOPTYX",
)


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
        message["room"] = room_name(data.get("room"))
        message["id"] = _text(data, "id", NONCE, optional=True)  # echoed in the welcome
    if kind == "join":
        message["name"] = learner_name(data.get("name"))
        message["token"] = _text(data, "token", TOKEN, optional=True)
    if kind == "watch":
        message["key"] = _text(data, "key", TOKEN, optional=True)
        hands = data.get("hands", True)
        if not isinstance(hands, bool):
            raise ProtocolError("bad_field", field="hands")
        message["hands"] = hands
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
    if not isinstance(value, str) or not pattern.fullmatch(value):
        _fail(field)
    return value


def room_name(value: object) -> str:
    """A room's name: 1-24 of ``A-Z a-z 0-9 _ -``, the whole string."""
    if not isinstance(value, str) or not ROOM.fullmatch(value):
        _fail("room")
    return value


def learner_name(value: object) -> str:
    """A learner's name as shown: NFC, runs of spaces made one, 1-32 characters; refused
    (localized) with a hidden or direction-changing character, more than
    ``MARKS_ON_A_LETTER`` combining marks on a letter, or a name the room's bots use."""
    if not isinstance(value, str) or len(value) > 4 * 32:
        _fail("name")
    if any(unicodedata.category(c) in HIDDEN for c in value) or INVISIBLE.search(value):
        raise ProtocolError("name_hidden", field="name")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    marks = 0
    for i, char in enumerate(unicodedata.normalize("NFD", name)):
        marks = marks + 1 if unicodedata.category(char).startswith("M") else 0
        if marks > MARKS_ON_A_LETTER or (marks and i == 0):  # too many, or on no letter
            raise ProtocolError("name_marks", field="name")
    if not 1 <= len(name) <= 32:
        _fail("name")
    if bots_name(name):
        raise ProtocolError("name_reserved", name=name)
    return name


def bots_name(name: str) -> bool:
    """Whether ``name`` is, or looks like, a bot's seat name in any language ("basic bot 2",
    "perusbotti 2", "Basic  Bot"): those are the room's bots'."""
    latin = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES)
    folded = " ".join(latin.casefold().split())
    return any(pattern.fullmatch(folded) for pattern in _bot_patterns())


@cache
def _bot_patterns() -> tuple[re.Pattern, ...]:
    from ..bots import BOT_NAMES

    patterns = []
    for lang in LANGUAGES:
        for bot in BOT_NAMES:
            template = t(f"classroom.bot_seat.{bot}", lang, n="\0").casefold()
            head, _, tail = template.partition("\0")
            patterns.append(re.compile(re.escape(head.strip()) + r"\s*\d*\s*" + re.escape(tail)))
    return tuple(patterns)


def _fail(field: str):
    raise ProtocolError("bad_field", field=field)


def frame_hints(text: object) -> tuple[str | None, str | None]:
    """The ``id`` and ``lang`` of a client's frame, where readable, even of one refused:
    every refusal carries the id (a rate refusal too), so that a client waiting for that
    frame's answer gets one, and a first frame's refusal is in the language it asked for."""
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None, None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    found, lang = data.get("id"), data.get("lang")
    found = found if isinstance(found, str) and NONCE.fullmatch(found) else None
    return found, lang if lang in LANGUAGES else None


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


def ws_url(server: str) -> str:
    """``http://host:8765`` (what the server prints, with or without its scheme) to the
    server's WebSocket address; ``https`` gives ``wss``."""
    parts = urlsplit(server if "//" in server else f"http://{server}")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws", "", ""))
