"""The legal moves of the seat to play, computed from its observation alone.

Learners' bots call ``legal_actions(observation)``; it lists the same moves in the same order as
``Game.legal_actions()`` (a test checks this on random positions) without needing the game.
"""

from __future__ import annotations

from ..actions import Action
from ..cards import Card
from ..melds import possible_melds
from .seen import Seen


def legal_actions(observation: dict | Seen) -> list[Action]:
    """Every move the observing seat may make now; empty when it is not that seat's turn."""
    seen = observation if isinstance(observation, Seen) else Seen.read(observation)
    if not seen.my_turn:
        return []
    if seen.phase == "draw":
        actions = []
        if seen.stock_size:
            actions.append(Action.draw("stock"))
        if seen.discard_pile:
            actions.append(Action.draw("discard"))
        return actions
    return play_actions(seen)


def play_actions(seen: Seen) -> list[Action]:
    """Melds, lay-offs and discards open to the seat after it has drawn."""
    hand, rules = seen.hand, seen.rules
    faces = one_per_face(hand)
    actions = [Action.meld(m) for m in possible_melds(hand, rules) if keeps_ok(seen, m)]
    for index, meld in enumerate(seen.melds):
        for card in faces:
            if meld.with_card(card, rules) is not None and keeps_ok(seen, [card]):
                actions.append(Action.lay_off(card, index))
    blocked = None if rules.discard_taken_card else seen.taken
    for card in faces:
        if card == blocked:  # the card just taken may not go back; its twin may
            card = next((c for c in hand if c.face == card.face and c != card), None)
        if card is not None:
            actions.append(Action.discard(card))
    return actions


def one_per_face(hand: list[Card]) -> list[Card]:
    """The lowest-id copy of each face in the hand, in id order (the engine's choice)."""
    seen: dict[int, Card] = {}
    for card in sorted(hand):
        seen.setdefault(card.face_index, card)
    return list(seen.values())


def keeps_ok(seen: Seen, leaving: list[Card] | tuple[Card, ...]) -> bool:
    """Rows 13 and 15: a table play must leave a card the seat may still discard."""
    left = list(seen.hand)
    for card in leaving:
        left.remove(card)
    if not left:
        return not seen.rules.final_discard
    return not (left == [seen.taken] and not seen.rules.discard_taken_card)
