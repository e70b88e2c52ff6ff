"""``Table``: the card table without any widget: seats, intents, bots' turns, per-seat views.

A front end (the ``RummyTable`` widget, a classroom server, a game review) owns a ``Table`` and
does two things with it: it passes each intent a seat sends to ``intent(content, seat)`` and it
shows ``view(seat, lang)``, the JSON-ready table that seat may see. Python checks every intent
with the engine; after a person's move the bots play at once, and their moves are kept as
public animation steps in the next view. Nothing here imports a widget library, so the core
runs in a plain Python process. See docs/widget.md.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence

from ..engine.actions import Action
from ..engine.cards import Card
from ..engine.game import Game, default_names
from ..engine.match import Match
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import check_lang, t
from ..review.takebacks import take_back_default
from .coach import REVIEW_SAMPLES, Coach
from .plans import Plan, departure, plan_of
from .reasons import explain_lay_off, explain_meld
from .seat import (
    IntentError,
    MeldRefused,
    Notes,
    Text,
    as_action,
    attempt,
    expert_hint,
    intent_kind,
    is_int,
)
from .view import Extras, build_view, drawn_message, step_view

#: Opponents' names at the table, seat 1 onwards (the same in both languages).
OPPONENT_NAMES = ("Aino", "Eero", "Kaisa")
#: The intents a person at the table may send in play.
INTENTS = ("action", "hint", "take_back", "review", "next_deal", "play_again")
#: A bot turn is a handful of moves; more than this means a broken bot.
MAX_BOT_MOVES = 2000


class Table:
    """One table: a match (or a prepared ``game``) with people at ``humans`` and bots elsewhere.

    ``Table(opponents=["basic"], rules="traditional", lang="en", seed=None, name=None, deals=1,
    reveal=False, game=None, humans=(0,), take_back=None)``. ``seat`` is the first person's
    seat, the one a single-learner front end shows. ``take_back`` offers take-backs; None
    means ``take_back_default``: on only when one person plays against bots.
    """

    def __init__(
        self,
        opponents: Sequence[object] = ("basic",),
        rules: str | Rules = "traditional",
        lang: str = "en",
        seed: int | None = None,
        name: str | None = None,
        deals: int = 1,
        reveal: bool = False,
        game: Game | None = None,
        humans: Iterable[int] = (0,),
        take_back: bool | None = None,
        review_samples: int = REVIEW_SAMPLES,
        players: Sequence[str] | None = None,
        *,
        replay: Game | None = None,
    ) -> None:
        lang = check_lang(lang)
        seed = replay.seed if replay is not None else seed
        self.seed = secrets.randbelow(2**31) if seed is None else int(seed)
        self.reveal = bool(reveal)
        self.mode = "play" if replay is None else "replay"
        self.rev = 0
        self.notes = Notes()  # each seat's message and hint (seat.py)
        self._plans: dict[int, Plan | None] = {}  # each seat's last hint's meld (plans.py)
        self.steps: list[dict] = []
        self._replay = None if replay is None else {"data": replay.to_dict(), "step": 0}
        self._coach: Coach | None = None
        self._live: Game | None = None  # the finished deal while a review item is replayed
        self.review_samples = int(review_samples)
        #: Called with (seat, moves looked at, moves in all) while a review runs.
        self.on_progress: Callable[[int, int, int], object] | None = None
        opponents = list(opponents) or ["basic"]
        people = [str(p) for p in players] if players else [learner_name(name, lang)]
        if len(people) > 1:  # hot seat: the people sit first, no take-backs
            humans, take_back = range(len(people)), False
        self.match: Match | None = None
        if self._replay is not None:  # nobody plays: the seat watches the recorded moves
            self.game = Game.from_dict(self._replay["data"], upto=0)
            self.names = list(self.game.names)
            opponents, take_back = [], False
        elif game is None:
            names = [*people, *OPPONENT_NAMES[: len(opponents)]]
            self.match = Match(names, rules, seed=self.seed, deals=deals, lang=lang)
            self.game, self.names = self.match.game, names
        else:
            self.game, self.names = game, lesson_names(game, name, lang)
        self.humans = sorted({self.game._seat(s) for s in humans})
        self.seat = self.humans[0]
        #: Hot seat: the person whose view the one screen shows, and the one it waits for.
        self.screen_seat = self.seat
        self.passing: int | None = None
        #: The card the screen's seat drew with the last intent, while its turn goes on; the
        #: widget sends it ahead of the view (view.drawn_message).
        self.drawn: dict | None = None
        self._seat_bots(opponents, take_back)
        self._play_bots()
        self._hand_over()

    def _seat_bots(self, opponents: list[object], take_back: bool | None) -> None:
        """A bot at each seat without a person (none in a replay, whose recorded moves play
        every seat); take-backs by default only when one person plays against bots."""
        bot_seats = [p for p in range(self.game.players) if p not in self.humans]
        self.bots = {
            p: make_bot(opponents[min(i, len(opponents) - 1)], self.seed * 10 + p)
            for i, p in enumerate(bot_seats)
            if opponents
        }
        if take_back is None:
            take_back = take_back_default(len(self.humans), len(self.bots))
        self.take_back = bool(take_back)

    # --- replay -----------------------------------------------------------------------------

    @classmethod
    def replay(cls, game: Game, seat: int = 0, open_hands: bool = False) -> Table:
        """A finished (or unfinished) game shown move by move, from ``seat`` or open-handed."""
        return cls(humans=(seat,), reveal=open_hands, replay=game)

    @property
    def replay_total(self) -> int:
        return len(self._replay["data"]["history"]) if self._replay else 0

    def replay_to(self, step: int) -> None:
        """Replay mode: show the table after ``step`` moves (clamped to the game's length).

        One step forward carries that move as an animation step; any other jump shows the
        position at once.
        """
        if self._replay is None:
            raise IntentError("ui.error.bad_intent")
        data = self._replay["data"]
        step = max(0, min(int(step), self.replay_total))
        forward = step == self._replay["step"] + 1
        before = len(self.game.log) if forward else 0
        self.game = Game.from_dict(data, upto=step)
        self.steps = []
        if forward:
            self.steps = [self._step(self.game.log[before:], data["history"][step - 1]["player"])]
        self._replay["step"] = step
        self.rev = step

    # --- intents ----------------------------------------------------------------------------

    def intent(self, content: object, seat: int | None = None) -> bool:
        """Check and carry out one intent sent by ``seat``; True if it was carried out.

        Anything refused sets a localized message for that seat and changes nothing else.
        """
        seat = self.seat if seat is None else seat
        self.drawn = None
        if not attempt(self.notes, seat, lambda: self._dispatch(content, seat)):
            return False
        self._hand_over()
        return True

    def _hand_over(self) -> None:
        """Hot seat: the turn went to another person, so the screen waits to be passed."""
        turn = self.game.current_player
        playing = self.game.phase != "over" and self.mode == "play"
        if playing and turn in self.humans and turn != self.screen_seat:
            self.passing = turn

    def _dispatch(self, content: object, seat: int) -> None:
        kind = intent_kind(content)
        if kind == "replay":
            step = content.get("step")
            if self.mode != "replay" or not is_int(step):
                raise IntentError("ui.error.bad_intent")
            self.replay_to(step)
            return
        if kind == "pass_ready" and self.passing is not None:
            self.screen_seat, self.passing = self.passing, None
            return
        if kind == "review_open" and self._coach is not None:
            return self._review_move(content.get("move"), seat)
        if kind == "review_close" and self._coach is not None:
            return self._back()
        if self.mode == "replay":
            raise IntentError("ui.error.replay")
        if kind not in INTENTS or seat not in self.humans:
            raise IntentError("ui.error.bad_intent")
        rev = content.get("rev")
        if not is_int(rev):
            raise IntentError("ui.error.bad_intent")
        if rev != self.rev:
            raise IntentError("ui.error.stale")
        if kind == "action":
            self._play(Action.from_json(content.get("action")), seat)
        elif kind == "hint":
            self._show_hint(seat)
        elif kind == "take_back":
            self._take_back(seat)
        elif kind == "review":
            self._review(seat)
        elif kind == "next_deal":
            self._next_deal()
        else:
            self._play_again()

    def _play(self, action: Action, seat: int) -> None:
        try:
            self.game.apply(action, player=seat)
        except RuleError as err:
            reason = None
            if err.code == "not_a_meld":
                reason = explain_meld(action.cards, self.game.rules)
            elif err.code == "cannot_lay_off":
                index = action.meld_index
                meld = self.game.melds[index]
                reason = explain_lay_off(action.card, meld, index, self.game.rules)
            if reason is not None:
                raise MeldRefused(reason) from err
            raise
        self._changed()
        self.steps = [self._step(self.game.log[-1:], seat)] if len(self.humans) > 1 else []
        self._play_bots()
        if action.kind == "draw" and seat == self.screen_seat and not self.steps:
            self.drawn = drawn_message(self.rev, self.game.hand(seat)[-1], action.source)

    def _take_back(self, seat: int) -> None:
        """Undo the seat's last move of this turn; the engine names why it cannot."""
        if not self.take_back:
            raise IntentError("ui.error.take_back_off")
        undone = self.game.take_back(seat)
        top = self.game.discard_pile[0] if undone.kind == "draw" else None
        self._changed()
        self.notes.say(seat, lambda lang: taken_back_text(undone, top, lang), kind="info")

    def take_back_open(self, seat: int) -> bool | None:
        """None if the table offers no take-backs, else whether ``seat`` may take back now."""
        if not self.take_back or self.mode != "play":
            return None
        return self.game.take_back_problem(seat) is None

    # --- review -----------------------------------------------------------------------------

    def _review(self, seat: int) -> None:
        """Review the seat's finished deal (its budget: ``review_samples``)."""
        if self.game.phase != "over":
            raise RuleError("deal_not_over")
        hook = self.on_progress

        def progress(done: int, total: int) -> None:
            if hook is not None:
                hook(seat, done, total)

        lang = self.game.lang
        self._coach = Coach.run(self.game, seat, lang, self.seed, self.review_samples, progress)
        self._changed()

    def _review_move(self, move: object, seat: int) -> None:
        """Replay the reviewed deal at a listed decision, its better move outlined as a hint."""
        coach = self._coach
        better = coach.better(move) if is_int(move) and coach.seat == seat else None
        if better is None:
            raise IntentError("ui.error.bad_intent")
        if self._live is None:
            self._live = self.game
        self.mode = "replay"
        self._replay = {"data": coach.save, "step": move}
        self.game = Game.from_dict(coach.save, upto=move)
        self._changed()

        def text(lang: str) -> str:
            return coach.reason(move, lang)

        self.notes.give_hint(seat, {"rev": self.rev, "action": better, "text": text, "why": text})

    def _back(self) -> None:
        """From a review item's replay back to the finished deal."""
        if self._live is None:
            raise IntentError("ui.error.bad_intent")
        self.game, self._live = self._live, None
        self.mode = "play"
        self._replay = None
        self._changed()

    def review_view(self, seat: int, lang: str) -> dict | None:
        """The seat's review (summary and listed decisions), or None before a review."""
        coach = self._coach
        return coach.view(lang) if coach is not None and coach.seat == seat else None

    def _next_deal(self) -> None:
        if self.game.phase != "over":
            raise RuleError("deal_not_over")
        if self.match is None:
            raise RuleError("match_over")
        self._coach = None
        self.game = self.match.next_deal()
        self._changed()
        self._play_bots()

    def _play_again(self) -> None:
        """A finished match starts over: the same players and rules, the next seed. A
        finished lesson (a prepared ``game``) starts again from its first position."""
        match = self.match
        if self.game.phase != "over" or (match is not None and not match.over):
            raise RuleError("deal_not_over")
        self._coach = None
        if match is None:
            self.game = Game.from_dict(self.game.to_dict(), upto=0)
        else:
            self.seed += 1
            self.match = Match(
                self.names, match.rules, seed=self.seed, deals=match.deals, lang=match.lang
            )
            self.game = self.match.game
        self._changed()
        self._play_bots()

    def _show_hint(self, seat: int) -> None:
        """The expert's move as a hint; first why the plan changed, if it leaves the last
        hint's meld (table/plans.py)."""
        game = self.game
        obs = game.observation(seat)

        def replan(expert: object, action: Action) -> Text | None:
            from ..bots.seen import Seen

            changed = departure(self._plans.get(seat), game, seat, action)
            try:
                params = expert.reason(Seen.read(obs), action)[1]
            except Exception:  # a hint without a reason has no plan to keep
                params = {}
            self._plans[seat] = plan_of(game, action, params)
            return changed

        self.notes.give_hint(seat, expert_hint(obs, seat, self.seed, self.rev, replan))

    # --- bots -------------------------------------------------------------------------------

    def _play_bots(self) -> None:
        """Play the bots until a person is to move (or the deal ends), keeping each move."""
        game = self.game
        moves = 0
        while game.phase != "over" and game.current_player in self.bots and moves < MAX_BOT_MOVES:
            seat = game.current_player
            before = len(game.log)
            self._bot_move(seat)
            moves += 1
            self.steps.append(self._step(game.log[before:], seat))
        if game.phase == "over" and self.match is not None and self.match.game is game:
            self.match.record()

    def _bot_move(self, seat: int) -> None:
        game = self.game
        try:
            game.apply(as_action(self.bots[seat].act(game.observation(seat))), player=seat)
            return
        except Exception:  # a broken bot must not freeze the table: play a legal move for it
            legal = game.legal_actions()
            discards = [a for a in legal if a.kind == "discard"]
            game.apply(discards[-1] if discards else legal[0], player=seat)
            name = self.names[seat]
            for human in self.humans:
                self.notes.say(human, lambda lang: t("ui.error.bot_failed", lang, name=name))

    def _step(self, events: list, actor: int) -> dict:
        """One move for the front end to animate: its public events and the table after it.

        With open hands (the teacher's demo, where every card is shown anyway) a draw from the
        stock names its card, so the caption can say it."""
        hands = None
        if self.reveal:
            hands = [list(self.game.hand(p)) for p in range(self.game.players)]
            drawn = hands[actor][-1].to_json() if hands[actor] else None
            events = [
                dict(e, card=drawn) if e["type"] == "draw" and e.get("source") == "stock" else e
                for e in events
            ]
        return step_view(self.game.observation(self.seat), events, actor, hands)

    # --- views ------------------------------------------------------------------------------

    def _changed(self) -> None:
        """The game moved on: a new revision; old hints, messages and animations go."""
        self.rev += 1
        self.notes.forget()
        self.steps = []

    def message(self, seat: int | None = None, lang: str = "en") -> dict | None:
        """The seat's latest message, in ``lang`` (``{"id", "kind", "text"}``) or None."""
        return self.notes.message(self.seat if seat is None else seat, lang)

    def view(self, seat: int | None = None, lang: str = "en") -> dict:
        """Everything ``seat`` may see, JSON-ready, in ``lang``."""
        seat = self.seat if seat is None else seat
        hint = self.notes.hint(seat, self.rev, lang)
        replay = None
        if self._replay is not None:
            replay = {"step": self._replay["step"], "total": self.replay_total}
        extras = Extras(
            rev=self.rev,
            mode=self.mode,
            reveal=self.reveal,
            message=self.message(seat, lang),
            hint=hint,
            steps=self.steps,
            replay=replay,
            take_back=self.take_back_open(seat),
            review=self.review_view(seat, lang),
        )
        view = build_view(self.game, seat, lang, extras, self.match, self.names)
        players = view["players"]
        for bot_seat, bot in self.bots.items():  # each bot's seat says which bot it is
            label = seat_label(bot, lang)
            if label is not None:
                players[bot_seat] = dict(players[bot_seat], bot=label)
        return view

    def screen(self, lang: str = "en") -> dict:
        """What the one screen shows: the screen seat's view, or in hot seat, once the turn
        has gone to another person, a pass screen with no card of any hand."""
        view = self.view(self.screen_seat, lang)
        if self.passing is None:
            return view
        name = self.names[self.passing]
        hidden = {"hand": [], "penalty": None, "hint": None, "steps": [], "log": []}
        return dict(
            view,
            **hidden,
            taken_from_discard=None,
            take_back=None,
            review=None,
            seat=self.passing,
            **{
                "pass": {
                    "title": t("ui.pass.title", lang, name=name),
                    "go": t("ui.pass.go", lang, name=name),
                }
            },
        )

    def describe(self, lang: str = "en") -> str:
        """One line about the table in ``lang`` (the widget's repr)."""
        game = self.game
        if game.phase == "over":
            state = t("repr.table.over", lang)
        else:
            state = t(f"repr.table.{game.phase}", lang, name=self.names[game.current_player])
        deal = ""
        if self.match is not None:
            deal = t("repr.table.deal", lang, n=self.match.deal_number, total=self.match.deals)
        mode = t("repr.table.replay", lang) if self.mode == "replay" else ""
        return t(
            "repr.table",
            lang,
            mode=mode,
            rules=game.rules.name,
            players=game.players,
            deal=deal,
            state=state,
        )


def taken_back_text(action: Action, top: Card | None, lang: str) -> str:
    """What a take-back undid, in words: "Taken back: 7♥ is on the discard pile again. Draw
    again." (only a pile draw, whose card is now ``top``, a meld and a lay-off go back)."""
    if action.kind == "draw":
        return t("ui.taken_back.draw_discard", lang, card=top)
    if action.kind == "meld":
        return t("ui.taken_back.meld", lang, cards=" ".join(str(c) for c in action.cards))
    return t("ui.taken_back.lay_off", lang, card=action.card, index=action.meld_index)


def seat_label(bot: object, lang: str) -> str | None:
    """What a bot's seat says it is ("Expert bot", "Asiantuntijabotti"): the ladder's bots by
    name, another bot by its own ``label``; None for a bot that has neither."""
    name = getattr(bot, "name", None)
    if name in ("basic", "expert", "master", "random"):
        return t(f"bot.seat.{name}", lang)
    try:
        return str(bot.label(lang))
    except Exception:  # a learner's own bot need not have a label
        return None


def lesson_names(game: Game, name: str | None, lang: str) -> list[str]:
    """A prepared game's names at the table: the learner's at seat 0, the opponents' names
    where the game kept its default names ("Player 2"), any other name as it is."""
    default = default_names(game.players, game.lang)
    return [
        learner_name(name, lang) if p == 0 else (OPPONENT_NAMES[p - 1] if n == default[p] else n)
        for p, n in enumerate(game.names)
    ]


def learner_name(name: str | None, lang: str) -> str:
    """The learner's name at the table: "You" / "Sinä" unless one is given."""
    return t("ui.you", lang) if name is None else str(name)


def make_bot(spec: object, seed: int) -> object:
    """A bot from the ladder by name, or any object with ``act(observation)`` as it is."""
    if hasattr(spec, "act"):
        return spec
    from ..bots import get_bot

    return get_bot(str(spec), seed=seed)
