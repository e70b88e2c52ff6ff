"""One move of the game as a value: what ``legal_actions`` lists and ``Game.apply`` takes."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleError
from .cards import DECK, Card, Cards
from .inputs import excerpt

KINDS = ("draw", "meld", "lay_off", "discard")
SOURCES = ("stock", "discard")


@dataclass(frozen=True)
class Action:
    """A move: ``draw`` (from ``source``), ``meld`` (``cards``), ``lay_off`` (``card`` onto
    ``meld_index``) or ``discard`` (``card``)."""

    kind: str
    source: str | None = None
    cards: tuple[Card, ...] = ()
    card: Card | None = None
    meld_index: int | None = None

    @classmethod
    def draw(cls, source: str) -> Action:
        if cls is Action and source.__class__ is str and source in _DRAWS:
            return _DRAWS[source]  # a value: every deal draws thousands of times
        return cls("draw", source=source)

    @classmethod
    def meld(cls, cards) -> Action:
        return cls("meld", cards=tuple(cards))

    @classmethod
    def lay_off(cls, card: Card, meld_index: int) -> Action:
        return cls("lay_off", card=card, meld_index=meld_index)

    @classmethod
    def discard(cls, card: Card) -> Action:
        if cls is Action and card.__class__ is Card:
            return _DISCARDS[card.id]
        return cls("discard", card=card)

    def to_json(self) -> dict:
        """JSON-ready form; cards are ids."""
        if self.kind == "draw":
            return {"type": "draw", "source": self.source}
        if self.kind == "meld":
            return {"type": "meld", "cards": [c.id for c in self.cards]}
        if self.kind == "lay_off":
            return {"type": "lay_off", "card": self.card.id, "meld_index": self.meld_index}
        return {"type": "discard", "card": self.card.id}

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Read the form ``to_json`` writes; anything malformed raises ``RuleError``."""
        if not isinstance(data, dict) or data.get("type") not in KINDS:
            raise RuleError("bad_action", action=_quoted(data))
        kind = data["type"]
        try:
            if kind == "draw":
                source = data["source"]
                if source not in SOURCES:
                    raise RuleError("bad_source")
                return cls.draw(source)
            if kind == "meld":
                ids = data["cards"]
                if not isinstance(ids, list) or len(ids) > 104:
                    raise RuleError("bad_action", action=_quoted(data))
                return cls.meld(_card(i) for i in ids)
            card = _card(data["card"])
            if kind == "discard":
                return cls.discard(card)
            index = data["meld_index"]
            if not isinstance(index, int) or isinstance(index, bool):
                raise RuleError("no_such_meld", index=_quoted(index))
            return cls.lay_off(card, index)
        except KeyError:
            raise RuleError("bad_action", action=_quoted(data)) from None

    def __str__(self) -> str:
        if self.kind == "draw":
            return f"draw {self.source}"
        if self.kind == "meld":
            return f"meld {Cards(self.cards)}"
        if self.kind == "lay_off":
            return f"lay off {self.card} on {self.meld_index}"
        return f"discard {self.card}"

    def __repr__(self) -> str:
        return f"Action({self})"


#: Draws and discards, built once: actions are values (frozen, compared by their fields), and
#: a frozen dataclass costs a few microseconds to build.
_DRAWS: dict[str, Action] = {source: Action("draw", source=source) for source in SOURCES}
_DISCARDS: tuple[Action, ...] = tuple(Action("discard", card=card) for card in DECK)


def _card(value: object) -> Card:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("unknown_card", card=_quoted(value))
    return Card(value)


def _quoted(value: object) -> str:
    """A short quote of what the caller sent (text in quotes, so an empty one shows)."""
    return excerpt(repr(value))
