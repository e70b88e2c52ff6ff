"""Suits that face no table meld, scored and built from bit masks in one pass.

Without table runs or table sets, a suit whose every rank lying in ``min_meld`` consecutive held
ranks has one card is solved by its shape alone: each maximal stretch of at least ``min_meld``
held ranks is one run, every other card is left over. That is most suits of most hands, and the
first sight of such a suit then costs a few shifts instead of the dynamic program of ``_runs``.
A second copy inside such a stretch, or an ace that could close a full circle, is left to the
dynamic program (``None`` here).

Keys are ``_runs``' suit keys: a 4-bit count per rank, rank r at bits ``4 * (r - 1)``. A *line*
puts the cards by position instead, position 14 (bits 52..55) being the ace played high.
"""

from __future__ import annotations

from ._build import CARDS, run_order
from ._runs import K_LEFT, K_PENALTY, SuitRuns

ONES = sum(1 << (4 * i) for i in range(14))  # bit 0 of every position's 4-bit field
TWOS = ONES << 1  # bit 1: a position holding two cards
RANK_BITS = 0x1FFF
ACES = 15  # the ace's field in a suit key
MIDDLE = sum(1 << (4 * i) for i in range(1, 13))  # bit 0 of ranks 2..13
HIGH_ACE = 52  # the bit where a line's position 14 starts
LOW_SPREAD = tuple(sum(1 << (4 * i) for i in range(7) if m >> i & 1) for m in range(128))
# a 13-bit rank mask spread to 4-bit fields: LOW_SPREAD[m & 127] | LOW_SPREAD[m >> 7] << 28


def suit_runs(
    m: int,
    ace_high: bool,
    points: tuple[int, ...],
    free: tuple[int, ...],
    table_runs: tuple[tuple[int, int], ...],
) -> SuitRuns:
    """A suit's solver; one facing no table meld gets the bit-mask shortcut as well."""
    solver = SuitRuns(m, ace_high, points, free, table_runs)
    if m >= 2 and not table_runs and not any(free):
        solver.plain = PlainSuit(m, ace_high, points)
    return solver


class PlainSuit:
    """Score and build a suit's cards for rules with runs of ``m`` and no table meld."""

    def __init__(self, m: int, ace_high: bool, points: tuple[int, ...]) -> None:
        self.m = m
        self.ace_high = ace_high
        # the score of the cards at bit i of a line: one card (bit 4p) or two (bit 4p + 1)
        weight = [points[1 if p == 14 else p] * K_PENALTY + K_LEFT for p in range(1, 15)]
        self.weight = {1 << (4 * k + j): w << j for k, w in enumerate(weight) for j in (0, 1)}

    def line(self, key: int) -> int | None:
        """The line of a suit key with its aces placed as ``SuitRuns._layouts`` would place
        them (high when that does as well), or None when the dynamic program must decide."""
        aces = key & ACES
        if not (aces and self.ace_high) or not key >> 48 & 15:  # no ace, or no king: low
            return key
        rest = key ^ aces
        if not key >> 4 & 15:  # no two: the aces go high
            return rest | aces << HIGH_ACE
        if aces == 2 and (key | key >> 1) & MIDDLE == MIDDLE:
            return None  # every position held once one ace goes each way: a run could wrap
        best, chosen = None, None
        for low in range(aces + 1):  # the aces split low / high, most high first
            line = rest | low | (aces - low) << HIGH_ACE
            score = self.score_line(line)
            if score is None:
                return None
            if best is None or score < best:
                best, chosen = score, line
        return chosen

    def cover(self, line: int) -> int:
        """Bit 0 of each position's field lying in ``m`` consecutive held positions."""
        held = (line | line >> 1) & ONES
        starts = held
        for j in range(1, self.m):
            starts &= held >> (4 * j)
        cover = starts
        for j in range(1, self.m):
            cover |= starts << (4 * j)
        return cover

    def score_line(self, line: int) -> int | None:
        """The least score of a line, or None if a covered position holds two cards."""
        cover = self.cover(line)
        if line & TWOS & cover << 1:
            return None
        rest = line & ~(cover * 15)
        total = 0
        weight = self.weight
        while rest:
            bit = rest & -rest
            total += weight[bit]
            rest ^= bit
        return total

    def score(self, key: int) -> int | None:
        """The least score of a suit key, or None if the dynamic program must decide."""
        line = self.line(key)
        return None if line is None else self.score_line(line)

    def build(self, rules, s: int, key: int) -> tuple | None:
        """``_build.build_suit``'s part for suit ``s`` of the hand's id bits ``key``, or None.

        Runs take the lower id of a face first, runs in order of their lowest position.
        """
        low_ids = key >> (13 * s) & RANK_BITS
        high_ids = key >> (52 + 13 * s) & RANK_BITS
        counts = (
            LOW_SPREAD[low_ids & 127]
            + LOW_SPREAD[high_ids & 127]
            + ((LOW_SPREAD[low_ids >> 7] + LOW_SPREAD[high_ids >> 7]) << 28)
        )
        line = self.line(counts)
        if line is None:
            return None
        cover = self.cover(line)
        if line & TWOS & cover << 1:
            return None
        score = self.score_line(line)
        melds = []
        first = 13 * s
        c = cover
        while c:
            bit = c & -c
            start = (bit.bit_length() + 3) >> 2  # the run's lowest position
            p = start
            cards = []
            while c >> (4 * (p - 1)) & 1:
                i = 0 if p == 14 else p - 1  # the rank's bit in the suit's id masks
                if low_ids >> i & 1:
                    low_ids ^= 1 << i
                    cards.append(CARDS[first + i])
                else:
                    high_ids ^= 1 << i
                    cards.append(CARDS[52 + first + i])
                p += 1
            c &= ~((1 << (4 * (p - 1))) - 1)
            if p == 15:  # ends with the high ace: the table's order for it
                cards = rules.order_meld(cards)
            melds.append((run_order(start, s), len(melds), tuple(cards)))
        left = []
        held = low_ids | high_ids
        while held:
            bit = held & -held
            i = bit.bit_length() - 1
            if low_ids & bit:
                left.append(CARDS[first + i])
            if high_ids & bit:
                left.append(CARDS[52 + first + i])
            held ^= bit
        return score, tuple(melds), (), tuple(left), counts
