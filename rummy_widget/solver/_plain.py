"""Suits that face no table meld, scored and built from bit masks in one pass.

Without table runs or table sets, a suit's cards fall into stretches of held ranks. A stretch
shorter than ``min_meld`` is left over; a longer one holding one card per rank is one run, and
so is each row of ``min_meld`` or more second copies in it; one or two second copies have
closed forms; only a stretch holding more needs the dynamic program (``SuitRuns.walk``,
memoized per stretch; for its runs also a tie between two copies of equal points, and runs
of two cut in several ways). Finding the stretches is a few shifts on the suit key and one
carry per stretch, so the first sight of a suit costs little more than looking it up. Aces
that could close a full circle (both copies, every rank held, ``ace_high``) are left to the
whole-suit program of ``SuitRuns``.

Keys are ``_runs``' suit keys: a 4-bit count per rank, rank r at bits ``4 * (r - 1)``. A *line*
puts the cards by position instead, position 14 (bits 52..55) being the ace played high. The
answers (scores, plans, cards) are those of ``SuitRuns`` and ``_build.build_suit``, tie-break
included: the same stretches, the same program, aces high when that does as well. Few calls
per suit on purpose: on a first sight, Python's call overhead is much of the cost.
"""

from __future__ import annotations

from ._build import CARDS, HELD, held_tables, run_order
from ._runs import K_LEFT, K_PENALTY, SuitPlan, SuitRuns, _runs_of

ONES = sum(1 << (4 * i) for i in range(14))  # bit 0 of every position's 4-bit field
RANK_BITS = 0x1FFF
ACES = 15  # the ace's field in a suit key
HIGH_ACE = 52  # the bit where a line's position 14 starts
MIDDLE = sum(1 << (4 * i) for i in range(1, 13))  # bit 0 of ranks 2..13
MISSING = object()  # not in a memo yet (None is an answer there)
# a 13-bit rank mask spread to 4-bit fields: LOW_SPREAD[m & 127] | LOW_SPREAD[m >> 7] << 28
LOW_SPREAD = [0]
for _bit in range(7):  # doubling: cheap at import
    LOW_SPREAD += [spread | 1 << (4 * _bit) for spread in LOW_SPREAD]


def suit_runs(
    m: int,
    ace_high: bool,
    points: tuple[int, ...],
    free: tuple[int, ...],
    table_runs: tuple[tuple[int, int], ...],
) -> SuitRuns:
    """A suit's solver; one facing no table meld fills its score and plan memos from here."""
    solver = SuitRuns(m, ace_high, points, free, table_runs)
    if m >= 2 and not table_runs and not any(free):
        plain = solver.plain = PlainSuit(solver)
        solver.scores = TableScores(plain.single_scores, plain.score)
        solver.plans.compute = plain.plan
    return solver


class TableScores(dict):
    """``SuitRuns.scores`` of a suit facing no table meld: a missing key holding one card per
    rank takes its score from the rules' table (``PlainSuit.single_scores``, one lookup),
    any other from ``PlainSuit.score``. Starts with the empty suit, as every score memo."""

    def __init__(self, table: dict[int, int], compute) -> None:
        super().__init__()
        self.table = table
        self.compute = compute
        self[0] = 0

    def __missing__(self, key: int) -> int:
        value = self.table.get(key)
        if value is None:
            value = self.compute(key)
        self[key] = value
        return value


class PlainSuit:
    """Score, plan and build a suit's cards for a ``SuitRuns`` with no table meld."""

    def __init__(self, solver: SuitRuns) -> None:
        self.solver = solver
        self.m = solver.m
        self.ace_high = solver.ace_high
        self.shifts = tuple(4 * j for j in range(1, solver.m))
        self.steps = tuple(range(1, solver.m))
        self.low_run = sum(1 << (4 * (r - 1)) for r in range(2, solver.m + 1))  # ranks 2..m
        # ranks 15 - m .. 13 (Q, K for m = 3): the ranks a high ace needs for a run
        self.high_run = sum(1 << (4 * (r - 1)) for r in range(max(2, 15 - solver.m), 14))
        # the score of the cards at bit i of a line: one card (bit 4p) or two (bit 4p + 1)
        weight = [solver.points[1 if p == 14 else p] * K_PENALTY + K_LEFT for p in range(1, 15)]
        self.weight = {1 << (4 * k + j): w << j for k, w in enumerate(weight) for j in (0, 1)}
        self.rank_weight = {1 << k: w for k, w in enumerate(weight[:13])}  # by rank bit
        self.single = self._single_table()
        # the score of a suit key holding one card per rank (not the ace question), the same
        # numbers as ``single`` by key (8192 keys, about 0.3 MB per rules)
        self.single_scores = {t[1]: t[0] for t in self.single if t[0] is not None}
        held_tables()
        # suit key with aces that may go high or low -> ``place``'s answer (a memo about hands)
        self.placed: dict[int, tuple[int, int] | None] = {}
        self.runs_by_key: dict[int, list[list[int]]] = {}  # ``key_runs``, a memo about hands
        # a run stretch (the line's bits in it) -> the program's way (``SuitRuns.walk``) when
        # ``twos_score`` ran it, so that ``runs`` need not run it again (a memo about hands)
        self.ways: dict[int, tuple] = {}

    def forget_hands(self) -> None:
        """Empty the memos about hands, keeping the rules' tables."""
        self.placed.clear()
        self.runs_by_key.clear()
        self.ways.clear()

    def _single_table(self) -> list[tuple]:
        """What ``build`` makes of a suit holding one card per rank, for each rank mask (rank r
        at bit r - 1), whichever copies the cards are: every stretch of ``m`` or more held ranks
        is a run, the rest is left over. Entries are (score, suit key, runs as
        (``run_order`` of the run in suit 0, first, end) slices of the held cards in rank
        order, the slices of them left over, the ranks in runs); the cards come from ``HELD``.
        With ``ace_high``, a mask holding the ace and the king may place the ace either way:
        (None, suit key, None, None, None), built by ``build`` from the key. Filled once per
        rules when its first context is made (8192 masks, about 1.9 MB with
        ``single_scores``); never about a hand, so ``_core.clear_hand_memos`` keeps it."""
        steps = self.steps
        rank_weight = self.rank_weight
        left = [0]  # the points of a rank mask's cards, by doubling
        for i in range(13):
            left += [w + rank_weight[1 << i] for w in left]
        table = []
        shared: dict[tuple, tuple] = {}
        alone = [((0, n),) for n in range(14)]  # no runs: every held card left over
        for mask in range(1 << 13):
            key = LOW_SPREAD[mask & 127] | LOW_SPREAD[mask >> 7] << 28
            if self.ace_high and mask & 1 and mask >> 12 & 1:
                table.append((None, key, None, None, None))
                continue
            cover = whole = _in_rows(mask, steps)
            if not cover:
                table.append((left[mask], key, (), alone[mask.bit_count()], 0))
                continue
            runs, gaps, last = [], [], 0
            while cover:
                low = cover & -cover
                block = cover & ~(cover + low)  # the stretch of cover starting at ``low``
                a = (mask & (low - 1)).bit_count()
                if a > last:
                    gaps.append((last, a))
                last = a + block.bit_count()
                runs.append((run_order(low.bit_length(), 0), a, last))
                cover ^= block
            if mask.bit_count() > last:
                gaps.append((last, mask.bit_count()))
            runs_gaps = (tuple(runs), tuple(gaps))
            runs_gaps = shared.setdefault(runs_gaps, runs_gaps)  # many masks share them
            table.append((left[mask ^ whole], key, *runs_gaps, whole))
        self.mask_points = left
        return table

    def score(self, key: int) -> int:
        """The least score of a suit key (``SuitRuns.scores`` computes with this)."""
        found = self.single_scores.get(key)
        if found is not None:  # one card per rank: from the rules' table
            return found
        if key & ACES and self.ace_high and key >> 48 & 15:  # the ace may go high or low
            placed = self.place(key)
            return self.solver._score(key) if placed is None else placed[1]
        return self.score_line(key)

    def place(self, key: int) -> tuple[int, int] | None:
        """(line, score) with the key's aces placed as ``SuitRuns._layouts`` would place them
        (high when that does as well), or None when the whole-suit program must decide."""
        aces = key & ACES
        if not (aces and self.ace_high) or not key >> 48 & 15:  # no ace, or no king: low
            return key, self.score_line(key)
        placed = self.placed.get(key, MISSING)  # scored in the search, then built: once
        if placed is MISSING:
            placed = self.placed[key] = self._place(key, aces)
        return placed

    def _place(self, key: int, aces: int) -> tuple[int, int] | None:
        rest = key ^ aces
        if (key | key >> 1) & self.low_run != self.low_run:
            # no A-2-3 run can be made: a low ace is left over, so high does as well
            line = rest | aces << HIGH_ACE
            return line, self.score_line(line)
        if (key | key >> 1) & self.high_run != self.high_run:
            # no Q-K-A run can be made: one ace low does better than none (it joins A-2-3),
            # and a second one low ties with it high (both left over) unless it joins too
            line = rest | 1 | (aces - 1) << HIGH_ACE
            score = self.score_line(line)
            if aces == 2:
                both = self.score_line(rest | 2)
                if both < score:
                    return rest | 2, both
            return line, score
        if aces == 2 and (key | key >> 1) & MIDDLE == MIDDLE:
            return None  # every position held once one ace goes each way: a run could wrap
        best = None
        for low in range(aces + 1):  # the aces split low / high, most high first
            line = rest | low | (aces - low) << HIGH_ACE
            score = self.score_line(line)
            if best is None or score < best[1]:
                best = (line, score)
        return best

    def key_runs(self, key: int) -> list[list[int]]:
        """The runs (positions) of a suit key's best arrangement (memoized: the split
        rebuild of ``_with_sets`` asks for them again on each hand built so)."""
        found = self.runs_by_key.get(key)
        if found is None:
            line = self.line(key)
            found = self.solver._plan(key).runs if line is None else self.runs(line)
            self.runs_by_key[key] = found
        return found

    def line(self, key: int) -> int | None:
        """The key as a line, its aces placed (``place``), or None for the whole-suit program."""
        if key & ACES and self.ace_high and key >> 48 & 15:
            placed = self.place(key)
            return None if placed is None else placed[0]
        return key

    def score_line(self, line: int) -> int:
        """The least score of a line."""
        held = (line | line >> 1) & ONES
        starts = held
        for j in self.shifts:
            starts &= held >> j
        cover = starts  # ``long(held)``, inlined: the run stretches
        for j in self.shifts:
            cover |= starts << j
        total = 0
        twos = line >> 1 & cover
        if twos and self.long(twos) != twos:  # second copies in run stretches, not all in
            # rows of min_meld (such rows are runs of their own)
            total = self.twos_score(line, cover, twos)
        rest = line & ~(cover * 15)
        weight = self.weight
        while rest:
            bit = rest & -rest
            total += weight[bit]
            rest ^= bit
        return total

    def twos_score(self, line: int, cover: int, twos: int) -> int:
        """``SuitRuns._stretch``'s scores for the run stretches (``cover``) holding second
        copies (``twos``: bit 0 of their fields). At once for one second copy (it joins a
        second run when ``m - 1`` positions lie on each side of it, the two runs meeting
        there), for two (``_two_copies``) or a stretch of ``m`` positions (as many runs as its
        fewest cards), else by the program (memoized)."""
        total = 0
        m = self.m
        filled = cover * 15
        while twos:
            low = filled & -filled
            block = filled & ~(filled + low)  # the lowest stretch: its fields all ones
            filled ^= block
            mine = twos & block
            if not mine:
                continue
            twos ^= mine
            start = low.bit_length() - 1  # 4 * (first position - 1)
            size = (block.bit_length() - start) >> 2
            copies = mine.bit_count()
            if copies == 1:
                d = (mine.bit_length() - 1 - start) >> 2
                if d < m - 1 or size - d < m:
                    total += self.weight[mine]
            elif copies == 2:
                total += self._two_copies(mine, start, size)
            elif size == m:  # as many runs as its fewest cards: the copies stay unless all
                if copies != m:
                    while mine:
                        bit = mine & -mine
                        total += self.weight[bit]
                        mine ^= bit
            elif self.long(mine) != mine:  # else every copy lies in a row of its own run
                key = line & block
                found = self.solver.stretches.get(key)
                if found is None:  # the program, its way kept for ``runs`` if built
                    part = tuple([key >> j & 15 for j in range(start, start + 4 * size, 4)])
                    found, self.ways[key] = self.solver.walk((start >> 2) + 1, part)
                    self.solver.stretches[key] = found
                total += found
        return total

    def _two_copies(self, mine: int, start: int, size: int) -> int:
        """The score of a stretch of ``size`` positions from bit ``start`` holding two second
        copies (``mine``): both join runs when they meet two runs side by side or split the
        stretch into three runs of ``m``, one does when ``m - 1`` positions lie on each side."""
        m = self.m
        high = 1 << (mine.bit_length() - 1)
        low = mine ^ high
        d1 = (low.bit_length() - 1 - start) >> 2
        d2 = (high.bit_length() - 1 - start) >> 2
        if d1 >= m - 1 and d2 - d1 >= m - 1 and size - d2 >= m:
            return 0  # three runs, meeting at d1 and at d2
        if d2 == d1 + 1 and d2 >= m - 1 and size - d1 >= m:
            return 0  # two runs overlapping at d1 and d2
        weight = self.weight
        best = weight[low] + weight[high]
        if d1 >= m - 1 and size - d1 >= m:
            best = weight[high]
        if d2 >= m - 1 and size - d2 >= m and weight[low] < best:
            best = weight[low]
        return best

    def long(self, held: int) -> int:
        """The positions of ``held`` (bit 0 of each field) in ``m`` consecutive ones."""
        return _in_rows(held, self.shifts)

    def runs(self, line: int) -> list[list[int]]:
        """The runs (positions) of a line's best arrangement, by their lowest position.

        With one or two second copies, a stretch's runs are found at once (``_meeting``, the
        program's runs); with more, the program finds them."""
        m = self.m
        filled = self.long((line | line >> 1) & ONES) * 15
        twos = line >> 1 & filled
        runs = []
        while filled:
            low = filled & -filled
            block = filled & ~(filled + low)  # the lowest stretch: its fields all ones
            filled ^= block
            start = low.bit_length() - 1
            first = (start >> 2) + 1
            size = (block.bit_length() - start) >> 2
            mine = twos & block & ONES
            if not mine:
                runs.append(list(range(first, first + size)))
                continue
            copies = mine.bit_count()
            if size == m:  # one way only: as many runs as its fewest cards
                runs.append(list(range(first, first + m)))
                if copies == m:
                    runs.append(list(range(first, first + m)))
                continue
            if copies <= 2:
                meet = self._meeting(mine, start, size)
                if meet is not None:
                    runs += [list(range(first + a, first + b + 1)) for a, b in meet]
                    continue
            way = self.ways.get(line & block)
            if way is None:
                part = tuple([line >> j & 15 for j in range(start, start + 4 * size, 4)])
                way = self.solver.walk(first, part)[1]
            runs += _runs_of(self.solver.states(way), first, m)
        return runs

    def _meeting(self, mine: int, start: int, size: int) -> list[tuple[int, int]] | None:
        """The runs (first and last offset) of a stretch of ``size`` positions from bit
        ``start`` holding one or two second copies (``mine``), as the program finds them, or
        None when two copies of equal points could each join alone (the program decides).

        The copies join where runs can meet on them. A run of ``2 * m`` or more could be cut
        in several ways of equal score; the program cuts it into runs of ``m``, the first
        taking the rest (the same runs on every such stretch of up to 14 positions, min_meld
        3 to 5, both ace rules)."""
        m = self.m
        if m < 3 and size >= 2 * m:  # runs of two: more ways to meet (not worked out here)
            return None
        last = size - 1
        high = 1 << (mine.bit_length() - 1)
        d2 = (high.bit_length() - 1 - start) >> 2
        if mine == high:  # one copy: two runs meet there, or it stays
            runs = [(0, d2), (d2, last)] if d2 >= m - 1 and size - d2 >= m else [(0, last)]
        else:
            low = mine ^ high
            d1 = (low.bit_length() - 1 - start) >> 2
            one = d1 >= m - 1 and size - d1 >= m
            two = d2 >= m - 1 and size - d2 >= m
            if d2 == d1 + 1 and d2 >= m - 1 and size - d1 >= m:
                runs = [(0, d2), (d1, last)]  # two runs overlapping at both copies
            elif one and two and d2 - d1 >= m - 1:
                runs = [(0, d1), (d1, d2), (d2, last)]  # three runs meeting at the copies
            elif one and two:
                weight = self.weight
                if weight[low] == weight[high]:
                    return None
                d = d1 if weight[high] < weight[low] else d2  # the costlier copy joins
                runs = [(0, d), (d, last)]
            elif one or two:
                d = d1 if one else d2
                runs = [(0, d), (d, last)]
            else:
                runs = [(0, last)]
        if all(b - a < 2 * m - 1 for a, b in runs):
            return runs
        cut = []  # a run of 2 * m or more, cut as the program's tie-break cuts it
        for a, b in runs:
            head = (b - a + 1) % m + m  # into runs of m, the first taking the rest
            cut.append((a, a + head - 1))
            cut += [(c, c + m - 1) for c in range(a + head, b, m)]
        return cut

    def plan(self, key: int) -> SuitPlan:
        """``SuitRuns._plan`` for a suit key (no lay-offs: nothing on the table)."""
        line = self.line(key)
        if line is None:
            return self.solver._plan(key)
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

    def build(self, s: int, key: int) -> tuple | None:
        """``_build.build_suit``'s part for suit ``s`` of the hand's id bits ``key``, or None.

        Runs take the lower id of a face first, runs in order of their lowest position.
        """
        low_ids = key >> (13 * s) & RANK_BITS
        high_ids = key >> (52 + 13 * s) & RANK_BITS
        entry = self.single[low_ids | high_ids]
        if entry[0] is not None:
            twice = low_ids & high_ids
            if not twice:
                return self.build_held(s, low_ids, high_ids)
            if not twice & entry[4]:  # ranks held twice, none in a run stretch: the runs of
                # one card per rank, every card of those ranks left over
                return self._build_twice(s, low_ids, high_ids, entry)
        counts = (
            LOW_SPREAD[low_ids & 127]
            + LOW_SPREAD[high_ids & 127]
            + ((LOW_SPREAD[low_ids >> 7] + LOW_SPREAD[high_ids >> 7]) << 28)
        )
        if counts & ACES and self.ace_high and counts >> 48 & 15:  # the ace may go high or low
            placed = self.place(counts)
            if placed is None:
                return None
            line, score = placed
        else:  # aces low: the score is the cards left over, counted below
            line, score = counts, None
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
            if run[0] == 2 and run[-1] == 14:  # 2 to the high ace: the table puts it low
                cards.insert(0, cards.pop())
            melds.append((run_order(run[0], s), len(melds), tuple(cards)))
        left = []
        held = low_ids | high_ids
        lost = 0
        weight = self.rank_weight
        while held:
            bit = held & -held
            i = bit.bit_length() - 1
            if low_ids & bit:
                left.append(CARDS[first + i])
                lost += weight[bit]
            if high_ids & bit:
                left.append(CARDS[52 + first + i])
                lost += weight[bit]
            held ^= bit
        return lost if score is None else score, tuple(melds), (), tuple(left), counts

    def _build_twice(self, s: int, low: int, high: int, entry: tuple) -> tuple:
        """``build`` for suit ``s`` when the ranks it holds twice (copy-0 and copy-1 ids
        ``low``, ``high``) lie in no run stretch: the runs are those of the rank mask (``entry``
        in ``single``), the ranks held twice add their second card's score and count."""
        score, key, runs, _, cover = entry
        twice = low & high
        melds: tuple = ()
        if runs:  # the run ranks hold one card each: their cards from ``HELD`` in rank order
            run_low, run_high = low & cover, high & cover
            held = (
                HELD[2 * s][run_low & 127 | (run_high & 127) << 7]
                + HELD[2 * s + 1][run_low >> 7 | (run_high >> 7) << 6]
            )
            made, start = [], 0
            for j, (o, a, b) in enumerate(runs):
                made.append((o + 2 * s, j, held[start : start + b - a]))
                start += b - a
            melds = tuple(made)
        first = 13 * s
        left = []
        rest = (low | high) & ~cover
        while rest:
            bit = rest & -rest
            i = first + bit.bit_length() - 1
            if low & bit:
                left.append(CARDS[i])
            if high & bit:
                left.append(CARDS[52 + i])
            rest ^= bit
        extra = self.single[twice][1]
        return score + self.mask_points[twice], melds, (), tuple(left), key + extra

    def build_held(self, s: int, low: int, high: int) -> tuple:
        """``build`` for suit ``s`` holding one card per rank (copy-0 ids ``low``, copy-1 ids
        ``high``), from the rules' table of rank masks (``single``, not the ace question)."""
        score, key, runs, gaps, _ = self.single[low | high]
        held = (
            HELD[2 * s][low & 127 | (high & 127) << 7]
            + HELD[2 * s + 1][low >> 7 | (high >> 7) << 6]
        )
        if not runs:
            return score, (), (), held, key
        melds = tuple([(o + 2 * s, j, held[a:b]) for j, (o, a, b) in enumerate(runs)])
        if not gaps:
            return score, melds, (), (), key
        left = held[gaps[0][0] : gaps[0][1]]
        for a, b in gaps[1:]:
            left += held[a:b]
        return score, melds, (), left, key


def _in_rows(held: int, shifts: tuple[int, ...]) -> int:
    """The bits of ``held`` lying in rows of ``len(shifts) + 1`` held places, a place being
    ``shifts[0]`` bits wide (4 for a line, 1 for a rank mask)."""
    starts = held
    for j in shifts:
        starts &= held >> j
    cover = starts
    for j in shifts:
        cover |= starts << j
    return cover
