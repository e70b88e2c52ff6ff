"""Steps per second of the PettingZoo environment, beside PettingZoo's ``gin_rummy_v4``.

    python benchmarks/env.py                  # 2 players, traditional, 5 rounds of 3 s each
    python benchmarks/env.py --rounds 3 --seconds 2 --tables 2:traditional 4:rummy_royal

Both environments are played the same way: ``env.last()``, then a uniformly random legal move
from the action mask (``np.flatnonzero`` and a seeded NumPy generator), through the usual
wrappers (``env()``), new deals until the round's time is up. Rounds alternate between the two,
so a busy machine slows both alike; time is CPU time of this process (``time.process_time``).
Prints each round, the medians and the ratio (goal: at least 2x ``gin_rummy_v4`` with two
players, docs/env.md). Needs the ``[bench]`` extra: ``gin_rummy_v4`` is in PettingZoo before
1.27, through RLCard.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy_widget.env import env as rummy_env

GIN = "gin_rummy_v4 (2 players)"


def steps_per_second(make, seconds: float, seed: int) -> tuple[float, int, int]:
    """Random masked moves for ``seconds`` of CPU time: (steps/s, steps, deals)."""
    game = make()
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game.reset()
        for _ in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
            else:
                game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        deals += 1
    return steps / (time.process_time() - start), steps, deals


def gin_rummy():
    try:
        from pettingzoo.classic import gin_rummy_v4
    except ImportError as err:  # PettingZoo 1.27 dropped it; RLCard or pygame may be missing
        sys.exit(f"gin_rummy_v4 is not available ({err}): pip install -e '.[bench]'")
    return gin_rummy_v4.env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--tables",
        nargs="+",
        default=["2:traditional"],
        help="players:rules for this environment (the first is compared with gin_rummy_v4)",
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # PettingZoo's deprecation notices
    import pettingzoo

    gin = gin_rummy()
    tables = [(int(p), r) for p, r in (t.split(":") for t in args.tables)]
    print(f"python {platform.python_version()}, pettingzoo {pettingzoo.__version__}")
    print(f"{args.rounds} rounds of {args.seconds} s CPU each, alternating")
    makers = {GIN: gin}
    for players, rules in tables:
        makers[f"rummy {players} players, {rules}"] = lambda p=players, r=rules: rummy_env(
            players=p, rules=r
        )
    figures: dict[str, list[float]] = {name: [] for name in makers}
    for round_ in range(args.rounds):
        for name, make in makers.items():
            rate, steps, deals = steps_per_second(make, args.seconds, seed=round_)
            figures[name].append(rate)
            print(
                f"  round {round_ + 1}: {name:32s} {rate:7.0f} steps/s",
                f"({steps} steps, {deals} deals)",
            )
    print("medians:")
    for name, rates in figures.items():
        print(f"  {name:32s} {statistics.median(rates):9.0f} steps/s")
    first = list(figures)[1]
    ours, theirs = statistics.median(figures[first]), statistics.median(figures[GIN])
    print(f"ratio ({first} / gin_rummy_v4): {ours / theirs:.2f}x (goal: at least 2x)")


if __name__ == "__main__":
    main()
