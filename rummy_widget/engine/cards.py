"""Cards of the two-deck Rummy pack.

Two standard decks hold two copies of every card, so a card's identity is not its face: each of
the 104 physical cards has a stable id 0..103 (``deck * 52 + suit * 13 + rank - 1``). Equality
and hashing use that id; ``face`` (rank, suit) is what the rules look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import RuleError
from ..i18n import current_language
from .frozen import Frozen
from .inputs import excerpt

#: Suits in a fixed order: spades, hearts, diamonds, clubs.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
DECKS = 2
DECK_SIZE = 52 * DECKS

_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
_TEXT_TO_RANK = {v: k for k, v in RANK_TEXT.items()} | {"T": 10, "1": 1}
_CARD_RE = re.compile(r"^(10|[2-9AJQKT1])([SHDC♠♥♦♣♤♡♢♧])(?:#([01]))?$", re.IGNORECASE)
_OUTLINE_SUITS = {"♤": "S", "♡": "H", "♢": "D", "♧": "C"}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One physical card. ``Card.parse("10H")``; ``str(card)`` is ``10♥``."""

    id: int

    def __post_init__(self) -> None:
        if not isinstance(self.id, int) or not 0 <= self.id < DECK_SIZE:
            raise RuleError("unknown_card", card=excerpt(self.id))

    # Written by hand: bots and the engine compare cards millions of times, and the generated
    # methods build a tuple for every comparison.
    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.id == other.id
        return NotImplemented

    def __hash__(self) -> int:
        return self.id

    @classmethod
    def of(cls, rank: int, suit: str, deck: int = 0) -> Card:
        """The card of this rank (1..13) and suit ("S", "H", "D", "C") from deck 0 or 1."""
        if rank not in RANK_TEXT or suit not in SUITS or deck not in (0, 1):
            raise RuleError("unknown_card", card=f"{rank}{suit}")
        return cls(deck * 52 + SUITS.index(suit) * 13 + rank - 1)

    @classmethod
    def parse(cls, text: str | Card, lang: str | None = None) -> Card:
        """Read ``"10H"``, ``"A♠"``, ``"qd"`` or ``"7H#1"`` (the second deck's copy)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise RuleError("unknown_card", lang or current_language(), card=excerpt(text))
        match = _CARD_RE.match(text.strip())
        if not match:
            raise RuleError("unknown_card", lang or current_language(), card=excerpt(text))
        rank_text, suit_text, deck = match.groups()
        suit = _SYMBOL_TO_SUIT.get(suit_text) or _OUTLINE_SUITS.get(suit_text) or suit_text.upper()
        return cls.of(_TEXT_TO_RANK[rank_text.upper()], suit, int(deck or 0))

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king)."""
        return self.id % 13 + 1

    @property
    def suit(self) -> str:
        return SUITS[self.id % 52 // 13]

    @property
    def deck(self) -> int:
        return self.id // 52

    @property
    def face(self) -> tuple[int, str]:
        """What the rules see: two copies of a card share their face."""
        return (self.rank, self.suit)

    @property
    def face_index(self) -> int:
        """0..51, the same for both copies of a card."""
        return self.id % 52

    @property
    def code(self) -> str:
        """ASCII text such as ``10H``; ``Card.parse(card.code)`` gives the same face."""
        return RANK_TEXT[self.rank] + self.suit

    @property
    def is_red(self) -> bool:
        return self.suit in ("H", "D")

    def to_json(self) -> dict:
        """The card as the front end and observations carry it (a new dict each time)."""
        return {"id": self.id, "code": _CODES[self.id]}

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        from ..display import card_html
        from ..i18n import current_language

        return card_html(self, lang=current_language())


#: Every physical card once, in id order. Cards are immutable values, so every deck, hand and
#: bot shares these (building a deck's 104 cards anew for every deal showed in bot play).
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))
#: Card id -> its bit in a set of card ids (an int with bit i for card id i), as the solver and
#: the bots hold hands.
ID_BITS: tuple[int, ...] = tuple(1 << i for i in range(DECK_SIZE))

_CODES: tuple[str, ...] = tuple(
    RANK_TEXT[i % 13 + 1] + SUITS[i % 52 // 13] for i in range(DECK_SIZE)
)

#: Every card's JSON form, built once and read-only: observations and the game's log share
#: these instead of building a new dict per card per observation (see ``frozen.py``).
CARD_JSON: tuple[Frozen, ...] = tuple(Frozen(id=i, code=_CODES[i]) for i in range(DECK_SIZE))


def cards_text(cards: Iterable[Card]) -> str:
    """``5♥ 6♥ 7♥``: cards in the order given, as every message shows them (both languages)."""
    return " ".join(str(c) for c in cards)


class Cards(list):
    """A list of cards with a short text form, ``[A♠ 2♠ 3♠]``, and a rich notebook display."""

    def __repr__(self) -> str:
        return "[" + cards_text(self) + "]"

    __str__ = __repr__

    def _repr_html_(self) -> str:
        from ..display import cards_html
        from ..i18n import current_language

        return cards_html(self, lang=current_language())


def parse_cards(text: str | Card | Iterable[str | Card], lang: str | None = None) -> Cards:
    """Read several cards: ``"AS 2S 3S"``, ``"A♠,2♠,3♠"`` or a list of cards or texts.

    Two decks hold two copies of every card, so a face named twice (``"3D 3D"``) gives both
    copies and a third is an error; ``"3D#1"`` names the second deck's copy exactly. Copies are
    given as ``choose_copies`` says, from the whole pack."""
    if (
        text.__class__ in (list, tuple, Cards)
        and all(c.__class__ is Card for c in text)
        and len({c.id for c in text}) == len(text)
    ):  # distinct cards: nothing to choose
        return Cards(text)
    lang = lang or current_language()
    return Cards(choose_copies(read_names(text, lang), DECK, lang))


@dataclass(frozen=True, slots=True)
class Named:
    """A card as someone named it: ``how`` is ``"exact"`` (``7H#1``: that copy only),
    ``"card"`` (a ``Card``: that copy, else its twin) or ``"face"`` (``7H``: either copy)."""

    card: Card
    how: str


def read_names(text: str | Card | Iterable[str | Card], lang: str = "en") -> list[Named]:
    """The cards a text or a list names, before copies are chosen (``choose_copies``)."""
    if isinstance(text, Card):
        return [Named(text, "card")]
    if isinstance(text, str):
        parts: list = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    else:
        try:
            parts = list(text)
        except TypeError:
            raise RuleError("unknown_card", lang, card=excerpt(text)) from None
    return [_named(part, lang) for part in parts]


def _named(part: object, lang: str) -> Named:
    if part.__class__ is Card:
        return Named(part, "card")
    card = Card.parse(part, lang)
    return Named(card, "exact" if "#" in part else "face")


def choose_copies(
    names: Sequence[Named],
    pool: Iterable[Card],
    lang: str = "en",
    in_hand: bool = False,
    first: Card | None = None,
    last: Card | None = None,
) -> list[Card]:
    """A physical card from ``pool`` for each name, each card at most once, in the names' order.

    Exact names are served first, then ``Card`` objects (that copy if free, else its twin),
    then faces: the first deck's copy unless ``first`` (tried before its twin) or ``last``
    (tried after it) says otherwise. The game passes the card just taken from the discard pile
    as ``first`` for a meld or lay-off and as ``last`` for a discard, the choice that keeps a
    move legal whenever some choice of copies would. A name that finds no card raises
    ``RuleError``: ``not_in_hand``, ``copy_not_held`` or ``duplicate_card`` for a hand
    (``in_hand``), ``same_card_twice`` or ``too_many_copies`` for the whole pack."""
    held = {c.id for c in pool}
    free = set(held)
    chosen: list[Card | None] = [None] * len(names)
    for how in ("exact", "card", "face"):
        for i, name in enumerate(names):
            if name.how != how:
                continue
            card = name.card
            twin = DECK[(card.id + 52) % DECK_SIZE]
            if how == "exact":
                options: tuple[Card, ...] = (card,)
            elif how == "card":
                options = (card, twin)
            elif twin == first or card == last:
                options = (twin, card)
            else:
                options = (card, twin) if card.deck == 0 else (twin, card)
            pick = next((c for c in options if c.id in free), None)
            if pick is None:
                raise _no_copy(name, names, held, lang, in_hand)
            free.discard(pick.id)
            chosen[i] = pick
    return chosen  # type: ignore[return-value]


def _no_copy(name: Named, names: Sequence[Named], held: set[int], lang: str, in_hand: bool):
    card = name.card
    copies = sum(1 for i in (card.face_index, card.face_index + 52) if i in held)
    if name.how == "exact" and card.id in held:
        return RuleError("same_card_twice", lang, card=card, code=f"{card.code}#{card.deck}")
    if in_hand and name.how == "exact" and copies:
        return RuleError("copy_not_held", lang, card=card, code=f"{card.code}#{card.deck}")
    if in_hand:
        return RuleError("duplicate_card" if copies else "not_in_hand", lang, card=card)
    count = sum(1 for n in names if n.card.face_index == card.face_index)
    return RuleError("too_many_copies", lang, card=card, count=count)


def full_deck() -> list[Card]:
    """All 104 cards in id order: a new list of the shared cards (``DECK``)."""
    return list(DECK)


#: The grammatical forms ``card_name`` can give: the Finnish name is one compound word that is
#: inflected whole ("kaksi pataseiskaa", "ristikuninkaan"); English has one form.
CARD_NAME_FORMS: tuple[str, ...] = ("nom", "gen", "part")


def card_name(card: Card, lang: str = "en", form: str = "nom") -> str:
    """The card's spoken name, for screen readers: "7 of hearts", "herttaseiska".

    ``form`` is "nom" (the name itself), "gen" ("herttaseiskan") or "part" ("herttaseiskaa"):
    a Finnish sentence that names a card needs the case it takes there.
    """
    from ..i18n import t

    if form not in CARD_NAME_FORMS:
        raise ValueError(f"unknown form {form!r}; choose one of {', '.join(CARD_NAME_FORMS)}")
    rank_key = f"card.rank.{card.rank}" + ("" if form == "nom" else f".{form}")
    return t("card.name", lang, rank=t(rank_key, lang), suit=t(f"card.suit.{card.suit}", lang))
