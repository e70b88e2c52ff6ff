"""``RummyTable``: the card table widget, an anywidget controller around the game engine.

The browser only ever holds one seat's view (``rummy_widget.view``) and sends intents
(``{"type": "action", "rev": ..., "action": {...}}``); Python checks every intent with the
engine, plays the bots at once and publishes the new view. A rejected or stale intent changes
nothing but the message shown. See docs/widget.md.
"""

from __future__ import annotations

import json
import secrets
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import anywidget
import traitlets

from ..engine.actions import Action
from ..engine.game import Game, default_names
from ..engine.match import Match
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import LANGUAGES, check_lang, t
from .view import Extras, action_view, build_view, table_snapshot

STATIC = Path(__file__).parent.parent / "static"
SPEEDS = ("instant", "fast", "normal", "slow")
SIZES = ("normal", "large")
#: Opponents' names at the table, seat 1 onwards (the same in both languages).
BOT_NAMES = ("Aino", "Eero", "Kaisa")
#: An intent longer than this (as JSON) is refused unread.
MAX_INTENT_BYTES = 4096
#: A bot turn is a handful of moves; more than this means a broken bot.
MAX_BOT_MOVES = 2000

_MISSING_BUNDLE = """
export default { render({ el }) {
  el.textContent = "rummy_widget: the front end is not built; run `npm run build` in js/.";
} };
"""


def _asset(name: str, fallback: str) -> Path | str:
    path = STATIC / name
    if path.is_file():
        return path
    warnings.warn(
        f"rummy_widget/static/{name} is missing: run `npm run build` in js/",
        RuntimeWarning,
        stacklevel=3,
    )
    return fallback


class IntentError(Exception):
    """An intent the table refuses before the engine sees it; ``key`` is its ui.error text."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class RummyTable(anywidget.AnyWidget):
    """Play Traditional Rummy against bots in a notebook.

    ``RummyTable(opponents=["basic"], rules="traditional", lang="en", seed=None, name=None,
    deals=1, bot_speed="normal", reveal=False, four_color=False, size="normal")``, or
    ``RummyTable(game=Game.from_layout(...))`` for a prepared lesson. ``table.game`` is the
    engine. The learner sits at seat 0.
    """

    _esm = _asset("widget.js", _MISSING_BUNDLE)
    _css = _asset("widget.css", "")

    view = traitlets.Dict().tag(sync=True)
    lang = traitlets.Enum(LANGUAGES, "en").tag(sync=True)
    bot_speed = traitlets.Enum(SPEEDS, "normal").tag(sync=True)
    four_color = traitlets.Bool(False).tag(sync=True)
    size = traitlets.Enum(SIZES, "normal").tag(sync=True)

    def __init__(
        self,
        opponents: Sequence[object] = ("basic",),
        rules: str | Rules = "traditional",
        lang: str = "en",
        seed: int | None = None,
        name: str | None = None,
        deals: int = 1,
        bot_speed: str = "normal",
        reveal: bool = False,
        four_color: bool = False,
        size: str = "normal",
        game: Game | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(
            lang=check_lang(lang), bot_speed=bot_speed, four_color=four_color, size=size, **kwargs
        )
        self.seat = 0
        self.seed = secrets.randbelow(2**31) if seed is None else int(seed)
        self._reveal = bool(reveal)
        self._mode = "play"
        self._rev = 0
        self._message: dict | None = None
        self._message_count = 0
        self._hint: dict | None = None
        self._steps: list[dict] = []
        self._replay: dict | None = None
        opponents = list(opponents) or ["basic"]
        if game is None:
            players = 1 + len(opponents)
            names = [self._learner(name, lang), *BOT_NAMES[: players - 1]]
            self.match: Match | None = Match(names, rules, seed=self.seed, deals=deals, lang=lang)
            self._game = self.match.game
        else:
            self.match = None
            self._game = game
            players = game.players
            default = default_names(players, game.lang)
            names = [
                self._learner(name, lang)
                if p == 0
                else (BOT_NAMES[p - 1] if n == default[p] else n)
                for p, n in enumerate(game.names)
            ]
        self.names = names
        self.bots = [
            self._make_bot(opponents[min(i, len(opponents) - 1)], i + 1) for i in range(players - 1)
        ]
        self.on_msg(self._on_custom_msg)
        self.observe(lambda _change: self._publish(), names=["lang"])
        self._after_learner()

    @staticmethod
    def _learner(name: str | None, lang: str) -> str:
        """The learner's name at the table: "You" / "Sinä" unless one is given."""
        return t("ui.you", lang) if name is None else str(name)

    # --- public -----------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The engine's current deal."""
        return self._game

    @property
    def reveal(self) -> bool:
        """Open hands (the teacher's demo). Not synced from the browser, so it cannot be
        switched on there."""
        return self._reveal

    @reveal.setter
    def reveal(self, value: bool) -> None:
        self._reveal = bool(value)
        self._publish()

    @classmethod
    def replay(
        cls, game: Game, seat: int = 0, open_hands: bool = False, lang: str = "en", **kwargs
    ) -> RummyTable:
        """Show a finished (or unfinished) game move by move, from ``seat`` or open-handed."""
        table = cls.__new__(cls)
        anywidget.AnyWidget.__init__(table, lang=check_lang(lang), **kwargs)
        table.seat = game._seat(seat)
        table.seed = game.seed
        table._reveal = bool(open_hands)
        table._mode = "replay"
        table._rev = 0
        table._message = None
        table._message_count = 0
        table._hint = None
        table._steps = []
        table.match = None
        table.names = list(game.names)
        table.bots = []
        table._replay = {"data": game.to_dict(), "step": 0}
        table._game = Game.from_dict(table._replay["data"], upto=0)
        table.on_msg(table._on_custom_msg)
        table.observe(lambda _change: table._publish(), names=["lang"])
        table._publish()
        return table

    def replay_to(self, step: int) -> None:
        """Replay mode: show the table after ``step`` moves (clamped to the game's length)."""
        if self._replay is None:
            raise IntentError("ui.error.bad_intent")
        data = self._replay["data"]
        total = len(data["history"])
        step = max(0, min(int(step), total))
        before = Game.from_dict(data, upto=max(0, step - 1)) if step else None
        self._game = Game.from_dict(data, upto=step)
        self._steps = []
        if before is not None and step == self._replay["step"] + 1:
            events = self._game.log[len(before.log) :]
            obs = self._game.observation(self.seat)
            self._steps = [{"events": events, "table": table_snapshot(obs)}]
        self._replay["step"] = step
        self._rev = step
        self._publish()

    def handle_intent(self, content: object) -> bool:
        """Check and carry out one intent from the front end; True if it was carried out.

        Anything refused sets a localized message and leaves the game as it was.
        """
        try:
            self._dispatch(content)
        except RuleError as err:
            self._say("error", err.localized)
            return False
        except IntentError as err:
            self._say("error", lambda lang, key=err.key: t(key, lang))
            return False
        return True

    def __repr__(self) -> str:
        """One line in the table's language: where no kernel runs (GitHub, nbviewer) a saved
        notebook shows only this text/plain form of the widget, so the learner reads it."""
        game, lang = self._game, self.lang
        if game.phase == "over":
            state = t("repr.table.over", lang)
        else:
            name = self.names[game.current_player]
            state = t(f"repr.table.{game.phase}", lang, name=name)
        deal = ""
        if self.match is not None:
            deal = t("repr.table.deal", lang, n=self.match.deal_number, total=self.match.deals)
        mode = t("repr.table.replay", lang) if self._mode == "replay" else ""
        return t(
            "repr.table",
            lang,
            mode=mode,
            rules=game.rules.name,
            players=game.players,
            deal=deal,
            state=state,
        )

    # --- intents ----------------------------------------------------------------------------

    def _on_custom_msg(self, _widget: object, content: object, _buffers: object) -> None:
        self.handle_intent(content)

    def _dispatch(self, content: object) -> None:
        try:
            size = len(json.dumps(content))
        except (TypeError, ValueError):
            raise IntentError("ui.error.bad_intent") from None
        if size > MAX_INTENT_BYTES:
            raise IntentError("ui.error.too_large")
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            raise IntentError("ui.error.bad_intent")
        kind = content["type"]
        if kind == "replay":
            step = content.get("step")
            if self._mode != "replay" or not _is_int(step):
                raise IntentError("ui.error.bad_intent")
            self.replay_to(step)
            return
        if self._mode == "replay":
            raise IntentError("ui.error.replay")
        if kind not in ("action", "hint", "next_deal"):
            raise IntentError("ui.error.bad_intent")
        rev = content.get("rev")
        if not _is_int(rev):
            raise IntentError("ui.error.bad_intent")
        if rev != self._rev:
            raise IntentError("ui.error.stale")
        if kind == "action":
            action = Action.from_json(content.get("action"))
            self._game.apply(action, player=self.seat)
            self._changed()
            self._after_learner()
        elif kind == "hint":
            self._show_hint()
        else:
            self._next_deal()

    def _next_deal(self) -> None:
        if self._game.phase != "over":
            raise RuleError("deal_not_over")
        if self.match is None:
            raise RuleError("match_over")
        self._game = self.match.next_deal()
        self._changed()
        self._after_learner()

    def _show_hint(self) -> None:
        game = self._game
        if game.phase == "over" or game.current_player != self.seat:
            raise IntentError("ui.hint_unavailable")
        from ..bots import get_bot

        expert = get_bot("expert", seed=self.seed)
        obs = game.observation(self.seat)
        try:
            action = _as_action(expert.act(obs))
        except Exception:  # a failing expert must not break the table
            raise IntentError("ui.hint_unavailable") from None

        def text(lang: str) -> str:
            """One short sentence addressed to the learner: the reason, then the move."""
            return expert.advise(obs, action, lang)

        def why(lang: str) -> str:
            """The detailed reason, with its numbers, for a "why?" under the hint."""
            return expert.why(obs, action, lang)

        self._hint = {"rev": self._rev, "action": action, "text": text, "why": why}
        self._publish()

    # --- bots -------------------------------------------------------------------------------

    def _make_bot(self, spec: object, seat: int) -> object:
        if hasattr(spec, "act"):
            return spec
        from ..bots import get_bot  # the bot ladder; any object with act(observation) works

        return get_bot(str(spec), seed=self.seed * 10 + seat)

    def _after_learner(self) -> None:
        """Play the bots until it is the learner's turn again, recording their moves."""
        game = self._game
        steps: list[dict] = []
        moves = 0
        while game.phase != "over" and game.current_player != self.seat and moves < MAX_BOT_MOVES:
            seat = game.current_player
            before = len(game.log)
            self._bot_move(seat)
            moves += 1
            obs = game.observation(self.seat)
            steps.append({"events": obs["log"][before:], "table": table_snapshot(obs)})
        if game.phase == "over" and self.match is not None and self.match.game is game:
            self.match.record()
        self._steps = steps
        self._publish()

    def _bot_move(self, seat: int) -> None:
        game = self._game
        bot = self.bots[(seat - self.seat - 1) % len(self.bots)]
        try:
            game.apply(_as_action(bot.act(game.observation(seat))), player=seat)
            return
        except Exception:  # a broken bot must not freeze the table: play a legal move for it
            legal = game.legal_actions()
            discards = [a for a in legal if a.kind == "discard"]
            game.apply(discards[-1] if discards else legal[0], player=seat)
            name = self.names[seat]
            self._say("error", lambda lang: t("ui.error.bot_failed", lang, name=name))

    # --- publishing -------------------------------------------------------------------------

    def _changed(self) -> None:
        """The game moved on: a new revision; old hints, messages and animations go."""
        self._rev += 1
        self._hint = None
        self._message = None
        self._steps = []

    def _say(self, kind: str, text: Callable[[str], str]) -> None:
        self._message_count += 1
        self._message = {"id": self._message_count, "kind": kind, "text": text}
        self._publish()

    def _publish(self) -> None:
        lang = self.lang
        message = None
        if self._message is not None:
            message = dict(self._message, text=self._message["text"](lang))
        hint = None
        if self._hint is not None and self._hint["rev"] == self._rev:
            hint = {
                "action": action_view(self._hint["action"]),
                "text": self._hint["text"](lang),
                "why": self._hint["why"](lang),
            }
        replay = None
        if self._replay is not None:
            total = len(self._replay["data"]["history"])
            replay = {"step": self._replay["step"], "total": total}
        extras = Extras(
            rev=self._rev,
            mode=self._mode,
            reveal=self._reveal,
            message=message,
            hint=hint,
            steps=self._steps,
            replay=replay,
        )
        self.view = build_view(self._game, self.seat, lang, extras, self.match, self.names)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_action(value: object) -> Action:
    """Bots may answer with an ``Action`` or its JSON form."""
    return value if isinstance(value, Action) else Action.from_json(value)
