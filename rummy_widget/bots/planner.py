"""The turn loop shared by the solver-based bots: choose a draw, then plan the rest of the turn.

A turn's moves arrive one ``act`` call at a time (meld, lay off, ..., discard). The bot plans
them all at the first call after its draw and hands them out while the table is as planned,
so the solver is asked once per turn rather than once per move.
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.cards import Card
from .base import BaseBot
from .seen import Seen
from .turn import Turn, left_after, placed


class SolverBot(BaseBot):
    """A bot whose policy is three choices: the draw, the table plays, the discard."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._memo: dict = {}
        self._plan: list[tuple[tuple, Action]] = []

    def turn(self, seen: Seen) -> Turn:
        return Turn(seen, self._memo)

    def decide(self, seen: Seen) -> Action:
        turn = self.turn(seen)
        if seen.phase == "draw":
            self._plan = []
            return Action.draw(self.choose_draw(turn))
        key = _state(seen.hand, seen.melds)
        if self._plan and self._plan[0][0] == key:
            return self._plan.pop(0)[1]
        moves = turn.going_out() or self.plan_turn(turn)
        hand, table = key
        self._plan = []
        for move in moves:
            self._plan.append(((hand, table), move))
            for card in placed(move) if move.kind != "discard" else (move.card,):
                hand &= ~(1 << card.id)
            table += 0 if move.kind == "discard" else len(placed(move))
        return self._plan.pop(0)[1]

    def plan_turn(self, turn: Turn) -> list[Action]:
        """Table plays, then the discard from what is left."""
        moves = self.table_plays(turn)
        rest = left_after(turn.hand, moves)
        return [*moves, Action.discard(self.choose_discard(turn, rest))]

    # --- the policy ------------------------------------------------------------------------

    def choose_draw(self, turn: Turn) -> str:
        raise NotImplementedError

    def table_plays(self, turn: Turn) -> list[Action]:
        return turn.table_plays()

    def choose_discard(self, turn: Turn, cards: list[Card]) -> Card:
        return turn.discard_scores(cards)[0][2]


def _state(hand: list[Card], melds: list) -> tuple[int, int]:
    """The hand (a bit per card id) and the number of table cards: where a plan stands."""
    mask = 0
    for card in hand:
        mask |= 1 << card.id
    return mask, sum([len(m.cards) for m in melds])
