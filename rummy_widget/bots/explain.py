"""Cards and melds as the ``bot.explain.*`` texts show them: ``5♥ 6♥ 7♥`` in both languages."""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import Card


def cards_text(cards: Iterable[Card]) -> str:
    """``5♥ 6♥ 7♥``: cards in the order given."""
    return " ".join(str(c) for c in cards)
