"""Questions bots and hints ask of a hand: can it go out this turn, and which cards help it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.cards import Card, parse_cards
from ..engine.rules import Rules
from . import _core
from ._core import ENCODE, K_PENALTY, TableMelds
from .arrangement import Arrangement


@dataclass(frozen=True)
class GoOut:
    """Whether a hand can go out this turn; true in ``if`` when it can.

    ``arrangement`` places every card that is played (``None`` if the hand cannot go out);
    ``discard`` is the card that ends the turn, or ``None`` when every card is placed.
    ``rummy`` is true when the player goes out without having melded before (decisions row 16).
    """

    possible: bool
    rummy: bool
    arrangement: Arrangement | None
    discard: Card | None

    def __bool__(self) -> bool:
        return self.possible


@dataclass(frozen=True)
class Out:
    """An unseen face that would lower the hand's penalty if drawn (then ``discard`` goes).

    ``joins`` tells a card that melds or lays off (it saves more than its own points) from a
    card that only replaces a costlier one.
    """

    cards: tuple[Card, ...]  # the unseen copies of this face
    penalty: int  # the hand's penalty after drawing it and discarding ``discard``
    drop: int  # how much lower that is than now
    discard: Card
    joins: bool

    def __repr__(self) -> str:
        joins = ", joins" if self.joins else ""
        return (
            f"Out({self.cards[0]}×{len(self.cards)}, -{self.drop}, discard {self.discard}{joins})"
        )


def _discard_order(rules: Rules, cards: list[Card]) -> list[Card]:
    """Candidates for the discard: costliest first, then by suit and rank, one copy per face."""
    seen: set[int] = set()
    order = []
    for card in sorted(cards, key=lambda c: (-rules.card_points(c), c.face_index, c.id)):
        if card.face_index not in seen:
            seen.add(card.face_index)
            order.append(card)
    return order


def can_go_out(
    hand: Iterable[Card | str],
    rules: Rules | str,
    table_melds: TableMelds = (),
    has_melded: bool = False,
    must_discard: bool | None = None,
    keep_out: Card | str | None = None,
) -> GoOut:
    """Can this hand be emptied now? Going out places every card, or every card but one that is
    discarded; with ``must_discard`` (default ``rules.final_discard``) it must be the latter.
    ``keep_out`` is a card that may not be the discard (taken from the discard pile this turn).
    """
    ctx = _core.context(rules, table_melds)
    rules = ctx.rules
    if must_discard is None:
        must_discard = rules.final_discard
    total, _, cards = _core.encode(hand, ctx)
    barred = None if keep_out is None else Card.parse(keep_out)
    if not must_discard and _core.search(ctx, total)[0] == 0:
        return GoOut(True, not has_melded, _core.arrangement(ctx, total, cards), None)
    copies = {c.face_index: [] for c in cards}
    for c in sorted(cards):
        copies[c.face_index].append(c)
    for card in _discard_order(rules, cards):
        choice = next((c for c in copies[card.face_index] if c != barred), None)
        if choice is None:
            continue
        rest = total - ENCODE[choice.id]
        if _core.search(ctx, rest)[0] < K_PENALTY:  # nothing left over
            kept = [c for c in cards if c != choice]
            return GoOut(True, not has_melded, _core.arrangement(ctx, rest, kept), choice)
    return GoOut(False, False, None, None)


def outs(
    hand: Iterable[Card | str],
    rules: Rules | str,
    table_melds: TableMelds = (),
    unseen: Iterable[Card | str] | None = None,
) -> list[Out]:
    """Unseen faces that lower the hand's penalty once drawn and the best card discarded.

    ``unseen`` defaults to every card neither in the hand nor on the table. The list is sorted
    by the drop (largest first), then by suit and rank.
    """
    ctx = _core.context(rules, table_melds)
    rules = ctx.rules
    total, _, cards = _core.encode(hand, ctx)
    base = _core.search(ctx, total)[0] // K_PENALTY
    if unseen is None:
        known = {c.id for c in cards} | {c.id for m in ctx.table for c in m.cards}
        pool = [Card(i) for i in range(104) if i not in known]
    else:
        pool = list(parse_cards(unseen))
    faces: dict[int, list[Card]] = {}
    for c in sorted(pool):
        faces.setdefault(c.face_index, []).append(c)
    candidates = _discard_order(rules, cards)
    found = []
    for face in sorted(faces):
        drawn = total + ENCODE[face]
        best, discard = None, None
        for card in candidates:
            score = _core.search(ctx, drawn - ENCODE[card.id])[0]
            if best is None or score < best:
                best, discard = score, card
        if best is not None and best // K_PENALTY < base:
            penalty = best // K_PENALTY
            without = _core.search(ctx, total - ENCODE[discard.id])[0] // K_PENALTY
            joins = penalty < without + rules.card_points(faces[face][0])
            found.append(Out(tuple(faces[face]), penalty, base - penalty, discard, joins))
    found.sort(key=lambda o: (-o.drop, o.cards[0].face_index))
    return found
