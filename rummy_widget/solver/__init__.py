"""The best arrangement of a hand: melds, lay-offs and the fewest penalty points left.

``best_arrangement(hand, rules, table_melds)`` is exact: no way of playing the hand's cards this
turn leaves fewer penalty points. ``min_penalty`` gives the same number without building cards.
``can_go_out`` and ``outs`` answer the questions bots and hints ask. The algorithm, the
tie-break rule and the speed figures are in ``docs/solver.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import Card, Cards
from ..engine.rules import Rules
from . import _core
from ._build import join, left_over, suit_parts
from ._core import ENCODE, TableMelds, min_penalty
from ._with_sets import Answer, with_sets
from .arrangement import Arrangement
from .helpers import GoOut, Out, can_go_out, outs

__all__ = ["Arrangement", "GoOut", "Out", "best_arrangement", "can_go_out", "min_penalty", "outs"]


def best_arrangement(
    hand: Iterable[Card | str], rules: Rules | str, table_melds: TableMelds = ()
) -> Arrangement:
    """The melds and lay-offs that leave the fewest penalty points (ties: docs/solver.md).

    ``table_melds`` are the melds already on the table (``Meld`` objects or card sequences), in
    table order; lay-offs name them by index. They are extended, never rearranged.
    """
    ctx = _core.context(rules, table_melds)
    ids, cards = _core.read_hand(hand, ctx, _core.BIT)
    known = ctx.hands.get(ids)  # the answer depends only on which cards the hand holds
    if known is None:
        known = left_over(ctx, ids)  # most hands hold no meld: not stored, as cheap to redo
    if known is None:
        known = ctx.hands.put(ids, _arrange(ctx, ids, cards))
    melds, lays, left, penalty = known
    return Arrangement(melds, lays, Cards(left), penalty)  # a new leftover list each time


def _arrange(ctx: _core.Context, ids: int, hand: list[Card]) -> Answer:
    """A hand not answered before, holding a meld or facing table melds: the search with
    sets if some rank has set choices, else its four suits' parts side by side (each built
    once per context, ``_build``)."""
    total = sum([ENCODE[card.id] for card in hand])  # the face counts
    if _core.set_ranks(ctx, total):
        return with_sets(ctx, ids, total, hand)
    parts = suit_parts(ctx, ids)
    return join(parts, parts[0][0] + parts[1][0] + parts[2][0] + parts[3][0])
