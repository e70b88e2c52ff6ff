"""Measure the game review: how often a flagged decision keeps its sign with ten times the
samples, and how long a whole deal's review takes.

    python benchmarks/review.py                       # 200 deals (about half an hour here)
    python benchmarks/review.py --deals 30            # what docs/review.md reports
    python benchmarks/review.py --deals 10 --samples 16 --confirm 0   # no second look
    python benchmarks/review.py --deals 30 --seed 2                   # other deals
    python benchmarks/review.py --deals 10 --seed 4 --start 45        # deals 45-54 of seed 4
    python benchmarks/review.py --pool bench-*.txt                    # the runs' figures pooled
    python benchmarks/review.py --pool bench-*.txt --z 3              # ... flags counted at z 3
    python benchmarks/review.py --examples            # the labelled learners' blunders

Each deal is a seeded game of a ``basic`` bot (seat 0, the learner stand-in: it makes real
mistakes) against an ``expert``; seat 0 is reviewed with the given budget. Every flagged
decision (a mistake: the better option against the played one; a find: the played one against
the expert's choice) is measured again with ``--recheck`` times the samples its verdict came
from (the second look's ``--confirm`` worlds), in fresh worlds (another seed); it *keeps its
sign* if the same option still comes out ahead. Times are CPU
time of this process (``time.process_time``), so other work on the machine does not count; the
reference is one expert-against-expert deal, played in the same run. Prints figures; asserts
nothing (the goals are in docs/review.md).

``--examples`` reviews the labelled positions of ``rummy_widget/review/examples.py`` instead:
recall (a blunder flagged, with one of its better moves), false alarms (a right move flagged),
the flags' stability at ``--recheck`` times the worlds, and the CPU per review.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.bots.tournament import play_game
from rummy_widget.review import review
from rummy_widget.review.budget import BUDGET
from rummy_widget.review.core import CONFIRM, SAMPLES, Z
from rummy_widget.review.evaluate import measure, same_choice
from rummy_widget.review.examples import BLUNDERS, RIGHT


def wilson(kept: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% score interval for a share (it stays inside 0-1 for small counts)."""
    if total == 0:
        return 0.0, 1.0
    p = kept / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def reference_deal_cpu(seed: int) -> float:
    """CPU seconds of one expert-against-expert deal (the mean of ten)."""
    start = time.process_time()
    for k in range(10):
        play_game(Game(2, seed=seed + k), [get_bot("expert", seed=1), get_bot("expert", seed=2)])
    return (time.process_time() - start) / 10


def percentile_95(values: list[float]) -> float:
    """The smallest value that 95% of the values do not exceed."""
    return sorted(values)[math.ceil(0.95 * len(values)) - 1]


def pool(paths: list[str], z: float) -> None:
    """The figures of several runs' printed outputs together (one run per chunk of deals).

    Flags are counted again at ``z``: the verdict's test comes after every playout, so a run
    at a larger ``z`` flags exactly the printed flags whose gain is at least ``z`` standard
    errors, with the same rechecks (a smaller ``z`` than the runs' cannot be counted here); a
    learner's blunder named by the cheap look does not rest on ``z`` and always counts."""
    times, playouts, flags, kept = [], [], 0, 0
    for path in paths:
        for line in Path(path).read_text().splitlines():
            deal = re.search(r"(\d+) playouts, review ([\d.]+) s CPU", line)
            if deal:
                playouts.append(int(deal[1]))
                times.append(float(deal[2]))
            elif line.startswith("  flag "):
                gain, error = map(float, re.search(r" ([\d.]+) ± ([\d.]+) over", line).groups())
                named = re.search(r"; \w+ (\w+); recheck", line)  # a learner's blunder's kind
                if gain >= z * error or (named and named[1] != "playouts"):
                    flags += 1
                    kept += line.endswith(" kept")
    low, high = wilson(kept, flags)
    print(f"runs: {len(paths)}, deals: {len(times)}, flags counted at z {z}")
    print(f"kept their sign: {kept}/{flags} = {kept / flags:.1%} (95% {low:.1%}-{high:.1%})")
    print(
        f"review CPU per deal: mean {statistics.mean(times):.2f} s, median "
        f"{statistics.median(times):.2f} s, p95 {percentile_95(times):.2f} s, "
        f"max {max(times):.2f} s"
    )
    print(f"playouts per deal: mean {statistics.mean(playouts):.0f}, max {max(playouts)}")


def recheck(item, samples: int, key: str, memo: dict) -> tuple[bool, float, float]:
    """Does a flag keep its sign over ``samples`` fresh worlds? Also the gain and its error."""
    other = item.better if item.verdict == "mistake" else item.expert
    rng = random.Random(f"recheck:{key}:{item.move}")
    again = measure(item.observation, [item.played, other], samples, rng, memo)
    gain = again[1].gain  # the other option over the played one
    keeps = gain > 0 if item.verdict == "mistake" else gain < 0
    return keeps, gain, again[1].error


def examples(args: argparse.Namespace) -> None:
    """Recall on the labelled blunders, false alarms on the right moves, stability, time."""
    memo: dict = {}
    times, found, alarms, flags, kept = [], 0, 0, 0, 0
    for example in (*BLUNDERS, *RIGHT):
        game = example.game()
        start = time.process_time()
        result = review(
            game,
            0,
            seed=args.seed,
            samples=args.samples,
            confirm=args.confirm,
            budget=args.budget,
            z=args.z,
        )
        times.append(time.process_time() - start)
        judged = next(d for d in result.decisions if d.move == example.move)
        flagged = judged.verdict == "mistake"
        if example.kind is None:
            alarms += flagged
            right = not flagged
        else:
            better = example.better_actions(game)
            right = flagged and any(same_choice(judged.better, b) for b in better)
            found += right
        line = f"{example.name}: {judged.grade} ({judged.finding.kind if judged.finding else '-'})"
        if flagged and args.recheck:
            samples = (judged.checked or judged.samples) * args.recheck
            keeps, gain, error = recheck(judged, samples, example.name, memo)
            flags += 1
            kept += keeps
            line += f", recheck {gain:+.2f} ± {error:.2f} {'kept' if keeps else 'FLIPPED'}"
        print(f"  {'ok' if right else 'WRONG'} {line}, {times[-1]:.2f} s CPU", flush=True)
    print()
    print(
        f"blunders flagged with a better move named: {found}/{len(BLUNDERS)} = "
        f"{found / len(BLUNDERS):.1%}"
    )
    print(f"right moves flagged: {alarms}/{len(RIGHT)} = {alarms / len(RIGHT):.1%}")
    if flags:
        low, high = wilson(kept, flags)
        print(
            f"flags that kept their sign at {args.recheck}x the worlds: {kept}/{flags} = "
            f"{kept / flags:.1%} (95% {low:.1%}-{high:.1%})"
        )
    print(
        f"review CPU per position: mean {statistics.mean(times):.2f} s, p95 "
        f"{percentile_95(times):.2f} s, max {max(times):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--confirm", type=int, default=CONFIRM)
    parser.add_argument("--budget", type=int, default=BUDGET, help="playouts per review")
    parser.add_argument("--z", type=float, default=Z, help="standard errors for a flag")
    parser.add_argument("--recheck", type=int, default=10, help="times the verdict's samples")
    parser.add_argument("--pool", nargs="+", metavar="OUTPUT", help="pool printed runs")
    parser.add_argument("--examples", action="store_true", help="the labelled positions")
    args = parser.parse_args()
    if args.pool:
        pool(args.pool, args.z)
        return
    if args.examples:
        examples(args)
        return

    reference = reference_deal_cpu(10_000 + args.seed)
    times, playouts, decisions, unchecked = [], [], 0, 0
    kept = {"mistake": 0, "find": 0}
    flagged = {"mistake": 0, "find": 0}
    memo: dict = {}
    for deal in range(args.start, args.start + args.deals):
        game = play_game(
            Game(2, seed=args.seed * 1_000_003 + deal),
            [get_bot("basic", seed=deal), get_bot("expert", seed=deal + 1)],
        )
        start = time.process_time()
        result = review(
            game,
            0,
            seed=deal,
            samples=args.samples,
            confirm=args.confirm,
            budget=args.budget,
            z=args.z,
        )
        times.append(time.process_time() - start)
        playouts.append(result.playouts)
        decisions += len(result.decisions)
        unchecked += sum(d.unchecked for d in result.decisions)
        for item in [*result.mistakes, *result.finds]:
            samples = (item.checked or item.samples) * args.recheck
            keeps, gain, error = recheck(item, samples, f"{args.seed}:{deal}", memo)
            flagged[item.verdict] += 1
            kept[item.verdict] += keeps
            figure = item.cost if item.verdict == "mistake" else item.margin
            kind = item.finding.kind if item.finding else "playouts"
            print(  # enough to redo the count for a stricter z or min_points without a rerun
                f"  flag {deal}:{item.move} {item.verdict} {figure:.2f} ± {item.error:.2f} "
                f"over {item.checked or item.samples}; {item.grade} {kind}; recheck "
                f"{gain:+.2f} ± {error:.2f} {'kept' if keeps else 'FLIPPED'}",
                flush=True,
            )
        print(
            f"deal {deal}: {len(game.history)} moves, {len(result.decisions)} decisions, "
            f"{len(result.mistakes)} mistakes, {len(result.finds)} finds, "
            f"{result.samples} worlds, {result.playouts} playouts, "
            f"review {times[-1]:.2f} s CPU",
            flush=True,
        )
    total, total_kept = sum(flagged.values()), sum(kept.values())
    low, high = wilson(total_kept, total)
    print()
    budget = (
        f"samples {args.samples}, confirm {args.confirm}, budget {args.budget}, z {args.z}, "
        f"recheck x{args.recheck}"
    )
    print(f"deals reviewed: {args.deals} (from {args.start}, seed {args.seed}), {budget}")
    print(
        f"decisions looked at: {decisions}; flagged: {flagged}; "
        f"leads left without a second look: {unchecked}"
    )
    share = total_kept / total if total else float("nan")
    interval = f"95% interval {low:.1%}-{high:.1%}"
    print(f"kept their sign: {total_kept}/{total} = {share:.1%} ({interval})")
    for verdict in flagged:
        if flagged[verdict]:
            print(f"  {verdict}s: {kept[verdict]}/{flagged[verdict]}")
    p95 = percentile_95(times)
    print(
        f"review CPU per deal: mean {statistics.mean(times):.2f} s, median "
        f"{statistics.median(times):.2f} s, p95 {p95:.2f} s, max {max(times):.2f} s"
    )
    print(f"playouts per deal: mean {statistics.mean(playouts):.0f}, max {max(playouts)}")
    print(
        f"reference (one expert-against-expert deal): {reference * 1000:.1f} ms CPU; "
        f"a review costs {statistics.mean(times) / reference:.0f} of them"
    )


if __name__ == "__main__":
    main()
