"""What a seat can know from the public log: cards seen, cards the others hold, live cards.

Everything is rebuilt from the observation: the seat's hand, the discard pile and the melds are
visible; a card an opponent took from the discard pile stays known to be in that hand until the
log shows it leaving (melded, laid off or discarded). The rest is unseen: in the stock or in a
hidden part of some hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import Card
from .seen import CARDS, Seen


@dataclass
class Memory:
    """Card knowledge of one seat. Faces are ``face_index`` values 0..51."""

    known: list[list[Card]]  # per seat: cards known to be in that hand (own seat: the hand)
    discarded: list[set[int]]  # per seat: faces that seat discarded this deal
    unseen: list[Card]  # neither visible nor known in a hand: the stock and hidden hand cards
    live: list[int]  # per face: unseen copies (0, 1 or 2)

    @classmethod
    def read(cls, seen: Seen) -> Memory:
        players = seen.players
        known: list[dict[int, Card]] = [{} for _ in range(players)]
        discarded: list[set[int]] = [set() for _ in range(players)]
        for event in seen.log:
            kind = event["type"]
            if kind == "draw":
                if event["source"] == "discard":
                    card = CARDS[event["card"]["id"]]
                    known[event["player"]][card.id] = card
            elif kind == "discard" or kind == "lay_off":
                hand = known[event["player"]]
                hand.pop(event["card"]["id"], None)
                if kind == "discard":
                    discarded[event["player"]].add(event["card"]["id"] % 52)
            elif kind == "meld":
                hand = known[event["player"]]
                for card in event["cards"]:
                    hand.pop(card["id"], None)
        known[seen.seat] = {c.id: c for c in seen.hand}
        visible = {c.id for c in seen.discard_pile}
        for meld in seen.melds:
            visible.update(c.id for c in meld.cards)
        for hand in known:
            visible.update(hand)
        unseen = [c for c in CARDS if c.id not in visible]
        live = [0] * 52
        for card in unseen:
            live[card.face_index] += 1
        return cls([sorted(h.values()) for h in known], discarded, unseen, live)
