"""Runs within one suit: the best use of a suit's cards once the sets are chosen.

Every card of a suit that is not in a set is either in a run made from the hand, laid off at an
end of a run already on the table (chains: 8 then 9 onto 5-6-7), laid off onto a table set that
has room for it (a "slot"), or left over. Positions 1..13 are the ranks; with ``ace_high`` the
ace may also stand at position 14 (Q-K-A), never at both ends of one run.

The suit is cut at empty positions into stretches that no run can cross. A stretch without
table runs is scored by a small dynamic program over its positions whose state is the lengths
(capped at ``min_meld``) of the runs still open: with two decks at most two. A stretch touching
a table run uses a richer program: the table run is "phantom" cards that one run must carry
from its first to its last position; a chain of hand cards may join it at its low end
(lay-offs downwards) and it may go on past its high end (lay-offs upwards). It is never split.

Scores are integers that order arrangements by (penalty, cards left over, lay-offs), see
``docs/solver.md``. Everything is memoized by the suit's 4-bit-per-rank count key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

K_PENALTY = 1 << 16  # score weight of one penalty point
K_LEFT = 1 << 8  # score weight of one card left over; one lay-off weighs 1
ONES = sum(1 << (4 * i) for i in range(13))  # bit 0 of every rank's 4-bit field

RUN, BOUND, EXT = 0, 1, 2  # open run from the hand, carrying a table run, past a table run's end
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

    def __missing__(self, key):
        value = self[key] = self.compute(key)
        return value


def decode(key: int) -> list[int]:
    """Counts by rank (index 1..13) from a suit key of 4-bit fields."""
    return [0] + [(key >> (4 * i)) & 15 for i in range(13)]


def _rank(position: int) -> int:
    return 1 if position == 14 else position


class SuitRuns:
    """Scores (and plans) for one suit's cards under fixed rules, table runs and slots."""

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
        self.free = free  # by rank: cards of this suit that table sets still take
        self.table_runs = table_runs  # (low position, high position) of each run on the table
        self.starts: dict[int, tuple[int, ...]] = {}
        for t, (lo, _hi) in enumerate(table_runs):
            self.starts[lo] = (*self.starts.get(lo, ()), t)
        self.phantom = [False] * 16
        for lo, hi in table_runs:
            for p in range(lo, hi + 1):
                self.phantom[p] = True
        # cost of leaving ``n`` cards of a rank: slots first (one lay-off each), then penalty
        # cost of leaving n = 0, 1, 2 cards of a rank: slots first (a lay-off each), then penalty
        self.cost = [[0, 0, 0]]
        for r in range(1, 14):
            weight, room = points[r] * K_PENALTY + K_LEFT, free[r]
            self.cost.append([min(n, room) + max(0, n - room) * weight for n in range(3)])
        self.at = [*self.cost, self.cost[1]]  # the same by position 0..14 (14: the ace high)
        self.scores = _Memo(self._score)  # ``scores[key]``: the least score of a suit's cards
        self.scores[0] = 0  # no cards (kept by ``_core.clear_hand_memos`` too)
        self.plans = _Memo(self._plan)  # ``plans[key]``: how to reach it (read only)
        self.stretches: dict[tuple, int] = {}
        # a ``_plain.PlainSuit`` when no table meld touches the suit (it then computes the
        # ``scores`` and ``plans`` memos, falling back on ``_score`` and ``_plan``)
        self.plain = None

    def forget_hands(self) -> None:
        """Empty the memos about hands (``_core.clear_hand_memos``), as a new solver starts."""
        for memo in (self.scores, self.plans, self.stretches):
            memo.clear()
        self.scores[0] = 0
        if self.plain is not None:
            self.plain.forget_hands()

    # --- entry points -------------------------------------------------------------------------

    def _score(self, key: int) -> int:
        counts = decode(key)
        layouts = self._layouts(counts)
        if layouts is None:
            return self._dp(counts, None, 1, self.last, False)[0]
        return min(self._line(cells) for cells in layouts)

    def _plan(self, key: int) -> SuitPlan:
        counts = decode(key)
        layouts = self._layouts(counts)
        if layouts is None:
            score, plan = self._dp(counts, None, 1, self.last, True)
        else:
            # the first best placement of the aces (``min`` would score a lone layout too)
            cells = layouts[0] if len(layouts) == 1 else min(layouts, key=self._line)
            score = self.scores.get(key)  # the same number ``_score`` finds
            if score is None:
                score = self._line(cells)
            plan = self._line_plan(cells)
        self.scores.setdefault(key, score)
        used = [0] * 14
        for positions in [*plan.runs, *plan.up.values(), *plan.down.values()]:
            for p in positions:
                used[_rank(p)] += 1
        for r in range(1, 14):
            rest = counts[r] - used[r] - plan.left.get(r, 0)
            if rest:
                plan.to_sets[r] = rest
        return plan

    def _reach(self, key: int) -> int:
        """Bit ``4 * (rank - 1)`` set for ranks that lie in m consecutive held ranks (or any
        held rank when table runs are in play): only those cards can matter to runs."""
        held = (key | key >> 1 | key >> 2 | key >> 3) & ONES
        if self.table_runs:
            return held
        line = held | (held & 1) << 52 if self.ace_high else held
        starts = line
        for j in range(1, self.m):
            starts &= line >> (4 * j)
        cover = starts
        for j in range(1, self.m):
            cover |= starts << (4 * j)
        return (cover | cover >> 52) & ONES

    # --- placing the aces ---------------------------------------------------------------------

    def _layouts(self, counts: list[int]) -> list[list[int]] | None:
        """Cards by position 1..last, one list per useful placement of the aces; None when
        only the whole-suit program can tell (aces both ways with table runs or slots, or
        every position held so that a run could wrap)."""
        if self.m < 2:
            return None
        tail = counts[1:14]
        if not (self.ace_high and counts[1]):
            return [[*tail, 0]] if self.ace_high else [tail]
        low = counts[2] or 2 in self.starts or self.phantom[1]
        high = counts[13] or any(hi == 13 for _, hi in self.table_runs)
        aces = counts[1]
        if not high:
            return [[*tail, 0]]
        if not low:
            return [[0, *tail[1:], aces]]
        if self.table_runs or self.free[1]:
            return None
        splits = [[n, *tail[1:], aces - n] for n in range(aces + 1)]
        if any(all(cells) for cells in splits):
            return None
        return splits

    # --- stretches ----------------------------------------------------------------------------

    def _stretches(self, cells: list[int]):
        """(first, last, touches a table run) for each stretch of held or phantom positions."""
        phantom = self.phantom
        p, n = 1, len(cells)
        while p <= n:
            if not (cells[p - 1] or phantom[p]):
                p += 1
                continue
            q = p
            table = phantom[p]
            while q < n and (cells[q] or phantom[q + 1]):
                q += 1
                table = table or phantom[q]
            yield p, q, table
            p = q + 1

    def _line(self, cells: list[int]) -> int:
        """The least score of a suit whose cards by position are ``cells``."""
        total = 0
        for a, b, table in self._stretches(cells):
            part = tuple(cells[a - 1 : b])
            if not table and (b - a + 1 < self.m):
                total += sum(self.cost[_rank(a + k)][n] for k, n in enumerate(part))
                continue
            if not table and max(part) == 1:
                continue  # one run takes them all
            key = (a, part)
            found = self.stretches.get(key)
            if found is None:
                found = self._dp(None, cells, a, b, False)[0] if table else self._stretch(a, part)
                self.stretches[key] = found
            total += found
        return total

    def _line_plan(self, cells: list[int]) -> SuitPlan:
        """The plan behind ``_line(cells)``."""
        plan = SuitPlan()
        for a, b, table in self._stretches(cells):
            part = cells[a - 1 : b]
            if table:
                sub = self._dp(None, cells, a, b, True)[1]
                plan.runs += sub.runs
                plan.up.update(sub.up)
                plan.down.update(sub.down)
                for r, n in sub.left.items():
                    plan.left[r] = plan.left.get(r, 0) + n
                continue
            if b - a + 1 < self.m:
                covered = [0] * len(part)
            elif max(part) == 1:
                covered = [1] * len(part)
                plan.runs.append(list(range(a, b + 1)))
            else:
                states = self._stretch(a, tuple(part), want_states=True)
                covered = [len(state) for state in states]
                plan.runs += _runs_of(states, a, self.m)
            for k, n in enumerate(part):
                rank = _rank(a + k)
                left = max(0, n - covered[k] - self.free[rank])
                if left:
                    plan.left[rank] = plan.left.get(rank, 0) + left
        return plan

    def _stretch(self, first: int, cells: tuple[int, ...], want_states: bool = False):
        """The least score of consecutive positions holding ``cells`` with no table run;
        with ``want_states``, the open runs (lengths) after each position on a best path.

        The program walks ``_PATHS``: states are numbered in the order the search meets them,
        so of equal scores the first state met is kept, as a dict of states in that order
        would keep it (the tie-break of docs/solver.md).
        """
        if want_states:
            return self.states(self.walk(first, cells)[1])
        _, moves, complete = _PATHS.get(self.m) or fill_steps(self.m)
        at, scores = 0, [0]
        for cost, count in zip(self.at[first:], cells, strict=False):  # no way back kept
            at, moving, size = moves[at][count]
            following = [NEVER] * size
            for old, new, left in moving:
                value = scores[old] + cost[left]
                if value < following[new]:
                    following[new] = value
            scores = following
        return min([scores[j] for j in complete[at]])

    def walk(self, first: int, cells: tuple[int, ...]) -> tuple[int, tuple[list, int]]:
        """``_stretch``'s walk keeping its way back: (least score, way), ``states(way)``
        giving the open runs after each position (a caller that may want both walks once)."""
        _, moves, complete = _PATHS.get(self.m) or fill_steps(self.m)
        at, scores = 0, [0]
        history = []
        for cost, count in zip(self.at[first:], cells, strict=False):
            at, moving, size = moves[at][count]
            following = [NEVER] * size
            back = [0] * size
            for old, new, left in moving:
                value = scores[old] + cost[left]
                if value < following[new]:
                    following[new] = value
                    back[new] = old
            scores = following
            history.append((at, back))
        best = complete[at][0]
        for j in complete[at]:
            if scores[j] < scores[best]:
                best = j
        return scores[best], (history, best)

    def states(self, way: tuple[list, int]) -> list[tuple[int, ...]]:
        """The open runs (lengths) after each position on the best path ``way`` (``walk``)."""
        orders = _PATHS[self.m][0]
        history, best = way
        states = []
        for at, back in reversed(history):
            states.append(orders[at][best])
            best = back[best]
        return states[::-1]

    # --- the program for stretches that touch table runs ---------------------------------------

    def _dp(
        self, counts: list[int] | None, cells: list[int] | None, a: int, b: int, want_plan: bool
    ) -> tuple[int, SuitPlan | None]:
        """Walk positions a..b. Cards come from ``cells`` (by position) or, for the whole suit,
        from ``counts`` (by rank) with the aces not used low kept as ``spare`` for 14."""
        m, ace_high = self.m, self.ace_high
        current: dict[tuple, int] = {((), 0): 0}
        history: list[dict] = []
        for p in range(a, b + 1):
            rank = _rank(p)
            starts = self.starts.get(p, ())
            low_ace = ace_high and p == 1
            defer = low_ace and cells is None  # whole suit: decide the aces at position 14
            cost = self.cost[rank]
            following: dict[tuple, int] = {}
            back: dict[tuple, tuple] = {}
            for state, score in current.items():
                runs, spare = state
                avail = cells[p - 1] if cells is not None else spare if p == 14 else counts[p]
                for out, used, lays, choice in self._moves(p, runs, avail, starts, low_ace):
                    for new in range(avail - used + 1):
                        left = avail - used - new
                        opened = out + ((RUN, 1, low_ace, -1),) * new
                        opened = tuple(sorted(self._close(d, p) for d in opened))
                        if defer:
                            key, total = (opened, left), score + lays
                        else:
                            key, total = (opened, spare), score + lays + cost[left]
                        old = following.get(key)
                        if old is None or total < old:
                            following[key] = total
                            if want_plan:
                                kept = left if defer else max(0, left - self.free[rank])
                                back[key] = (state, choice, new, kept)
            current = following
            if want_plan:
                history.append(back)
        best_state, best = None, None
        for state, score in current.items():
            complete = all(d[0] == EXT or (d[0] == RUN and d[1] >= m) for d in state[0])
            if complete and (best is None or score < best):
                best_state, best = state, score
        assert best is not None, "a suit always has an arrangement (everything left over)"
        if not want_plan:
            return best, None
        return best, self._trace(history, best_state, a, cells is None)

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
            kind, size, ace, _ = desc
            if kind == BOUND:  # inside a table run: carried by its phantom card
                walk(i + 1, used, lays, (*out, desc), taken, (*how, (desc, "carry")))
                return
            if kind == EXT or size >= m:
                walk(i + 1, used, lays, out, taken, (*how, (desc, "stop")))
            if not (p == 14 and ace):  # a run holding the low ace may not reach the high ace
                if kind == RUN:
                    nxt, extra = (RUN, min(size + 1, m), ace, -1), 0
                else:
                    nxt, extra = desc, 1
                walk(i + 1, used + 1, lays + extra, (*out, nxt), taken, (*how, (desc, "card")))
            if kind == RUN and size < m:  # a short chain joins a table run at its low end
                for s in starts:
                    if s not in taken:
                        joined = (BOUND, 0, ace, s)
                        walk(
                            i + 1, used, lays + size, (*out, joined), (*taken, s), (*how, (desc, s))
                        )

        walk(0, 0, 0, (), (), ())
        # ``walk`` holds itself through its closure: unless the name lets go of it, every call
        # leaves a reference cycle for the cyclic garbage collector (about 400 objects a
        # bot-against-bot deal, which kept its full collections busy).
        walk = None
        return found

    def _trace(self, history: list[dict], state: tuple, first: int, deferred: bool) -> SuitPlan:
        """Replay the best path forwards, following each run from its start to its end."""
        steps = []
        for k in range(len(history) - 1, -1, -1):
            prev, choice, new, kept = history[k][state]
            steps.append((first + k, choice, new, kept))
            state = prev
        steps.reverse()
        plan = SuitPlan()
        open_runs: list[list] = []  # [desc, positions, table run or None, positions past it]
        for p, (how, fresh), new, kept in steps:
            pending = list(open_runs)
            open_runs = []
            for desc, action in how:
                run = next(r for r in pending if r[0] == desc)
                pending.remove(run)
                if action == "stop":
                    _finish(plan, run)
                    continue
                if action == "card":
                    (run[3] if run[2] is not None else run[1]).append(p)
                    run[0] = (
                        desc if desc[0] == EXT else (RUN, min(desc[1] + 1, self.m), desc[2], -1)
                    )
                elif action != "carry":  # joins table run ``action`` at its low end
                    run[2] = action
                    run[0] = (BOUND, 0, desc[2], action)
                open_runs.append(run)
            open_runs += [[desc, [], desc[3], []] for desc in fresh]
            open_runs += [
                [(RUN, 1, self.ace_high and p == 1, -1), [p], None, []] for _ in range(new)
            ]
            for run in open_runs:
                run[0] = self._close(run[0], p)
            if kept and not (deferred and p == 1 and self.ace_high):  # aces wait for 14
                plan.left[_rank(p)] = plan.left.get(_rank(p), 0) + kept
        for run in open_runs:
            _finish(plan, run)
        return plan


def _finish(plan: SuitPlan, run: list) -> None:
    if run[2] is None:
        plan.runs.append(run[1])
        return
    if run[1]:
        plan.down[run[2]] = run[1]
    if run[3]:
        plan.up[run[2]] = run[3]


def _runs_of(states: list[tuple[int, ...]], first: int, m: int) -> list[list[int]]:
    """Runs (lists of positions) behind a path of open-run states starting at ``first``.

    A run of length class 1 started here; the others went on from the position before, where
    any run not going on ended (only complete runs may). Of equal complete runs the most
    recent goes on, so the older one ends.
    """
    done: list[list[int]] = []
    open_runs: list[list[int]] = []  # at most two
    p = first
    for state in states:
        if len(open_runs) > 1 and open_runs[0][0] < open_runs[1][0]:
            open_runs.reverse()  # most recent first; equal starts keep their order
        wanted = [x for x in state if x > 1]
        going = []
        for run in open_runs:
            size = min(len(run) + 1, m)
            if size in wanted:
                wanted.remove(size)
                run.append(p)
                going.append(run)
            else:
                done.append(run)
        open_runs = going
        for x in state:
            if x == 1:
                open_runs.append([p])
        p += 1
    done += open_runs
    done.sort()
    return done


_STEPS: dict[tuple, tuple[tuple[tuple[int, ...], int], ...]] = {}


def _steps(state: tuple[int, ...], count: int, m: int) -> tuple:
    """Open runs (lengths, capped at m) meeting ``count`` cards: (next state, cards left)."""
    key = (state, count, m)
    found = _STEPS.get(key)
    if found is None:
        best: dict[tuple[int, ...], int] = {}

        def walk(i: int, used: int, out: tuple[int, ...]) -> None:
            if used > count:
                return
            if i == len(state):
                for new in range(count - used + 1):
                    nxt = tuple(sorted(out + (1,) * new))
                    left = count - used - new
                    if left < best.get(nxt, count + 1):
                        best[nxt] = left
                return
            if state[i] >= m:
                walk(i + 1, used, out)  # the run ends here
            walk(i + 1, used + 1, (*out, min(state[i] + 1, m)))

        walk(0, 0, ())
        found = _STEPS[key] = tuple(best.items())
    return found


NEVER = 1 << 62  # a score no arrangement reaches
# min_meld -> (orders, moves, complete): ``orders[i]`` is a tuple of states (open run lengths)
# in the order the program first meets them; ``moves[i][count]`` is (next order, the steps as
# (state index, next state index, cards left) in the order they are tried, next order's size);
# ``complete[i]`` lists the indices of states with no short run open, the least state first.
_PATHS: dict[int, tuple[list, list, list]] = {}


def fill_steps(m: int) -> tuple[list, list, list]:
    """Fill the step tables for runs of ``min_meld`` m now (at most two open runs, 0..2 cards),
    so that no question about a hand pays for them."""
    if m in _PATHS:
        return _PATHS[m]
    orders: list[tuple] = [((),)]
    index = {((),): 0}
    moves = []
    for order in orders:  # grows while it is walked: every order reachable from the start
        row = []
        for count in range(3):
            met: dict[tuple[int, ...], int] = {}
            moving = []
            for old, state in enumerate(order):
                for nxt, left in _steps(state, count, m):
                    moving.append((old, met.setdefault(nxt, len(met)), left))
            following = tuple(met)
            if following not in index:
                index[following] = len(orders)
                orders.append(following)
            row.append((index[following], tuple(moving), len(following)))
        moves.append(tuple(row))
    complete = [
        [
            j
            for _, j in sorted(
                (state, j) for j, state in enumerate(order) if min(state, default=m) == m
            )
        ]
        for order in orders
    ]
    found = _PATHS[m] = (orders, moves, complete)
    return found
