"""Time the solver against RLCard and OpenSpiel on the same seeded hands.

    python benchmarks/solver.py                  # 10,000 hands per row (about a minute)
    python benchmarks/solver.py --hands 2000     # quicker

Rows: this solver on 10- and 11-card hands for both presets (random two-deck hands and hands
built to be hard: long runs, big sets, copies, high aces), cold (every memo cleared before the
row) and warm (the same hands again). Then single-deck 10-card hands, where Traditional Rummy's
arrangement is gin rummy's deadwood (ace low, ace 1, faces 10, sets 3-4, runs 3+): RLCard's
``get_best_meld_clusters`` and OpenSpiel's C++ ``GinRummyUtils.min_deadwood`` (optional
``bench`` extra: ``pip install rlcard open-spiel``; a reference that does not import is
skipped and said so). Prints median and p99 microseconds per hand and the ratios; asserts
nothing. Goals (docs/solver.md): median at most 1/3 of RLCard's, within 4x of OpenSpiel's,
p99 under 50 µs on hard hands.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from solver_bruteforce import hard_hand, random_hand, table_deal  # noqa: E402

from rummy_widget.cards import Card  # noqa: E402
from rummy_widget.rules import Rules  # noqa: E402
from rummy_widget.solver import _core, best_arrangement, min_penalty  # noqa: E402

REPEAT = 3  # warm figures: each hand's best of this many passes (other processes share the cores)


def timed(call, items, repeat: int = 1) -> list[float]:
    """Microseconds per call (best of ``repeat`` passes over the items), garbage collector off."""
    clock = time.perf_counter_ns
    best = [float("inf")] * len(items)
    gc.disable()
    try:
        for _ in range(repeat):
            for i, item in enumerate(items):
                start = clock()
                call(item)
                best[i] = min(best[i], (clock() - start) / 1000)
    finally:
        gc.enable()
    return best


def stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def row(label: str, times: list[float]) -> tuple[float, float]:
    median, p99 = stats(times)
    print(f"  {label:<44} median {median:7.2f} µs   p99 {p99:8.1f} µs")
    return median, p99


def our_rows(hands: int, seed: int) -> dict:
    print(
        f"## This solver ({hands} hands per row; cold = one pass with every memo cleared first,"
        f" warm = best of {REPEAT} more passes)"
    )
    figures = {}
    for name in ("traditional", "rummy_royal"):
        rules = Rules.preset(name)
        for kind in ("random", "hard"):
            for size in (10, 11):
                rng = random.Random(f"{seed}-{name}-{kind}-{size}")
                if kind == "random":
                    deal = [random_hand(rng, size) for _ in range(hands)]
                else:
                    deal = [hard_hand(rng, rules, size) for _ in range(hands)]
                for fn, short in ((min_penalty, "min_penalty"), (best_arrangement, "best_arr.")):
                    _core.clear_caches()
                    cold = timed(lambda h, fn=fn, rules=rules: fn(h, rules), deal)
                    warm = timed(lambda h, fn=fn, rules=rules: fn(h, rules), deal, REPEAT)
                    label = f"{name} {kind} {size} {short}"
                    figures[(name, kind, size, short, "cold")] = row(label + " cold", cold)
                    figures[(name, kind, size, short, "warm")] = row(label + " warm", warm)
        rng = random.Random(f"{seed}-{name}-table")
        deals = [table_deal(rng, rules) for _ in range(hands // 4)]
        for fn, short in ((min_penalty, "min_penalty"), (best_arrangement, "best_arr.")):
            _core.clear_caches()
            times = timed(lambda d, fn=fn, rules=rules: fn(d[0], rules, d[1]), deals)
            row(f"{name} with table melds {short} (new table each)", times)
    return figures


def reference_rows(hands: int, seed: int) -> None:
    print(
        f"\n## Single-deck 10-card hands, traditional = gin deadwood ({hands} hands; warm rows:"
        f" {REPEAT} rounds, each timing every contender in turn, best round per hand)"
    )
    rng = random.Random(f"{seed}-single-deck")
    faces = [rng.sample(range(52), 10) for _ in range(hands)]
    ours = [[Card(f) for f in hand] for hand in faces]
    rules = Rules.preset("traditional")
    _core.clear_caches()
    cold = row("this solver min_penalty, cold", timed(lambda h: min_penalty(h, rules), ours))
    expected = [min_penalty(h, rules) for h in ours]
    contenders = {
        "this solver min_penalty, warm": (lambda h: min_penalty(h, rules), ours),
        "this solver best_arrangement, warm": (lambda h: best_arrangement(h, rules), ours),
    }
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils
    except ImportError as err:
        print(f"  RLCard: not installed ({err}); skipped. pip install rlcard")
    else:
        deck = rl_utils.get_deck()  # RLCard's card id = suit (S, H, D, C) * 13 + rank - 1
        rl_hands = [[deck[f] for f in hand] for hand in faces]
        contenders["RLCard get_best_meld_clusters"] = (melding.get_best_meld_clusters, rl_hands)
        agree = 0
        for hand, want in zip(rl_hands, expected, strict=True):
            clusters = melding.get_best_meld_clusters(hand)
            agree += rl_utils.get_deadwood_count(hand, clusters[0] if clusters else []) == want
        print(f"  RLCard deadwood equals our penalty on {agree}/{hands} hands")
    try:
        import pyspiel

        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    except (ImportError, AttributeError) as err:
        print(f"  OpenSpiel: not installed ({err}); skipped. pip install open-spiel")
    else:
        to_os = {0: 0, 1: 3, 2: 2, 3: 1}  # OpenSpiel suits are s, c, d, h
        os_hands = [[to_os[f // 13] * 13 + f % 13 for f in hand] for hand in faces]
        contenders["OpenSpiel C++ min_deadwood"] = (utils.min_deadwood, os_hands)
        agree = sum(
            utils.min_deadwood(h) == want for h, want in zip(os_hands, expected, strict=True)
        )
        print(f"  OpenSpiel min_deadwood equals our penalty on {agree}/{hands} hands")
    best = {name: [float("inf")] * hands for name in contenders}
    for _ in range(REPEAT):  # interleaved, so a busy moment on the machine hits everyone
        for name, (call, items) in contenders.items():
            best[name] = [min(a, b) for a, b in zip(best[name], timed(call, items), strict=True)]
    results = {name: row(name, times) for name, times in best.items()}
    warm = results["this solver min_penalty, warm"]
    print()
    for which, mine in (("warm", warm), ("cold", cold)):
        if "RLCard get_best_meld_clusters" in results:
            ratio = mine[0] / results["RLCard get_best_meld_clusters"][0]
            verdict = "met" if ratio <= 1 / 3 else "not met"
            print(f"  median {which} / RLCard    = {ratio:5.2f}  (goal <= 0.33: {verdict})")
        if "OpenSpiel C++ min_deadwood" in results:
            ratio = mine[0] / results["OpenSpiel C++ min_deadwood"][0]
            verdict = "met" if ratio <= 4 else "not met"
            print(f"  median {which} / OpenSpiel = {ratio:5.2f}  (goal <= 4: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{os.cpu_count()} cores, seed {args.seed}\n"
    )
    figures = our_rows(args.hands, args.seed)
    for fn in ("min_penalty", "best_arr."):
        cold = max(
            v[1] for k, v in figures.items() if k[1] == "hard" and k[3] == fn and k[4] == "cold"
        )
        warm = max(
            v[1] for k, v in figures.items() if k[1] == "hard" and k[3] == fn and k[4] == "warm"
        )
        print(f"\n  p99 on hard hands, {fn}: worst row {cold:.1f} µs cold, {warm:.1f} µs warm")
    print("  (goal: p99 under 50 µs on hard hands)")
    reference_rows(args.hands, args.seed)


if __name__ == "__main__":
    main()
