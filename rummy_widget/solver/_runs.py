"""Runs within one suit: the best use of a suit's cards once the sets are chosen.

Every card of a suit that is not in a set is either in a run made from the hand, laid off at an
end of a run already on the table (chains: 8 then 9 onto 5-6-7), laid off onto a table set that
has room for it ("free" slots), or left over. A small dynamic program walks the ranks of the
suit from the ace up (to the high ace, position 14, when the rules allow Q-K-A) keeping the runs
still open; with two decks at most two runs from the hand are open at any rank.

A run on the table is modelled as "phantom" cards at its positions that one run must carry from
its first to its last position: a chain of hand cards may join it at its low end (lay-offs
downwards) and the run may go on past its high end (lay-offs upwards). It is never split.

Scores are integers that order arrangements by (penalty, cards left over, lay-offs), see
``docs/solver.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

K_PENALTY = 1 << 16  # score weight of one penalty point
K_LEFT = 1 << 8  # score weight of one card left over
# one lay-off weighs 1

RUN, BOUND, EXT = 0, 1, 2  # open run from the hand, carrying a table run, past a table run's end
_NO_TABLE = -1

Desc = tuple[int, int, bool, int]  # (kind, length class, holds the low ace, table run index)


@dataclass
class SuitPlan:
    """What to do with one suit's cards (positions 1..14, 14 = the ace played high)."""

    runs: list[list[int]] = field(default_factory=list)
    up: dict[int, list[int]] = field(default_factory=dict)  # table run -> lay-offs upwards
    down: dict[int, list[int]] = field(default_factory=dict)  # table run -> lay-offs downwards
    left: dict[int, int] = field(default_factory=dict)  # rank -> cards left over
    to_sets: dict[int, int] = field(default_factory=dict)  # rank -> cards laid off on sets


class _Memo(dict):
    """A dict that computes a missing value on first lookup (one hashing on a hit)."""

    def __init__(self, compute) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: int) -> int:
        value = self[key] = self.compute(key)
        return value


def decode(key: int) -> list[int]:
    """Counts by rank (index 1..13) from a suit key of 4-bit fields."""
    return [0] + [(key >> (4 * i)) & 15 for i in range(13)]


class SuitRuns:
    """Scores (and plans) for one suit's cards under fixed rules and table runs, memoized."""

    def __init__(
        self,
        min_meld: int,
        ace_high: bool,
        points: tuple[int, ...],
        free: tuple[int, ...] = (0,) * 14,
        table_runs: tuple[tuple[int, int], ...] = (),
    ) -> None:
        self.m = min_meld
        self.ace_high = ace_high
        self.last = 14 if ace_high else 13
        self.points = points  # by rank, index 1..13
        self.free = free  # by rank: cards of this suit a table set still takes
        self.table_runs = table_runs  # (low position, high position) of each run on the table
        self.starts: dict[int, tuple[int, ...]] = {}
        for t, (lo, _hi) in enumerate(table_runs):
            self.starts[lo] = (*self.starts.get(lo, ()), t)
        self.simple = not table_runs and not any(free)
        self.scores = _Memo(self._score)  # ``scores[key]``: the least score of a suit's cards
        self.segments: dict[tuple, int] = {}

    # --- scores ------------------------------------------------------------------------------

    def _score(self, key: int) -> int:
        counts = decode(key)
        return self._simple_score(counts) if self.simple else self._dp(counts, False)[0]

    def plan(self, key: int) -> SuitPlan:
        return self._dp(decode(key), True)[1]

    def _leftover(self, rank: int, count: int) -> int:
        return count * (self.points[rank] * K_PENALTY + K_LEFT)

    def _simple_score(self, counts: list[int]) -> int:
        """No table runs and no set slots: split the suit into stretches of present ranks."""
        m = self.m
        if self.ace_high and counts[1] and counts[13]:
            if counts[2]:  # the ace may go low or high: solve the whole suit at once
                return self._dp(counts, False)[0]
            cells = counts[2:] + [counts[1]]  # the ace can only go high
            ranks = [*range(2, 14), 1]
        else:
            cells = counts[1:]
            ranks = list(range(1, 14))
        total = 0
        i, n = 0, len(cells)
        while i < n:
            if not cells[i]:
                i += 1
                continue
            j = i
            while j < n and cells[j]:
                j += 1
            stretch = cells[i:j]
            if j - i < m:
                total += sum(self._leftover(ranks[k], cells[k]) for k in range(i, j))
            elif max(stretch) > 1:
                seg = (ranks[i], tuple(stretch))
                found = self.segments.get(seg)
                if found is None:
                    sub = [0] * 15
                    for k in range(i, j):
                        sub[k - i + 1] = cells[k]
                    found = _segment_solver(self, ranks[i:j])._dp(sub, False)[0]
                    self.segments[seg] = found
                total += found
            i = j
        return total

    # --- the dynamic program ------------------------------------------------------------------

    def _dp(self, counts: list[int], want_plan: bool) -> tuple[int, SuitPlan | None]:
        """Walk positions 1..last; state = (open runs, aces not used low)."""
        m, ace_high = self.m, self.ace_high
        current: dict[tuple, int] = {((), 0): 0}
        history: list[dict] = []
        for p in range(1, self.last + 1):
            rank = 1 if p == 14 else p
            starts = self.starts.get(p, ())
            low_ace = ace_high and p == 1
            following: dict[tuple, int] = {}
            back: dict[tuple, tuple] = {}
            for state, score in current.items():
                runs, spare = state
                avail = spare if p == 14 else counts[p]
                for out, used, lays, choice in self._moves(p, runs, avail, starts, low_ace):
                    for new in range(avail - used + 1):
                        left = avail - used - new
                        opened = out + ((RUN, 1, low_ace, _NO_TABLE),) * new
                        opened = tuple(sorted(self._close(d, p) for d in opened))
                        if low_ace:
                            cost, next_spare = 0, left
                        else:
                            laid = min(left, self.free[rank])
                            cost = self._leftover(rank, left - laid) + laid
                            next_spare = spare
                        key = (opened, next_spare)
                        total = score + lays + cost
                        old = following.get(key)
                        if old is None or total < old:
                            following[key] = total
                            if want_plan:
                                back[key] = (state, choice, new, left - (0 if low_ace else laid))
            current = following
            if want_plan:
                history.append(back)
        best_state, best = None, None
        for state, score in current.items():
            if all(d[0] == EXT or (d[0] == RUN and d[1] >= m) for d in state[0]):
                if best is None or score < best:
                    best_state, best = state, score
        assert best is not None, "a suit always has an arrangement (everything left over)"
        if not want_plan:
            return best, None
        return best, self._trace(counts, history, best_state)

    def _close(self, desc: Desc, p: int) -> Desc:
        """A run carrying a table run becomes an open end once past its last position."""
        if desc[0] == BOUND and self.table_runs[desc[3]][1] == p:
            return (EXT, 0, desc[2], desc[3])
        return desc

    def _moves(self, p: int, runs: tuple, avail: int, starts: tuple, low_ace: bool) -> list:
        """Every way the open runs go on at position p: (runs, hand cards used, lay-offs, how)."""
        m = self.m
        found: list = []

        def walk(i: int, used: int, lays: int, out: tuple, taken: tuple, how: tuple) -> None:
            if used > avail:
                return
            if i == len(runs):
                fresh = tuple((BOUND, 0, low_ace, t) for t in starts if t not in taken)
                found.append((out + fresh, used, lays, (how, fresh)))
                return
            desc = runs[i]
            kind, size, ace, t = desc
            if kind == BOUND:  # inside a table run: carried by its phantom card
                walk(i + 1, used, lays, (*out, desc), taken, (*how, (desc, "carry")))
                return
            if kind == EXT or size >= m:
                walk(i + 1, used, lays, out, taken, (*how, (desc, "stop")))
            if not (p == 14 and ace):  # a run holding the low ace may not reach the high ace
                if kind == RUN:
                    nxt, extra = (RUN, min(size + 1, m), ace, _NO_TABLE), 0
                else:
                    nxt, extra = desc, 1
                walk(i + 1, used + 1, lays + extra, (*out, nxt), taken, (*how, (desc, "card")))
            if kind == RUN and size < m:  # a short chain joins a table run at its low end
                for s in starts:
                    if s not in taken:
                        joined = (BOUND, 0, ace, s)
                        walk(i + 1, used, lays + size, (*out, joined), (*taken, s), (*how, (desc, s)))

        walk(0, 0, 0, (), (), ())
        return found

    def _trace(self, counts: list[int], history: list[dict], state: tuple) -> SuitPlan:
        """Replay the best path forwards, following each run from its start to its end."""
        steps = []
        for p in range(len(history), 0, -1):
            prev, choice, new, left = history[p - 1][state]
            steps.append((p, choice, new, left))
            state = prev
        steps.reverse()
        plan = SuitPlan()
        open_runs: list[list] = []  # [desc, positions, table run or None, positions past it]
        for p, (how, fresh), new, left in steps:
            rank = 1 if p == 14 else p
            pending = list(open_runs)
            open_runs = []
            for desc, action in how:
                run = next(r for r in pending if r[0] == desc)
                pending.remove(run)
                if action == "stop":
                    self._finish(plan, run)
                    continue
                if action == "card":
                    (run[3] if run[2] is not None else run[1]).append(p)
                    run[0] = desc if desc[0] == EXT else (RUN, min(desc[1] + 1, self.m), desc[2], -1)
                elif action != "carry":  # joins table run ``action`` at its low end
                    run[2] = action
                    run[0] = (BOUND, 0, desc[2], action)
                open_runs.append(run)
            for desc in fresh:
                open_runs.append([desc, [], desc[3], []])
            for _ in range(new):
                open_runs.append([(RUN, 1, self.ace_high and p == 1, -1), [p], None, []])
            for run in open_runs:
                run[0] = self._close(run[0], p)
            if p == 1 and self.ace_high:
                continue  # aces not used low wait for position 14
            if left:
                plan.left[rank] = plan.left.get(rank, 0) + left
        for run in open_runs:
            self._finish(plan, run)
        # cards laid off onto table sets: whatever is neither in a run nor left over
        used: dict[int, int] = {}
        for positions in [*plan.runs, *plan.up.values(), *plan.down.values()]:
            for q in positions:
                r = 1 if q == 14 else q
                used[r] = used.get(r, 0) + 1
        for r in range(1, 14):
            rest = counts[r] - used.get(r, 0) - plan.left.get(r, 0)
            if rest:
                plan.to_sets[r] = rest
        return plan

    @staticmethod
    def _finish(plan: SuitPlan, run: list) -> None:
        if run[2] is None:
            plan.runs.append(run[1])
        else:
            if run[1]:
                plan.down[run[2]] = run[1]
            if run[3]:
                plan.up[run[2]] = run[3]


_SEGMENT_SOLVERS: dict[tuple, SuitRuns] = {}


def _segment_solver(parent: SuitRuns, ranks: list[int]) -> SuitRuns:
    """A solver for one stretch of present ranks laid out at positions 1..len (no ace wrap)."""
    points = (0, *(parent.points[r] for r in ranks)) + (0,) * (13 - len(ranks))
    key = (parent.m, points)
    solver = _SEGMENT_SOLVERS.get(key)
    if solver is None:
        solver = _SEGMENT_SOLVERS[key] = SuitRuns(parent.m, False, points)
    return solver
