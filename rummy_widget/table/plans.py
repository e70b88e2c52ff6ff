"""A hint's plan, and what the next hint of the same turn says when it departs from it.

The expert answers each position afresh, so its hints can change course within one turn: "A♦
completes A♦ A♣ A♣: take it from the discard pile", then, with A♦ in the hand, "discard A♣". A
learner who followed the first hint hears a contradiction. The table keeps the cards each hint
means to meld (its ``Plan``); a later hint in the same turn that throws away, lays off or melds
some of them otherwise starts with why the plan changed, read from the hand the new move leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.cards import Card, cards_text
from ..engine.game import Game
from ..i18n import t
from ..solver import best_arrangement

Text = Callable[[str], str]


@dataclass(frozen=True)
class Plan:
    """The meld a hint aimed at: its cards' faces, and where in which deal it was given."""

    game: Game
    action: Action  # the move the hint gave
    moves: int  # len(game.history) when the hint was given
    faces: frozenset[tuple[int, str]]
    meld: str  # the planned meld as the hint showed it ("A♦ A♣ A♣")


def plan_of(game: Game, action: Action, params: dict) -> Plan | None:
    """The meld a hint aims at: the meld it takes a card for (``params["meld"]``, the bot's
    reason's cards) or the meld it lays down; None for a hint with no meld in view."""
    if action.kind == "meld":
        cards = list(action.cards)
    elif action.kind == "draw" and "meld" in params:
        cards = [Card.parse(word) for word in str(params["meld"]).split()]
    else:
        return None
    faces = frozenset(c.face for c in cards)
    return Plan(game, action, len(game.history), faces, cards_text(cards))


def departure(plan: Plan | None, game: Game, seat: int, action: Action) -> Text | None:
    """Why ``action`` leaves the last hint's plan, as a function of the language; None when
    it does not (another turn or deal, or a move that keeps the planned meld's cards)."""
    if plan is None or plan.game is not game:
        return None
    since = game.history[plan.moves :]
    if not since or any(player != seat for player, _ in since):
        return None  # the plan was for this turn, and this turn goes on
    if plan.action.kind == "draw" and since[0][1] != plan.action:
        return None  # the learner drew otherwise: that plan was not followed
    if any(a.kind == "meld" and {c.face for c in a.cards} == plan.faces for _, a in since):
        return None  # the planned meld is on the table: a second copy of its card is free
    used = list(action.cards) if action.kind == "meld" else [action.card] if action.card else []
    faces = {c.face for c in used}
    if not faces & plan.faces or (action.kind == "meld" and faces == plan.faces):
        return None
    rest = list(game.hand(seat))
    for card in used:
        rest.remove(card)
    kept = [m for m in best_arrangement(rest, game.rules).melds if {c.face for c in m} & plan.faces]
    if kept and action.kind != "meld":
        shown, card = cards_text(kept[0]), str(action.card)
        return lambda lang: t("ui.hint.plan_kept", lang, kept=shown, card=card)
    return lambda lang: t("ui.hint.plan_dropped", lang, meld=plan.meld)
