"""``review(game, seat)``: every decision of one seat, judged by what it knew at the time.

The deal is replayed from its save; before each of the seat's moves the review takes the
seat's observation (only that: the ``Game`` itself never reaches the evaluation), lists the
options worth comparing (``evaluate.options``) and measures them by playouts in worlds dealt
from the observation (``sampling.py``). Seeds come from ``seed`` and the move's index alone,
so the same call gives the same review.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..bots.expert import ExpertBot
from ..bots.progress import paired
from ..bots.seen import Seen
from ..engine.actions import Action
from ..engine.game import Game
from ..errors import RuleError
from ..i18n import check_lang
from .budget import BUDGET, first_look_worlds, second_looks, worlds_of
from .evaluate import Measured, measure, options, same_choice
from .patterns import Finding, spot
from .progress import Bar
from .result import Decision, Option, Review, grade_of

#: The default budget: worlds per decision, other options per decision, the standard errors a
#: difference must pass (and the points it must reach) to be called a mistake or a find.
SAMPLES = 12
ALTERNATIVES = 2
Z = 2.5
MIN_POINTS = 1.0
#: A lead of this many standard errors is looked at again, in ``CONFIRM`` fresh worlds.
SCREEN = 1.0
CONFIRM = 32
#: A learner's blunder named by the cheap look stands unless the playouts put the played move
#: ahead by this many standard errors.
AGAINST = 2.0


def positions(game: Game, seat: int) -> Iterator[tuple[int, dict, Action]]:
    """(index in the history, the seat's observation just before, the move) for each move of
    ``seat``; replayed from the save, so the reviewed game is left as it was."""
    replay = Game.from_dict(game.to_dict(), upto=0)
    for index, (player, action) in enumerate(game.history):
        if player == seat:
            yield index, replay.observation(seat), action
        replay.apply(action, player)


def take_backs_by_move(game: Game, seat: int, moves: list[int]) -> dict[int, int]:
    """How many of the seat's take-backs belong to each of its moves: a take-back at history
    index ``m`` undid a move of the turn whose last move now stands at or before ``m``."""
    found: dict[int, int] = {}
    for back in game.take_backs:
        if back.player == seat:
            at = bisect.bisect_right(moves, back.move) - 1
            if at >= 0:
                found[moves[at]] = found.get(moves[at], 0) + 1
    return found


def clearly_ahead(
    ahead: tuple[float, ...], behind: tuple[float, ...], z: float, min_points: float
) -> tuple[bool, float, float]:
    """Did the results ``ahead`` beat ``behind`` (world by world) by at least ``z`` standard
    errors and ``min_points``? Also the mean gain and its standard error."""
    gain, error = paired([a - b for a, b in zip(ahead, behind, strict=True)])
    return gain >= max(min_points, z * error), gain, error


def rival_of(measured: list[Measured], expert: Action) -> Measured | None:
    """The expert's choice among the options, if it was tried and lost to the played move."""
    rival = next((m for m in measured[1:] if same_choice(m.action, expert)), None)
    return rival if rival is not None and rival.gain < 0 else None


def contested(
    measured: list[Measured], expert: Action, finding: Finding | None = None
) -> Measured | None:
    """The option a second look would measure against the played move: a learner's blunder's
    better move whatever the first look said; else the best one if it beat the played move, else
    the expert's choice if it lost to it; None when that lead is below ``SCREEN`` standard errors
    (it cannot pass the verdict's test either)."""
    if finding is not None:
        return next(m for m in measured if same_choice(m.action, finding.better))
    best = max(measured, key=lambda m: m.gain)  # the played move (gain 0) wins ties
    other = best if best.gain > 0 else rival_of(measured, expert)
    if other is None or other.gain == 0 or abs(other.gain) < SCREEN * other.error:
        return None
    return other


def judge(
    move: int,
    observation: dict,
    played: Action,
    measured: list[Measured],
    expert: Action,
    z: float,
    min_points: float,
    take_backs: int,
    again: list[Measured] | None = None,
    unchecked: bool = False,
    finding: Finding | None = None,
) -> Decision:
    """The verdict on one decision from its options' figures (the first is the played one).

    ``again`` is the second look at the ``contested`` option (the played move and that option
    in fresh worlds): the verdict and figures come from it, since picking the best of several
    noisy options favours whichever was lucky, and fresh worlds do not share that luck.
    ``unchecked``: the lead deserved a second look that the budget did not reach, so the first
    look alone never makes it a mistake or a find."""
    best = max(measured, key=lambda m: m.gain)  # the played move (gain 0) wins ties
    chosen = [Option(m.action, m.mean, m.gain, m.error) for m in measured]
    common = dict(
        move=move,
        seat=observation["seat"],
        played=played,
        expert=expert,
        options=tuple(chosen),
        samples=len(measured[0].scores),
        observation=observation,
        take_backs=take_backs,
        unchecked=unchecked,
        finding=finding,
    )
    if finding is not None:
        flagged = judge_finding(measured, expert, z, min_points, again, finding, common)
        if flagged is not None:
            return flagged
        if again is not None and not same_choice(best.action, finding.better):
            again = None  # the second look measured the blunder's move, not this lead
            common["unchecked"] = best.gain > 0
    mine, other, checked = measured[0], best, 0
    if again is not None:
        mine, other, checked = again[0], again[1], len(again[0].scores)
    if best.gain > 0:
        clear, gain, error = clearly_ahead(other.scores, mine.scores, z, min_points)
        return Decision(
            better=best.action,
            cost=max(0.0, gain),
            error=error,
            verdict="mistake" if clear and not unchecked else "about_equal",
            grade=grade_of(gain) if clear and not unchecked else "good",
            checked=checked,
            **common,
        )
    rival = rival_of(measured, expert)
    if rival is not None and not unchecked:
        if again is None:
            other = rival
        clear, gain, error = clearly_ahead(mine.scores, other.scores, z, min_points)
        if clear:
            return Decision(
                better=None,
                cost=0.0,
                error=error,
                verdict="find",
                margin=gain,
                checked=checked,
                **common,
            )
    error = max((m.error for m in measured[1:]), default=0.0)
    return Decision(better=None, cost=0.0, error=error, verdict="best", **common)


def judge_finding(
    measured: list[Measured],
    expert: Action,
    z: float,
    min_points: float,
    again: list[Measured] | None,
    finding: Finding,
    common: dict,
) -> Decision | None:
    """The verdict on a learner's blunder (``patterns.py``), or None when the playouts speak
    against it. The cheap look names it; the playouts of the played move and the better one
    (the second look when there was one) must not contradict it: the played move may not be
    ahead by ``AGAINST`` standard errors. A sure one (going out now) stands whatever they say.
    The expert's own choice (what Hint advised) is called a mistake only on the full test (``z``
    standard errors and ``min_points``) over a second look's worlds, so Hint and Review never
    disagree on a few worlds' say-so."""
    if again is not None:
        mine, other = again
    else:
        mine = measured[0]
        other = next(m for m in measured if same_choice(m.action, finding.better))
    gain, error = paired([a - b for a, b in zip(other.scores, mine.scores, strict=True)])
    if same_choice(common["played"], expert):
        agreed = again is not None and gain >= max(min_points, z * error)
    else:
        agreed = finding.sure or gain > -AGAINST * error
    if not agreed:
        return None
    return Decision(
        better=finding.better,
        cost=max(0.0, gain),
        error=error,
        verdict="mistake",
        grade=grade_of(finding.gap),
        checked=len(again[0].scores) if again is not None else 0,
        **common,
    )


@dataclass(frozen=True)
class Step:
    """One of the seat's decisions on its way through the review: the first look's figures and
    the option a second look would measure (None: no lead worth one)."""

    move: int
    observation: dict
    played: Action
    expert: Action
    measured: list[Measured]
    contested: Measured | None
    finding: Finding | None = None


def lookup(
    move: int, observation: dict, played: Action, seed: int, alternatives: int, memo: dict
) -> tuple:
    """One decision before any playout: the expert's (Hint's) choice, the options to measure
    and the learner's blunder the cheap look names, if any."""
    seen = Seen.read(observation)
    bot = ExpertBot(seed)
    bot._memo = memo
    expert = ExpertBot(seed).decide(seen)  # a fresh bot: no plan kept from another move
    finding = spot(seen, played, memo)
    better = finding.better if finding else None
    tried = options(seen, played, expert, bot, alternatives, better)
    if better is not None and not any(same_choice(better, a) for a in tried):
        finding = None  # not a legal move after all: nothing to stand by
    return move, observation, played, expert, tried, finding


def review(
    game: Game,
    seat: int,
    lang: str | None = None,
    seed: int = 0,
    samples: int = SAMPLES,
    alternatives: int = ALTERNATIVES,
    z: float = Z,
    min_points: float = MIN_POINTS,
    confirm: int = CONFIRM,
    budget: int = BUDGET,
    progress: bool | Callable[[int, int], object] = False,
) -> Review:
    """Review ``seat``'s decisions in ``game`` (finished or not); see docs/review.md.

    ``samples`` worlds per decision and ``alternatives`` other options besides the played
    move; a lead that looks real is measured again in ``confirm`` fresh worlds (0: never), and
    the verdict comes from that second look. ``budget`` caps the playouts of the whole review
    (the time grows with it): a long deal's first look gets fewer worlds per decision (at
    least ``MIN_WORLDS``), and the second looks go to learners' blunders, then to the largest
    leads first until the budget is spent; a lead left without one is "about equal". A
    learner's blunder named by the cheap look (``patterns.py``) is a mistake unless the
    playouts speak against it; any other decision is a mistake when the best option beat the
    played move by ``z`` standard errors and at least ``min_points`` points.
    ``progress=True`` shows a tqdm bar (a notebook's bar in Jupyter); a function instead is
    called with (steps done, steps in all) after each of the seat's moves and then
    after each second look (their number joins the total once the first looks are done)."""
    lang = check_lang(lang or game.lang)
    seat = game._seat(seat)
    if samples < 1 or alternatives < 1 or confirm < 0:
        raise RuleError("bad_review_budget", lang, samples=samples, alternatives=alternatives)
    if budget < 1:
        raise RuleError("bad_review_playouts", lang, budget=budget)
    moves = list(positions(game, seat))
    taken_back = take_backs_by_move(game, seat, [move for move, _, _ in moves])
    memo: dict = {}
    listed = [lookup(move, obs, played, seed, alternatives, memo) for move, obs, played in moves]
    worlds = first_look_worlds(
        [len(item[4]) for item in listed if len(item[4]) > 1], samples, budget, confirm
    )
    bar = Bar(progress, len(moves), lang)
    steps, spent = [], 0
    for move, observation, played, expert, actions, finding in listed:
        if len(actions) > 1:
            rng = random.Random(f"review:{seed}:{move}")
            measured = measure(observation, actions, worlds, rng, memo)
            spent += worlds * len(actions)
            found = contested(measured, expert, finding) if confirm else None
            steps.append(Step(move, observation, played, expert, measured, found, finding))
        bar.step()
    second = second_looks(steps, budget - spent, confirm)
    bar.more(len(second))
    again = {}
    for step in second:
        rng = random.Random(f"review-check:{seed}:{step.move}")
        pair = [step.played, step.contested.action]
        looked = worlds_of(step, confirm)
        again[step.move] = measure(step.observation, pair, looked, rng, memo)
        spent += 2 * looked
        bar.step()
    bar.close()
    decisions = [
        judge(
            s.move,
            s.observation,
            s.played,
            s.measured,
            s.expert,
            z,
            min_points,
            taken_back.get(s.move, 0),
            again.get(s.move),
            unchecked=s.contested is not None and s.move not in again,
            finding=s.finding,
        )
        for s in steps
    ]
    return Review(seat, tuple(decisions), tuple(game.names), lang, worlds, seed, spent)
