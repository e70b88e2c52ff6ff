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
from ._runs import K_PENALTY

CARDS = DECK  # every physical card, shared with the engine and the bots
BIT = ID_BITS  # card id -> its bit in a hand's id set
RANK_BITS = 0x1FFF
FACE_BITS = (1 << 52) - 1
SUIT_IDS = tuple(RANK_BITS << (13 * s) | RANK_BITS << (52 + 13 * s) for s in range(4))
MAX_BUILT = 1 << 16  # entries per suit memo before it starts over
MAX_HANDS = 1 << 14  # answers per context before the memo starts over
BY_INDEX = itemgetter(1)  # a lay-off's table meld index
HIGH_COUNTS = sum(8 << (4 * r) for r in range(13))  # bit 3 of each rank's count (``_core``)

# A suit's held cards in rank order when no rank is held twice, from its copy-0 and copy-1 id
# masks (``low``, ``high``, rank r at bit r - 1) in two pieces: ranks 1-7 at
# ``HELD[2 * s][low & 127 | (high & 127) << 7]``, ranks 8-13 at
# ``HELD[2 * s + 1][low >> 7 | (high >> 7) << 6]``. About the cards only, the same for every
# rules: filled with the first ``PlainSuit`` (``held_tables``), not at import.
HELD: list[list] = []
#: For each suit: the shifts of its copy-0 and copy-1 ids in a hand's id bits, and its two
#: tables of ``HELD`` (filled with them)
HELD_BY_SUIT: list[tuple] = []
_HELD_LOCK = threading.Lock()


def held_tables() -> list[list]:
    """Fill ``HELD`` (4 x (3^7 + 3^6) tuples, about 1.7 MB) once per process.

    Threads may ask at once (the classroom's seats, a tournament's workers): the tables are
    built under a lock and put into ``HELD`` in one step, so a thread sees it empty or whole.
    """
    if not HELD:
        with _HELD_LOCK:
            if not HELD:
                tables = build_held()
                HELD_BY_SUIT[:] = [
                    (13 * s, 52 + 13 * s, tables[2 * s], tables[2 * s + 1]) for s in range(4)
                ]
                HELD[:] = tables  # last: a thread seeing ``HELD`` whole sees both
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


class Memo(dict):
    """A memo about hands that starts over (from ``start``) when it holds ``limit`` entries:
    bounded however long a process plays, and ``reset`` gives a first question's state."""

    def __init__(self, limit: int, start: dict | None = None) -> None:
        super().__init__(start or {})
        self.limit = limit
        self.start = dict(start or {})

    def put(self, key: object, value: object):
        """Store ``value`` under ``key`` (starting over first if full) and return it."""
        if len(self) >= self.limit:
            self.reset()
        self[key] = value
        return value

    def reset(self) -> None:
        self.clear()
        self.update(self.start)


# (score, melds as (order, seq, cards) with ``order`` from ``run_order``, lay-offs as
#  (card, table meld index), leftover cards, the suit's count key: 4 bits per rank)
Built = tuple[int, tuple, tuple, tuple, int]
EMPTY_SUIT: Built = (0, (), (), (), 0)  # a suit the hand does not hold: every memo starts so


def built_memo() -> Memo:
    """Suit id bits -> that suit's part of the arrangement (``build_suit``), for one context."""
    return Memo(MAX_BUILT, {0: EMPTY_SUIT})


def suit_parts(ctx, ids: int) -> list[Built]:
    """The four suits' parts of the arrangement for the hand's card ids: each built once
    per context and suit pattern (the suit's 26 id bits), then looked up."""
    parts = []
    for s, built in enumerate(ctx.built):
        key = ids & SUIT_IDS[s]
        part = built.get(key)
        parts.append(build_suit(ctx, s, key) if part is None else part)
    return parts


def left_over(ctx, ids: int) -> tuple | None:
    """The answer for a hand of card ids ``ids`` when every card is left over, else None.

    Checked suit by suit from the rules' table of rank masks (``PlainSuit.single``): each
    suit holds one card per rank and no run, and no rank is in enough suits for a set. Most
    hands are so; this answers them without building suit parts. None with table melds."""
    single = ctx.single
    if single is None:
        return None
    held: list[Card] = []
    counts = score = 0
    for low_shift, high_shift, first, second in HELD_BY_SUIT:
        low = ids >> low_shift & RANK_BITS
        high = ids >> high_shift & RANK_BITS
        entry = single[low | high]
        if low & high or entry[2] != ():  # a rank twice, a run, or the ace question (None)
            return None
        held += first[low & 127 | (high & 127) << 7]
        held += second[low >> 7 | (high >> 7) << 6]
        score += entry[0]
        counts += entry[1]
    if (counts + ctx.add) & HIGH_COUNTS:  # some rank has enough cards for a set
        return None
    return (), (), held, score // K_PENALTY  # never stored: the list becomes the leftover


def join(parts: list[Built], score: int, set_melds: tuple = ()) -> tuple:
    """The four suits' parts (and the set melds) as an answer: melds merged by their lowest
    rank, then suit (``run_order``, ``set_order``), lay-offs by table meld (stable: each meld
    keeps its playing order), the cards left over suit by suit, the penalty."""
    melds, lays, left = list(set_melds), [], []
    for part in parts:
        melds += part[1]
        lays += part[2]
        left += part[3]
    melds.sort()
    lays.sort(key=BY_INDEX)
    return tuple([m[2] for m in melds]), tuple(lays), tuple(left), score // K_PENALTY


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
    if plain is not None:  # no table meld touches the suit: from the rules' rank masks
        built = plain.build(s, key)
        if built is not None:
            return ctx.built[s].put(key, built)
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
    return ctx.built[s].put(key, built)


def _first(run: list[int]) -> int:
    return run[0]


def run_order(low: int, s: int) -> int:
    """A run's place among the melds: by its lowest position, then suit; sets come first."""
    return low * 8 + s * 2 + 1


def set_order(rank: int, first: int) -> int:
    """A set's place among the melds: by rank, then its first suit, before runs that tie."""
    return rank * 8 + first * 2
