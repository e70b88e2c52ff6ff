"""Small helpers that turn cards and melds into the words of the ``bot.explain.*`` texts."""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card


def card_text(card: Card) -> str:
    """``7♥``: the same in both languages."""
    return str(card)


def cards_text(cards: Iterable[Card]) -> str:
    """``5♥ 6♥ 7♥``: cards in the order given."""
    return " ".join(str(c) for c in cards)
