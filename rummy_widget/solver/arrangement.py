"""The solver's answer: what to lay down, what to lay off, and what stays in the hand."""

from __future__ import annotations

from typing import NamedTuple

from ..engine.cards import Card, Cards


class Arrangement(NamedTuple):
    """Melds to lay down, lay-offs onto table melds (in playing order) and the cards left over.

    ``melds`` are in table order (``rules.order_meld``); ``lay_offs`` pairs a card with the index
    of a table meld and must be played in the order given so that chains work (8♥ before 9♥
    onto 5♥ 6♥ 7♥); ``leftover`` is sorted by suit, rank and copy; ``penalty`` is its points.

    A named tuple, like ``urllib.parse.ParseResult``: read-only fields, cheap to make.
    """

    melds: tuple[tuple[Card, ...], ...]
    lay_offs: tuple[tuple[Card, int], ...]
    leftover: Cards
    penalty: int

    def __hash__(self) -> int:
        return hash((self.melds, self.lay_offs, tuple(self.leftover), self.penalty))

    @property
    def placed(self) -> list[Card]:
        """Every card that leaves the hand: melded or laid off."""
        return [c for meld in self.melds for c in meld] + [c for c, _ in self.lay_offs]

    def __repr__(self) -> str:
        melds = " ".join(repr(Cards(m)) for m in self.melds) or "[]"
        lays = "[" + " ".join(f"{c}→{i}" for c, i in self.lay_offs) + "]"
        return (
            f"Arrangement(melds={melds}, lay_offs={lays}, leftover={self.leftover!r}, "
            f"penalty={self.penalty})"
        )

    def _repr_html_(self) -> str:
        from ..display import arrangement_html
        from ..i18n import current_language

        return arrangement_html(self, lang=current_language())
