"""The third rung: remember every card seen, count outs, keep safe, hold melds for Rummy.

What it adds to ``basic`` (ideas from a Yale course study of penalty-scored rummy bots,
github.com/JiheHe/CPSC474-final-project):

- memory: the public log tells which cards are gone (discard pile, melds) and which ones the
  opponents took from the pile; a card is *live* while an unseen copy remains;
- outs: a hand is worth its penalty minus a bonus for every live card that would join a meld;
  discards and draws are chosen by that value, not by penalty alone;
- the discard pile's top card is taken when it joins a meld at once, or when it is worth at
  most 6 points (a stock card averages about 6.5) and makes the hand better by that value;
- safety: a card that fits what an opponent picked up, or a meld on the table, is kept back;
- Rummy: while every opponent still holds many cards, melds stay in the hand (no lay-off
  targets for them, and going out in one turn adds 25 to each loser's penalty).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.cards import DECK, Card, cards_text
from ..engine.rules import Rules
from .basic import reason_for
from .memory import Memory
from .planner import SolverBot
from .seen import Seen
from .turn import Turn, lay_off_faces


@dataclass(frozen=True)
class Style:
    """The expert's weights; the master plays by them too (``master.Options.style``)."""

    out_weight: float = 2.0  # points a live out is worth
    danger: float = 4.0  # points of risk for feeding an opponent a card it wants
    take_limit: int = 6  # take a discard that joins no meld only up to this many points
    hold_until: int = 4  # hold melds back while every opponent holds at least this many cards
    hold_points: int | None = 40  # ... and while the held melds are worth at most this (None: any)


class ExpertBot(SolverBot):
    """Counts cards and outs, avoids feeding opponents, lays off, holds melds for Rummy."""

    name = "expert"

    def __init__(self, seed: int = 0, style: Style | None = None) -> None:
        super().__init__(seed)
        self.style = style or Style()
        self._memory_key: tuple | None = None
        self._memory: Memory | None = None

    def memory(self, seen: Seen) -> Memory:
        key = (seen.seat, len(seen.log), tuple(c.id for c in seen.hand))
        if key != self._memory_key:
            self._memory_key, self._memory = key, Memory.read(seen)
        return self._memory

    # --- the hand's value ------------------------------------------------------------------

    def value(self, turn: Turn, cards: list[Card], memory: Memory) -> float:
        """Penalty now, less a bonus for each live card that would join a meld (lower is
        better)."""
        return turn.penalty(cards) - self.style.out_weight * live_outs(turn, cards, memory)

    def danger(self, turn: Turn, card: Card, memory: Memory) -> float:
        """How much an opponent would like this card (it fits their pick-ups or the table)."""
        seen = turn.seen
        risk = 0.0
        if (
            turn.table
            and lay_off_faces(turn.table, turn.rules, turn.table_key) >> card.face_index & 1
        ):
            risk += 1.0
        for seat in range(seen.players):
            if seat == seen.seat:
                continue
            for held in memory.known[seat]:
                if held.rank == card.rank or (
                    held.suit == card.suit and abs(held.rank - card.rank) <= 2
                ):
                    risk += 1.0
                    break
            if card.face_index in memory.discarded[seat]:
                risk -= 0.5  # they threw this face away once
        return self.style.danger * max(0.0, risk)

    def discard_choices(
        self, turn: Turn, cards: list[Card], memory: Memory
    ) -> list[tuple[float, Card]]:
        """(score, card) for each discard from ``cards``, best (lowest score) first."""
        scored = [
            (self.discard_key(turn, cards, card, memory), card) for card in turn.discardable(cards)
        ]
        scored.sort(key=lambda s: s[0])
        return [(key[0], card) for key, card in scored]

    def discard_key(
        self, turn: Turn, cards: list[Card], card: Card, memory: Memory
    ) -> tuple[float, int, int]:
        """Where discarding ``card`` from ``cards`` ranks: the hand's value without it plus the
        danger of feeding an opponent, then the costlier card, then the lower id."""
        rest = [c for c in cards if c != card]
        score = self.value(turn, rest, memory) + self.danger(turn, card, memory)
        return (score, -turn.rules.card_points(card), card.id)

    # --- the policy ------------------------------------------------------------------------

    def choose_draw(self, turn: Turn) -> str:
        seen = turn.seen
        top = seen.top
        if top is None:
            return "stock"
        if seen.stock_size == 0:
            return "discard"
        memory = self.memory(seen)
        if top.face_index in memory.discarded[seen.seat]:
            # Never take back a face thrown away (unless it wins the deal now): two bots
            # passing cards back and forth would never end the deal.
            after = Turn(after_taking(seen, top), self._memo)
            return "discard" if after.going_out() else "stock"
        if turn.improves(top):
            return "discard"
        if turn.rules.card_points(top) > self.style.take_limit:
            return "stock"
        # Would the hand with the top card (and its best discard) beat the hand as it is,
        # with its best discard? (the stock card averages a little more than 6 points)
        with_top = [*turn.hand, top]
        blocked = Turn(after_taking(seen, top), self._memo)
        best_with = self.discard_choices(blocked, with_top, memory)[0][0]
        best_now = self.discard_choices(turn, list(turn.hand), memory)[0][0]
        return "discard" if best_with < best_now - 1 else "stock"

    def table_plays(self, turn: Turn) -> list[Action]:
        moves = turn.table_plays()
        if moves and self.holding(turn, moves):
            return []
        return moves

    def holding(self, turn: Turn, moves: list[Action]) -> bool:
        """Keep melds in the hand for a Rummy while no opponent is close to going out?"""
        seen = turn.seen
        if seen.has_melded[seen.seat]:
            return False  # Rummy is gone once anything went to the table
        others = [n for s, n in enumerate(seen.hand_sizes) if s != seen.seat]
        if min(others) < self.style.hold_until:
            return False
        cap = self.hold_cap(turn.rules)
        if cap is None:
            return True
        held = sum(turn.rules.card_points(c) for m in moves if m.kind == "meld" for c in m.cards)
        return held <= cap

    def hold_cap(self, rules: Rules) -> int | None:
        """The most points of melds held back for Rummy (None: any); the style's."""
        return self.style.hold_points

    def choose_discard(self, turn: Turn, cards: list[Card]) -> Card:
        return self.discard_choices(turn, cards, self.memory(turn.seen))[0][1]

    # --- explanations ----------------------------------------------------------------------

    def reason(self, seen: Seen, action: Action) -> tuple[str, dict]:
        turn = self.turn(seen)
        memory = self.memory(seen)
        if action.kind == "draw" and action.source == "discard" and seen.top is not None:
            top = seen.top
            if not turn.places(top):
                return "bot.explain.expert_take_outs", {
                    "card": str(top),
                    "points": turn.rules.card_points(top),
                    "outs": live_outs(turn, [*turn.hand, top], memory),
                }
        if action.kind == "draw" and action.source == "stock" and seen.top is not None:
            top = seen.top
            points = turn.rules.card_points(top)
            if not turn.places(top) and points > self.style.take_limit:
                return "bot.explain.expert_stock_costly", {
                    "card": str(top),
                    "points": points,
                    "limit": self.style.take_limit,
                    "average": stock_average(turn.rules),
                }
        if action.kind == "discard":
            rest = [c for c in turn.hand if c != action.card]
            danger = self.danger(turn, action.card, memory)
            safest = min(self.danger(turn, c, memory) for c in turn.discardable(turn.hand))
            if danger > safest:
                return "bot.explain.expert_discard_risky", {"card": str(action.card)}
            if rest and turn.penalty(rest) > 0:
                held = [c for c in rest if c.face_index != action.card.face_index]
                return "bot.explain.expert_discard", {
                    "card": str(action.card),
                    "points": turn.rules.card_points(action.card),
                    "outs": live_outs(turn, held, memory),
                }
        if action.kind == "discard" and self._would_hold(turn):
            return "bot.explain.expert_hold", {
                "cards": cards_text(turn.hand),
                "bonus": turn.rules.rummy_bonus,
            }
        return reason_for(turn, action)

    def _would_hold(self, turn: Turn) -> bool:
        moves = turn.table_plays()
        return bool(moves) and self.holding(turn, moves)


def stock_average(rules: Rules) -> float:
    """The mean penalty points of a card drawn blind, under ``rules`` (85/13 = 6.5 with the
    ace worth 1, 95/13 = 7.3 with the ace worth 11): the figure the expert quotes."""
    return sum(rules.card_points(card) for card in DECK[:52]) / 52


def live_outs(turn: Turn, cards: list[Card], memory: Memory) -> int:
    """Live (unseen) cards that would join a meld with ``cards`` or go onto the table."""
    rules = turn.rules
    need = rules.min_meld
    count = [0] * 14
    suits_of_rank = [0] * 14
    ranks_of_suit = [0, 0, 0, 0]
    for c in cards:
        face = c.id % 52
        rank, suit = face % 13 + 1, face // 13
        count[rank] += 1
        suits_of_rank[rank] |= 1 << suit
        ranks_of_suit[suit] |= 1 << rank
    fits = lay_off_faces(turn.table, rules, turn.table_key) if turn.table else 0
    total = 0
    for face, live in enumerate(memory.live):
        if not live:
            continue
        rank, suit = face % 13 + 1, face // 13
        useful = fits >> face & 1
        if not useful:
            if rules.set_distinct_suits:
                others = suits_of_rank[rank] & ~(1 << suit)
                useful = bin(others).count("1") >= need - 1
            else:
                useful = count[rank] >= need - 1
        if not useful:
            mask = ranks_of_suit[suit] | (1 << rank)
            if rules.ace_high and mask & 2:
                mask |= 1 << 14
            useful = _in_stretch(mask, rank, need) or (
                rules.ace_high and rank == 1 and _in_stretch(mask, 14, need)
            )
        if useful:
            total += live
    return total


def _in_stretch(mask: int, rank: int, need: int) -> bool:
    """Is ``rank`` inside a stretch of at least ``need`` consecutive set bits of ``mask``?"""
    low = high = rank
    while low - 1 >= 1 and mask >> (low - 1) & 1:
        low -= 1
    while high + 1 <= 14 and mask >> (high + 1) & 1:
        high += 1
    return high - low + 1 >= need


def after_taking(seen: Seen, top: Card) -> Seen:
    """The position after taking ``top`` from the pile (it may not be discarded straight back)."""
    from dataclasses import replace

    return replace(seen, hand=[*seen.hand, top], taken=top, phase="play")
