"""The legal moves of a position, from what the player to move can see.

One function serves the engine (``Game.legal_actions``) and learners' bots
(``bots.legal_actions(observation)``), so both always list the same moves in the same order.
It needs only public facts and the mover's own hand, never the stock's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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


def keep_problem(
    hand: Sequence[Card], leaving: Iterable[Card], taken: Card | None, rules: Rules
) -> str | None:
    """Rows 13 and 15: why a table play leaving ``hand`` minus ``leaving`` is illegal, or None.

    ``must_keep_card`` when a final discard is required and nothing would be left;
    ``keep_discardable`` when only the card just taken from the pile would be left.
    """
    left = list(hand)
    for card in leaving:
        left.remove(card)
    if not left:
        return "must_keep_card" if rules.final_discard else None
    if left == [taken] and not rules.discard_taken_card:
        return "keep_discardable"
    return None


def legal_actions(
    phase: str,
    hand: Sequence[Card],
    melds: Sequence[Meld],
    taken: Card | None,
    rules: Rules,
    stock_size: int,
    discard_size: int,
) -> list[Action]:
    """Every move of the player to move, in a fixed order: draws, melds, lay-offs, discards."""
    if phase == "draw":
        return [Action.draw(s) for s, n in (("stock", stock_size), ("discard", discard_size)) if n]
    if phase != "play":
        return []
    fits = lambda leaving: keep_problem(hand, leaving, taken, rules) is None  # noqa: E731
    faces = one_per_face(hand)
    actions = [Action.meld(m) for m in possible_melds(hand, rules) if fits(m)]
    for index, meld in enumerate(melds):
        for card in faces:
            if meld.with_card(card, rules) is not None and fits([card]):
                actions.append(Action.lay_off(card, index))
    blocked = None if rules.discard_taken_card else taken
    for card in faces:
        if card == blocked:  # the card just taken may not go back; its twin may
            card = next((c for c in hand if c.face == card.face and c != card), None)
        if card is not None:
            actions.append(Action.discard(card))
    return actions
