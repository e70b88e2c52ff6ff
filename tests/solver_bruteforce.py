"""A slow, obviously exact reference for the solver, used by the tests.

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

from rummy_widget.cards import SUITS, Card
from rummy_widget.melds import Meld
from rummy_widget.rules import Rules

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


# --- hands for the tests and the benchmark ------------------------------------------------------


def random_hand(rng, size: int) -> list[Card]:
    """``size`` cards drawn from the two decks."""
    return [Card(i) for i in rng.sample(range(104), size)]


def _take(rng, free: set[int], rank: int, suit: int) -> int | None:
    """A free card id of this face (either copy), removed from ``free``; None if both are used."""
    ids = [i for i in (_face(rank, suit), _face(rank, suit) + 52) if i in free]
    if not ids:
        return None
    pick = rng.choice(ids)
    free.discard(pick)
    return pick


def hard_hand(rng, rules: Rules, size: int | None = None) -> list[Card]:
    """A hand built to be hard: long runs, big sets, duplicates and high aces, then filler."""
    size = size or rng.choice([10, 10, 11, 11, 12, 13, 14])
    free = set(range(104))
    hand: list[int] = []

    def add(rank: int, suit: int) -> None:
        got = _take(rng, free, rank, suit)
        if got is not None and len(hand) < size:
            hand.append(got)

    for feature in rng.sample(["run", "set", "dup", "high", "run2"], rng.randint(2, 4)):
        suit = rng.randrange(4)
        if feature in ("run", "run2"):  # 7+ consecutive cards, maybe through the high ace
            length = rng.randint(7 if feature == "run" else 3, 10)
            top = 14 if rules.ace_high else 13
            lo = rng.randint(1, top - length + 1)
            for p in range(lo, lo + length):
                add(1 if p == 14 else p, suit)
        elif feature == "set":  # 5+ of a rank (repeated suits where the rules allow)
            rank = rng.randint(1, 13)
            for _ in range(rng.randint(4, 8)):
                add(rank, rng.randrange(4))
        elif feature == "dup":  # second copies of cards already held
            for card in rng.sample(hand, min(len(hand), rng.randint(1, 3))):
                add(Card(card).rank, SUITS.index(Card(card).suit))
        else:  # J-Q-K-A and friends
            for rank in rng.sample([10, 11, 12, 13, 1, 1, 2], rng.randint(3, 6)):
                add(rank, suit)
    while len(hand) < size:
        neighbour = Card(rng.choice(hand)) if hand and rng.random() < 0.7 else None
        if neighbour is None:
            add(rng.randint(1, 13), rng.randrange(4))
        elif rng.random() < 0.5:
            add(neighbour.rank, rng.randrange(4))
        else:
            step = rng.choice([-2, -1, 1, 2])
            add((neighbour.rank + step - 1) % 13 + 1, SUITS.index(neighbour.suit))
    return [Card(i) for i in hand]


def table_deal(rng, rules: Rules, size: int | None = None) -> tuple[list[Card], list[Meld]]:
    """Melds on the table and a hand with cards that fit them (chains, set slots, copies)."""
    free = set(range(104))
    table: list[Meld] = []
    for _ in range(rng.randint(1, 4)):
        suit = rng.randrange(4)
        if rng.random() < 0.55:  # a run, sometimes with the high ace
            top = 14 if rules.ace_high else 13
            length = rng.randint(3, 6)
            lo = rng.randint(1, top - length + 1)
            ids = [_take(rng, free, 1 if p == 14 else p, suit) for p in range(lo, lo + length)]
        else:
            rank = rng.randint(1, 13)
            ids = [_take(rng, free, rank, s) for s in rng.sample(range(4), rng.randint(3, 4))]
        if None in ids:
            continue
        meld = Meld.make([Card(i) for i in ids], rules, owner=len(table) % 2)
        if meld is not None:
            table.append(meld)
    size = size or rng.choice([10, 11, 11, 12, 13])
    hand: list[int] = []
    while len(hand) < size:
        roll = rng.random()
        if table and roll < 0.5:
            meld = rng.choice(table)
            card = rng.choice(meld.cards)
            if meld.kind == "set":
                got = _take(rng, free, card.rank, rng.randrange(4))
            else:
                ranks = rules.run_ranks(list(meld.cards))
                p = rng.choice([ranks[0] - 2, ranks[0] - 1, ranks[-1] + 1, ranks[-1] + 2])
                if not 1 <= p <= 14:
                    continue
                got = _take(rng, free, 1 if p == 14 else p, SUITS.index(card.suit))
        elif hand and roll < 0.8:
            near = Card(rng.choice(hand))
            got = _take(
                rng, free, (near.rank + rng.choice([-1, 1, 0]) - 1) % 13 + 1, rng.randrange(4)
            )
        else:
            got = _take(rng, free, rng.randint(1, 13), rng.randrange(4))
        if got is not None:
            hand.append(got)
    return [Card(i) for i in hand], table
