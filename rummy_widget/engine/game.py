"""One deal of Traditional Rummy: the engine's state, its legal actions and its history.

Every action checks all of its conditions before it changes anything, so an illegal action
raises ``RuleError`` and leaves the game exactly as it was. Row numbers in comments refer to the
decisions table in ``docs/rules.md``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import Reason, RuleError
from ..i18n import LANGUAGES, check_lang, current_language, t
from .actions import Action
from .cards import CARD_JSON, DECK_SIZE, Card, Cards, full_deck, parse_cards
from .frozen import Frozen
from .melds import Meld
from .moves import keep_problem, legal_actions
from .rules import Rules

SAVE_FORMAT = "rummy_widget.game"
SAVE_VERSION = 1


@dataclass
class DealResult:
    """How a deal ended: the winner (None if void), whether it was Rummy, penalties per seat."""

    winner: int | None
    rummy: bool
    void: bool
    penalties: list[int]
    hands: list[Cards] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    lang: str = "en"

    def to_json(self) -> dict:
        return {
            "winner": self.winner,
            "rummy": self.rummy,
            "void": self.void,
            "penalties": list(self.penalties),
            "hands": [[c.to_json() for c in h] for h in self.hands],
        }

    def __repr__(self) -> str:
        if self.void:
            return "DealResult(void)"
        kind = "rummy" if self.rummy else "out"
        return f"DealResult(winner={self.winner}, {kind}, penalties={self.penalties})"

    def _repr_html_(self) -> str:
        from ..display import result_html

        return result_html(self, self.names, lang=self.lang)


@dataclass(frozen=True)
class TakeBack:
    """A move taken back: ``action`` was played by ``player`` as the ``move``-th action of the
    history (0-based) and then undone, so ``history[move]`` is whatever was played after it."""

    move: int
    player: int
    action: Action

    def to_json(self) -> dict:
        return {"move": self.move, "player": self.player, "action": self.action.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> TakeBack:
        move, player = data["move"], data["player"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (move, player)):
            raise ValueError(f"take-back {data!r}")
        return cls(move, player, Action.from_json(data["action"]))


def default_names(count: int, lang: str = "en") -> list[str]:
    return [t("common.player_n", lang, n=i + 1) for i in range(count)]


class Game:
    """One deal. ``Game(players=2, rules="traditional", seed=0)``; see docs/ARCHITECTURE.md."""

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        rules: str | Rules = "traditional",
        seed: int | None = None,
        lang: str = "en",
        dealer: int | None = None,
    ) -> None:
        self.lang = check_lang(lang)
        self.rules = Rules.preset(rules)
        names = self._names(players)
        self.seed = secrets.randbelow(2**32) if seed is None else int(seed)
        count = len(names)
        dealer = count - 1 if dealer is None else dealer
        if not isinstance(dealer, int) or not 0 <= dealer < count:
            raise RuleError("bad_player", self.lang, player=dealer)
        deck = full_deck()
        random.Random(self.seed).shuffle(deck)  # deck[-1] is the top card
        hands: list[list[Card]] = [[] for _ in range(count)]
        for _ in range(self.rules.hand_size):  # row 3: one at a time from the dealer's left
            for i in range(1, count + 1):
                hands[(dealer + i) % count].append(deck.pop())
        discard = [deck.pop()]
        self._setup(names, hands, deck, discard, [], [], dealer, (dealer + 1) % count)

    # --- construction ----------------------------------------------------------------------

    def _names(self, players: int | Sequence[str]) -> list[str]:
        rules = self.rules
        if isinstance(players, int) and not isinstance(players, bool):
            count, names = players, None
        elif isinstance(players, Sequence) and not isinstance(players, str):
            names = [str(p) for p in players]
            count = len(names)
        else:
            raise RuleError(
                "bad_players",
                self.lang,
                min=rules.min_players,
                max=rules.max_players,
                count=repr(players),
            )
        if not rules.min_players <= count <= rules.max_players:
            raise RuleError(
                "bad_players", self.lang, min=rules.min_players, max=rules.max_players, count=count
            )
        return names or default_names(count, self.lang)

    def _setup(
        self,
        names: list[str],
        hands: list[list[Card]],
        stock: list[Card],
        discard: list[Card],
        melds: list[Meld],
        out_of_play: list[Card],
        dealer: int,
        current: int,
        has_melded: list[bool] | None = None,
    ) -> None:
        """Set the whole state; piles are stored with their top card last."""
        self.names = names
        self._hands = [list(h) for h in hands]
        self._stock = list(stock)
        self._discard = list(discard)
        self._melds = list(melds)
        self._out_of_play = list(out_of_play)
        self.dealer = dealer
        self._current = current
        self._phase = "draw"
        self._taken: Card | None = None
        self._has_melded = list(has_melded or [False] * len(names))
        self._played_this_turn = False
        self.rebuilds = 0
        self.turns = 0
        self.history: list[tuple[int, Action]] = []
        self.take_backs: list[TakeBack] = []  # moves undone by ``take_back``, oldest first
        # Events are read-only (``Frozen``) so every observation can share them uncopied.
        self._log: list[Frozen] = [Frozen(type="deal", dealer=dealer)]
        self._meld_views: list[tuple[Meld, Frozen]] = []
        self._result: DealResult | None = None
        self._initial = self._snapshot()

    def _snapshot(self) -> dict:
        ids = lambda cards: [c.id for c in cards]  # noqa: E731
        return {
            "dealer": self.dealer,
            "current_player": self._current,
            "hands": [ids(h) for h in self._hands],
            "stock": ids(reversed(self._stock)),
            "discard": ids(reversed(self._discard)),
            "melds": [{"owner": m.owner, "cards": ids(m.cards)} for m in self._melds],
            "out_of_play": ids(self._out_of_play),
            "has_melded": list(self._has_melded),
        }

    @classmethod
    def from_layout(
        cls,
        hands: Sequence[str | Iterable[Card | str]],
        stock: str | Iterable[Card | str] = (),
        discard: str | Iterable[Card | str] = (),
        rules: str | Rules = "traditional",
        current_player: int = 0,
        players: Sequence[str] | None = None,
        melds: Sequence[str | Iterable[Card | str] | tuple] = (),
        has_melded: Sequence[bool] | None = None,
        dealer: int | None = None,
        seed: int = 0,
        lang: str = "en",
    ) -> Game:
        """A prepared position for a lesson.

        ``stock`` and ``discard`` list their top card first. ``melds`` are already on the table:
        card texts, or ``(cards, owner)`` pairs. Cards named nowhere are out of play; naming a
        card more often than the two decks hold is an error.
        """
        game = cls.__new__(cls)
        game.lang = check_lang(lang)
        game.rules = Rules.preset(rules)
        game.seed = int(seed)
        names = game._names(list(players) if players is not None else len(hands))
        if len(hands) != len(names):
            reason = Reason("hands_for_players", hands=len(hands), players=len(names))
            raise RuleError("bad_layout", game.lang, reason=reason)
        ids = _Allocator(game.lang)
        hand_cards = [ids.take(parse_cards(h)) for h in hands]
        if any(not h for h in hand_cards):
            raise RuleError("bad_layout", game.lang, reason=Reason("empty_hand"))
        stock_cards = ids.take(parse_cards(stock))
        discard_cards = ids.take(parse_cards(discard))
        table: list[Meld] = []
        for item in melds:
            cards, owner = item if isinstance(item, tuple) else (item, 0)
            chosen = ids.take(parse_cards(cards))
            made = Meld.make(chosen, game.rules, owner)
            if made is None:
                reason = Reason("not_a_table_meld", cards=Cards(chosen))
                raise RuleError("bad_layout", game.lang, reason=reason)
            if not isinstance(owner, int) or not 0 <= owner < len(names):
                raise RuleError(
                    "bad_layout", game.lang, reason=Reason("no_such_owner", owner=owner)
                )
            table.append(made)
        count = len(names)
        if not isinstance(current_player, int) or not 0 <= current_player < count:
            raise RuleError("bad_player", game.lang, player=current_player)
        if not stock_cards and not discard_cards:
            raise RuleError("bad_layout", game.lang, reason=Reason("no_stock_or_pile"))
        dealer = (current_player - 1) % count if dealer is None else dealer
        out = [c for c in full_deck() if c.id not in ids.used]
        melded = (
            list(has_melded)
            if has_melded is not None
            else [any(m.owner == p for m in table) for p in range(count)]
        )
        game._setup(
            names,
            hand_cards,
            stock_cards[::-1],
            discard_cards[::-1],
            table,
            out,
            dealer,
            current_player,
            melded,
        )
        return game

    # --- public state ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def current_player(self) -> int:
        return self._current

    @property
    def phase(self) -> str:
        """``"draw"``, ``"play"`` (meld, lay off, discard) or ``"over"``."""
        return self._phase

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def melds(self) -> list[Meld]:
        return list(self._melds)

    @property
    def stock(self) -> Cards:
        """The stock, top card first (the engine's knowledge, never a player's)."""
        return Cards(reversed(self._stock))

    @property
    def discard_pile(self) -> Cards:
        """The discard pile, top card first (public)."""
        return Cards(reversed(self._discard))

    @property
    def out_of_play(self) -> Cards:
        return Cards(self._out_of_play)

    @property
    def taken_from_discard(self) -> Card | None:
        return self._taken

    @property
    def log(self) -> list[dict]:
        """The public event log: a new list of read-only events (``Frozen``), so a caller
        cannot change the game through it."""
        return list(self._log)

    def has_melded(self, player: int) -> bool:
        """Has ``player`` put cards on the table on an earlier turn? (row 16, going Rummy)"""
        return self._has_melded[self._seat(player)]

    def hand(self, player: int) -> Cards:
        return Cards(self._hands[self._seat(player)])

    def _seat(self, player: object) -> int:
        if (
            not isinstance(player, int)
            or isinstance(player, bool)
            or not 0 <= player < self.players
        ):
            raise RuleError("bad_player", self.lang, player=player)
        return player

    # --- actions ---------------------------------------------------------------------------

    def draw(self, source: str = "stock", player: int | None = None) -> Card:
        """Row 10: take the top card of the stock or of the discard pile; returns it."""
        self._check_turn(player, "draw")
        if source == "stock":
            if not self._stock:
                raise RuleError("stock_empty", self.lang)
            card = self._stock.pop()
            self._log.append(Frozen(type="draw", player=self._current, source="stock"))
        elif source == "discard":
            if not self._discard:
                raise RuleError("discard_empty", self.lang)
            card = self._discard.pop()
            self._taken = card
            self._log.append(
                Frozen(type="draw", player=self._current, source="discard", card=CARD_JSON[card.id])
            )
        else:
            raise RuleError("bad_source", self.lang)
        self._hands[self._current].append(card)
        self._phase = "play"
        self.history.append((self._current, Action.draw(source)))
        return card

    def meld(self, cards: str | Iterable[Card | str], player: int | None = None) -> Meld:
        """Rows 7, 8, 11: lay down a set or a run from the hand."""
        self._check_turn(player, "play")
        chosen = self._pick(cards)
        made = Meld.make(chosen, self.rules, self._current)
        if made is None:
            raise RuleError("not_a_meld", self.lang, cards=Cards(chosen))
        self._check_keeps(chosen)
        self._remove(chosen)
        self._melds.append(made)
        index = len(self._melds) - 1
        self._log.append(
            Frozen(
                type="meld",
                player=self._current,
                meld_index=index,
                cards=tuple([CARD_JSON[c.id] for c in made.cards]),
            )
        )
        self._after_table_play(Action.meld(chosen))
        return made

    def lay_off(self, card: Card | str, meld_index: int, player: int | None = None) -> Meld:
        """Row 12: add one card from the hand to any meld on the table."""
        self._check_turn(player, "play")
        (chosen,) = self._pick([card], single=True)
        if (
            not isinstance(meld_index, int)
            or isinstance(meld_index, bool)
            or not 0 <= meld_index < len(self._melds)
        ):
            raise RuleError("no_such_meld", self.lang, index=meld_index)
        grown = self._melds[meld_index].with_card(chosen, self.rules)
        if grown is None:
            raise RuleError(
                "cannot_lay_off",
                self.lang,
                card=chosen,
                index=meld_index,
                meld=Cards(self._melds[meld_index].cards),
            )
        self._check_keeps([chosen])
        self._remove([chosen])
        self._melds[meld_index] = grown
        self._log.append(
            Frozen(
                type="lay_off",
                player=self._current,
                meld_index=meld_index,
                card=CARD_JSON[chosen.id],
            )
        )
        self._after_table_play(Action.lay_off(chosen, meld_index))
        return grown

    def discard(self, card: Card | str, player: int | None = None) -> None:
        """Rows 13-14: end the turn by putting one card face up on the discard pile."""
        self._check_turn(player, "play")
        (chosen,) = self._pick([card], single=True)
        if chosen == self._taken and not self.rules.discard_taken_card:
            # Row 13 forbids returning that very card; the other copy of its face may go.
            twin = next(
                (c for c in self._hands[self._current] if c.face == chosen.face and c != chosen),
                None,
            )
            if twin is None:
                raise RuleError("taken_card", self.lang, card=chosen)
            chosen = twin
        self._remove([chosen])
        self._discard.append(chosen)
        seat = self._current
        self._log.append(Frozen(type="discard", player=seat, card=CARD_JSON[chosen.id]))
        self.history.append((seat, Action.discard(chosen)))
        if not self._hands[seat]:
            self._finish(winner=seat)
        else:
            self._next_turn()

    def apply(self, action: Action, player: int | None = None) -> None:
        """Play an ``Action`` (as listed by ``legal_actions``)."""
        if not isinstance(action, Action):
            raise RuleError("bad_action", self.lang, action=repr(action)[:60])
        if action.kind == "draw":
            self.draw(action.source, player=player)
        elif action.kind == "meld":
            self.meld(action.cards, player=player)
        elif action.kind == "lay_off":
            self.lay_off(action.card, action.meld_index, player=player)
        elif action.kind == "discard":
            self.discard(action.card, player=player)
        else:
            raise RuleError("bad_action", self.lang, action=action.kind)

    def legal_actions(self) -> list[Action]:
        """Every move the current player may make now, in a fixed order."""
        return legal_actions(
            self._phase,
            self._hands[self._current],
            self._melds,
            self._taken,
            self.rules,
            len(self._stock),
            len(self._discard),
        )

    def is_legal(self, action: Action) -> bool:
        """Would ``apply(action)`` succeed? (checked on a copy, so nothing changes)"""
        trial = Game.from_dict(self.to_dict())
        try:
            trial.apply(action)
        except RuleError:
            return False
        return True

    # --- take-backs ------------------------------------------------------------------------

    def take_back_problem(self, player: int | None = None) -> str | None:
        """Why ``take_back`` would be refused now (an error code), or None if it is allowed.

        Only moves of the turn being played go back, down to its draw: a discard ends the turn
        (the next player has seen it) and a stock draw showed the player a card it keeps
        knowing, so neither can be undone. A pile draw can: its card was face up anyway."""
        if self._phase == "over":
            return "deal_over"
        if player is not None and self._seat(player) != self._current:
            return "not_your_turn"
        if self._phase == "draw":
            return "nothing_to_take_back"
        if self.history[-1][1].kind == "draw" and self.history[-1][1].source == "stock":
            return "stock_draw_kept"
        return None

    def take_back(self, player: int | None = None) -> Action:
        """Undo the current turn's last move (a meld, a lay-off or a pile draw) and return it.

        The game is replayed without it, so every part of the state is as before that move;
        ``take_backs`` records it and ``to_dict`` saves it. Whether a table offers take-backs
        is the table's choice (see docs/review.md); the engine only enforces the limits."""
        problem = self.take_back_problem(player)
        if problem is not None:
            raise RuleError(problem, self.lang, player=self.names[self._current])
        seat, action = self.history[-1]
        record = [*self.take_backs, TakeBack(len(self.history) - 1, seat, action)]
        replayed = Game.from_dict(self.to_dict(), upto=len(self.history) - 1)
        self.__dict__.update(replayed.__dict__)
        self.take_backs = record
        return action

    # --- checks ----------------------------------------------------------------------------

    def _check_turn(self, player: int | None, phase: str) -> None:
        if self._phase == "over":
            raise RuleError("deal_over", self.lang)
        if player is not None and self._seat(player) != self._current:
            raise RuleError("not_your_turn", self.lang, player=self.names[self._current])
        if self._phase != phase:
            raise RuleError("draw_first" if phase == "play" else "already_drawn", self.lang)

    def _pick(self, cards: str | Iterable[Card | str] | Card, single: bool = False) -> list[Card]:
        """Find the named cards in the current hand: the exact copy if held, else the other."""
        if single and cards.__class__ is list and len(cards) == 1:  # a discard or a lay-off
            card = cards[0]
            if card.__class__ is Card:  # the usual case, quickly: that very card is held
                wanted = card.id
                for held in self._hands[self._current]:
                    if held.id == wanted:
                        return [card]
        named = list(parse_cards(cards))
        if not named:
            raise RuleError("no_cards", self.lang)
        if single and len(named) != 1:
            raise RuleError("bad_action", self.lang, action=str(Cards(named)))
        free = list(self._hands[self._current])
        chosen = []
        for card in named:
            match = card if card in free else next((c for c in free if c.face == card.face), None)
            if match is None:
                held = any(c.face == card.face for c in self._hands[self._current])
                raise RuleError("duplicate_card" if held else "not_in_hand", self.lang, card=card)
            free.remove(match)
            chosen.append(match)
        return chosen

    def _check_keeps(self, leaving: list[Card]) -> None:
        """Rows 13 and 15: a table play must leave a card the player may still discard."""
        problem = keep_problem(self._hands[self._current], leaving, self._taken, self.rules)
        if problem is not None:
            raise RuleError(problem, self.lang)

    # --- state changes ---------------------------------------------------------------------

    def _remove(self, cards: list[Card]) -> None:
        hand = self._hands[self._current]
        for card in cards:
            hand.remove(card)

    def _after_table_play(self, action: Action) -> None:
        self._played_this_turn = True
        self.history.append((self._current, action))
        if not self._hands[self._current]:  # row 15, traditional: out without a discard
            self._finish(winner=self._current)

    def _next_turn(self) -> None:
        seat = self._current
        self._has_melded[seat] = self._has_melded[seat] or self._played_this_turn
        self._played_this_turn = False
        self._taken = None
        self._current = (seat + 1) % self.players
        self._phase = "draw"
        self.turns += 1
        if self.turns >= self.rules.max_turns:  # row 18: two players could swap discards forever
            self._finish(winner=None)
        elif not self._stock:
            self._rebuild_stock()

    def _rebuild_stock(self) -> None:
        """Rows 17-18: the discard pile, but its top card, is shuffled into a new stock."""
        if self.rebuilds >= self.rules.max_rebuilds:
            self._finish(winner=None)
            return
        top = self._discard.pop()
        rest = self._discard
        self.rebuilds += 1
        random.Random(f"{self.seed}:rebuild:{self.rebuilds}").shuffle(rest)
        self._stock, self._discard = rest, [top]
        self._log.append(Frozen(type="rebuild", count=self.rebuilds))

    def _finish(self, winner: int | None) -> None:
        """Rows 16, 19, 20: score the deal."""
        self._phase = "over"
        self._taken = None
        hands = [Cards(h) for h in self._hands]
        if winner is None:
            self._result = DealResult(
                None, False, True, [0] * self.players, hands, list(self.names), self.lang
            )
        else:
            rummy = not self._has_melded[winner]
            bonus = self.rules.rummy_bonus if rummy else 0
            penalties = [
                0 if p == winner else self.rules.points(h) + bonus for p, h in enumerate(hands)
            ]
            self._result = DealResult(
                winner, rummy, False, penalties, hands, list(self.names), self.lang
            )
        self._log.append(
            Frozen(type="end", winner=winner, rummy=self._result.rummy, void=self._result.void)
        )

    # --- views -----------------------------------------------------------------------------

    def observation(self, player: int) -> dict:
        """What ``player`` may see, JSON-ready: never another hand or the stock's order."""
        seat = self._seat(player)
        hands, melded = self._hands, self._has_melded
        return {
            "seat": seat,
            "rules": self.rules.name,
            "players": [
                {"name": name, "hand_size": len(hands[p]), "has_melded": melded[p]}
                for p, name in enumerate(self.names)
            ],
            "dealer": self.dealer,
            "current_player": self._current,
            "phase": self._phase,
            "hand": [CARD_JSON[c.id] for c in hands[seat]],
            "stock_size": len(self._stock),
            "discard_pile": [CARD_JSON[c.id] for c in reversed(self._discard)],
            "melds": self._meld_json(),
            "taken_from_discard": self._taken.to_json() if self._taken else None,
            "rebuilds": self.rebuilds,
            "turns": self.turns,
            "log": list(self._log),
            "result": self._result.to_json() if self._result else None,
        }

    def _meld_json(self) -> list[Frozen]:
        """The table's melds as read-only JSON, each built once (melds never change place:
        a lay-off puts a new meld at the same index)."""
        views = self._meld_views
        for i, meld in enumerate(self._melds):
            if i < len(views) and views[i][0] is meld:
                continue
            cards = tuple([CARD_JSON[c.id] for c in meld.cards])
            view = Frozen(index=i, owner=meld.owner, kind=meld.kind, cards=cards)
            if i < len(views):
                views[i] = (meld, view)
            else:
                views.append((meld, view))
        return [view for _, view in views[: len(self._melds)]]

    def show(self, player: int = 0, open_hands: bool = False, lang: str | None = None, **style):
        """A picture of the table from ``player``'s seat (all hands face up if ``open_hands``)."""
        from ..display import table_view

        hands = [Cards(h) for h in self._hands] if open_hands else None
        return table_view(self.observation(player), lang=lang or self.lang, hands=hands, **style)

    # --- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """A full, versioned JSON round trip: the starting position plus every action."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": self.rules.to_dict(),
            "players": list(self.names),
            "seed": self.seed,
            "lang": self.lang,
            "initial": self._initial,
            "history": [{"player": p, "action": a.to_json()} for p, a in self.history],
            "take_backs": [b.to_json() for b in self.take_backs],
        }

    @classmethod
    def from_dict(cls, data: dict, upto: int | None = None) -> Game:
        """Rebuild a saved game; ``upto`` replays only the first ``upto`` actions.

        A save that cannot be read raises ``RuleError("bad_save")`` saying why, in the save's
        language (or the notebook's, when the save names none)."""
        lang = data.get("lang") if isinstance(data, dict) else None
        lang = lang if lang in LANGUAGES else current_language()
        try:
            if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
                reason = Reason("save_format", format=SAVE_FORMAT, version=SAVE_VERSION)
                raise RuleError("bad_save", lang, reason=reason)
            init = data["initial"]
            game = cls.__new__(cls)
            game.lang = check_lang(data.get("lang", "en"))
            game.rules = Rules.from_dict(data["rules"])
            game.seed = int(data["seed"])
            to_cards = lambda ids: [Card(i) for i in ids]  # noqa: E731
            melds = [Meld.make(to_cards(m["cards"]), game.rules, m["owner"]) for m in init["melds"]]
            game._setup(
                list(data["players"]),
                [to_cards(h) for h in init["hands"]],
                to_cards(init["stock"])[::-1],
                to_cards(init["discard"])[::-1],
                melds,
                to_cards(init["out_of_play"]),
                init["dealer"],
                init["current_player"],
                init["has_melded"],
            )
            if (
                sum(map(len, (game._stock, game._discard, game._out_of_play)))
                + sum(map(len, game._hands))
                + sum(len(m.cards) for m in melds)
                != DECK_SIZE
            ):
                raise RuleError("bad_save", lang, reason=Reason("save_cards"))
            steps = data["history"] if upto is None else data["history"][:upto]
            for number, step in enumerate(steps, 1):
                try:
                    game.apply(Action.from_json(step["action"]), player=step["player"])
                except RuleError as err:
                    reason = Reason("save_move", step=number, why=err.localized(lang))
                    raise RuleError("bad_save", lang, reason=reason) from err
            game.take_backs = _take_backs(data.get("take_backs", []), len(data["history"]))
            game.take_backs = [b for b in game.take_backs if b.move <= len(steps)]
        except RuleError as err:
            if err.code == "bad_save":
                raise
            reason = Reason("save_damaged", detail=err.localized(lang))
            raise RuleError("bad_save", lang, reason=reason) from err
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
            reason = Reason("save_damaged", detail=repr(err))
            raise RuleError("bad_save", lang, reason=reason) from err
        return game

    def __repr__(self) -> str:
        state = "over" if self._phase == "over" else f"{self.names[self._current]} to {self._phase}"
        return f"Game({self.rules.name}, {self.players} players, seed={self.seed}: {state})"


def _take_backs(items: list, moves: int) -> list[TakeBack]:
    """A save's take-backs (saves made before take-backs existed have none). Each undid one
    move, so none can lie beyond the ``moves``-long history plus one move per take-back."""
    found = [TakeBack.from_json(item) for item in items]
    if any(not 0 <= b.move < moves + len(found) for b in found):
        raise ValueError("a take-back beyond the history")
    return found


class _Allocator:
    """Hands out physical cards for a layout: the named copy if free, else the other copy."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.used: set[int] = set()

    def take(self, cards: Iterable[Card]) -> list[Card]:
        out = []
        for card in cards:
            other = Card((card.id + 52) % DECK_SIZE)
            pick = card if card.id not in self.used else other
            if pick.id in self.used:
                count = 1 + sum(1 for i in self.used if i % 52 == card.face_index)
                raise RuleError("too_many_copies", self.lang, card=card, count=count)
            self.used.add(pick.id)
            out.append(pick)
        return out
