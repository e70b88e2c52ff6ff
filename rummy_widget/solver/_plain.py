"""Suits that face no table meld, scored and built from bit masks in one pass.

Without table runs or table sets, a suit's cards fall into stretches of held ranks. A stretch
shorter than ``min_meld`` is left over; a longer one holding one card per rank is one run; only
a longer one holding a second copy needs the dynamic program (``SuitRuns._stretch``, memoized
per stretch). Finding the stretches is a few shifts on the suit key, so the first sight of a
suit costs little more than looking it up. Aces that could close a full circle (both copies,
every rank held, ``ace_high``) are left to the whole-suit program (``None`` here).

Keys are ``_runs``' suit keys: a 4-bit count per rank, rank r at bits ``4 * (r - 1)``. A *line*
puts the cards by position instead, position 14 (bits 52..55) being the ace played high. The
answers (scores, plans, cards) are those of ``SuitRuns`` and ``_build.build_suit``, tie-break
included: the same stretches, the same program, aces high when that does as well.
"""

from __future__ import annotations

from ._build import CARDS, run_order
from ._runs import K_LEFT, K_PENALTY, SuitPlan, SuitRuns, _runs_of

ONES = sum(1 << (4 * i) for i in range(14))  # bit 0 of every position's 4-bit field
TWOS = ONES << 1  # bit 1: a position holding two cards
RANK_BITS = 0x1FFF
ACES = 15  # the ace's field in a suit key
HIGH_ACE = 52  # the bit where a line's position 14 starts
MIDDLE = sum(1 << (4 * i) for i in range(1, 13))  # bit 0 of ranks 2..13
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
        solver.plain = PlainSuit(solver)
    return solver


class PlainSuit:
    """Score, plan and build a suit's cards for a ``SuitRuns`` with no table meld."""

    def __init__(self, solver: SuitRuns) -> None:
        self.solver = solver
        self.m = solver.m
        self.ace_high = solver.ace_high
        # the score of the cards at bit i of a line: one card (bit 4p) or two (bit 4p + 1)
        weight = [solver.points[1 if p == 14 else p] * K_PENALTY + K_LEFT for p in range(1, 15)]
        self.weight = {1 << (4 * k + j): w << j for k, w in enumerate(weight) for j in (0, 1)}

    def line(self, key: int) -> int | None:
        """The line of a suit key with its aces placed as ``SuitRuns._layouts`` would place
        them (high when that does as well), or None when the whole-suit program must decide."""
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
            if best is None or score < best:
                best, chosen = score, line
        return chosen

    def cover(self, line: int) -> int:
        """Bit 0 of each position's field lying in ``m`` consecutive held positions."""
        return self._long((line | line >> 1) & ONES)

    def _long(self, held: int) -> int:
        """The positions of ``held`` (bit 0 of their fields) in ``m`` consecutive ones."""
        starts = held
        for j in range(1, self.m):
            starts &= held >> (4 * j)
        cover = starts
        for j in range(1, self.m):
            cover |= starts << (4 * j)
        return cover

    def score_line(self, line: int) -> int:
        """The least score of a line."""
        cover = self.cover(line)
        total = 0
        twos = line >> 1 & cover
        if twos and self._long(twos) != twos:
            # a run stretch holds second copies not all in m consecutive ranks (if they were,
            # one run through the stretch and one through each row of copies place them all)
            for first, part in _stretches(line, cover):
                if max(part) > 1:
                    total += self._stretch_score(first, part)
        rest = line & ~(cover * 15)
        weight = self.weight
        while rest:
            bit = rest & -rest
            total += weight[bit]
            rest ^= bit
        return total

    def _stretch_score(self, first: int, part: tuple[int, ...]) -> int:
        solver = self.solver
        key = (first, part)
        found = solver.stretches.get(key)
        if found is None:
            found = solver.stretches[key] = solver._stretch(first, part)
        return found

    def score(self, key: int) -> int | None:
        """The least score of a suit key, or None if the whole-suit program must decide."""
        line = self.line(key)
        return None if line is None else self.score_line(line)

    def runs(self, line: int) -> list[list[int]]:
        """The runs (positions) of a line's best arrangement, by their lowest position."""
        cover = self.cover(line)
        if not line & TWOS & cover << 1:
            return [
                list(range(first, first + len(part))) for first, part in _stretches(line, cover)
            ]
        runs = []
        for first, part in _stretches(line, cover):
            if max(part) == 1:
                runs.append(list(range(first, first + len(part))))
            else:
                states = self.solver._stretch(first, part, want_states=True)
                runs += _runs_of(states, first, self.m)
        return runs

    def plan(self, key: int) -> SuitPlan | None:
        """``SuitRuns._plan`` for a suit key (no lay-offs: nothing on the table), or None."""
        line = self.line(key)
        if line is None:
            return None
        runs = self.runs(line)
        left = line
        for run in runs:
            for p in run:
                left -= 1 << (4 * (p - 1))
        plan = SuitPlan(runs=runs)
        while left:
            bit = left & -left
            position = (bit.bit_length() + 3) >> 2
            rank = 1 if position == 14 else position
            n = left >> (4 * (position - 1)) & 15
            plan.left[rank] = plan.left.get(rank, 0) + n
            left ^= n << (4 * (position - 1))
        return plan

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
        melds = []
        first = 13 * s
        for run in self.runs(line):
            cards = []
            for p in run:
                i = 0 if p == 14 else p - 1  # the rank's bit in the suit's id masks
                if low_ids >> i & 1:
                    low_ids ^= 1 << i
                    cards.append(CARDS[first + i])
                else:
                    high_ids ^= 1 << i
                    cards.append(CARDS[52 + first + i])
            if run[-1] == 14:  # ends with the high ace: the table's order for it
                cards = rules.order_meld(cards)
            melds.append((run_order(run[0], s), len(melds), tuple(cards)))
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
        return self.score_line(line), tuple(melds), (), tuple(left), counts


def _stretches(line: int, cover: int):
    """(first position, cards by position) of each stretch of ``cover``, lowest first."""
    while cover:
        bit = cover & -cover
        first = (bit.bit_length() + 3) >> 2
        p = first
        part = []
        while cover >> (4 * (p - 1)) & 1:
            part.append(line >> (4 * (p - 1)) & 15)
            p += 1
        cover &= ~((1 << (4 * (p - 1))) - 1)
        yield first, tuple(part)
