"""The table interface: what a front end may ask of a table, and the parts every table shares.

Two tables sit behind the ``RummyTable`` widget: the local ``Table`` (table/core.py), which
holds the game and plays the bots, and the classroom seat ``RemoteTable`` (table/remote.py),
which mirrors one seat of a server's table. ``TableSeat`` writes down the interface both give
the widget. ``Notes`` keeps each seat's message and hint, ``expert_hint`` finds a hint and
``attempt`` turns a refused intent into the seat's message, so both tables word, replace and
forget them the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..engine.actions import Action
from ..errors import RuleError
from ..i18n import t
from .view import hint_view

if TYPE_CHECKING:
    from ..engine.match import Match

#: An intent longer than this (as JSON) is refused unread.
MAX_INTENT_BYTES = 4096

Text = Callable[[str], str]


@runtime_checkable
class TableSeat(Protocol):
    """What the widget asks of its table. ``intent`` carries out (or refuses, with a message
    for the seat) one intent from the browser; ``screen`` is what the one screen shows,
    ``view`` one seat's view, ``message`` the seat's latest message, ``describe`` the repr.
    ``game`` is the engine's deal: not a member, as a classroom seat has none and raises an
    ``AttributeError`` that says so."""

    mode: str
    rev: int
    #: The person's seat (a classroom seat's is None until the server's welcome).
    seat: int | None
    match: Match | None
    reveal: bool
    seed: int
    bots: dict
    drawn: dict | None
    on_progress: Callable[[int, int, int], object] | None

    @property
    def names(self) -> list[str]: ...

    @property
    def screen_seat(self) -> int: ...

    def intent(self, content: object, seat: int | None = None) -> bool: ...

    def message(self, seat: int | None = None, lang: str = "en") -> dict | None: ...

    def view(self, seat: int | None = None, lang: str = "en") -> dict: ...

    def screen(self, lang: str = "en") -> dict: ...

    def describe(self, lang: str = "en") -> str: ...


class IntentError(Exception):
    """An intent the table refuses before the engine sees it; ``key`` is its ui.error text."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    def localized(self, lang: str) -> str:
        return t(self.key, lang)


class MeldRefused(Exception):
    """The engine refused a meld or a lay-off; ``localized`` names the rule the cards break."""

    def __init__(self, text: Text) -> None:
        super().__init__("not_a_meld")
        self.localized = text


class Notes:
    """Each seat's latest message and hint, their texts functions of the language so that a
    language switch rewords them. A message marked ``lost`` (the classroom connection) stays
    until the connection is back; any other gives way to a newer message or hint."""

    def __init__(self) -> None:
        self.messages: dict[int, dict] = {}
        self.hints: dict[int, dict] = {}
        #: Messages said so far: each message's ``id``, so the page shows a repeated one again.
        self.count = 0

    def say(self, seat: int, text: Text, kind: str = "error", lost: bool = False) -> None:
        self.count += 1
        self.messages[seat] = {"id": self.count, "kind": kind, "text": text, "lost": lost}

    def message(self, seat: int, lang: str) -> dict | None:
        """The seat's latest message in ``lang`` (``{"id", "kind", "text"}``) or None."""
        found = self.messages.get(seat)
        if found is None:
            return None
        return {"id": found["id"], "kind": found["kind"], "text": found["text"](lang)}

    def hint(self, seat: int, rev: int, lang: str) -> dict | None:
        """The seat's hint in ``lang`` while position ``rev`` is on screen, else None."""
        return hint_view(self.hints.get(seat), rev, lang)

    def give_hint(self, seat: int, hint: dict) -> None:
        """The newest message wins: the hint, not an old error."""
        self.hints[seat] = hint
        found = self.messages.get(seat)
        if found is not None and not found["lost"]:
            del self.messages[seat]

    def forget(self, keep: Callable[[dict], bool] = lambda _message: False) -> None:
        """The table moved on: every hint goes, and each message but those ``keep`` keeps."""
        self.hints.clear()
        self.messages = {seat: m for seat, m in self.messages.items() if m["lost"] or keep(m)}

    def reconnected(self) -> None:
        """The classroom connection is back: the notice that it was lost goes."""
        self.messages = {seat: m for seat, m in self.messages.items() if not m["lost"]}


def attempt(notes: Notes, seat: int, step: Callable[[], object]) -> bool:
    """Run one intent's ``step``; a refusal becomes the seat's localized message and False,
    and changes nothing else."""
    try:
        step()
    except (RuleError, IntentError, MeldRefused) as err:
        notes.say(seat, err.localized)
        return False
    return True


def expert_hint(
    obs: dict,
    seat: int,
    seed: int,
    rev: int,
    replan: Callable[[object, Action], Text | None] | None = None,
) -> dict:
    """The expert's move for ``seat`` in the observation ``obs``, as a hint for position
    ``rev``: its short advice and the detailed "why?". ``replan(expert, action)`` may say why
    the plan changed since the last hint (table/plans.py); that goes first."""
    if obs["phase"] == "over" or obs["current_player"] != seat:
        raise IntentError("ui.hint_unavailable")
    from ..bots import get_bot

    expert = get_bot("expert", seed=seed)
    try:
        action = as_action(expert.act(obs))
    except Exception:  # a failing expert must not break the table
        raise IntentError("ui.hint_unavailable") from None
    changed = None if replan is None else replan(expert, action)

    def text(lang: str) -> str:
        """One short sentence addressed to the learner: the reason, then the move."""
        advice = expert.advise(obs, action, lang)
        return advice if changed is None else f"{changed(lang)} {advice}"

    def why(lang: str) -> str:
        """The detailed reason, with its numbers, for a "why?" under the hint."""
        return expert.why(obs, action, lang)

    return {"rev": rev, "action": action, "text": text, "why": why}


def intent_kind(content: object) -> str:
    """The ``type`` of an intent from the browser; ``IntentError`` for anything that is not a
    JSON object with a type, or is larger than ``MAX_INTENT_BYTES``."""
    try:
        size = len(json.dumps(content))
    except (TypeError, ValueError):
        raise IntentError("ui.error.bad_intent") from None
    if size > MAX_INTENT_BYTES:
        raise IntentError("ui.error.too_large")
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        raise IntentError("ui.error.bad_intent")
    return content["type"]


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_action(value: object) -> Action:
    """Bots may answer with an ``Action`` or its JSON form."""
    return value if isinstance(value, Action) else Action.from_json(value)
