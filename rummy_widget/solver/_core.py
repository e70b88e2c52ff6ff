"""The search: choose the sets rank by rank, score each suit's runs from a memo, rebuild cards.

A hand is one integer with a 4-bit count for each of the 52 faces (bits ``4 * face_index``),
so the suits are four 52-bit slices and the counts per rank are their sum. Only ranks holding
at least ``min_meld`` cards (or facing a table set with shared room) have set choices; for each
combination of those choices the four suits are scored independently by ``SuitRuns``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from ..engine.cards import ID_BITS, SUITS, Card, Cards, parse_cards
from ..engine.melds import Meld
from ..engine.rules import Rules
from ..errors import RuleError
from ._build import MAX_HANDS, Memo, built_memo
from ._plain import suit_runs
from ._runs import K_PENALTY, SuitPlan, SuitRuns, fill_steps
from ._sets import RankSets, SetOption, Vector, undominated
from .arrangement import Arrangement

SUIT_BITS = 52
SUIT_MASK = (1 << SUIT_BITS) - 1
HIGH_BITS = sum(8 << (4 * r) for r in range(13))  # bit 3 of every rank's field
FIELD_ONES = sum(1 << (4 * f) for f in range(52))  # bit 0 of every face's field
SUIT_ACES = sum(1 << (52 * s) for s in range(4))  # bit 0 of each suit's ace field
ENCODE = tuple(1 << (4 * (i % 52)) for i in range(104))  # card id -> its face's count unit
ID_SHIFT = 4 * 52
FACES_MASK = (1 << ID_SHIFT) - 1
# Card id -> its face's count unit plus the card's own bit above the faces. Summing a hand
# gives the face counts below ID_SHIFT and, above it, a set of ids whose bit count is the
# hand's size exactly when no id repeats (a repeat carries and loses a bit).
CARD = tuple(ENCODE[i] | 1 << (ID_SHIFT + i) for i in range(104))
BIT = ID_BITS  # card id -> its bit

TableMelds = Iterable["Meld | Sequence[Card | str]"]

MAX_SHARED = 256  # table contexts, suit solvers and set tables kept per rules


class RulesCache:
    """Everything the solver keeps about one ``Rules`` object: the context without table
    melds, the contexts of recent tables, and the suit solvers and set tables they share.
    Kept in ``rules.memo``, so it lives as long as the rules (the presets: the process)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.suit_solvers = Memo(MAX_SHARED)  # (free slots, table runs) -> ``SuitRuns``
        self.rank_sets = Memo(MAX_SHARED)  # (rank, table sets of shared room) -> ``RankSets``
        self.rooms: dict[tuple[int, Vector], tuple[int, ...] | None] = {}  # ``Context._room``
        self.tables = Memo(MAX_SHARED)  # a table's melds -> its ``Context``
        self.plain = Context(self, [])

    def contexts(self) -> list[Context]:
        return [self.plain, *self.tables.values()]


class Context:
    """Everything that depends on the rules and the table but not on the hand."""

    def __init__(self, cache: RulesCache, table: list[Meld], base: Context | None = None) -> None:
        self.rules = rules = cache.rules
        self.table = table
        fill_steps(rules.min_meld)
        self._rules_only(rules)
        self.run_index: list[list[int]] = [[] for _ in SUITS]  # suit's table run -> meld index
        self.set_index: dict[int, list[int]] = {}  # rank -> table sets of that rank
        free, runs, shared = self._read_table(cache)
        self.suits = tuple(self._suit(cache, base, s, free[s], runs[s]) for s in range(4))
        # suit id bits -> that suit's part of the arrangement (``_build``); shared like suits
        self.built = tuple(
            base.built[s] if base is not None and self.suits[s] is base.suits[s] else built_memo()
            for s in range(4)
        )
        self.rank_sets = self._set_tables(cache, shared)
        self.always = sum(8 << (4 * (r - 1)) for r in shared)
        self.table_runs = sum(SUIT_MASK << (52 * s) for s in range(4) if runs[s])
        plain_sets = base is not None and not shared
        # (rank, cards, reach) -> ``options``; (set choice, the rank's card ids) -> that
        # choice's set melds as cards (``_with_sets``): both bounded by the ranks' shapes
        self.encoded: dict[tuple[int, Vector, int], tuple] = base.encoded if plain_sets else {}
        self.set_parts: dict[tuple[int, int], tuple | None] = base.set_parts if plain_sets else {}
        self.table_bits = sum(1 << c.id for meld in table for c in meld.cards)
        # without table melds: the suits' table of rank masks (``_build.left_over``), else None
        plain = not table and all(suit.plain is not None for suit in self.suits)
        self.single = self.suits[0].plain.single if plain else None
        # the hand's card ids -> its arrangement's fields (``best_arrangement``)
        self.hands = Memo(MAX_HANDS)
        self.maps = tuple(s.scores for s in self.suits)

    def _read_table(self, cache: RulesCache) -> tuple[list, list, dict]:
        """Each suit's free slots on table sets (by rank) and table runs (low, high), and the
        table sets whose room is shared between suits, by rank; fills the meld indexes."""
        rules = self.rules
        free = [[0] * 14 for _ in SUITS]
        runs: list[list[tuple[int, int]]] = [[] for _ in SUITS]
        shared: dict[int, list[tuple[int, Vector]]] = {}
        for index, meld in enumerate(self.table):
            cards = list(meld.cards)
            if meld.kind == "run":
                ranks = rules.run_ranks(cards)
                if ranks is None:
                    continue
                s = SUITS.index(cards[0].suit)
                runs[s].append((ranks[0], ranks[-1]))
                self.run_index[s].append(index)
            elif meld.kind == "set" and rules.is_set(cards):
                rank = cards[0].rank
                self.set_index.setdefault(rank, []).append(index)
                vec = _vector(cards)
                room = self._room(cache, rank, vec)
                if room is None:
                    shared.setdefault(rank, []).append((index, vec))
                else:
                    for s in range(4):
                        free[s][rank] = min(15, free[s][rank] + room[s])
        return free, runs, shared

    def _suit(self, cache: RulesCache, base: Context | None, s: int, free, runs) -> SuitRuns:
        """Suit ``s``'s solver: the plain context's when the table does not touch the suit,
        else one shared by every table giving the suit the same slots and runs."""
        if base is not None and not runs and not any(free):
            return base.suits[s]
        key = (tuple(free), tuple(runs))
        found = cache.suit_solvers.get(key)
        if found is None:
            rules = self.rules
            made = suit_runs(rules.min_meld, rules.ace_high, self.points, *key)
            found = cache.suit_solvers.put(key, made)
        return found

    def _set_tables(self, cache: RulesCache, shared: dict) -> list:
        """Each rank's set table (index 0 unused). The set rule looks at suits and sizes only
        (``Rules.is_set``), so without table sets of shared room one table, filled once per
        rules (a few ms), serves every rank."""
        tables: list = [None]
        for rank in range(1, 14):
            key = (rank, tuple(shared[rank])) if rank in shared else (1, ())
            found = cache.rank_sets.get(key)
            if found is None:
                made = RankSets(self._set_test(rank), key[1])
                found = cache.rank_sets.put(key, made if key[1] else made.fill())
            tables.append(found)
        return tables

    def _rules_only(self, rules: Rules) -> None:
        """The values that depend on the rules alone."""
        m = rules.min_meld
        self.points = (0, *(rules.card_points(Card.of(r, "S")) for r in range(1, 14)))
        if 1 <= m <= 8:
            self.add = sum((8 - m) << (4 * r) for r in range(13))
        else:
            self.add = 0 if m > 8 else HIGH_BITS
        # ``reach``: the runs' windows of m positions, for all four suits at once
        self.windows = tuple(4 * j for j in range(1, m))
        self.window_starts = sum(1 << (4 * (13 * s + f)) for s in range(4) for f in range(14 - m))
        self.high_window = 0  # with ace_high: the ace and the m - 1 highest ranks
        self.high_checks: tuple[int, ...] = ()
        if rules.ace_high and 1 <= m <= 13:
            self.high_checks = tuple(4 * (13 - m + j) for j in range(1, m))
            self.high_window = 1 | sum(1 << (4 * f) for f in range(14 - m, 13))

    def _set_test(self, rank: int):
        rules = self.rules

        def is_set(vec: Vector) -> bool:
            cards = [
                Card.of(rank, s, i % 2) for k, s in zip(vec, SUITS, strict=True) for i in range(k)
            ]
            return rules.is_set(cards)

        return is_set

    def _room(self, cache: RulesCache, rank: int, vec: Vector) -> tuple[int, ...] | None:
        """Cards of each suit a table set still takes, if its room is per suit; else None."""
        key = (rank, vec)
        if key not in cache.rooms:  # a few dozen table sets recur all deal long
            cache.rooms[key] = self._find_room(rank, vec)
        return cache.rooms[key]

    def _find_room(self, rank: int, vec: Vector) -> tuple[int, ...] | None:
        test = self._set_test(rank)
        room = []
        for s in range(4):
            k = 0
            while k < 2 and test(tuple(vec[i] + (k + 1 if i == s else 0) for i in range(4))):
                k += 1
            room.append(k)
        full = tuple(vec[i] + room[i] for i in range(4))
        return tuple(room) if test(full) else None

    def options(self, rank: int, vec: Vector, reach: int = 15) -> tuple:
        """(delta key, lay-offs, rank, option) for each set choice of ``rank``'s cards ``vec``.

        ``reach`` has bit s set when suit s's cards of this rank might join a run. A choice
        that leaves over cards of other suits which another choice puts in sets (at no more
        lay-offs than cards gained) cannot do better, so it is dropped.
        """
        found = self.encoded.get((rank, vec, reach))
        if found is None:
            sets = self.rank_sets[rank]
            kept = sets.kept.get(vec)  # filled with the set table when no table set shares room
            if kept is not None:
                kept = kept[reach]
            else:
                every = sets.options(vec)
                if any(o.lays for o in every):
                    kept = [o for o in every if not any(_beats(b, o, reach) for b in every)]
                else:
                    kept = undominated(every)[reach]
            shift = 4 * (rank - 1)
            found = tuple([(o.delta << shift, o.lay_count, rank, o) for o in kept])
            self.encoded[(rank, vec, reach)] = found
        return found


def _beats(better: SetOption, option: SetOption, reach: int) -> bool:
    """Does ``better`` take the same cards of suits that reach runs, and more of the others?

    Every extra card it takes would otherwise be left over or laid off (worth at least one
    lay-off in the score), so it is never worse when it costs no more lay-offs than that.
    """
    gained = 0
    for s in range(4):
        extra = better.taken[s] - option.taken[s]
        if extra < 0 or (extra and reach >> s & 1):
            return False
        gained += extra
    return gained > 0 and better.lay_count - option.lay_count <= gained


def _vector(cards: Iterable[Card]) -> Vector:
    vec = [0, 0, 0, 0]
    for c in cards:
        vec[SUITS.index(c.suit)] += 1
    return (vec[0], vec[1], vec[2], vec[3])


def context(rules: Rules | str, table_melds: TableMelds = ()) -> Context:
    """The context for these rules and table melds, from the rules' cache."""
    if not isinstance(rules, Rules):
        rules = Rules.preset(rules)
    cache = rules.memo.get("solver")
    if cache is None:
        cache = rules.memo["solver"] = RulesCache(rules)
    if not table_melds:
        return cache.plain
    table = [_as_meld(m, rules) for m in table_melds]
    key = tuple((m.kind, tuple(c.id for c in m.cards)) for m in table)
    found = cache.tables.get(key)
    if found is None:
        found = cache.tables.put(key, Context(cache, table, cache.plain))
    return found


def _as_meld(meld: Meld | Sequence[Card | str], rules: Rules) -> Meld:
    if isinstance(meld, Meld):
        return meld
    cards = parse_cards(meld)
    made = Meld.make(cards, rules, owner=-1)
    if made is None:
        raise RuleError("not_a_meld", cards=repr(cards))
    return made


def read_hand(
    hand: Iterable[Card | str], ctx: Context, units: tuple[int, ...] = CARD
) -> tuple[int, list[Card]]:
    """The sum of ``units[card.id]`` over the hand, and the hand as a list: with ``CARD`` the
    face counts below ``ID_SHIFT`` and the card ids above it, with ``ID_BITS`` the ids alone.

    Refuses a card named twice or lying on the table (``duplicate_card``).
    """
    if isinstance(hand, str):  # "7H 8H 9H": text names several cards
        hand = parse_cards(hand)
    cards = hand if isinstance(hand, list) else list(hand)
    total = 0
    try:
        for card in cards:
            total += units[card.id]
    except AttributeError:  # card texts
        return read_hand(parse_cards(cards), ctx, units)
    ids = total >> ID_SHIFT if units is CARD else total  # a repeated id carries, losing a bit
    if ids.bit_count() != len(cards) or ids & ctx.table_bits:
        _repeated(cards, ctx)
    return total, cards


def encode(hand: Iterable[Card | str], ctx: Context) -> tuple[int, int, list[Card]]:
    """The hand's face counts as one integer, its card ids as bits, and the hand as a list."""
    total, cards = read_hand(hand, ctx)
    return total & FACES_MASK, total >> ID_SHIFT, cards


def _repeated(cards: list[Card], ctx: Context) -> None:
    ids = [c.id for c in cards]
    twice = next(c for c in cards if ids.count(c.id) > 1 or 1 << c.id & ctx.table_bits)
    raise RuleError("duplicate_card", card=str(twice))


def min_penalty(
    hand: Iterable[Card | str], rules: Rules | str, table_melds: TableMelds = ()
) -> int:
    """The penalty points ``best_arrangement`` would leave, without building the cards."""
    ctx = context(rules, table_melds)
    total, _ = read_hand(hand, ctx)
    return search(ctx, total & FACES_MASK)[0] // K_PENALTY


def suit_keys(total: int) -> tuple[int, int, int, int]:
    """Each suit's counts (``SuitRuns``' suit keys) of a hand's face counts."""
    return total & SUIT_MASK, total >> 52 & SUIT_MASK, total >> 104 & SUIT_MASK, total >> 156


def set_ranks(ctx: Context, total: int) -> int:
    """Bit ``4 * (rank - 1) + 3`` for each rank with set choices in a hand's face counts
    (enough cards for a set, or a table set of shared room); 0 for most hands."""
    k0, k1, k2, k3 = suit_keys(total)
    return (k0 + k1 + k2 + k3 + ctx.add) & HIGH_BITS | ctx.always


def search(ctx: Context, total: int) -> tuple[int, tuple]:
    """The least score and the set options that reach it (first found wins ties).

    Without set choices (most hands) the score is the four suits' scores (``SuitRuns``'
    memos), else the least over every combination of the ranks' set choices."""
    k0, k1, k2, k3 = suit_keys(total)
    m0, m1, m2, m3 = ctx.maps
    mask = (k0 + k1 + k2 + k3 + ctx.add) & HIGH_BITS | ctx.always  # as ``set_ranks``
    if not mask:
        return m0[k0] + m1[k1] + m2[k2] + m3[k3], ()
    mask >>= 3  # bit 4 * (rank - 1) for each rank with set choices
    cover = reach(ctx, total)
    choices = []
    while mask:
        low = mask & -mask
        mask ^= low
        shift = low.bit_length() - 1
        vec = (k0 >> shift & 15, k1 >> shift & 15, k2 >> shift & 15, k3 >> shift & 15)
        reach_bits = sum([(cover >> (52 * s + shift) & 1) << s for s in range(4)])
        choices.append(ctx.options((shift >> 2) + 1, vec, reach_bits))
    best, best_combo = None, ()
    for combo in product(*choices):
        rest, score = total, 0
        for delta, lays, _, _ in combo:
            rest -= delta
            score += lays
        score += m0[rest & SUIT_MASK] + m1[rest >> 52 & SUIT_MASK]
        score += m2[rest >> 104 & SUIT_MASK] + m3[rest >> 156]
        if best is None or score < best:
            best, best_combo = score, combo
    return best, best_combo


def reach(ctx: Context, total: int) -> int:
    """Bit 0 of each face's field set when its cards may join a run (``SuitRuns._reach`` for
    all four suits at once): it lies in ``m`` consecutive held positions of its suit, or its
    suit faces a table run (any held face may then join one)."""
    held = (total | total >> 1) & FIELD_ONES  # counts are 0..2
    starts = held
    for j in ctx.windows:
        starts &= held >> j
    starts &= ctx.window_starts  # windows inside one suit
    cover = starts
    for j in ctx.windows:
        cover |= starts << j
    if ctx.high_window:  # Q-K-A for m = 3: the ace high and the m - 1 ranks below it
        aces = held & SUIT_ACES
        for j in ctx.high_checks:
            aces &= held >> j
        cover |= aces * ctx.high_window
    return cover | held & ctx.table_runs


# --- turning the choice back into cards -------------------------------------------------------


def arrangement(
    ctx: Context, total: int, cards: list[Card], found: tuple[int, tuple] | None = None
) -> Arrangement:
    """The best arrangement of ``cards`` (encoded as ``total``) as real cards.

    Faces are turned into cards copy by copy, lowest id first: melds (in their output order)
    take the lower copy, then lay-offs, and the cards left over are what remains. ``found`` is
    ``search``'s answer when the caller has it already.
    """
    score, combo = search(ctx, total) if found is None else found
    rules = ctx.rules
    rest = total
    for delta, _, _, _ in combo:
        rest -= delta
    plans = [ctx.suits[s].plans[(rest >> (52 * s)) & SUIT_MASK] for s in range(4)]
    melds: list[tuple[tuple[int, int, int], list[tuple[int, int]]]] = []  # (order, faces)
    for s, plan in enumerate(plans):
        for run in plan.runs:  # ordered by their lowest position, then suit
            melds.append(((run[0], s, 1), [(1 if p == 14 else p, s) for p in run]))
    for _, _, rank, option in combo:
        for g in option.groups:  # ordered by rank, then first suit
            first = next(s for s in range(4) if g[s])
            melds.append(((rank, first, 0), [(rank, s) for s in range(4) for _ in range(g[s])]))
    pool: dict[tuple[int, int], list[Card]] = {}
    for c in sorted(cards, key=_card_id):
        f = c.id % 52
        pool.setdefault((f % 13 + 1, f // 13), []).append(c)
    melds.sort(key=lambda m: m[0])
    out_melds = tuple(
        tuple(rules.order_meld([pool[f].pop(0) for f in faces])) for _, faces in melds
    )
    lays = _lay_offs(ctx, plans, combo, pool)
    leftover = Cards(sorted((c for cs in pool.values() for c in cs), key=_card_order))
    return Arrangement(out_melds, lays, leftover, score // K_PENALTY)


def _card_id(card: Card) -> int:
    return card.id


def _card_order(card: Card) -> tuple[int, int]:
    return (card.id % 52, card.id)


def _lay_offs(ctx: Context, plans: list[SuitPlan], combo: tuple, pool: dict) -> tuple:
    """Lay-offs as (card, table meld index) in playing order: by meld, outwards from the ends."""
    rules = ctx.rules
    table = dict(enumerate(ctx.table))
    lays: list[tuple[int, Card]] = []

    def lay(face: tuple[int, int], index: int | None) -> None:
        card = pool[face].pop(0)
        if index is None:  # a table set with room for this suit: the first that takes it
            index = next(i for i in ctx.set_index[face[0]] if table[i].with_card(card, rules))
        grown = table[index].with_card(card, rules)
        assert grown is not None, f"{card} does not fit table meld {index}"
        table[index] = grown
        lays.append((index, card))

    for s, plan in enumerate(plans):
        for t, positions in sorted(plan.up.items()):
            for p in positions:
                lay((1 if p == 14 else p, s), ctx.run_index[s][t])
        for t, positions in sorted(plan.down.items()):
            for p in reversed(positions):
                lay((p, s), ctx.run_index[s][t])
    for _, _, rank, option in combo:
        for index, vec in option.lays:
            for s in range(4):
                for _ in range(vec[s]):
                    lay((rank, s), index)
    for s, plan in enumerate(plans):
        for rank, n in sorted(plan.to_sets.items()):
            for _ in range(n):
                lay((rank, s), None)
    lays.sort(key=lambda pair: pair[0])  # stable: each meld keeps its own playing order
    return tuple((card, index) for index, card in lays)


def clear_hand_memos(rules: Rules) -> None:
    """Forget what was learnt about hands (suit shapes, set choices, built suits), keeping
    the contexts and the rules' set tables: the state of a first question about a hand."""
    rules = Rules.preset(rules)
    context(rules)
    cache = rules.memo["solver"]
    for ctx in cache.contexts():
        ctx.hands.reset()
        ctx.encoded.clear()
        ctx.set_parts.clear()
        for built in ctx.built:
            built.reset()
    for suit in cache.suit_solvers.values():
        suit.forget_hands()


def clear_caches(rules: Rules) -> None:
    """Forget everything the solver keeps about ``rules`` (for cold-start measurements)."""
    Rules.preset(rules).memo.pop("solver", None)
