"""Seeded hands for the solver's tests and benchmark: random, built to be hard, on a table."""

from __future__ import annotations

from rummy_widget.engine.cards import SUITS, Card
from rummy_widget.engine.melds import Meld
from rummy_widget.engine.rules import Rules


def _face(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


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
