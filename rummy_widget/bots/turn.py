"""One seat's turn as the bots see it: the hand's penalty, its arrangement, its discards.

Built on the solver (``docs/solver.md``). The solver is exact but not free, so ``Turn`` first
checks cheaply whether any card could be placed at all (most hands hold no meld), and keeps
its answers in a memo that the bot may share between the calls of one deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..engine.actions import Action
from ..engine.cards import DECK_SIZE, ID_BITS, SUITS, Card
from ..engine.melds import Meld
from ..engine.rules import Rules
from ..solver import best_arrangement, can_go_out, min_penalty
from .seen import Seen


class Turn:
    """The seat's hand and table, with cached solver answers."""

    def __init__(self, seen: Seen, memo: dict | None = None) -> None:
        self.seen = seen
        self.rules = seen.rules
        self.table = seen.melds
        self.hand = seen.hand
        self.blocked = None if self.rules.discard_taken_card else seen.taken
        self.table_key = seen.table_key
        # penalties by table, then by the hand's id bits: int keys that the garbage collector
        # need not track (a key of (table, hand) tuples stayed tracked in its full collections)
        tables = {} if memo is None else memo
        found = tables.get(table := (self.rules.name, seen.table_key))
        if found is None:
            if len(tables) >= _TABLES_KEPT:  # tables of past deals: never seen again
                tables.clear()
            found = tables[table] = {}
        self._penalties: dict[int, int] = found
        self._fits: int | None = None  # faces the table takes, bit face_index
        self._points = points_table(self.rules)

    def reachable(self, cards: Sequence[Card]) -> tuple[list[Meld], list[int]]:
        """The table melds that one of ``cards`` fits directly, and their indices.

        Only these matter to the solver (a lay-off chain starts with a direct fit), and asking
        it about them alone keeps its per-table caches small: most hands reach no meld."""
        if not self.table:
            return [], []
        faces = 0
        for c in cards:
            faces |= _FACE_BIT[c.id]
        index = [
            i
            for i, (meld, key) in enumerate(zip(self.table, self.table_key, strict=True))
            if faces & meld_faces(meld, self.rules, key)
        ]
        return [self.table[i] for i in index], index

    # --- solver answers --------------------------------------------------------------------

    def penalty(self, cards: Sequence[Card]) -> int:
        """Least penalty points ``cards`` leave after their best melds and lay-offs."""
        ids = 0
        for c in cards:
            ids |= ID_BITS[c.id]
        found = self._penalties.get(ids)
        if found is None:
            if self.could_place(ids):
                found = min_penalty(cards, self.rules, self.reachable(cards)[0])
            else:  # most hands: no meld and no lay-off, so no need to ask the solver
                found = self.points(cards)
            if len(self._penalties) > 50_000:
                self._penalties.clear()
            self._penalties[ids] = found
        return found

    def could_place(self, ids: int) -> bool:
        """Might some of the cards with these id bits (bit i for card id i) form a meld or go
        onto a table meld? (cheap, may say yes wrongly, never no wrongly)

        Bitwise over whole suits at once: a per-card loop here cost a bot more than any other
        step of its turn."""
        rules = self.rules
        need = rules.min_meld
        low, high = ids & _FACES, ids >> 52  # each copy's faces, bit face_index
        faces = low | high
        a, b, c, d = faces & _RANKS, faces >> 13 & _RANKS, faces >> 26 & _RANKS, faces >> 39
        # runs: the suits side by side, 15 bits apart (the high ace at bit 13, bit 14 empty)
        line = a | b << 15 | c << 30 | d << 45
        if rules.ace_high:
            line |= (line & _LOW_ACES) << 13
        run = line
        for _ in range(need - 1):
            run &= run >> 1
        if run:
            return True
        # sets: ranks held in ``need`` suits, or by ``need`` cards if suits may repeat
        distinct = rules.set_distinct_suits
        if need == 3:
            sets = a & b & (c | d) | c & d & (a | b)  # in three suits or more
            if not distinct:
                twice = low & high  # faces held in both copies
                twice = (twice | twice >> 13 | twice >> 26 | twice >> 39) & _RANKS
                sets |= (a & (b | c | d) | b & (c | d) | c & d) & twice  # two suits, one twice
        else:  # any other size: count the planes, bit-sliced
            planes = (
                [a, b, c, d]
                if distinct
                else [x >> s & _RANKS for x in (low, high) for s in (0, 13, 26, 39)]
            )
            counts = [0] * need  # counts[k]: ranks with more than k cards
            for plane in planes:
                for k in range(need - 1, 0, -1):
                    counts[k] |= counts[k - 1] & plane
                counts[0] |= plane
            sets = counts[-1]
        if sets:
            return True
        if self.table:
            if self._fits is None:
                self._fits = table_fits(self.table, rules, self.table_key)
            return bool(faces & self._fits)
        return False

    def points(self, cards: Sequence[Card]) -> int:
        points = self._points
        return sum([points[c.id] for c in cards])

    def places(self, card: Card) -> bool:
        """Would ``card``, added to the hand, join a meld or a lay-off?"""
        with_card = [*self.hand, card]
        return self.penalty(with_card) < self.penalty(self.hand) + self._points[card.id]

    def improves(self, card: Card) -> bool:
        """Would taking ``card`` from the pile (it may not go straight back) and discarding
        lower the hand's penalty? Joining a meld is not enough: with Rummy Royal's final
        discard, three 2s in a 3-card hand cannot go out, and two bots passing 2s back and forth
        would never end the deal."""
        if not self.places(card):
            return False
        hand = [*self.hand, card]
        now = self.penalty(self.hand)
        for other in self.discardable(hand):
            if other.id == card.id:
                continue
            if self.penalty([c for c in hand if c.id != other.id]) < now:
                return True
        return False

    def go_out(self):
        """The solver's way out this turn (``GoOut``; false when there is none), with lay-offs
        naming the real table's meld indices."""
        table, index = self.reachable(self.hand)
        way = can_go_out(
            self.hand,
            self.rules,
            table,
            has_melded=self.seen.has_melded[self.seen.seat],
            keep_out=self.blocked,
        )
        if way and way.arrangement.lay_offs:
            lay_offs = tuple((c, index[i]) for c, i in way.arrangement.lay_offs)
            way = replace(way, arrangement=way.arrangement._replace(lay_offs=lay_offs))
        return way

    # --- moves -----------------------------------------------------------------------------

    def discardable(self, cards: Sequence[Card]) -> list[Card]:
        """Cards of ``cards`` that may be discarded now (one per face, lowest id first)."""
        out: dict[int, Card] = {}
        blocked = -1 if self.blocked is None else self.blocked.id
        for card in sorted(cards, key=_card_id):
            if card.id == blocked:
                continue
            out.setdefault(card.id % 52, card)
        return list(out.values())

    def leaves_a_discard(self, placed: Sequence[Card]) -> bool:
        """After placing ``placed``, is there still a card the seat may discard?"""
        rest = list(self.hand)
        for card in placed:
            rest.remove(card)
        return any(c != self.blocked for c in rest)

    def may_go_out(self, cards: Sequence[Card] | None = None) -> bool:
        """A cheap necessary condition for ``cards`` (the hand by default) to go out: at most
        one card's worth of penalty is left."""
        cards = self.hand if cards is None else cards
        most = max((self._points[c.id] for c in cards), default=0)
        return self.penalty(cards) <= most

    def going_out(self) -> list[Action] | None:
        """Every move of going out this turn, in order, or None if the hand cannot."""
        if not self.may_go_out():
            return None
        way = self.go_out()
        if not way:
            return None
        moves = [Action.meld(m) for m in way.arrangement.melds]
        moves += [Action.lay_off(c, i) for c, i in way.arrangement.lay_offs]
        if way.discard is not None:
            moves.append(Action.discard(way.discard))
        return moves

    def table_plays(self) -> list[Action]:
        """The melds and lay-offs of the best arrangement, in order, each leaving a discard."""
        if self.penalty(self.hand) == self.points(self.hand):
            return []  # nothing to place: skip building the arrangement
        table, index = self.reachable(self.hand)
        arrangement = best_arrangement(self.hand, self.rules, table)
        moves = [Action.meld(m) for m in arrangement.melds]
        moves += [Action.lay_off(c, index[i]) for c, i in arrangement.lay_offs]
        while moves and not self.leaves_a_discard([c for m in moves for c in placed(m)]):
            moves.pop()  # keep the last play back: the turn must end with a discard
        return moves

    def discard_scores(self, cards: Sequence[Card] | None = None) -> list[tuple[int, int, Card]]:
        """(penalty left, -points, card) for each possible discard from ``cards`` (default:
        the hand), best (lowest) first."""
        cards = self.hand if cards is None else list(cards)
        scored = []
        total = self.points(cards)
        loose = self.penalty(cards) == total  # no meld anywhere: none after a discard
        for card in self.discardable(cards):
            points = self._points[card.id]
            rest = () if loose else [c for c in cards if c.id != card.id]
            left = total - points if loose else self.penalty(rest)
            scored.append((left, -points, card))
        scored.sort(key=lambda s: (s[0], s[1], s[2].id))
        return scored


def _card_id(card: Card) -> int:
    return card.id


def placed(action: Action) -> tuple[Card, ...]:
    """The hand cards a table play puts down."""
    return action.cards if action.kind == "meld" else (action.card,)


def left_after(hand: Sequence[Card], moves: Sequence[Action]) -> list[Card]:
    """The cards of ``hand`` still in it after the table plays ``moves``, in hand order."""
    rest = list(hand)
    for move in moves:
        for card in placed(move):
            rest.remove(card)
    return rest


_POINTS: dict[str, tuple[int, ...]] = {}


def points_table(rules: Rules) -> tuple[int, ...]:
    """Penalty points of every card id under ``rules`` (bots only use the named presets)."""
    found = _POINTS.get(rules.name)
    if found is None:
        found = _POINTS[rules.name] = tuple(rules.card_points(Card(i)) for i in range(DECK_SIZE))
    return found


#: Per card id: its face's bit (bit ``face_index``).
_FACE_BIT: tuple[int, ...] = tuple(1 << (i % 52) for i in range(DECK_SIZE))
_TABLES_KEPT = 64  # tables whose penalties a bot remembers
_FACES = (1 << 52) - 1
_RANKS = (1 << 13) - 1  # one suit's ranks, rank r at bit r - 1
_LOW_ACES = 1 | 1 << 15 | 1 << 30 | 1 << 45  # each suit's ace in ``could_place``'s line

#: Faces (bit ``face_index``) that a table would take, by its melds' card ids. Masks, not sets
#: of faces: ints are not walked by the garbage collector, and these caches live long.
_LAY_OFF_FACES: dict[tuple, int] = {}
#: The last table asked about, by identity: both seats read the same table object (seen.py
#: builds each table once), so most moves skip hashing the table key.
_LAST_FITS: list = [None, None, 0]


def table_fits(table: Sequence[Meld], rules: Rules, table_key: tuple) -> int:
    """``lay_off_faces``, remembering the last table by identity."""
    last = _LAST_FITS
    if last[0] is table_key and last[1] is rules:
        return last[2]
    found = lay_off_faces(table, rules, table_key)
    last[:] = [table_key, rules, found]
    return found


_MELD_FACES: dict[tuple, int] = {}


def lay_off_faces(table: Sequence[Meld], rules: Rules, table_key: tuple) -> int:
    """Faces (bit ``face_index``) that some table meld would take now (cached per table)."""
    key = (rules.name, table_key)
    found = _LAY_OFF_FACES.get(key)
    if found is None:
        found = 0
        for meld, ids in zip(table, table_key, strict=True):
            found |= meld_faces(meld, rules, ids)
        if len(_LAY_OFF_FACES) > 4096:
            _LAY_OFF_FACES.clear()
        _LAY_OFF_FACES[key] = found
    return found


def meld_faces(meld: Meld, rules: Rules, ids: tuple[int, ...]) -> int:
    """Faces (bit ``face_index``) that one table meld would take (cached per meld: the table
    grows a meld at a time).

    ``Meld.with_card`` decides, by way of ``rules.meld_kind``, which looks at faces only: a face
    fits if it keeps the meld's kind (a set stays a set, a run a run: one card more cannot turn
    either into the other) and one of its two copies is not in the meld already.
    """
    key = (rules.name, ids)
    found = _MELD_FACES.get(key)
    if found is not None:
        return found
    cards = list(meld.cards)
    run = meld.kind == "run"
    if run:
        ranks = rules.run_ranks(cards)
        suit = cards[0].suit
        ends = [
            r for r in (ranks[0] - 1, ranks[-1] + 1) if 1 <= r <= 13 or (r == 14 and rules.ace_high)
        ]
        candidates = [Card.of(1 if r == 14 else r, suit) for r in ends]
    else:
        candidates = [Card.of(cards[0].rank, suit) for suit in SUITS]
    found = 0
    for card in candidates:
        if card.id in ids and card.id + 52 in ids:
            continue  # both copies already in the meld
        grown = [*cards, card]
        if rules.run_ranks(grown) is not None if run else rules.is_set(grown):
            found |= 1 << card.face_index
    if len(_MELD_FACES) > 16384:
        _MELD_FACES.clear()
    _MELD_FACES[key] = found
    return found
