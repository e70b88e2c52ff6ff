"""The review's budget: how many playouts a whole review may run, and where they go.

A review's cost is its playouts times their length (one playout is the rest of an imagined
deal), so a fixed number of worlds per decision made long deals slow. The budget caps the
playouts of the whole review: the first looks share at most ``1 - SECOND_SHARE`` of it
equally (fewer worlds per decision on a long deal), and what they leave pays for second looks,
given to the largest leads first. docs/review.md, "The budget", states the contract.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

from .evaluate import Measured

#: Playouts for a whole review: the first looks take at most ``1 - SECOND_SHARE`` of it (and
#: what they leave goes to second looks); no first look has fewer than ``MIN_WORLDS`` worlds.
BUDGET = 1000
SECOND_SHARE = 1 / 3
MIN_WORLDS = 4
#: A learner's blunder with at least ``BLUNDER_GAP`` points at stake by the cheap look gets
#: ``BLUNDER_LOOK`` times the second look's worlds.
BLUNDER_GAP = 10
BLUNDER_LOOK = 2


class Contested(Protocol):
    """A decision after its first look: the option a second look would measure, if any."""

    move: int
    contested: Measured | None
    finding: object | None  # a learner's blunder spotted (``patterns.Finding``): looked at first


def first_look_worlds(option_counts: list[int], samples: int, budget: int, confirm: int) -> int:
    """Worlds per decision in the first look: ``samples``, or fewer when the deal's decisions
    times their options would take more than the budget's first share (all of it when there
    are no second looks), and never fewer than ``MIN_WORLDS`` (unless ``samples`` is)."""
    share = budget if not confirm else budget - int(budget * SECOND_SHARE)
    playouts = sum(option_counts)
    if not playouts:
        return samples
    return min(samples, max(MIN_WORLDS, share // playouts))


def lead(other: Measured) -> float:
    """How many standard errors the contested option's lead is (any size when no world
    disagreed): the second looks go to the largest leads first."""
    return abs(other.gain) / other.error if other.error else math.inf


def worlds_of(step: Contested, confirm: int) -> int:
    """Worlds of a decision's second look: ``confirm``, and ``BLUNDER_LOOK`` times as many for
    a learner's blunder whose cheap look says the gap is large (a blunder's points): the
    verdict stands on the cheap look, and the figures shown with it deserve more worlds."""
    gap = getattr(step.finding, "gap", 0)
    return confirm * (BLUNDER_LOOK if gap >= BLUNDER_GAP else 1)


def second_looks(steps: Sequence[Contested], left: int, confirm: int) -> list[Contested]:
    """The decisions that get a second look (``2 * worlds_of(step)`` playouts each) out of the
    ``left`` playouts: the contested ones, a learner's blunder first, then the largest lead
    first (then the earlier move), until the next one would not fit."""
    if not confirm:
        return []
    ranked = sorted(
        (s for s in steps if s.contested),
        key=lambda s: (s.finding is None, -lead(s.contested), s.move),
    )
    chosen = []
    for step in ranked:
        cost = 2 * worlds_of(step, confirm)
        if cost > left:
            break
        chosen.append(step)
        left -= cost
    return chosen
