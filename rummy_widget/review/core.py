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

from ..bots.expert import ExpertBot
from ..bots.progress import paired
from ..bots.seen import Seen
from ..engine.actions import Action
from ..engine.game import Game
from ..errors import RuleError
from ..i18n import check_lang, t
from .evaluate import Measured, measure, options, same_choice
from .result import Decision, Option, Review

#: The default budget: worlds per decision, other options per decision, the standard errors a
#: difference must pass (and the points it must reach) to be called a mistake or a find.
SAMPLES = 12
ALTERNATIVES = 2
Z = 2.0
MIN_POINTS = 1.0
#: A lead of this many standard errors is looked at again, in ``CONFIRM`` fresh worlds.
SCREEN = 1.0
CONFIRM = 32


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


def judge(
    move: int,
    observation: dict,
    played: Action,
    measured: list[Measured],
    expert: Action,
    z: float,
    min_points: float,
    take_backs: int,
    check: Callable[[Action], list[Measured]] | None = None,
) -> Decision:
    """The verdict on one decision from its options' figures (the first is the played one).

    With ``check``, a lead that looks real (at least ``SCREEN`` standard errors) is measured
    again in fresh worlds, the played move against that one option alone, and the verdict and
    figures come from that second look: picking the best of several noisy options favours
    whichever was lucky, and fresh worlds do not share that luck."""
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
    )

    def looked_again(other: Measured) -> tuple[Measured, Measured, int]:
        if check is None or other.gain == 0 or abs(other.gain) < SCREEN * other.error:
            return measured[0], other, 0
        again = check(other.action)
        return again[0], again[1], len(again[0].scores)

    if best.gain > 0:
        mine, other, checked = looked_again(best)
        clear, gain, error = clearly_ahead(other.scores, mine.scores, z, min_points)
        return Decision(
            better=best.action,
            cost=max(0.0, gain),
            error=error,
            verdict="mistake" if clear else "about_equal",
            checked=checked,
            **common,
        )
    rival = next((m for m in measured[1:] if same_choice(m.action, expert)), None)
    if rival is not None and rival.gain < 0:
        mine, other, checked = looked_again(rival)
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
    progress: bool | Callable[[int, int], object] = False,
) -> Review:
    """Review ``seat``'s decisions in ``game`` (finished or not); see docs/review.md.

    ``samples`` worlds per decision and ``alternatives`` other options besides the played
    move set the budget (time grows with their product); a lead that looks real is measured
    again in ``confirm`` fresh worlds (0: never), and the verdict comes from that second look.
    A decision is a mistake when the best option beat the played move by ``z`` standard errors
    and at least ``min_points`` points.
    ``progress=True`` shows a tqdm bar (a notebook's bar in Jupyter); a function instead is
    called with (moves looked at, moves in all) after each of the seat's moves (a table's
    progress line)."""
    lang = check_lang(lang or game.lang)
    seat = game._seat(seat)
    if samples < 1 or alternatives < 1 or confirm < 0:
        raise RuleError("bad_review_budget", lang, samples=samples, alternatives=alternatives)
    steps = list(positions(game, seat))
    taken_back = take_backs_by_move(game, seat, [move for move, _, _ in steps])
    bar = None
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(steps), desc=t("review.progress", lang), leave=False)
    memo: dict = {}
    decisions = []
    for done, (move, observation, played) in enumerate(steps, 1):
        seen = Seen.read(observation)
        bot = ExpertBot(seed)
        bot._memo = memo
        expert = ExpertBot(seed).decide(seen)  # a fresh bot: no plan kept from another move
        actions = options(seen, played, expert, bot, alternatives)
        if len(actions) > 1:
            rng = random.Random(f"review:{seed}:{move}")
            measured = measure(observation, actions, samples, rng, memo)
            took = taken_back.get(move, 0)
            check = None
            if confirm:
                again = random.Random(f"review-check:{seed}:{move}")

                def check(action, observation=observation, played=played, again=again):
                    return measure(observation, [played, action], confirm, again, memo)

            decisions.append(
                judge(move, observation, played, measured, expert, z, min_points, took, check)
            )
        if bar is not None:
            bar.update(1)
        elif callable(progress):
            progress(done, len(steps))
    if bar is not None:
        bar.close()
    return Review(seat, tuple(decisions), tuple(game.names), lang, samples, seed)
