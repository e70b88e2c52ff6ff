"""One deal of Traditional Rummy: the engine's state, its legal actions and its history.

Every action checks all of its conditions before it changes anything, so an illegal action
raises ``RuleError`` and leaves the game exactly as it was. Row numbers in comments refer to the
decisions table in ``docs/rules.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import Reason, RuleError
from ..i18n import LANGUAGES, check_lang, current_language, t
from .actions import Action
from .cards import CARD_JSON, DECK, Card, Cards, choose_copies, full_deck, read_names
from .frozen import Frozen
from .inputs import check_seat, check_seed, excerpt, is_whole
from .melds import Meld
from .moves import discard_problem, finish_problem, legal_actions
from .rules import Rules
from .saves import SAVE_FORMAT, SAVE_VERSION, read_save


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
        self.rules = Rules.preset(rules, self.lang)
        names = self._names(players)
        self.seed = check_seed(seed, self.lang)
        count = len(names)
        dealer = count - 1 if dealer is None else check_seat(dealer, count, self.lang)
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
                count=excerpt(players),
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
        self._melds: list[Meld] = []
        self._meld_views: list[Frozen] = []  # each meld's read-only JSON, kept beside it
        for meld in melds:
            self._put_meld(len(self._melds), meld)
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
        card texts, or ``(cards, owner)`` pairs. Cards named nowhere are out of play. A face
        named twice gets both copies (``"7H 7H"``), ``7H#1`` names the second deck's copy, and
        naming a card more often than the two decks hold it is an error (``choose_copies``).
        """
        game = cls.__new__(cls)
        game.lang = lang = check_lang(lang)
        game.rules = Rules.preset(rules, lang)
        game.seed = check_seed(seed, lang)
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise RuleError(
                "bad_layout", lang, reason=Reason("hands_list", field="hands", hands=excerpt(hands))
            )
        names = game._names(list(players) if players is not None else len(hands))
        count = len(names)
        if len(hands) != count:
            reason = Reason("hands_for_players", hands=len(hands), players=count)
            raise RuleError("bad_layout", lang, reason=reason)
        table_items = [_meld_and_owner(item) for item in melds]
        current_player, dealer = _check_layout_seats(
            table_items, current_player, dealer, has_melded, count, lang
        )
        groups = [*hands, stock, discard, *(cards for cards, _ in table_items)]
        chosen, hand_cards, stock_cards, discard_cards, meld_cards = _place_named(
            groups, count, lang
        )
        table = _layout_table(meld_cards, table_items, game.rules, lang)
        used = {c.id for c in chosen}
        if has_melded is None:  # those who own a meld on the table have melded
            has_melded = [any(m.owner == p for m in table) for p in range(count)]
        game._setup(
            names,
            hand_cards,
            stock_cards[::-1],
            discard_cards[::-1],
            table,
            [c for c in DECK if c.id not in used],
            dealer,
            current_player,
            list(has_melded),
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
        return check_seat(player, self.players, self.lang)

    # --- actions ---------------------------------------------------------------------------

    def draw(self, source: str = "stock", player: int | None = None) -> Card:
        """Row 10: take the top card of the stock or of the discard pile; returns it."""
        self._check_draw(source, player)
        if source == "stock":
            card = self._stock.pop()
            self._log.append(Frozen(type="draw", player=self._current, source="stock"))
        else:
            card = self._discard.pop()
            self._taken = card
            self._log.append(
                Frozen(type="draw", player=self._current, source="discard", card=CARD_JSON[card.id])
            )
        self._hands[self._current].append(card)
        self._phase = "play"
        self.history.append((self._current, Action.draw(source)))
        return card

    def meld(self, cards: str | Iterable[Card | str], player: int | None = None) -> Meld:
        """Rows 7, 8, 11: lay down a set or a run from the hand.

        Cards named by face may be either copy held: the engine picks the copies that keep the
        move legal (the card just taken from the discard pile goes to the table first)."""
        chosen, made = self._check_meld(cards, player)
        self._remove(chosen)
        index = len(self._melds)
        self._put_meld(index, made)
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
        chosen, grown = self._check_lay_off(card, meld_index, player)
        self._remove([chosen])
        self._put_meld(meld_index, grown)
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
        """Rows 13-14: end the turn by putting one card face up on the discard pile.

        A face (``"7H"``) discards a copy that may go: the twin of the card just taken from the
        discard pile rather than that card. A ``Card`` means that very card."""
        chosen = self._check_discard(card, player)
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
            raise RuleError("bad_action", self.lang, action=excerpt(action))
        if action.kind == "draw":
            self.draw(action.source, player=player)
        elif action.kind == "meld":
            self.meld(action.cards, player=player)
        elif action.kind == "lay_off":
            self.lay_off(action.card, action.meld_index, player=player)
        elif action.kind == "discard":
            self.discard(action.card, player=player)
        else:
            raise RuleError("bad_action", self.lang, action=excerpt(action.kind))

    def legal_actions(self) -> list[Action]:
        """Every distinct move the current player may make now, in a fixed order."""
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
        """Would ``apply(action)`` succeed? Asks the same checks ``apply`` makes before it
        changes anything, and ``legal_actions`` lists the moves that pass them."""
        if not isinstance(action, Action):
            return False
        try:
            if action.kind == "draw":
                self._check_draw(action.source, None)
            elif action.kind == "meld":
                self._check_meld(action.cards, None)
            elif action.kind == "lay_off":
                self._check_lay_off(action.card, action.meld_index, None)
            elif action.kind == "discard":
                self._check_discard(action.card, None)
            else:
                return False
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

    # --- checks: each raises RuleError, or returns what the move will use ------------------

    def _check_turn(self, player: int | None, phase: str) -> None:
        if self._phase == "over":
            raise RuleError("deal_over", self.lang)
        if player is not None and self._seat(player) != self._current:
            raise RuleError("not_your_turn", self.lang, player=self.names[self._current])
        if self._phase != phase:
            raise RuleError("draw_first" if phase == "play" else "already_drawn", self.lang)

    def _check_draw(self, source: str, player: int | None) -> None:
        self._check_turn(player, "draw")
        if source == "stock":
            if not self._stock:
                raise RuleError("stock_empty", self.lang)
        elif source == "discard":
            if not self._discard:
                raise RuleError("discard_empty", self.lang)
        else:
            raise RuleError("bad_source", self.lang)

    def _check_meld(self, cards: object, player: int | None) -> tuple[list[Card], Meld]:
        self._check_turn(player, "play")
        chosen = self._pick(cards, first=self._taken)
        made = Meld.make(chosen, self.rules, self._current)
        if made is None:
            raise RuleError("not_a_meld", self.lang, cards=Cards(chosen))
        self._check_finish(chosen, lambda: [*self._melds, made])
        return chosen, made

    def _check_lay_off(
        self, card: object, meld_index: object, player: int | None
    ) -> tuple[Card, Meld]:
        self._check_turn(player, "play")
        (chosen,) = self._pick([card], single=True, first=self._taken)
        melds = self._melds
        if not is_whole(meld_index) or not 0 <= meld_index < len(melds):
            raise RuleError("no_such_meld", self.lang, index=excerpt(meld_index))
        grown = melds[meld_index].with_card(chosen, self.rules)
        if grown is None:
            raise RuleError(
                "cannot_lay_off",
                self.lang,
                card=chosen,
                index=meld_index,
                meld=Cards(melds[meld_index].cards),
            )
        self._check_finish([chosen], lambda: [*melds[:meld_index], grown, *melds[meld_index + 1 :]])
        return chosen, grown

    def _check_discard(self, card: object, player: int | None) -> Card:
        self._check_turn(player, "play")
        (chosen,) = self._pick([card], single=True, last=self._taken)
        problem = discard_problem(chosen, self._taken, self.rules)
        if problem is not None:
            raise RuleError(problem, self.lang, card=chosen)
        return chosen

    def _pick(
        self,
        cards: object,
        single: bool = False,
        first: Card | None = None,
        last: Card | None = None,
    ) -> list[Card]:
        """The named cards from the current hand (``choose_copies``): a ``Card`` held is that
        very card; a face takes a copy held, ``first`` before its twin, ``last`` after it."""
        hand = self._hands[self._current]
        if single and cards[0].__class__ is Card:  # a discard or a lay-off of a card held
            wanted = cards[0].id
            for held in hand:
                if held.id == wanted:
                    return [held]
        elif cards.__class__ in (list, tuple) and all(c.__class__ is Card for c in cards):
            held = {c.id for c in hand}  # the usual case, quickly: those very cards are held
            if len({c.id for c in cards}) == len(cards) and all(c.id in held for c in cards):
                if not cards:
                    raise RuleError("no_cards", self.lang)
                return list(cards)
        named = read_names(cards, self.lang)
        if not named:
            raise RuleError("no_cards", self.lang)
        if single and len(named) != 1:
            raise RuleError("bad_action", self.lang, action=excerpt(str(cards)))
        return choose_copies(named, hand, self.lang, in_hand=True, first=first, last=last)

    def _check_finish(self, leaving: list[Card], table: Callable[[], list[Meld]]) -> None:
        """Rows 13-15: a table play must leave a legal way to end the turn."""
        left = list(self._hands[self._current])
        for card in leaving:
            left.remove(card)
        problem = finish_problem(left, self._taken, self.rules, table)
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
        """Rows 17-18: the discard pile, but its top card, is shuffled into a new stock.

        The deal is void when the stock has been rebuilt ``max_rebuilds`` times already, or when
        no card lies under the pile's top: a rebuild would leave the stock empty again."""
        if self.rebuilds >= self.rules.max_rebuilds or len(self._discard) < 2:
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
            "melds": list(self._meld_views),
            "taken_from_discard": self._taken.to_json() if self._taken else None,
            "rebuilds": self.rebuilds,
            "turns": self.turns,
            "log": list(self._log),
            "result": self._result.to_json() if self._result else None,
        }

    def _put_meld(self, index: int, meld: Meld) -> None:
        """Put ``meld`` at ``index`` on the table (a new one at the end), with its JSON view:
        observations on every move share the views, built once per change of a meld."""
        cards = tuple([CARD_JSON[c.id] for c in meld.cards])
        view = Frozen(index=index, owner=meld.owner, kind=meld.kind, cards=cards)
        if index == len(self._melds):
            self._melds.append(meld)
            self._meld_views.append(view)
        else:
            self._melds[index] = meld
            self._meld_views[index] = view

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

        The whole save is checked first (``saves.read_save``: fields, seats, every card exactly
        once, rules), then its moves are replayed. A save that cannot be read raises
        ``RuleError("bad_save")`` saying why, in the save's language (or the notebook's, when the
        save names none)."""
        lang = data.get("lang") if isinstance(data, dict) else None
        lang = lang if lang in LANGUAGES else current_language()
        save = read_save(data, lang)
        if upto is not None and not (is_whole(upto) and upto >= 0):
            reason = Reason("save_field", field="upto", value=excerpt(upto))
            raise RuleError("bad_save", lang, reason=reason)
        game = cls.__new__(cls)
        game.lang = save.lang
        game.rules = save.rules
        game.seed = save.seed
        game._setup(
            save.players,
            save.hands,
            save.stock[::-1],
            save.discard[::-1],
            save.melds,
            save.out_of_play,
            save.dealer,
            save.current_player,
            save.has_melded,
        )
        steps = save.history if upto is None else save.history[:upto]
        for number, (player, action) in enumerate(steps, 1):
            try:
                game.apply(action, player=player)
            except RuleError as err:
                reason = Reason("save_move", step=number, why=err.localized(lang))
                raise RuleError("bad_save", lang, reason=reason) from err
        try:
            found = _take_backs(data.get("take_backs", []), len(save.history))
        except (RuleError, KeyError, TypeError, ValueError) as err:
            reason = Reason("save_field", field="take_backs", value=excerpt(data.get("take_backs")))
            raise RuleError("bad_save", lang, reason=reason) from err
        game.take_backs = [b for b in found if b.move <= len(steps)]
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


def _check_layout_seats(
    table_items: list,
    current_player: object,
    dealer: object,
    has_melded: object,
    count: int,
    lang: str,
) -> tuple[int, int]:
    """``from_layout``'s seats: the melds' owners, the current player and dealer, and
    ``has_melded`` (one bool per player); returns (current player, dealer)."""
    for _cards, owner in table_items:
        if not is_whole(owner) or not 0 <= owner < count:
            reason = Reason("no_such_owner", owner=excerpt(owner))
            raise RuleError("bad_layout", lang, reason=reason)
    current_player = check_seat(current_player, count, lang)
    dealer = (current_player - 1) % count if dealer is None else check_seat(dealer, count, lang)
    if has_melded is not None and (
        isinstance(has_melded, str)
        or not isinstance(has_melded, Sequence)
        or len(has_melded) != count
        or not all(isinstance(m, bool) for m in has_melded)
    ):
        reason = Reason("has_melded", field="has_melded", players=count, value=excerpt(has_melded))
        raise RuleError("bad_layout", lang, reason=reason)
    return current_player, dealer


def _place_named(groups: list, count: int, lang: str) -> tuple:
    """The cards named by ``count`` hands, the stock, the discard pile and the melds (copies
    chosen over all groups at once, ``choose_copies``): every card chosen, then each part's
    cards. No hand may be empty, nor both piles."""
    named = [read_names(group, lang) for group in groups]
    chosen = choose_copies([n for group in named for n in group], DECK, lang)
    cut = 0
    placed = []
    for group in named:
        placed.append(chosen[cut : cut + len(group)])
        cut += len(group)
    hands, (stock, discard), melds = placed[:count], placed[count : count + 2], placed[count + 2 :]
    if any(not h for h in hands):
        raise RuleError("bad_layout", lang, reason=Reason("empty_hand"))
    if not stock and not discard:
        raise RuleError("bad_layout", lang, reason=Reason("no_stock_or_pile"))
    return chosen, hands, stock, discard, melds


def _layout_table(meld_cards: list, table_items: list, rules: Rules, lang: str) -> list[Meld]:
    """``from_layout``'s table: each named meld with its owner, or ``bad_layout``."""
    table: list[Meld] = []
    for cards, (_, owner) in zip(meld_cards, table_items, strict=True):
        made = Meld.make(cards, rules, owner)
        if made is None:
            reason = Reason("not_a_table_meld", cards=Cards(cards))
            raise RuleError("bad_layout", lang, reason=reason)
        table.append(made)
    return table


def _meld_and_owner(item: object) -> tuple[object, object]:
    """A layout's table meld: ``(cards, owner)``, or cards alone (owned by seat 0)."""
    if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[1], str | Card):
        return item
    return item, 0
