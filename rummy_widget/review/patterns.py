"""The blunders learners make, spotted by the exact solver from the seat's own view.

Playouts of a whole deal are noisy (a thrown-away run can measure "13 ± 6" one time and
"5 ± 4" the next); a learner's blunder is plain from the hand itself. ``spot`` looks at one
decision with the solver's least penalty of a hand (``Turn.penalty``) and names the first of
these it finds, with the better move and the cards a reason should name:

- ``missed_rummy`` / ``missed_out``: the seat could have gone out (all at once: Rummy) this turn;
- ``take_to_go_out``: the discard pile's top card would have let it go out, and it drew blind;
- ``missed_lay_off``: it had melded already and kept a card a table meld takes;
- ``broke_meld``: it threw away a card of a complete meld while a loose card could go;
- ``extended_meld``: it threw away a card that lengthens a meld while a loose card could go;
- ``fed_next``: the card makes a meld with two cards the next player took from the pile, and
  a safe card cost no more;
- ``high_card``: it kept a high card that joins nothing and threw a lower one;
- ``took_nothing``: it took a costly card from the pile that joins nothing in its hand.

Only the observation is read (``Seen``), never the ``Game``, so two positions that differ in
cards the seat never saw give the same finding. ``gap`` is the cheap look's figure in points:
how many more penalty points the played move leaves in the hand than the better one (for going
out, the hand's points and the Rummy bonus; for feeding, the points of the meld the next
player completes). docs/review.md, "Learners' blunders".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..bots.expert import ExpertBot, after_taking, stock_average
from ..bots.memory import Memory
from ..bots.seen import Seen
from ..bots.turn import Turn, lay_off_faces
from ..engine.actions import Action
from ..engine.cards import Card
from ..solver import best_arrangement, can_go_out

#: A kept card is "high" when it is worth at least this many points more than the one thrown.
HIGH_GAP = 5
#: Findings whose better move wins for every draw: going out now.
SURE = ("missed_rummy", "missed_out", "take_to_go_out")


@dataclass(frozen=True)
class Finding:
    """A learner's blunder seen in one decision: its kind, the better move, the cheap look's
    gap in points and the cards its reason names (``cards``: name -> Card, ``melds``: name ->
    the meld's cards)."""

    kind: str
    better: Action
    gap: float
    cards: dict = field(default_factory=dict)
    melds: dict = field(default_factory=dict)
    words: dict = field(default_factory=dict)  # other parameters: a meld's kind, a name

    @property
    def sure(self) -> bool:
        """The better move dominates the played one: it goes out now."""
        return self.kind in SURE


def spot(seen: Seen, played: Action, memo: dict | None = None) -> Finding | None:
    """The first learner's blunder in playing ``played`` from ``seen``, or None."""
    turn = Turn(seen, memo)
    if seen.phase == "draw":
        return draw_finding(turn, played, memo)
    return missed_out(turn, played) or discard_finding(turn, played)


# --- the draw ---------------------------------------------------------------------------------


def draw_finding(turn: Turn, played: Action, memo: dict | None = None) -> Finding | None:
    """Drew blind when the pile's top card went out, or took a costly card that joins nothing."""
    seen = turn.seen
    top = seen.top
    if top is None or played.kind != "draw":
        return None
    taken = Turn(after_taking(seen, top), memo)
    if played.source == "stock":
        if seen.stock_size and taken.going_out():
            gap = turn.points(turn.hand) - turn.rules.card_points(top)
            return Finding("take_to_go_out", Action.draw("discard"), max(gap, 1), {"card": top})
        return None
    points = turn.rules.card_points(top)
    if seen.stock_size == 0 or points <= stock_average(turn.rules):
        return None
    if turn.places(top) or partners(turn, top, turn.hand):
        return None
    if ExpertBot().choose_draw(turn) != "stock":
        return None  # the expert would take it too: not a learner's slip
    gap = points - stock_average(turn.rules)
    words = {"card_points": points}
    return Finding("took_nothing", Action.draw("stock"), gap, {"card": top}, words=words)


# --- going out -------------------------------------------------------------------------------


def missed_out(turn: Turn, played: Action) -> Finding | None:
    """The seat could go out this turn and the played move gives that up."""
    way = turn.going_out()
    if not way or still_out(turn, played):
        return None
    seen = turn.seen
    rummy = not seen.has_melded[seen.seat] and not any(
        e["type"] in ("meld", "lay_off") and e["player"] == seen.seat for e in recent(seen)
    )
    gap = turn.points(turn.hand) + (turn.rules.rummy_bonus if rummy else 0)
    kind = "missed_rummy" if rummy else "missed_out"
    return Finding(kind, way[0], gap, words={"bonus": turn.rules.rummy_bonus})


def recent(seen: Seen) -> list[dict]:
    """The log's events since the seat's draw this turn."""
    events = []
    for event in reversed(seen.log):
        if event["type"] == "draw":
            break
        events.append(event)
    return events


def still_out(turn: Turn, played: Action) -> bool:
    """Can the seat still go out this turn after ``played``?"""
    hand = list(turn.hand)
    if played.kind == "discard":
        return len(hand) == 1
    table = [list(m.cards) for m in turn.table]
    if played.kind == "meld":
        for card in played.cards:
            hand.remove(card)
        table.append(list(played.cards))
    else:
        hand.remove(played.card)
        grown = turn.table[played.meld_index].with_card(played.card, turn.rules)
        if grown is None:
            return False
        table[played.meld_index] = list(grown.cards)
    if not hand:
        return True
    keep_out = turn.blocked
    way = can_go_out(hand, turn.rules, table, has_melded=True, keep_out=keep_out)
    return bool(way)


# --- the discard ------------------------------------------------------------------------------


def discard_finding(turn: Turn, played: Action) -> Finding | None:
    """What the played discard gave away: a lay-off, a meld, a safe card or a low card."""
    if played.kind != "discard":
        return None
    return (
        missed_lay_off(turn, played)
        or broke_meld(turn, played)
        or fed_next(turn, played)
        or high_card(turn, played)
    )


def missed_lay_off(turn: Turn, played: Action) -> Finding | None:
    """Melded already (no Rummy to keep) and ended the turn with a card a table meld takes."""
    seen = turn.seen
    if not seen.has_melded[seen.seat] or not turn.table:
        return None
    for move in turn.table_plays():
        if move.kind == "lay_off" and move.card.face_index != played.card.face_index:
            meld = turn.table[move.meld_index].cards
            return Finding(
                "missed_lay_off",
                move,
                turn.rules.card_points(move.card),
                {"card": move.card},
                {"meld": meld},
            )
    return None


def broke_meld(turn: Turn, played: Action) -> Finding | None:
    """Threw away a card of a complete meld in the hand while a loose card could have gone."""
    hand, card = list(turn.hand), played.card
    now = turn.penalty(hand)
    left = turn.penalty(without(hand, card))
    if left < now:
        return None  # the card was loose: it took its points with it
    loose = [
        d
        for d in turn.discardable(hand)
        if d.face_index != card.face_index
        and turn.penalty(without(hand, d)) == now - turn.rules.card_points(d)
        and turn.rules.card_points(d) > 0
    ]
    if left == now:  # the meld stands without the card: only a card that joins nothing is worse
        loose = [d for d in loose if not partners(turn, d, without(hand, d))]
    if not loose:
        return None
    best = min(loose, key=lambda d: (turn.penalty(without(hand, d)), -d.rank, d.id))
    gap = left - turn.penalty(without(hand, best))
    meld = meld_of(turn, hand, card)
    if meld is None or gap <= 0:
        return None
    kind = "broke_meld" if left > now else "extended_meld"
    words = {"meld_kind": turn.rules.meld_kind(list(meld))}
    return Finding(
        kind, Action.discard(best), gap, {"card": card, "better": best}, {"meld": meld}, words
    )


def meld_of(turn: Turn, hand: list[Card], card: Card) -> tuple[Card, ...] | None:
    """The meld of the hand's best arrangement that holds ``card`` (None: it is laid off)."""
    table, _ = turn.reachable(hand)
    arrangement = best_arrangement(hand, turn.rules, table)
    for meld in arrangement.melds:
        if any(c.id == card.id for c in meld):
            return tuple(meld)
    others = [c for c in hand if c.face_index == card.face_index and c.id != card.id]
    for other in others:  # the other copy is the one melded: the same cards in words
        for meld in arrangement.melds:
            if any(c.id == other.id for c in meld):
                return tuple(meld)
    return None


def fed_next(turn: Turn, played: Action) -> Finding | None:
    """Threw the next player the card that makes a meld with two cards it took from the pile,
    when a safe card leaving no more points in the hand was there."""
    seen = turn.seen
    memory = Memory.read(seen)
    nxt = (seen.seat + 1) % seen.players
    card = played.card
    known = memory.known[nxt]
    meld = next(
        (
            (a, b, card)
            for i, a in enumerate(known)
            for b in known[i + 1 :]
            if turn.rules.meld_kind([a, b, card]) is not None
        ),
        None,
    )
    if meld is None:
        return None
    hand = list(turn.hand)
    left = turn.penalty(without(hand, card))
    safe = [
        d
        for d in turn.discardable(hand)
        if not any(fits(turn, k, d) for k in known)
        and not table_takes(turn, d)
        and turn.penalty(without(hand, d)) <= left
    ]
    if not safe:
        return None
    best = min(safe, key=lambda d: (turn.penalty(without(hand, d)), -d.rank, d.id))
    gap = turn.points(list(meld)) + left - turn.penalty(without(hand, best))
    ordered = tuple(turn.rules.order_meld(list(meld)))
    return Finding(
        "fed_next",
        Action.discard(best),
        gap,
        {"card": card, "better": best},
        {"meld": ordered},
        {"seat": nxt},
    )


def high_card(turn: Turn, played: Action) -> Finding | None:
    """Kept a high card that joins nothing (and feeds nobody) and threw a lower loose one."""
    hand, card = list(turn.hand), played.card
    now = turn.penalty(hand)
    points = turn.rules.card_points(card)
    if turn.penalty(without(hand, card)) != now - points:
        return None
    lonely = [
        d
        for d in turn.discardable(hand)
        if turn.rules.card_points(d) >= points + HIGH_GAP
        and not partners(turn, d, without(hand, d))
        and not table_takes(turn, d)
        and not wanted_by_anyone(turn, d)
    ]
    if not lonely:
        return None
    best = max(lonely, key=lambda d: (turn.rules.card_points(d), d.rank, -d.id))
    gap = turn.rules.card_points(best) - points
    return Finding("high_card", Action.discard(best), gap, {"card": card, "better": best})


# --- the cards' relations ----------------------------------------------------------------------


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    """The hand less one card (that very copy)."""
    return [c for c in hand if c.id != card.id]


def fits(turn: Turn, held: Card, card: Card) -> bool:
    """Could ``card`` go into a meld with ``held``: the same rank (another suit, where sets
    need different suits), or the same suit within two ranks (the ace high too, where it may
    be)?"""
    if held.rank == card.rank:
        return held.suit != card.suit or not turn.rules.set_distinct_suits
    if held.suit != card.suit:
        return False
    ranks = [(held.rank, card.rank)]
    if turn.rules.ace_high:
        ranks.append((14 if held.rank == 1 else held.rank, 14 if card.rank == 1 else card.rank))
    return any(0 < abs(a - b) <= 2 for a, b in ranks)


def partners(turn: Turn, card: Card, others: Sequence[Card]) -> bool:
    """Does ``card`` make a pair or a run's draw with one of ``others``?"""
    return any(fits(turn, other, card) for other in others if other.id != card.id)


def table_takes(turn: Turn, card: Card) -> bool:
    """Would a table meld take ``card`` (anyone may lay it off)?"""
    if not turn.table:
        return False
    return bool(lay_off_faces(turn.table, turn.rules, turn.table_key) >> card.face_index & 1)


def wanted_by_anyone(turn: Turn, card: Card) -> bool:
    """Did any opponent take a card from the pile that ``card`` fits?"""
    seen = turn.seen
    memory = Memory.read(seen)
    return any(
        fits(turn, k, card)
        for seat in range(seen.players)
        if seat != seen.seat
        for k in memory.known[seat]
    )
