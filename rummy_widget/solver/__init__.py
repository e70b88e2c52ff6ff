"""The best arrangement of a hand: melds, lay-offs and the fewest penalty points left.

``best_arrangement(hand, rules, table_melds)`` is exact: no way of playing the hand's cards this
turn leaves fewer penalty points. ``min_penalty`` gives the same number without building cards.
``can_go_out`` and ``outs`` answer the questions bots and hints ask. The algorithm, the
tie-break rule and the speed figures are in ``docs/solver.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import Card, Cards, parse_cards
from ..engine.rules import Rules
from . import _core
from ._build import BIT, BY_INDEX, EMPTY_SUIT, MAX_BUILT, SUIT_IDS, build_suit
from ._core import ENCODE, HIGH_BITS, LAST, SUIT_MASK, TableMelds, min_penalty
from ._plain import HELD, NOT_BARE, RANK_BITS
from ._runs import K_PENALTY
from ._with_sets import Answer, with_sets
from .arrangement import MAKE, Arrangement
from .helpers import GoOut, Out, can_go_out, outs

S0, S1, S2, S3 = SUIT_IDS
TWICE = (None, None, None, None, None)  # a suit holding a rank twice: not from the table
PAIR_BITS = (1 << 26) - 1  # two suits' ids of one copy
MAX_HANDS = 1 << 14  # answers memoized per context before the memo starts over

__all__ = ["Arrangement", "GoOut", "Out", "best_arrangement", "can_go_out", "min_penalty", "outs"]


def best_arrangement(
    hand: Iterable[Card | str], rules: Rules | str, table_melds: TableMelds = ()
) -> Arrangement:
    """The melds and lay-offs that leave the fewest penalty points (ties: docs/solver.md).

    ``table_melds`` are the melds already on the table (``Meld`` objects or card sequences), in
    table order; lay-offs name them by index. They are extended, never rearranged.
    """
    last = LAST[0]
    ctx = last[1] if last[0] is rules and not table_melds else _core.context(rules, table_melds)
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
    hands = ctx.hands
    known = hands.get(ids)
    if known is None:
        bare = ctx.bare  # None with table melds, or when the rules' sets need 2 or 5+ cards
        # no face held twice (``high``: the copy-1 cards at their faces' bits): maybe no meld
        if bare is not None and not ids & (high := ids >> 52):
            # The no-meld shortcut, inline (a function call here would be a noticeable share
            # of a cold call): a hand holding one card per face and no meld (most hands)
            # leaves every card over. ``bare`` is ``PlainSuit.bare``: penalty points, small
            # ints (shared objects, so its lookups touch no int objects scattered in memory).
            # Suits 0-1 and 2-3 of each copy's ids as ints of 26 bits: shifts and masks on
            # ints this small take CPython's one-digit fast paths, cheaper than on 104 bits.
            # Face f = 13 * suit + rank - 1 (f < 26) sits at bit f of ``lo01`` (copy 0) and
            # ``hi01`` (copy 1); face 26 + f at bit f of ``lo23`` and ``hi23``.
            lo01 = ids & PAIR_BITS
            lo23 = ids >> 26 & PAIR_BITS
            hi01 = high & PAIR_BITS
            hi23 = high >> 26
            f01 = lo01 | hi01
            f23 = lo23 | hi23
            a = f01 & RANK_BITS  # each suit's ranks, rank r at bit r - 1
            b = f01 >> 13
            c = f23 & RANK_BITS
            d = f23 >> 13
            # no rank held in enough suits for a set, and no suit holding a run (or asking
            # where its ace goes): every card is left over
            sets = a & b & (c | d) | c & d & (a | b) if ctx.bare_sets == 3 else a & b & c & d
            if not sets and (points := bare[a] + bare[b] + bare[c] + bare[d]) < NOT_BARE:
                H0, H1, H2, H3, H4, H5, H6, H7 = HELD  # each suit's cards in rank order, in
                held = (  # two pieces: ranks 1-7 and 8-13
                    *H0[lo01 & 127 | (hi01 & 127) << 7],
                    *H1[lo01 >> 7 & 63 | hi01 >> 1 & 4032],
                    *H2[lo01 >> 13 & 127 | hi01 >> 6 & 16256],
                    *H3[lo01 >> 20 | hi01 >> 14 & 4032],
                    *H4[lo23 & 127 | (hi23 & 127) << 7],
                    *H5[lo23 >> 7 & 63 | hi23 >> 1 & 4032],
                    *H6[lo23 >> 13 & 127 | hi23 >> 6 & 16256],
                    *H7[lo23 >> 20 | hi23 >> 14 & 4032],
                )
                # Not stored in the answer memo: asked again, it is rebuilt from the tables
                # (a little dearer than a memo hit), while storing it would cost every first
                # sight a store into a large dict and fill the memo with most hands, so the
                # hands that need building would leave it sooner.
                return MAKE(Arrangement, ((), (), Cards(held), points))
        known = _arrange(ctx, ids, hand)
        if len(hands) >= MAX_HANDS:
            _trim(ctx)
        hands[ids] = known
    # a new leftover list each time: the caller may change it
    return MAKE(Arrangement, (known[0], known[1], Cards(known[2]), known[3]))


def _trim(ctx: _core.Context) -> None:
    """Start the memo of answers over, and each memo of built suits that could outgrow its
    limit before the next time: ``_first_sight`` stores up to one built part per suit and
    new answer without ``keep``'s check (contexts without table melds only), so a memo under
    ``MAX_BUILT - MAX_HANDS`` stays within ``MAX_BUILT`` until the answers start over again
    (table contexts sharing it add through ``keep``: at most ``MAX_HANDS`` more)."""
    ctx.hands.clear()
    for built in ctx.built:
        if len(built) >= MAX_BUILT - MAX_HANDS:
            built.clear()
            built[0] = EMPTY_SUIT


def _arrange(ctx: _core.Context, ids: int, hand: list[Card]) -> Answer:
    """A hand not answered before: from the suits' built parts, or the search with sets.

    A hand holding one card per face and no meld never gets here (the no-meld shortcut
    answers it first: 60% of random single-deck ten-card hands, 37% with two decks); a suit
    not built yet makes it a first sight (``_first_sight`` builds and stores the parts)."""
    b0, b1, b2, b3 = ctx.built
    e0 = b0.get(ids & S0)  # each suit's part, built for these very cards of the suit
    if e0 is None:  # a first sight, most likely: ``get``, as a KeyError raised costs more
        return _first_sight(ctx, ids, hand)
    try:
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
    """A hand not answered before: sets first if some rank has set choices, else its suits.

    When no table meld touches any suit, a suit holding one card per rank (whichever copy)
    takes its counts, score, runs and leftover from the rules' table of rank masks
    (``PlainSuit.single``) and its cards from ``HELD``: no bit walking per card. A suit
    holding a rank twice takes its counts from the table of each copy's mask. (A hand
    holding one card per face and no meld never gets here: the no-meld shortcut answers it.)"""
    plain = ctx.plain
    if plain is None:
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
    lo01 = ids & PAIR_BITS  # as in ``best_arrangement``'s no-meld shortcut
    lo23 = ids >> 26 & PAIR_BITS
    hi01 = ids >> 52 & PAIR_BITS
    hi23 = ids >> 78
    H = HELD
    single = plain.single
    l0 = lo01 & RANK_BITS  # each suit's copy-0 and copy-1 ids, rank r at bit r - 1
    h0 = hi01 & RANK_BITS
    l1 = lo01 >> 13
    h1 = hi01 >> 13
    l2 = lo23 & RANK_BITS
    h2 = hi23 & RANK_BITS
    l3 = lo23 >> 13
    h3 = hi23 >> 13
    if l0 & h0:  # a rank held twice: counts from both masks, built by ``build_suit``
        t0 = TWICE
        k0 = single[l0][1] + single[h0][1]
    else:
        t0 = single[l0 | h0]
        k0 = t0[1]
    if l1 & h1:  # a rank held twice: counts from both masks, built by ``build_suit``
        t1 = TWICE
        k1 = single[l1][1] + single[h1][1]
    else:
        t1 = single[l1 | h1]
        k1 = t1[1]
    if l2 & h2:  # a rank held twice: counts from both masks, built by ``build_suit``
        t2 = TWICE
        k2 = single[l2][1] + single[h2][1]
    else:
        t2 = single[l2 | h2]
        k2 = t2[1]
    if l3 & h3:  # a rank held twice: counts from both masks, built by ``build_suit``
        t3 = TWICE
        k3 = single[l3][1] + single[h3][1]
    else:
        t3 = single[l3 | h3]
        k3 = t3[1]
    if (k0 + k1 + k2 + k3 + ctx.add) & HIGH_BITS | ctx.always:
        return with_sets(ctx, ids, k0 | k1 << 52 | k2 << 104 | k3 << 156, hand)
    # The four suits' blocks here are the same, unrolled on purpose: the same code as a loop
    # over the suits makes every cold hand slower (docs/lab/from-code.md has the figures).
    b0, b1, b2, b3 = ctx.built
    build = plain.build_held
    key = ids & S0
    e0 = b0.get(key)
    if e0 is None:  # stored without ``keep``: see ``_trim``
        if t0[2] == ():  # no runs (None: the ace question): the held cards are left over
            held = H[0][l0 & 127 | (h0 & 127) << 7] + H[1][l0 >> 7 | (h0 >> 7) << 6]
            e0 = b0[key] = (t0[0], (), (), held, t0[1])
        elif t0[0] is not None:
            e0 = b0[key] = build(0, l0, h0)
        else:  # the ace question, or a rank held twice
            e0 = build_suit(ctx, 0, key)
    key = ids & S1
    e1 = b1.get(key)
    if e1 is None:  # stored without ``keep``: see ``_trim``
        if t1[2] == ():  # no runs (None: the ace question): the held cards are left over
            held = H[2][l1 & 127 | (h1 & 127) << 7] + H[3][l1 >> 7 | (h1 >> 7) << 6]
            e1 = b1[key] = (t1[0], (), (), held, t1[1])
        elif t1[0] is not None:
            e1 = b1[key] = build(1, l1, h1)
        else:  # the ace question, or a rank held twice
            e1 = build_suit(ctx, 1, key)
    key = ids & S2
    e2 = b2.get(key)
    if e2 is None:  # stored without ``keep``: see ``_trim``
        if t2[2] == ():  # no runs (None: the ace question): the held cards are left over
            held = H[4][l2 & 127 | (h2 & 127) << 7] + H[5][l2 >> 7 | (h2 >> 7) << 6]
            e2 = b2[key] = (t2[0], (), (), held, t2[1])
        elif t2[0] is not None:
            e2 = b2[key] = build(2, l2, h2)
        else:  # the ace question, or a rank held twice
            e2 = build_suit(ctx, 2, key)
    key = ids & S3
    e3 = b3.get(key)
    if e3 is None:  # stored without ``keep``: see ``_trim``
        if t3[2] == ():  # no runs (None: the ace question): the held cards are left over
            held = H[6][l3 & 127 | (h3 & 127) << 7] + H[7][l3 >> 7 | (h3 >> 7) << 6]
            e3 = b3[key] = (t3[0], (), (), held, t3[1])
        elif t3[0] is not None:
            e3 = b3[key] = build(3, l3, h3)
        else:  # the ace question, or a rank held twice
            e3 = build_suit(ctx, 3, key)
    melds = e0[1] + e1[1] + e2[1] + e3[1]  # (order, seq, cards): merged by lowest rank, suit
    if len(melds) > 1:
        melds = tuple([m[2] for m in sorted(melds)])
    elif melds:
        melds = (melds[0][2],)
    return melds, (), e0[3] + e1[3] + e2[3] + e3[3], (e0[0] + e1[0] + e2[0] + e3[0]) // K_PENALTY
