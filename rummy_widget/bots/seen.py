"""A bot's view of the table, read from its seat's observation dict and nothing else.

Bots never receive the ``Game``: everything here is rebuilt from the JSON-ready observation
(card ids, the public log), so a bot cannot reach the stock or another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..engine.cards import DECK, Card
from ..engine.melds import Meld
from ..engine.rules import Rules


@cache
def rules_of(name: str) -> Rules:
    """The preset named in an observation (cached: bots read it on every move)."""
    return Rules.preset(name)


#: Every card once (the engine's own), so reading an observation builds no new card objects.
CARDS: tuple[Card, ...] = DECK


def cards_of(items: list[dict]) -> list[Card]:
    """Cards from their JSON form ``{"id", "code"}``."""
    return [CARDS[d["id"]] for d in items]


Table = tuple[tuple[Meld, ...], tuple[tuple[int, ...], ...]]

#: Tables already read, by their melds' (card ids, kind, owner): the table changes a few times
#: a deal but is read on every move, so each one's ``Meld`` values are built once. A table only
#: grows, so a deal never comes back to an older one: a small cache is enough.
_TABLES: dict[tuple, Table] = {}
_KEEP = 64


def table_of(items: list[dict]) -> Table:
    """The table's melds from their JSON form, and their card ids (the table's key)."""
    key = tuple([(tuple([d["id"] for d in m["cards"]]), m["kind"], m["owner"]) for m in items])
    found = _TABLES.get(key)
    if found is None:
        melds = tuple(Meld(tuple([CARDS[i] for i in ids]), kind, owner) for ids, kind, owner in key)
        found = (melds, tuple(ids for ids, _, _ in key))
        if len(_TABLES) >= _KEEP:
            _TABLES.clear()
        _TABLES[key] = found
    return found


@dataclass
class Seen:
    """The parts of an observation bots use, as engine values (cards, melds, rules)."""

    seat: int
    rules: Rules
    phase: str
    current_player: int
    hand: list[Card]
    discard_pile: list[Card]  # top first
    melds: list[Meld]
    taken: Card | None
    stock_size: int
    hand_sizes: list[int]
    has_melded: list[bool]
    log: list[dict]
    rebuilds: int = 0
    dealer: int = 0
    #: The melds' card ids, in table order (how the bots' caches name a table).
    table_key: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def read(cls, observation: dict) -> Seen:
        rules = rules_of(observation["rules"])
        taken = observation.get("taken_from_discard")
        players = observation["players"]
        melds, table_key = table_of(observation["melds"]) if observation["melds"] else ((), ())
        return cls(
            seat=observation["seat"],
            rules=rules,
            phase=observation["phase"],
            current_player=observation["current_player"],
            hand=cards_of(observation["hand"]),
            discard_pile=cards_of(observation["discard_pile"]),
            melds=list(melds),
            taken=CARDS[taken["id"]] if taken else None,
            stock_size=observation["stock_size"],
            hand_sizes=[p["hand_size"] for p in players],
            has_melded=[p["has_melded"] for p in players],
            log=observation.get("log", []),
            rebuilds=observation.get("rebuilds", 0),
            dealer=observation.get("dealer", 0),
            table_key=table_key,
        )

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def my_turn(self) -> bool:
        return self.phase != "over" and self.current_player == self.seat

    @property
    def top(self) -> Card | None:
        """The discard pile's top card, if any."""
        return self.discard_pile[0] if self.discard_pile else None
