"""Melds on the table and the cards that may be laid off onto them.

A meld on the table is never rearranged (decisions row 12): a set takes another card of its rank
(within the preset's limits), a run takes one card at either end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from .cards import Card, Cards
from .rules import Rules


@dataclass(frozen=True)
class Meld:
    """A meld on the table: its cards in table order, its kind and the seat that laid it."""

    cards: tuple[Card, ...]
    kind: str
    owner: int

    @classmethod
    def make(cls, cards: Iterable[Card], rules: Rules, owner: int) -> Meld | None:
        """The meld these cards form under ``rules``, or None."""
        cards = list(cards)
        kind = rules.meld_kind(cards)
        if kind is None:
            return None
        return cls(tuple(rules.order_meld(cards)), kind, owner)

    def with_card(self, card: Card, rules: Rules) -> Meld | None:
        """This meld with ``card`` laid off onto it, or None if it does not fit."""
        if card in self.cards:
            return None
        cards = [*self.cards, card]
        if rules.meld_kind(cards) != self.kind:
            return None
        return Meld(tuple(rules.order_meld(cards)), self.kind, self.owner)

    def to_json(self) -> dict:
        return {"owner": self.owner, "kind": self.kind, "cards": [c.to_json() for c in self.cards]}

    def __repr__(self) -> str:
        return repr(Cards(self.cards))

    def _repr_html_(self) -> str:
        from ..display import meld_html
        from ..i18n import current_language

        return meld_html(self, lang=current_language())


def possible_melds(hand: Iterable[Card], rules: Rules) -> list[tuple[Card, ...]]:
    """Every distinct meld (by faces) that cards of ``hand`` can form, smallest first.

    Two copies of a card are interchangeable, so each face appears once per meld choice; the
    copy with the lower id is used. Sorted by length, then by the cards' ids, deterministically.
    """
    by_face: dict[tuple[int, str], list[Card]] = {}
    for card in sorted(hand):
        by_face.setdefault(card.face, []).append(card)
    found: set[tuple[Card, ...]] = set()
    # Runs: each suit's maximal stretches of consecutive ranks, every sub-stretch of 3+.
    for suit in "SHDC":
        ranks = [r for r in range(1, 14) if (r, suit) in by_face]
        if rules.ace_high and (1, suit) in by_face:
            ranks.append(14)
        for start in range(len(ranks)):
            stretch = [ranks[start]]
            for r in ranks[start + 1 :]:
                if r != stretch[-1] + 1:
                    break
                stretch.append(r)
                if len(stretch) >= rules.min_meld:
                    cards = tuple(by_face[(1 if x == 14 else x, suit)][0] for x in stretch)
                    if rules.run_ranks(list(cards)) is not None:
                        found.add(cards)
    # Sets: choose any multiset of copies of one rank.
    for rank in range(1, 14):
        copies = [c for s in "SHDC" for c in by_face.get((rank, s), [])]
        if len(copies) < rules.min_meld:
            continue
        for size in range(rules.min_meld, len(copies) + 1):
            for combo in combinations(copies, size):
                faces = tuple(sorted(c.face for c in combo))
                canonical = _canonical(faces, by_face)
                if canonical not in found and rules.is_set(list(canonical)):
                    found.add(canonical)
    return sorted(found, key=lambda m: (len(m), [c.id for c in m]))


def _canonical(faces: tuple, by_face: dict) -> tuple[Card, ...]:
    """Pick the lowest-id copies for a multiset of faces."""
    used: dict[tuple[int, str], int] = {}
    out = []
    for face in faces:
        i = used.get(face, 0)
        out.append(by_face[face][i])
        used[face] = i + 1
    return tuple(sorted(out))
