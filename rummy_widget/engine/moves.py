"""The legal moves of a position, from what the player to move can see.

One function serves the engine (``Game.legal_actions``) and learners' bots
(``bots.legal_actions(observation)``), so both always list the same moves in the same order.
It needs only public facts and the mover's own hand, never the stock's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .actions import Action
from .cards import Card
from .melds import Meld, possible_melds
from .rules import Rules


def one_per_face(hand: Iterable[Card]) -> list[Card]:
    """The lowest-id copy of each face in the hand, in id order: the copy moves name."""
    seen: dict[int, Card] = {}
    for card in sorted(hand):
        seen.setdefault(card.face_index, card)
    return list(seen.values())


def finish_problem(
    left: Sequence[Card], taken: Card | None, rules: Rules, table: Callable[[], Iterable[Meld]]
) -> str | None:
    """Rows 13-15: why no legal way to end the turn is left after a table play, or None.

    ``left`` is the hand after the play and ``table()`` the melds then on the table. The turn
    can end while a card other than the one just taken from the discard pile is left to discard;
    under ``traditional`` also by going out with no discard: an empty hand, or only the taken
    card left and a meld that takes it. ``must_keep_card`` when a final discard is required and
    nothing would be left; ``keep_discardable`` when only the taken card would be left and
    cannot go.
    """
    if not left:
        return "must_keep_card" if rules.final_discard else None
    if rules.discard_taken_card or len(left) > 1 or left[0] != taken:
        return None
    if not rules.final_discard and any(m.with_card(taken, rules) for m in table()):
        return None
    return "keep_discardable"


def discard_problem(card: Card, taken: Card | None, rules: Rules) -> str | None:
    """Row 13: ``taken_card`` when ``card`` is the very card just taken from the discard pile."""
    return "taken_card" if card == taken and not rules.discard_taken_card else None


def legal_actions(
    phase: str,
    hand: Sequence[Card],
    melds: Sequence[Meld],
    taken: Card | None,
    rules: Rules,
    stock_size: int,
    discard_size: int,
) -> list[Action]:
    """Every distinct move of the player to move, in a fixed order: draws, melds, lay-offs,
    discards.

    Two copies of a face are the same move, except the card just taken from the discard pile:
    it may not be discarded this turn, so a meld or lay-off with it and one with its twin are
    different moves, both listed when both are legal. Otherwise the lowest-id copy is named.
    """
    if phase == "draw":
        return [Action.draw(s) for s, n in (("stock", stock_size), ("discard", discard_size)) if n]
    if phase != "play":
        return []
    special = None if rules.discard_taken_card else taken
    twin = None  # the other copy of the taken card's face, while both are in the hand
    if special is not None and special in hand:
        twin = next((c for c in hand if c.face_index == special.face_index and c != special), None)

    def legal(leaving: Sequence[Card], table: Callable[[], Iterable[Meld]]) -> bool:
        left = list(hand)
        for card in leaving:
            left.remove(card)
        return finish_problem(left, taken, rules, table) is None

    actions = []
    for cards in possible_melds(hand, rules):
        for variant in _with_either_copy(cards, special, twin):
            table = lambda v=variant: [*melds, Meld.make(v, rules, 0)]  # noqa: E731
            if legal(variant, table):
                actions.append(Action.meld(variant))
    cards = one_per_face(hand)
    if twin is not None:  # the taken card and its twin each get their own lay-offs
        cards.insert(cards.index(min(special, twin)) + 1, max(special, twin))
    for index, meld in enumerate(melds):
        for card in cards:
            grown = meld.with_card(card, rules)
            if grown is None:
                continue
            table = lambda i=index, g=grown: [*melds[:i], g, *melds[i + 1 :]]  # noqa: E731
            if legal([card], table):
                actions.append(Action.lay_off(card, index))
    for card in one_per_face(hand):
        if discard_problem(card, taken, rules):  # the card just taken may not go back; its twin may
            card = twin
        if card is not None:
            actions.append(Action.discard(card))
    return actions


def _with_either_copy(
    cards: tuple[Card, ...], special: Card | None, twin: Card | None
) -> list[tuple[Card, ...]]:
    """A meld as named (lowest ids), and, when it holds one of the taken card and its twin,
    the same meld with the other one."""
    if twin is None or (special in cards) == (twin in cards):
        return [cards]
    one, other = (special, twin) if special in cards else (twin, special)
    return [cards, tuple(other if c == one else c for c in cards)]
