"""Own progress: how likely a hand is to go out within the next few draws, opponents aside.

A guess at the opponent's hidden hand is mostly wrong; this estimate needs none. It deals the
next few stock cards from the seat's unseen cards (the same draw orders for every candidate, so
candidates are compared on common random numbers), plays the hand alone (draw; go out if the
solver finds a way; else the expert's discard) and counts how often it is out within ``turns``
draws. The opponent only enters through the expert's danger term, which candidates may not
exceed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import Card
from ..solver import can_go_out
from .memory import Memory
from .turn import Turn


def draw_orders(memory: Memory, turns: int, samples: int, rng: random.Random) -> list[tuple]:
    """``samples`` orders of ``turns`` stock cards, dealt uniformly from the unseen cards (the
    stock and the hidden hands alike: no guess at who holds what)."""
    pool = memory.unseen
    if len(pool) < turns:
        return []
    return [tuple(rng.sample(pool, turns)) for _ in range(samples)]


def goes_out(turn: Turn, cards: list[Card]) -> bool:
    """Could ``cards`` (just drawn into) go out this turn? The cheap necessary test first."""
    if not turn.may_go_out(cards):
        return False
    table, _ = turn.reachable(cards)
    return bool(can_go_out(cards, turn.rules, table))


def out_rates(
    turn: Turn,
    hand: Sequence[Card],
    orders: list[tuple],
    discard,
    first: Card | None = None,
) -> list[float]:
    """Per draw order, 1.0 if ``hand`` goes out within the order's draws, else 0.0.

    ``first``: the first draw is this card (the pile's top) instead of the order's first card;
    the orders' other cards follow, so a pile draw and a stock draw see the same later cards.
    ``discard(cards, barred)`` is the policy between draws (``barred``: a card that may not go
    straight back)."""
    results = []
    for order in orders:
        draws = (first, *order[:-1]) if first is not None else order
        cards = list(hand)
        out = 0.0
        for step, card in enumerate(draws):
            cards.append(card)
            if goes_out(turn, cards):
                out = 1.0
                break
            if step + 1 < len(draws):
                barred = card if step == 0 and first is not None else None
                cards.remove(discard(cards, barred))
        results.append(out)
    return results


def paired(gains: list[float]) -> tuple[float, float]:
    """Mean and standard error of paired differences (0, 0 for fewer than two: no evidence):
    own progress tests its gains with it, the benchmarks their game-by-game comparisons."""
    n = len(gains)
    if n < 2:
        return 0.0, 0.0
    mean = sum(gains) / n
    return mean, (sum((g - mean) ** 2 for g in gains) / (n - 1)) ** 0.5 / n**0.5


@dataclass(frozen=True)
class ProgressPick:
    """A choice made by own progress: the options (0: the expert's), each option's result per
    draw order, and the option picked. Kept so that the master can explain the choice."""

    options: tuple
    rates: list[list[float]]
    best: int

    def out_percent(self, option: int) -> int:
        """In how many of the draw orders (per cent) ``option`` went out at all."""
        rates = self.rates[option]
        return round(100 * sum(r > 0 for r in rates) / len(rates))
