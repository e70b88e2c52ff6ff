"""The best arrangement of a hand: melds, lay-offs and the fewest penalty points left.

``best_arrangement(hand, rules, table_melds)`` is exact: no way of playing the hand's cards this
turn leaves fewer penalty points. ``min_penalty`` gives the same number without building cards.
``can_go_out`` and ``outs`` answer the questions bots and hints ask. The algorithm, the
tie-break rule and measured speeds are in ``docs/solver.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card, Cards, parse_cards
from ..rules import Rules
from . import _core
from ._build import BIT, BY_INDEX, SUIT_IDS, build_suit
from ._core import ENCODE, HIGH_BITS, SUIT_MASK, TableMelds, min_penalty
from ._runs import K_PENALTY
from ._with_sets import Answer, with_sets
from .arrangement import (
    SET_LAY_OFFS,
    SET_LEFTOVER,
    SET_MELDS,
    SET_PENALTY,
    Arrangement,
)
from .helpers import GoOut, Out, can_go_out, outs

S0, S1, S2, S3 = SUIT_IDS
NEW = object.__new__
MAX_HANDS = 1 << 14  # answers memoized per context before the memo starts over

__all__ = ["Arrangement", "GoOut", "Out", "best_arrangement", "can_go_out", "min_penalty", "outs"]


def best_arrangement(
    hand: Iterable[Card | str], rules: Rules | str, table_melds: TableMelds = ()
) -> Arrangement:
    """The melds and lay-offs that leave the fewest penalty points (ties: docs/solver.md).

    ``table_melds`` are the melds already on the table (``Meld`` objects or card sequences), in
    table order; lay-offs name them by index. They are extended, never rearranged.
    """
    if table_melds:
        ctx = _core.context(rules, table_melds)
    else:
        entry = _core.PLAIN.get(id(rules))
        ctx = entry[1] if entry is not None and entry[0] is rules else _core.context(rules)
    if not isinstance(hand, list):
        hand = parse_cards(hand) if isinstance(hand, str) else list(hand)
    ids = 0  # bit i for card id i; a repeated id carries and loses a bit
    try:
        for card in hand:
            ids += BIT[card.id]
    except AttributeError:  # card texts
        hand = parse_cards(hand)
        ids = sum(BIT[card.id] for card in hand)
    if ids.bit_count() != len(hand) or ids & ctx.table_bits:
        _core._repeated(hand, ctx)
    known = ctx.hands.get(ids)
    if known is None:
        known = _arrange(ctx, ids, hand)
        if len(ctx.hands) >= MAX_HANDS:
            ctx.hands.clear()
        ctx.hands[ids] = known
    made = NEW(Arrangement)  # the frozen __init__'s four object.__setattr__ calls, skipped
    SET_MELDS(made, known[0])
    SET_LAY_OFFS(made, known[1])
    SET_LEFTOVER(made, Cards(known[2]))  # a new list each time: the caller may change it
    SET_PENALTY(made, known[3])
    return made


def _arrange(ctx: _core.Context, ids: int, hand: list[Card]) -> Answer:
    """A hand not answered before: from the suits' built parts, or the search with sets."""
    b0, b1, b2, b3 = ctx.built
    try:  # each suit's part, built for these very cards of the suit
        e0 = b0[ids & S0]
        e1 = b1[ids & S1]
        e2 = b2[ids & S2]
        e3 = b3[ids & S3]
    except KeyError:
        return _first_sight(ctx, ids, hand)
    if (e0[4] + e1[4] + e2[4] + e3[4] + ctx.add) & HIGH_BITS | ctx.always:  # set choices
        counts = e0[4] | e1[4] << 52 | e2[4] << 104 | e3[4] << 156
        return with_sets(ctx, ids, counts, hand)
    melds = e0[1] + e1[1] + e2[1] + e3[1]  # (order, seq, cards): merged by lowest rank, suit
    if len(melds) > 1:
        melds = tuple([m[2] for m in sorted(melds)])
    elif melds:
        melds = (melds[0][2],)
    lays = e0[2] + e1[2] + e2[2] + e3[2]
    if len(lays) > 1:
        lays = tuple(sorted(lays, key=BY_INDEX))  # stable: each meld keeps its playing order
    return melds, lays, e0[3] + e1[3] + e2[3] + e3[3], (e0[0] + e1[0] + e2[0] + e3[0]) // K_PENALTY


def _first_sight(ctx: _core.Context, ids: int, hand: list[Card]) -> Answer:
    """A suit pattern not built yet: sets first if some rank has set choices, else build it."""
    counts = sum([ENCODE[card.id] for card in hand])
    k0 = counts & SUIT_MASK
    k1 = counts >> 52 & SUIT_MASK
    k2 = counts >> 104 & SUIT_MASK
    k3 = counts >> 156
    if (k0 + k1 + k2 + k3 + ctx.add) & HIGH_BITS | ctx.always:
        return with_sets(ctx, ids, counts, hand)
    for s, key in enumerate(SUIT_IDS):
        if ids & key not in ctx.built[s]:
            build_suit(ctx, s, ids & key)
    return _arrange(ctx, ids, hand)
