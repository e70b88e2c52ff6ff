"""The top rung: the expert's play, with its own discard and draw chosen by how soon it goes out.

At each discard (and each choice between the pile and the stock) the master deals a few orders
of its next stock cards from the cards it has not seen (``progress.py``), plays every candidate
alone over the same orders, and leaves the expert's choice only when another one goes out
clearly more often. No candidate is more dangerous than the expert's own discard. It never
guesses at the opponent's hand and never sees the hidden cards: the orders come from the
observation alone. In Rummy Royal it also holds melds back for Rummy whatever they are worth
(``HOLD_POINTS``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Literal

from ..engine.actions import Action
from ..engine.cards import Card
from ..engine.rules import Rules
from .expert import ExpertBot, Style, after_taking
from .memory import Memory
from .progress import ProgressPick, draw_orders, out_rates, paired
from .seen import Seen
from .turn import Turn, left_after

#: The master's cap on the points of melds it holds back for Rummy, by preset (None: no cap).
#: Held melds go out alike, give an opponent nothing to lay off on, and make a Rummy likelier;
#: in Rummy Royal, where an ace is worth 11, two melds often pass the expert's cap. Rules not
#: named here keep the style's cap (the expert's 40), so traditional rummy does.
HOLD_POINTS: dict[str, int | None] = {"rummy_royal": None}


@dataclass(frozen=True)
class Options:
    """The master's settings; the defaults are the ladder's master."""

    draws: int = 3  # look ahead this many own draws when judging a candidate
    samples: int = 100  # draw orders dealt per choice, shared by every candidate
    candidates: int = 4  # discards tried: the expert's, then its next best no more dangerous
    margin: float = 0.02  # leave the expert's choice only for a gain in out rate above this ...
    z: float = 2.0  # ... and above this many standard errors of that (paired) gain
    # The cap on melds held back for Rummy (None: no cap); "by rules": ``HOLD_POINTS``.
    hold_points: int | Literal["by rules"] | None = "by rules"
    style: Style | None = None  # the expert's weights it plays by (None: the expert's own)


class MasterBot(ExpertBot):
    """Expert play; the discard and the draw go to the option that goes out soonest alone.

    ``progressed`` counts the choices judged this way and ``progress_deviated`` those that left
    the expert's: both for the benchmarks and tests, never read by the play.
    """

    name = "master"

    def __init__(self, seed: int = 0, options: Options | None = None) -> None:
        self.options = options or Options()
        super().__init__(seed, self.options.style)
        self.progressed = 0
        self.progress_deviated = 0

    # --- choices -----------------------------------------------------------------------

    def choose_draw(self, turn: Turn) -> str:
        expert = super().choose_draw(turn)
        forced = self._forced_draw(turn, expert)
        return forced if forced is not None else self.progress_draw(turn, expert)

    def _forced_draw(self, turn: Turn, expert: str) -> str | None:
        """The draw when there is nothing to weigh (no pile card or no stock; the pile card
        wins the deal now; a costly pile card that joins nothing), else None."""
        seen = turn.seen
        top = seen.top
        if top is None or seen.stock_size == 0:
            return expert
        if Turn(after_taking(seen, top), self._memo).going_out():
            return "discard"  # taking it wins the deal now: nothing to weigh
        if not turn.places(top) and turn.rules.card_points(top) > self.style.take_limit + 2:
            return expert  # a costly card that joins nothing: not worth the look-ahead
        return None

    def plan_turn(self, turn: Turn) -> list[Action]:
        return self.progress_plan(turn, super().plan_turn(turn))

    def hold_cap(self, rules: Rules) -> int | None:
        """``Options.hold_points``; by default the cap of ``HOLD_POINTS`` for the rules (the
        style's for rules not named there)."""
        if self.options.hold_points == "by rules":
            return HOLD_POINTS.get(rules.name, self.style.hold_points)
        return self.options.hold_points

    # --- own progress ------------------------------------------------------------------

    def progress_plan(self, turn: Turn, plan: list[Action]) -> list[Action]:
        """The expert's plan with its discard chosen by the chance of going out soon."""
        pick = self.progress_discards(turn, plan)
        if pick is None:
            return plan
        self._count(pick)
        return plan if pick.best == 0 else [*plan[:-1], Action.discard(pick.options[pick.best])]

    def progress_draw(self, turn: Turn, expert: str) -> str:
        """Pile or stock by the chance of going out within ``Options.draws`` draws."""
        pick = self.progress_draws(turn, expert)
        if pick is None:
            return expert
        self._count(pick)
        return pick.options[pick.best]

    def progress_discards(self, turn: Turn, plan: list[Action]) -> ProgressPick | None:
        """The expert's discard (option 0) and its rivals, each scored by own progress.

        Candidates are the expert's best discards (its table plays kept) no more dangerous
        than its own; each leaves the whole hand less that card (melds laid now or held play
        alike for going out), played alone over the same draw orders. None: nothing to pick."""
        seen = turn.seen
        memory = self.memory(seen)
        moves, chosen = plan[:-1], plan[-1].card
        rest = left_after(turn.hand, moves)
        safe = self.danger(turn, chosen, memory)
        cards = [chosen] + [
            card
            for _, card in self.discard_choices(turn, rest, memory)
            if card != chosen and self.danger(turn, card, memory) <= safe
        ]
        cards = cards[: self.options.candidates]
        if len(cards) < 2:
            return None
        sim, orders, policy = self._progress_tools(turn, memory)
        if not orders:
            return None
        hands = [[c for c in turn.hand if c != card] for card in cards]
        rates = [out_rates(sim, hand, orders, policy) for hand in hands]
        return ProgressPick(tuple(cards), rates, self._progress_pick(rates))

    def progress_draws(self, turn: Turn, expert: str) -> ProgressPick | None:
        """The expert's draw (option 0) and the other one, scored by own progress over the same
        draw orders (this draw included: the pile's top or the orders' first card)."""
        seen = turn.seen
        memory = self.memory(seen)
        sim, orders, policy = self._progress_tools(turn, memory)
        if not orders:
            return None
        options = ("stock", "discard") if expert == "stock" else ("discard", "stock")
        rates = [
            out_rates(sim, turn.hand, orders, policy, seen.top if o == "discard" else None)
            for o in options
        ]
        return ProgressPick(options, rates, self._progress_pick(rates))

    def _progress_tools(self, turn: Turn, memory: Memory):
        """A turn with nothing barred (later turns may discard any card), the draw orders
        (seeded by the position, as every choice of the bot), and the expert's discard."""
        seen = turn.seen
        sim = Turn(replace(seen, taken=None), self._memo)
        rng = random.Random(self.rng(seen).getrandbits(64) ^ 0x0DDBA11)
        orders = draw_orders(memory, self.options.draws, self.options.samples, rng)

        chosen: dict[tuple, int] = {}  # faces held, face barred -> face discarded

        def policy(cards: list[Card], barred: Card | None) -> Card:
            # The expert's discard depends on faces only; draw orders repeat many of them.
            bar = -1 if barred is None else barred.id
            key = (tuple(sorted([c.id % 52 for c in cards])), bar % 52 if bar >= 0 else -1)
            face = chosen.get(key)
            options = sim.discardable([c for c in cards if c.id != bar])
            if face is None:
                card = min(options, key=lambda c: self.discard_key(sim, cards, c, memory))
                chosen[key] = card.id % 52
                return card
            return next(c for c in options if c.id % 52 == face)

        return sim, orders, policy

    def _progress_pick(self, rates: list[list[float]]) -> int:
        """The option (0: the expert's) with the largest paired gain over option 0, if that
        gain passes ``Options.margin`` and ``Options.z`` standard errors; else 0."""
        best, best_gain = 0, 0.0
        margin, z = self.options.margin, self.options.z
        for i in range(1, len(rates)):
            mean, error = paired([a - b for a, b in zip(rates[i], rates[0], strict=True)])
            if mean > max(margin, z * error) and mean > best_gain:
                best, best_gain = i, mean
        return best

    def _count(self, pick: ProgressPick) -> None:
        self.progressed += 1
        self.progress_deviated += pick.best != 0

    # --- explanations ----------------------------------------------------------------

    def reason(self, seen: Seen, action: Action) -> tuple[str, dict]:
        """The expert's reason, unless own progress left the expert's choice for ``action``:
        then how often the hand went out over the draw orders tried, this way and the
        expert's. Worked out afresh from the position, as every reason is."""
        return self._progress_reason(seen, action) or super().reason(seen, action)

    def _progress_reason(self, seen: Seen, action: Action) -> tuple[str, dict] | None:
        turn = self.turn(seen)
        if action.kind == "draw":
            expert = super().choose_draw(turn)
            if self._forced_draw(turn, expert) is not None:
                return None
            pick = self.progress_draws(turn, expert)
            key = "take" if action.source == "discard" else "stock"
        elif action.kind == "discard":
            if turn.going_out():
                return None
            plan = super().plan_turn(turn)
            pick = self.progress_discards(turn, plan) if plan[-1].kind == "discard" else None
            key = "discard"
        else:
            return None
        chosen = action.source if action.kind == "draw" else action.card
        if pick is None or pick.best == 0 or pick.options[pick.best] != chosen:
            return None
        return f"bot.explain.master_progress_{key}", {
            "card": str(action.card if key == "discard" else seen.top),
            "other": str(pick.options[0]),
            "rate": pick.out_percent(pick.best),
            "other_rate": pick.out_percent(0),
            "tried": len(pick.rates[0]),
            "draws": self.options.draws,
        }
