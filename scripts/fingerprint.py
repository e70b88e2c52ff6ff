"""A fingerprint of the engine's, the solver's and the bots' behaviour, for refactors.

A change that should not change behaviour (moving files, renaming, cleaning up) must leave
this script's output identical: run it before and after and compare. It prints one hash per
part: seeded games of every rung of the bot ladder in both presets (every move of every game),
a fixed-seed tournament's records, and the solver's answers on seeded random hands.

    python scripts/fingerprint.py            # the whole fingerprint (about a minute)
    python scripts/fingerprint.py --quick    # fewer games and hands (seconds)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from rummy_widget import Game, Rules, best_arrangement, get_bot, min_penalty, tournament
from rummy_widget.bots.tournament import play_game
from rummy_widget.engine.cards import DECK

RUNGS = ("random", "basic", "expert", "master")
PRESETS = ("traditional", "rummy_royal")


def _digest(items: object) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:16]


def games(count: int) -> str:
    """Every move of seeded games: each rung against each other rung, both presets."""
    played = []
    for preset in PRESETS:
        for i, first in enumerate(RUNGS):
            for second in RUNGS[i:]:
                if "master" in (first, second) and count < 2:
                    continue
                for seed in range(count):
                    bots = [get_bot(first, seed=seed), get_bot(second, seed=seed + 1)]
                    game = play_game(Game(2, preset, seed=seed), bots)
                    played.append([[p, a.to_json()] for p, a in game.history])
    return _digest(played)


def records(deals: int) -> str:
    """A tournament's records on a fixed seed, played in this process."""
    result = tournament(
        ["basic", "expert", "random"], deals=deals, seed=5, executor=None, progress=False
    )
    return _digest([list(map(str, r.__dict__.values())) for r in result.records])


def answers(count: int) -> str:
    """The solver's answers (melds, lay-offs, leftover, penalty) on seeded random hands."""
    rng = random.Random(11)
    out = []
    for preset in PRESETS:
        rules = Rules.preset(preset)
        deck = list(DECK)
        for _ in range(count):
            hand = rng.sample(deck, rng.choice((7, 10, 11, 13)))
            best = best_arrangement(hand, rules)
            out.append([repr(best), min_penalty(hand, rules)])
    return _digest(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and hands")
    quick = parser.parse_args().quick
    print("games  ", games(1 if quick else 3))
    print("records", records(4 if quick else 20))
    print("answers", answers(300 if quick else 3000))


if __name__ == "__main__":
    main()
