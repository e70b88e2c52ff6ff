"""The second rung: meld at once, take the discard only when it joins a meld, shed the costliest.

OpenSpiel's simple gin rummy bot (open_spiel/bots/gin_rummy) plays this way: it needs no memory
of the deal, only the solver's best arrangement of the hand in front of it.
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.cards import cards_text
from .planner import SolverBot
from .seen import Seen
from .turn import Turn


class BasicBot(SolverBot):
    """Melds whenever it can, draws the discard only when it helps, discards its costliest
    leftover card."""

    name = "basic"

    def choose_draw(self, turn: Turn) -> str:
        top = turn.seen.top
        if top is None:
            return "stock"
        return "discard" if turn.seen.stock_size == 0 or turn.improves(top) else "stock"

    def reason(self, seen: Seen, action: Action) -> tuple[str, dict]:
        return reason_for(self.turn(seen), action)


def reason_for(turn: Turn, action: Action) -> tuple[str, dict]:
    """Plain reasons shared by the solver-based bots: what the move does for the hand."""
    seen, rules = turn.seen, turn.rules
    if action.kind == "draw":
        top = seen.top
        if action.source == "discard" and top is not None:
            meld = _meld_with(turn, top)
            if meld is not None:
                return "bot.explain.take_meld", {"card": str(top), "meld": cards_text(meld)}
            lay = _lay_off_with(turn, top)
            if lay is not None:
                return "bot.explain.take_lay_off", {"card": str(top), "meld": cards_text(lay)}
            return "bot.explain.take_low", {"card": str(top), "points": rules.card_points(top)}
        if top is None:
            return "bot.explain.draw_stock_empty", {}
        return "bot.explain.draw_stock", {"card": str(top)}
    if action.kind == "meld":
        key = "bot.explain.meld_out" if turn.going_out() else "bot.explain.meld"
        return key, {"meld": cards_text(action.cards), "points": turn.points(action.cards)}
    if action.kind == "lay_off":
        meld = seen.melds[action.meld_index].cards if action.meld_index < len(seen.melds) else ()
        return "bot.explain.lay_off", {"card": str(action.card), "meld": cards_text(meld)}
    card = action.card
    rest = [c for c in turn.hand if c != card]
    if not rest:
        return "bot.explain.discard_out", {"card": str(card)}
    if turn.penalty(rest) == 0:
        return "bot.explain.discard_out", {"card": str(card)}
    return "bot.explain.discard", {
        "card": str(card),
        "points": rules.card_points(card),
        "left": turn.penalty(rest),
    }


def _meld_with(turn: Turn, card) -> tuple | None:
    """A meld of the best arrangement of hand + ``card`` that uses ``card``."""
    from ..solver import best_arrangement

    arrangement = best_arrangement([*turn.hand, card], turn.rules, turn.table)
    return next((m for m in arrangement.melds if card in m), None)


def _lay_off_with(turn: Turn, card) -> tuple | None:
    """The table meld that ``card`` can be laid off on, if any."""
    for meld in turn.table:
        if meld.with_card(card, turn.rules) is not None:
            return meld.cards
    return None
