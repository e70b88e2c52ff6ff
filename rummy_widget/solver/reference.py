"""A slow, obviously exact reference for the solver: the readable spec of what it computes.

It shares no code with ``rummy_widget.solver``: every meld is enumerated from ``Rules`` itself
(``run_ranks``, ``is_set``), the hand is covered face by face trying every meld that holds the
lowest face left (or leaving that card over), and lay-offs are tried one card at a time onto
every table meld with ``Meld.with_card``, in every order, so chains come for free. Results are
memoized on the face counts (and the table's state), which keeps 10- to 14-card hands quick.

The answer is the lexicographic least (penalty, cards left over, lay-offs): the solver's
documented order of preference, so the tests check the tie-break objective too.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..engine.cards import SUITS, Card
from ..engine.melds import Meld
from ..engine.rules import Rules

Score = tuple[int, int, int]  # (penalty, cards left over, lay-offs)


def _unit(face: int) -> int:
    return 1 << (4 * face)


def _face(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


@lru_cache(maxsize=8)
def all_melds(rules: Rules) -> dict[int, list[tuple[int, int]]]:
    """Every meld under ``rules``, keyed by its lowest face: (faces as a bit set, face counts)."""
    found: set[int] = set()
    for s, suit in enumerate(SUITS):  # runs: every stretch of positions 1..14 (14 = high ace)
        for lo in range(1, 15):
            for hi in range(lo + 1, 15):
                ranks = [1 if p == 14 else p for p in range(lo, hi + 1)]
                cards = [Card.of(r, suit) for r in ranks]
                if len(set(ranks)) == len(ranks) and rules.run_ranks(cards) is not None:
                    found.add(sum(_unit(_face(r, s)) for r in ranks))
    for rank in range(1, 14):  # sets: every multiset of copies of one rank
        for code in range(3**4):
            vec = [code // 3**i % 3 for i in range(4)]
            cards = [Card.of(rank, SUITS[s], k) for s in range(4) for k in range(vec[s])]
            if cards and rules.is_set(cards):
                found.add(sum(vec[s] * _unit(_face(rank, s)) for s in range(4)))
    by_low: dict[int, list[tuple[int, int]]] = {}
    for meld in sorted(found):
        faces = [f for f in range(52) if (meld >> (4 * f)) & 15]
        by_low.setdefault(faces[0], []).append((sum(1 << f for f in faces), meld))
    return by_low


@cache
def _needs(meld: int) -> tuple[tuple[int, int], ...]:
    """(bit shift, copies needed) for each face of an encoded meld."""
    return tuple((4 * f, (meld >> (4 * f)) & 15) for f in range(52) if (meld >> (4 * f)) & 15)


def _fits(meld: int, counts: int) -> bool:
    return all((counts >> shift) & 15 >= need for shift, need in _needs(meld))


def brute_best(hand: list[Card], rules: Rules, table: list[Meld] | tuple = ()) -> Score:
    """The least (penalty, cards left over, lay-offs) over every legal way to play ``hand``."""
    by_low = all_melds(rules)
    points = [rules.card_points(Card(f)) for f in range(52)]
    copies: dict[int, list[Card]] = {}
    counts = 0
    for card in hand:
        copies.setdefault(card.face_index, []).append(card)
        counts += _unit(card.face_index)

    @cache
    def melds_only(counts: int) -> tuple[int, int]:
        if not counts:
            return (0, 0)
        held = sum(1 << f for f in range(52) if (counts >> (4 * f)) & 15)
        low = (held & -held).bit_length() - 1
        pen, left = melds_only(counts - _unit(low))
        best = (pen + points[low], left + 1)
        for faces, meld in by_low.get(low, ()):
            if not faces & ~held and _fits(meld, counts):
                best = min(best, melds_only(counts - meld))
        return best

    # Lay-offs onto different table melds commute, so they are tried meld by meld: any number
    # onto meld j (in every order, which makes chains), then on to meld j + 1.
    table = tuple(table)

    @cache
    def grow(meld: Meld, card: Card) -> Meld | None:
        return meld.with_card(card, rules)

    @cache
    def play(counts: int, j: int, meld: Meld | None) -> Score:
        if j == len(table):
            return (*melds_only(counts), 0)
        best = play(counts, j + 1, table[j + 1] if j + 1 < len(table) else None)
        for f in range(52):
            n = (counts >> (4 * f)) & 15
            if n:
                grown = grow(meld, copies[f][n - 1])
                if grown is not None:
                    pen, left, lays = play(counts - _unit(f), j, grown)
                    best = min(best, (pen, left, lays + 1))
        return best

    return play(counts, 0, table[0] if table else None)
