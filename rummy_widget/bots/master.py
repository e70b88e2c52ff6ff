"""The top rung: look ahead by playing the deal out in imagined worlds.

Near the end of a deal (an opponent holding ``endgame`` cards or fewer), at each real choice
(draw from the pile or the stock; which card to discard; melding now instead of holding for
Rummy) the master deals the cards it cannot see, consistently with everything the public log
showed and weighted by what the opponents' discards and pick-ups suggest (``inference.py``),
plays every candidate out in the same worlds with expert policies for all seats, and leaves
the expert's choice only when another did clearly better. Elsewhere it plays the expert's move
at once. It never sees the real hidden cards: worlds are sampled from the observation alone
(OpenSpiel #1613 shows how search cheats when resampling returns the true state).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Literal

from ..engine.actions import Action
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.rules import Rules
from .consistency import Judge, Verdicts, fewest_misfits, fit_likelihood, misfits, past_turns
from .expert import ExpertBot, Style, after_taking
from .inference import face_weights, weighted_pick
from .memory import Memory
from .progress import ProgressPick, draw_orders, out_rates, paired
from .seen import Seen
from .turn import Turn, placed


@dataclass(frozen=True)
class World:
    """One guess at the hidden cards: every seat's hand (the master's own as it is) and the
    stock, top card first."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


#: The master's cap on the points of melds it holds back for Rummy, by preset (None: no cap).
#: An expert with no cap against the plain expert, 2,000 deals (seed 77): Rummy Royal +2.8
#: points of win rate (SE 0.7), traditional -1.7 (SE 0.7); caps 20-80 fall in between
#: (docs/bots.md, "Sixth round"). Held melds go out alike, give an opponent nothing to lay
#: off on, and make a Rummy likelier. Rules not named here keep the style's cap (the expert's
#: 40), so traditional rummy does.
HOLD_POINTS: dict[str, int | None] = {"rummy_royal": None}


class MasterBot(ExpertBot):
    """Expert play plus look-ahead: samples hidden cards, plays candidates out, keeps the best.

    ``worlds`` sampled deals per search (options no better than the expert's are dropped after
    ``early`` of them); ``budget`` seconds per move at most (a world not finished for every
    option in time is left out for all, so all are compared on the same worlds); ``horizon``
    moves per playout before the position is scored by the hands' expert values. A finished
    playout scores +1 for a win and -1 for a loss, plus the penalty difference divided by
    ``penalty_scale``. The expert's choice is left only for a mean gain above ``margin`` and
    above ``z`` standard errors. ``endgame``: search every choice once an opponent holds this
    many cards or fewer (0: never); before that only discards scored within ``close`` of the
    expert's best are searched (``close`` < 0, the default: none, the expert plays at once).
    ``inference`` weights hidden cards by the opponents' play; ``history`` gives the imagined
    players the public log, so they remember pick-ups as the real ones do. ``consistent`` > 0
    (off by default) deals ``pool`` times the worlds and prefers those in which an expert would
    have played the opponents' last ``consistent`` turns as the log shows them (each decision
    it would have made otherwise multiplies a world's weight by ``misfit_weight``): this
    assumes expert-like opponents, as the playouts do. ``fit_draws`` (off by default) checks
    those turns with each stock draw's card chosen to fit rather than at random, so the real
    hand fits however deep the check goes (at most ``fit_checks`` expert decisions per world);
    ``sampling`` is the share of ``budget`` that finding likely worlds may take. ``searches``
    names the choices searched in the endgame ("draw", "discard", "meld": melding now instead
    of holding); none by default, since the search only added noise to own progress (51.4%
    against 53.4% over 1,000 traditional deals, docs/bots.md). ``progress`` (3 by default) picks the
    master's own discard (and, with "draw" in ``progress_choices``, pile or stock) by how often
    the hand alone goes out within ``progress`` draws, over ``progress_samples`` draw orders
    shared by every candidate (``progress.py``): no guess at the opponent's hand, and no
    candidate more dangerous than the expert's discard; the expert's choice is left for a gain
    above ``progress_margin`` and ``progress_z`` standard errors (``progress_discount`` < 1
    counts going out at the t-th draw as ``progress_discount ** (t - 1)``: sooner is safer from
    the opponent going out first). The endgame search, if any,
    then starts from that choice. ``hold_points`` caps the points of melds held back for
    Rummy (None: no cap; by default ``HOLD_POINTS`` by rules: none in Rummy Royal, else the
    style's, the expert's 40); ``style`` is also what the imagined expert players and
    the judge of past turns play by. docs/bots.md has the figures for each choice.
    """

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 24,
        budget: float = 0.5,
        horizon: int = 60,
        candidates: int = 3,
        margin: float = 0.05,
        style: Style | None = None,
        endgame: int = 5,
        close: float = -1.0,
        z: float = 1.0,
        penalty_scale: float = 100.0,
        inference: bool = True,
        history: bool = True,
        early: int = 8,
        consistent: int = 0,
        pool: int = 4,
        misfit_weight: float = 0.1,
        fit_draws: bool = False,
        fit_checks: int = 60,
        fit_branch: int = 0,
        sampling: float = 0.25,
        searches: tuple[str, ...] = (),
        progress: int = 3,
        progress_samples: int = 100,
        progress_candidates: int = 4,
        progress_margin: float = 0.02,
        progress_z: float = 2.0,
        progress_choices: tuple[str, ...] = ("discard", "draw"),
        progress_discount: float = 1.0,
        hold_points: int | Literal["by rules"] | None = "by rules",
    ) -> None:
        super().__init__(seed, style)
        self.margin = margin
        self.worlds = worlds
        self.budget = budget
        self.horizon = horizon
        self.candidates = candidates
        self.endgame = endgame
        self.close = close
        self.z = z
        self.penalty_scale = penalty_scale
        self.searched = 0  # searches made and searches that left the expert's choice
        self.deviated = 0
        self.evidence = (0.0, 0.0)  # the last search's mean gain over the expert, its SE
        self.inference = inference
        self.history = history
        self.early = early
        self.consistent = consistent
        self.pool = pool
        self.misfit_weight = misfit_weight
        self.fit_draws = fit_draws
        self.fit_checks = fit_checks
        self.fit_branch = fit_branch
        self.sampling = sampling
        self.searches = tuple(searches)
        self.progress = progress
        self.progress_samples = progress_samples
        self.progress_candidates = progress_candidates
        self.progress_margin = progress_margin
        self.progress_z = progress_z
        self.progress_choices = tuple(progress_choices)
        self.progress_discount = progress_discount
        self.hold_points = hold_points
        self.progressed = 0  # own-progress choices made and those that left the expert's
        self.progress_deviated = 0
        self._weights_key: tuple | None = None
        self._weights_found: list[float] = []

    # --- choices -----------------------------------------------------------------------

    def choose_draw(self, turn: Turn) -> str:
        seen = turn.seen
        expert = super().choose_draw(turn)
        forced = self._forced_draw(turn, expert)
        if forced is not None:
            return forced
        if self.progress > 0 and "draw" in self.progress_choices:
            expert = self.progress_draw(turn, expert)
        if (not self.critical(seen) and self.close < 0) or "draw" not in self.searches:
            return expert  # away from the endgame the expert's draw stands
        options = [("draw", "stock"), ("draw", "discard")]
        best = self.search(seen, options, preferred=("draw", expert))
        return best[1]

    def _forced_draw(self, turn: Turn, expert: str) -> str | None:
        """The draw when there is nothing to weigh (no pile card or no stock; the pile card
        wins the deal now; a costly pile card that joins nothing), else None."""
        seen = turn.seen
        top = seen.top
        if top is None or seen.stock_size == 0:
            return expert
        if Turn(after_taking(seen, top), self._memo).going_out():
            return "discard"  # taking it wins the deal now: nothing to search
        if not turn.places(top) and turn.rules.card_points(top) > self.style.take_limit + 2:
            return expert  # a costly card that joins nothing: not worth a search
        return None

    def plan_turn(self, turn: Turn) -> list[Action]:
        seen = turn.seen
        plans = self.candidate_plans(turn, self.critical(seen))
        lead = plans[0]
        if self.progress > 0 and "discard" in self.progress_choices:
            lead = self.progress_plan(turn, plans[0])
        if len(plans) == 1:
            return lead
        if lead not in plans:
            plans.append(lead)
        options = [("plan", i) for i in range(len(plans))]
        best = self.search(seen, options, preferred=options[plans.index(lead)], plans=plans)
        return plans[best[1]]

    def hold_cap(self, rules: Rules) -> int | None:
        """``hold_points``; by default the cap of ``HOLD_POINTS`` for the rules (the style's
        for rules not named there)."""
        if self.hold_points == "by rules":
            return HOLD_POINTS.get(rules.name, self.style.hold_points)
        return self.hold_points

    # --- own progress ------------------------------------------------------------------

    def progress_plan(self, turn: Turn, plan: list[Action]) -> list[Action]:
        """The expert's plan with its discard chosen by the chance of going out soon."""
        pick = self.progress_discards(turn, plan)
        if pick is None:
            return plan
        self._count(pick)
        return plan if pick.best == 0 else [*plan[:-1], Action.discard(pick.options[pick.best])]

    def progress_draw(self, turn: Turn, expert: str) -> str:
        """Pile or stock by the chance of going out within ``progress`` draws."""
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
        rest = list(turn.hand)
        for move in moves:
            for card in placed(move):
                rest.remove(card)
        safe = self.danger(turn, chosen, memory)
        cards = [chosen] + [
            card
            for _, card in self.discard_choices(turn, rest, memory)
            if card != chosen and self.danger(turn, card, memory) <= safe
        ]
        cards = cards[: self.progress_candidates]
        if len(cards) < 2:
            return None
        sim, orders, policy = self._progress_tools(turn, memory)
        if not orders:
            return None
        hands = [[c for c in turn.hand if c != card] for card in cards]
        rates = [
            out_rates(sim, hand, orders, policy, None, self.progress_discount) for hand in hands
        ]
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
        discount = self.progress_discount
        rates = [
            out_rates(
                sim, turn.hand, orders, policy, seen.top if o == "discard" else None, discount
            )
            for o in options
        ]
        return ProgressPick(options, rates, self._progress_pick(rates))

    def _progress_tools(self, turn: Turn, memory: Memory):
        """A turn with nothing barred (later turns may discard any card), the draw orders
        (seeded by the position, as every choice of the bot), and the expert's discard."""
        seen = turn.seen
        sim = Turn(replace(seen, taken=None), self._memo)
        rng = random.Random(self.rng(seen).getrandbits(64) ^ 0x0DDBA11)
        orders = draw_orders(memory, self.progress, self.progress_samples, rng)

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
        gain passes ``progress_margin`` and ``progress_z`` standard errors; else 0."""
        best, best_gain = 0, 0.0
        for i in range(1, len(rates)):
            mean, error = paired([a - b for a, b in zip(rates[i], rates[0], strict=True)])
            if mean > max(self.progress_margin, self.progress_z * error) and mean > best_gain:
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
        found = self._progress_reason(seen, action) if self.progress > 0 else None
        return found or super().reason(seen, action)

    def _progress_reason(self, seen: Seen, action: Action) -> tuple[str, dict] | None:
        turn = self.turn(seen)
        if action.kind == "draw" and "draw" in self.progress_choices:
            expert = super().choose_draw(turn)
            if self._forced_draw(turn, expert) is not None:
                return None
            pick = self.progress_draws(turn, expert)
            key = "take" if action.source == "discard" else "stock"
        elif action.kind == "discard" and "discard" in self.progress_choices:
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
            "draws": self.progress,
        }

    def critical(self, seen: Seen) -> bool:
        """Is the deal near its end (an opponent or the master close to going out)?"""
        if self.endgame <= 0:
            return False
        others = [n for s, n in enumerate(seen.hand_sizes) if s != seen.seat]
        return min(others) <= self.endgame

    def candidate_plans(self, turn: Turn, critical: bool = False) -> list[list[Action]]:
        """The expert's plan first, then other discards and melding now instead of holding.

        Away from the endgame only discards scored within ``close`` of the expert's own are
        kept: where the expert's choice is clear, a search would only add noise."""
        memory = self.memory(turn.seen)
        plays = [self.table_plays(turn)]
        every = turn.table_plays()
        if every != plays[0] and "meld" in self.searches:
            plays.append(every)  # the expert holds melds for Rummy; also try melding now
        plans: list[list[Action]] = []
        for moves in plays:
            rest = list(turn.hand)
            for move in moves:
                for card in placed(move):
                    rest.remove(card)
            choices = self.discard_choices(turn, rest, memory)
            choices = choices[: self.candidates if "discard" in self.searches else 1]
            if not critical:
                choices = choices[:1] + [
                    c for c in choices[1:] if c[0] <= choices[0][0] + self.close
                ]
            for _, card in choices:
                plans.append([*moves, Action.discard(card)])
        if not critical and len(plays) > 1:
            plans = [p for p in plans if p[: len(plays[0])] == plays[0]] or plans[:1]
        return plans

    # --- the search --------------------------------------------------------------------

    def search(
        self,
        seen: Seen,
        options: list[tuple[str, object]],
        preferred: tuple[str, object] | None = None,
        plans: list[list[Action]] | None = None,
    ) -> tuple[str, object]:
        """The expert's option unless another one did clearly better in the same worlds.

        Playouts are noisy (a win or a loss swings the score by 2), so the master leaves the
        expert's choice only when an option's mean gain over it, world by world, is above
        ``margin`` and above ``z`` standard errors (1.64 would be a one-sided 95% test; the
        default 1.0 leaves the expert more readily, as measured in docs/bots.md).
        """
        self.searched += 1
        start = time.perf_counter()
        base = options.index(preferred) if preferred in options else 0
        scores: list[list[float]] = [[] for _ in options]
        rng = self.rng(seen)
        memory = self.memory(seen)
        alive = list(range(len(options)))
        worlds = self.sample_worlds(seen, memory, rng, start)
        for count, world in enumerate(worlds):
            if self.early and count == self.early:
                # Options no better than the expert's after a few worlds are dropped: most
                # searches end here, as the expert's choice is usually as good as any.
                alive = [i for i in alive if i == base or sum(scores[i]) > sum(scores[base])]
                if len(alive) == 1:
                    break
            row = []
            for i in alive:
                if time.perf_counter() - start > self.budget:
                    break  # out of time: this world is left out for every option
                row.append(self.playout(seen, world, options[i], plans))
            if len(row) < len(alive):
                break
            for i, score in zip(alive, row, strict=True):
                scores[i].append(score)
        best, best_gain = base, 0.0
        self.evidence = (0.0, 0.0)  # the chosen option's mean gain and its standard error
        for i in alive:
            if i == base:
                continue
            mean, error = paired([a - b for a, b in zip(scores[i], scores[base], strict=True)])
            if mean > max(self.margin, self.z * error) and mean > best_gain:
                best, best_gain, self.evidence = i, mean, (mean, error)
        self.deviated += best != base
        return options[best]

    def sample_worlds(
        self, seen: Seen, memory: Memory, rng: random.Random, start: float
    ) -> list[World]:
        """``worlds`` worlds for one search. With ``consistent`` > 0, ``pool`` times as many
        are dealt and each is weighted by ``misfit_weight`` to the power of the opponents'
        recent decisions (their last ``consistent`` turns) that an expert holding the world's
        cards would have made otherwise (``consistency.py``); ``worlds`` of them are kept by
        weighted sampling without replacement (Efraimidis-Spirakis keys), best keys first."""
        if self.consistent <= 0:
            return [self.sample_world(seen, memory, rng) for _ in range(self.worlds)]
        others = [s for s in range(seen.players) if s != seen.seat]
        turns = {s: past_turns(seen, s, self.consistent) for s in others}
        judge = Judge(self.seed, self.style, self._memo)
        keyed = []
        for count in range(self.pool * self.worlds):
            if count >= self.worlds and time.perf_counter() - start > self.budget * self.sampling:
                break  # a share of the budget at most goes to finding likely worlds
            world = self.sample_world(seen, memory, rng)
            likely = 1.0
            for seat in others:
                likely *= self.fit_weight(turns[seat], list(world.hands[seat]), judge, rng)
            keyed.append((rng.random() ** (1.0 / likely), count, world))
        keyed.sort(key=lambda k: (-k[0], k[1]))
        return [k[2] for k in keyed[: self.worlds]]

    def fit_weight(self, turns, hand: list[Card], judge: ExpertBot, rng: random.Random) -> float:
        """A world's weight for one opponent: ``misfit_weight`` to the power of its misfits,
        or with ``fit_branch`` > 0 (and ``fit_draws``) that weight averaged over up to
        ``fit_branch`` cards per stock draw (``consistency.fit_likelihood``)."""
        if self.fit_draws and self.fit_branch > 0:
            verdicts = Verdicts(turns, judge)
            return fit_likelihood(verdicts, hand, rng, self.misfit_weight, self.fit_branch)
        return self.misfit_weight ** self.misfits(turns, hand, judge, rng)

    def misfits(self, turns, hand: list[Card], judge: ExpertBot, rng: random.Random) -> int:
        """The opponent's decisions an expert holding ``hand`` would have made otherwise:
        stock draws' cards picked at random, or with ``fit_draws`` chosen to fit (so the real
        hand always fits, however deep the check goes; ``consistency.fewest_misfits``)."""
        if self.fit_draws:
            return fewest_misfits(turns, hand, judge, rng, self.fit_checks)
        return misfits(turns, hand, judge, rng)

    def sample_world(self, seen: Seen, memory: Memory, rng: random.Random) -> World:
        """Hidden cards dealt at random from the unseen ones: known pick-ups stay where the
        log put them; nothing here comes from outside the observation."""
        pool = list(memory.unseen)
        rng.shuffle(pool)
        hands = []
        for seat in range(seen.players):
            if seat == seen.seat:
                hands.append(tuple(seen.hand))
                continue
            hidden = memory.hidden_count(seen, seat)
            if self.inference:
                weights = self._weights(seen, memory, seat)
                picked, pool = weighted_pick(pool, weights, hidden, rng)
            else:
                picked, pool = pool[:hidden], pool[hidden:]
            hands.append(tuple(memory.known[seat]) + tuple(picked))
        return World(tuple(hands), tuple(pool[: seen.stock_size]))

    def _weights(self, seen: Seen, memory: Memory, seat: int) -> list[float]:
        """``face_weights`` once per position and seat (every world of a search shares them)."""
        key = (len(seen.log), seen.seat, seat, tuple(c.id for c in seen.hand))
        if self._weights_key != key:
            self._weights_key, self._weights_found = key, face_weights(seen, memory, seat)
        return self._weights_found

    def world_game(self, seen: Seen, world: World) -> Game:
        """The sampled world as a game at this very moment of the seat's turn."""
        hands = [list(h) for h in world.hands]
        stock = list(world.stock)
        discard = list(seen.discard_pile)
        me = seen.seat
        source = None
        if seen.phase == "play":
            # Rebuild "just drew": the card taken goes back where it came from, then is drawn.
            if seen.taken is not None:
                card, source = seen.taken, "discard"
                discard.insert(0, card)
            else:
                card, source = hands[me][-1], "stock"
                stock.insert(0, card)
            hands[me].remove(card)
        game = Game.from_layout(
            hands=hands,
            stock=stock,
            discard=discard,
            rules=seen.rules,
            current_player=me,
            melds=[(list(m.cards), m.owner) for m in seen.melds],
            has_melded=list(seen.has_melded),
            seed=self.seed,
        )
        game.rebuilds = seen.rebuilds
        if source is not None:
            game.draw(source)
        if self.history:
            # The deal's public log so far: the imagined players remember what the real ones
            # saw (their discards, the pick-ups), as the expert does at the real table.
            game._log = list(seen.log)
        return game

    def playout(
        self,
        seen: Seen,
        world: World,
        option: tuple[str, object],
        plans: list[list[Action]] | None,
    ) -> float:
        """Play the option, then expert play for everyone; score from the seat's view."""
        game = self.world_game(seen, world)
        kind, value = option
        if kind == "draw":
            game.draw(value)
        else:
            for action in plans[value]:
                if game.phase == "over":
                    break
                game.apply(action)
        bots = [ExpertBot(self.seed + s, self.style) for s in range(seen.players)]
        for bot in bots:
            bot._memo = self._memo  # same rules, same answers: share the solver cache
        moves = 0
        while game.phase != "over" and moves < self.horizon:
            seat = game.current_player
            game.apply(bots[seat].act(game.observation(seat)), seat)
            moves += 1
        return self.score(game, seen.seat, bots)

    def score(self, game: Game, me: int, bots: list[ExpertBot]) -> float:
        """A finished deal: +1 for a win, -1 for a loss, plus the penalty difference in units
        of 25 points. An unfinished one: the difference of the hands' expert values (penalty
        less the live outs), in the same units."""
        result = game.result
        others = [p for p in range(game.players) if p != me]
        if result is not None:
            if result.void:
                return 0.0
            won = 1.0 if result.winner == me else -1.0
            spread = sum(result.penalties[p] for p in others) / len(others) - result.penalties[me]
            return won + spread / self.penalty_scale
        values = []
        for seat, bot in enumerate(bots):
            seen = Seen.read(game.observation(seat))
            turn = bot.turn(seen)
            values.append(bot.value(turn, seen.hand, bot.memory(seen)))
        spread = sum(values[p] for p in others) / len(others) - values[me]
        return max(-1.0, min(1.0, spread / 25))
