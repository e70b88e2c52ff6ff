"""The warm path of ``best_arrangement``: each suit's cards, already built, from a memo.

When no rank holds enough cards for a set (most hands), the best arrangement is the four
suits' best plans side by side. Each suit's part (its runs as cards, its lay-offs, its cards
left over and its score) depends only on which physical cards of that suit the hand holds, so
it is built once per context and per suit pattern (the suit's 26 id bits) and then looked up.
A warm call (``best_arrangement``) is then: encode, four lookups, merge the melds by their
lowest rank, concatenate.

The copy rule of ``_core.arrangement`` holds suit by suit: without sets, only the suit's own
runs, lay-offs and leftover use its faces, and the runs are taken in the global meld order.
"""

from __future__ import annotations

import threading
from operator import itemgetter

from ..engine.cards import DECK, ID_BITS, Card

CARDS = DECK  # every physical card, shared with the engine and the bots
BIT = ID_BITS  # card id -> its bit in a hand's id set
RANK_BITS = 0x1FFF
FACE_BITS = (1 << 52) - 1
SUIT_IDS = tuple(RANK_BITS << (13 * s) | RANK_BITS << (52 + 13 * s) for s in range(4))
MAX_BUILT = 1 << 16  # entries per suit memo before it starts over
BY_INDEX = itemgetter(1)  # a lay-off's table meld index

# A suit's held cards in rank order when no rank is held twice, from its copy-0 and copy-1 id
# masks (``low``, ``high``, rank r at bit r - 1) in two pieces: ranks 1-7 at
# ``HELD[2 * s][low & 127 | (high & 127) << 7]``, ranks 8-13 at
# ``HELD[2 * s + 1][low >> 7 | (high >> 7) << 6]``. About the cards only, the same for every
# rules: filled with the first ``PlainSuit`` (``held_tables``), not at import.
HELD: list[list] = []
_HELD_LOCK = threading.Lock()


def held_tables() -> list[list]:
    """Fill ``HELD`` (4 x (3^7 + 3^6) tuples, about 1.7 MB) once per process.

    Threads may ask at once (the classroom's seats, a tournament's workers): the tables are
    built under a lock and put into ``HELD`` in one step, so a thread sees it empty or whole.
    """
    if not HELD:
        with _HELD_LOCK:
            if not HELD:
                HELD[:] = build_held()
    return HELD


def build_held() -> list[list]:
    """The eight tables of ``HELD``, built afresh."""
    tables = []
    for s in range(4):
        for first, size in ((0, 7), (7, 6)):
            table: list = [None] * (1 << (2 * size))
            entries = [(0, ())]
            for i in range(size):  # doubling by rank, so each tuple stays in rank order
                c0, c1 = CARDS[13 * s + first + i], CARDS[52 + 13 * s + first + i]
                entries += [(k | 1 << i, (*t, c0)) for k, t in entries] + [
                    (k | 1 << (size + i), (*t, c1)) for k, t in entries
                ]
            for k, t in entries:
                table[k] = t
            tables.append(table)
    return tables


# (score, melds as (order, seq, cards) with ``order`` from ``run_order``, lay-offs as
#  (card, table meld index), leftover cards, the suit's count key: 4 bits per rank)
Built = tuple[int, tuple, tuple, tuple, int]
EMPTY_SUIT: Built = (0, (), (), (), 0)  # a suit the hand does not hold: every memo starts so


def face_counts(ids: int) -> int:
    """The face counts (4 bits per face, as ``_core.encode``) of a set of card ids."""
    low, high = ids & FACE_BITS, ids >> 52
    return _spread(low) + _spread(high)


def _spread(bits: int) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out += 1 << (4 * (low.bit_length() - 1))
        bits ^= low
    return out


def build_suit(ctx, s: int, key: int) -> Built:
    """Suit ``s``'s part of the arrangement for the hand's id bits ``key`` (memoized)."""
    solver = ctx.suits[s]
    plain = solver.plain
    if plain is not None:
        low = key >> (13 * s) & RANK_BITS
        high = key >> (52 + 13 * s) & RANK_BITS
        if not low & high:
            entry = plain.single[low | high]
            if entry[2] == ():  # one card per rank, no runs: the held cards are left over
                held = HELD[2 * s][low & 127 | (high & 127) << 7]
                held += HELD[2 * s + 1][low >> 7 | (high >> 7) << 6]
                return keep(ctx.built[s], key, (entry[0], (), (), held, entry[1]))
        built = plain.build(s, key)
        if built is not None:
            return keep(ctx.built[s], key, built)
    counts = face_counts(key) >> (52 * s)
    plan = solver.plans[counts]
    pool = {
        r + 1: [CARDS[i] for i in (13 * s + r, 52 + 13 * s + r) if key >> i & 1]
        for r in range(13)
        if counts >> (4 * r) & 15
    }
    rules = ctx.rules
    melds = []
    for j, run in enumerate(sorted(plan.runs, key=_first)):  # stable, as the global sort
        # positions ascend, so the cards are in table order already, except that the table
        # puts a whole suit's ace low (``rules.order_meld``)
        cards = tuple([pool[1 if p == 14 else p].pop(0) for p in run])
        if run[-1] == 14:
            cards = tuple(rules.order_meld(list(cards)))
        melds.append((run_order(run[0], s), j, cards))
    table = dict(enumerate(ctx.table))
    lays: list[tuple[Card, int]] = []

    def lay(rank: int, index: int | None) -> None:
        card = pool[rank].pop(0)
        if index is None:  # a table set with room for this suit: the first that takes it
            index = next(i for i in ctx.set_index[rank] if table[i].with_card(card, rules))
        grown = table[index].with_card(card, rules)
        assert grown is not None, f"{card} does not fit table meld {index}"
        table[index] = grown
        lays.append((card, index))

    for t, positions in sorted(plan.up.items()):
        for p in positions:
            lay(1 if p == 14 else p, ctx.run_index[s][t])
    for t, positions in sorted(plan.down.items()):
        for p in reversed(positions):
            lay(p, ctx.run_index[s][t])
    for rank, n in sorted(plan.to_sets.items()):
        for _ in range(n):
            lay(rank, None)
    left = tuple(c for r in sorted(pool) for c in pool[r])
    built = (solver.scores[counts], tuple(melds), tuple(lays), left, counts)
    return keep(ctx.built[s], key, built)


def keep(memo: dict[int, Built], key: int, built: Built) -> Built:
    if len(memo) >= MAX_BUILT:
        memo.clear()
        memo[0] = EMPTY_SUIT
    memo[key] = built
    return built


def _first(run: list[int]) -> int:
    return run[0]


def run_order(low: int, s: int) -> int:
    """A run's place among the melds: by its lowest position, then suit; sets come first."""
    return low * 8 + s * 2 + 1


def set_order(rank: int, first: int) -> int:
    """A set's place among the melds: by rank, then its first suit, before runs that tie."""
    return rank * 8 + first * 2
