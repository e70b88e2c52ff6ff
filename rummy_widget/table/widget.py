"""``RummyTable``: the card table widget, a thin anywidget shell around ``table.core.Table``.

The widget owns the synced traits only: the browser holds one seat's view and sends intents
(``{"type": "action", "rev": ..., "action": {...}}``), which go to the core unchanged; after
each one the widget publishes the core's new view. See docs/widget.md.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path

import anywidget
import traitlets

from ..engine.game import Game
from ..engine.match import Match
from ..engine.rules import Rules
from ..i18n import LANGUAGES, check_lang, t
from ..solver import best_arrangement
from .coach import REVIEW_SAMPLES
from .core import MAX_BOT_MOVES, OPPONENT_NAMES, Table
from .remote import RELAY, RemoteTable
from .seat import MAX_INTENT_BYTES, IntentError

STATIC = Path(__file__).parent.parent / "static"
SPEEDS = ("instant", "fast", "normal", "slow")
SIZES = ("normal", "large")

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


def _warm_solver(rules: str = "traditional") -> None:
    """Build the solver's tables for the default rules now, when the widget is imported.

    The solver builds them on first use (about 25 ms of CPU, more on a busy machine), and the
    first use would be the first table's hand penalty, on its way to the page: a notebook's
    import cell pays it instead of the first table's first paint (docs/widget.md, "Speed").
    """
    best_arrangement((), rules)


_warm_solver()

__all__ = ["MAX_BOT_MOVES", "MAX_INTENT_BYTES", "OPPONENT_NAMES", "IntentError", "RummyTable"]


class RummyTable(anywidget.AnyWidget):
    """Play Traditional Rummy against bots in a notebook.

    ``RummyTable(opponents=["basic"], rules="traditional", lang="en", seed=None, name=None,
    deals=1, bot_speed="normal", reveal=False, four_color=False, size="normal", take_back=None,
    review_samples=4)``
    (None: take-backs only against bots alone, see ``take_back_default``), or
    ``RummyTable(game=Game.from_layout(...))`` for a prepared lesson, or
    ``RummyTable(server="http://host:8765", room="KETTU", name="Alex")`` for a seat at a
    classroom server's table (``table.remote.RemoteTable``). ``table.game`` is the
    engine, ``table.core`` the widget-free table. The learner sits at seat 0.
    """

    #: The front end, its style sheet inside: no ``_css``, which anywidget would write into the
    #: page again for every new table (js/src/styles.ts).
    _esm = _asset("widget.js", _MISSING_BUNDLE)

    view = traitlets.Dict().tag(sync=True)
    #: The rules table of the view, synced on its own: it changes only with the language, so
    #: it is not sent again with every move.
    rules = traitlets.Dict().tag(sync=True)
    lang = traitlets.Enum(LANGUAGES, "en").tag(sync=True)
    bot_speed = traitlets.Enum(SPEEDS, "normal").tag(sync=True)
    four_color = traitlets.Bool(False).tag(sync=True)
    size = traitlets.Enum(SIZES, "normal").tag(sync=True)
    #: The running review's progress line ("" when none runs), shown on the message line.
    progress = traitlets.Unicode("").tag(sync=True)
    #: A classroom seat: where the browser's relay connects (``{"url", "room", "name"}``).
    #: Never the seat's token, which crosses only custom messages and stays out of the notebook.
    remote = traitlets.Dict().tag(sync=True)

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
        take_back: bool | None = None,
        review_samples: int = REVIEW_SAMPLES,
        players: Sequence[str] | None = None,
        core: Table | None = None,
        server: str | None = None,
        room: str | None = None,
        **kwargs: object,
    ) -> None:
        lang = check_lang(lang)
        if core is None and server is not None:  # a seat at a classroom server's table
            core = RemoteTable(server, room, name, lang, send=self._relay_send)
            # In the comm's first state: the front end's relay reads it once, at initialize.
            kwargs["remote"] = {"url": core.url, "room": core.room, "name": core.name}
        if core is None:
            core = Table(
                opponents=opponents,
                rules=rules,
                lang=lang,
                seed=seed,
                name=name,
                deals=deals,
                reveal=reveal,
                game=game,
                take_back=take_back,
                review_samples=review_samples,
                players=players,
            )
        self.core = core
        # The first view and the rules go with the widget's opening message (its comm_open)
        # rather than as two updates after it: the page can draw the table from that one
        # message, and the kernel serializes and sends two messages fewer.
        view, rules = self._screen(lang)
        super().__init__(
            lang=lang,
            bot_speed=bot_speed,
            four_color=four_color,
            size=size,
            view=view,
            rules=rules,
            **kwargs,
        )
        core.on_progress = self._on_progress
        self.on_msg(self._on_custom_msg)
        self.observe(lambda _change: self._publish(), names=["lang"])

    # --- the core's state, read through -----------------------------------------------------

    @property
    def game(self) -> Game:
        """The engine's current deal; at a classroom seat an ``AttributeError`` in the table's
        language (the server holds the deal: ``table.core.observation()`` is the seat's view)."""
        return self.core.game

    @property
    def match(self) -> Match | None:
        return self.core.match

    @property
    def names(self) -> list[str]:
        return self.core.names

    @property
    def seat(self) -> int:
        return self.core.seat

    @property
    def seed(self) -> int:
        return self.core.seed

    @property
    def bots(self) -> list[object]:
        return list(self.core.bots.values())

    @property
    def reveal(self) -> bool:
        """Open hands (the teacher's demo). Not synced from the browser, so it cannot be
        switched on there."""
        return self.core.reveal

    @reveal.setter
    def reveal(self, value: bool) -> None:
        self.core.reveal = bool(value)
        self._publish()

    # --- public -----------------------------------------------------------------------------

    @classmethod
    def replay(
        cls, game: Game, seat: int = 0, open_hands: bool = False, lang: str = "en", **kwargs
    ) -> RummyTable:
        """Show a finished (or unfinished) game move by move, from ``seat`` or open-handed."""
        return cls(lang=lang, core=Table.replay(game, seat, open_hands), **kwargs)

    def replay_to(self, step: int) -> None:
        """Replay mode: show the table after ``step`` moves (clamped to the game's length)."""
        self.core.replay_to(step)
        self._publish()

    def handle_intent(self, content: object) -> bool:
        """Check and carry out one intent from the front end; True if it was carried out.

        Anything refused sets a localized message and leaves the game as it was.
        """
        done = self.core.intent(content, self.core.screen_seat)
        if self.core.drawn is not None:
            # The learner's eyes are on the hand: the new card goes ahead of the view.
            self.send(self.core.drawn)
        self.progress = ""
        self._publish()
        return done

    def _on_progress(self, seat: int, done: int, total: int) -> None:
        """The review's progress, sent at once while the intent is still being handled."""
        if seat == self.core.screen_seat:
            self.progress = t("ui.review.progress", self.lang, done=done, total=total)

    def __repr__(self) -> str:
        """One line in the table's language: where no kernel runs (GitHub, nbviewer) a saved
        notebook shows only this text/plain form of the widget, so the learner reads it."""
        return self.core.describe(self.lang)

    def _on_custom_msg(self, _widget: object, content: object, _buffers: object) -> None:
        relayed = isinstance(content, dict) and content.get("type") in RELAY
        if relayed and isinstance(self.core, RemoteTable):
            self.core.relayed(content)
            self._publish()
            return
        self.handle_intent(content)

    def _relay_send(self, text: str) -> None:
        """A frame for the classroom server, through the browser's socket (js/src/remote.ts)."""
        self.send({"type": "remote_send", "text": text})

    def _screen(self, lang: str) -> tuple[dict, dict]:
        """The screen's view and, apart, its rules table (synced only when it changes)."""
        view = self.core.screen(lang)
        return view, view.pop("rules")

    def _publish(self) -> None:
        view, rules = self._screen(self.lang)
        if rules != self.rules:
            self.rules = rules
        self.view = view
