"""Measure the bot ladder: strength on duplicate deals, decision times, deals per second.

    python benchmarks/bots.py                 # everything (several minutes)
    python benchmarks/bots.py --only speed    # decision times, throughput, OpenSpiel ratio
    python benchmarks/bots.py --only strength --deals 1000 --master-deals 100
    python benchmarks/bots.py --only strength --deals 0 --master-deals 1000 --rules traditional
    python benchmarks/bots.py --only strength --deals 0 --master-deals 1000 --first-deal 1000 \
        --rules traditional --save part2.pkl   # deals 1000-1999; --save the first part too, then
    python benchmarks/bots.py --join part1.pkl part2.pkl   # all 2000 as one run
    python benchmarks/bots.py --compare part2.pkl variant.pkl   # same deals, game by game
    python benchmarks/bots.py --only deviations --master-deals 100 --seed 7 --rules traditional
    python benchmarks/bots.py --only strength --deals 0 --master-options '{"draws": 4}'

Prints figures; asserts nothing (goals are in docs/bots.md, marked met or not met). Times are
CPU time of this process (``time.process_time``), so other work on the machine does not count;
the master's decision times are printed both as wall-clock and as CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import multiprocessing
import os
import pickle
import platform
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummy_widget import Action, Game
from rummy_widget.bots import get_bot
from rummy_widget.bots.expert import Style
from rummy_widget.bots.master import MasterBot, Options
from rummy_widget.bots.progress import paired
from rummy_widget.bots.tournament import play_game, tournament

PRESETS = ("traditional", "rummy_royal")

#: (stronger, weaker, goal on the stronger's win rate, which figure the goal is about)
LADDER_GOALS = [
    ("basic", "random", 0.90, "win rate"),
    ("expert", "basic", 0.55, "lower end of 95% interval"),
    ("master", "expert", 0.52, "lower end of 95% interval"),
]


def master_kwargs(options: dict | None) -> dict:
    """The master's keyword arguments from ``--master-options`` JSON, the fields of
    ``master.Options``: a ``"style"`` object becomes the expert's ``Style`` (e.g.
    ``{"samples": 200}``, ``{"style": {"hold_points": 100}}``)."""
    fields = dict(options or {})
    if isinstance(fields.get("style"), dict):
        fields["style"] = Style(**fields["style"])
    return {"options": Options(**fields)}


class TimedMaster(MasterBot):
    """The master, timing each of its moves (wall clock, and this process's CPU time) into lists
    shared by its copies: a tournament played in this process deep-copies the bots, so the
    class keeps the lists. CPU time leaves out other work on the machine, which a low-priority
    run beside busy processes can wait on for seconds."""

    walls: ClassVar[list[float]] = []
    cpus: ClassVar[list[float]] = []

    def act(self, observation: dict):
        start, cpu = time.perf_counter(), time.process_time()
        action = super().act(observation)
        TimedMaster.walls.append(time.perf_counter() - start)
        TimedMaster.cpus.append(time.process_time() - cpu)
        return action

    @classmethod
    def clear(cls) -> None:
        cls.walls.clear()
        cls.cpus.clear()


def move_times(walls: list[float], cpus: list[float] | None = None) -> str:
    """Median, p99 and max of per-move times, and how many moves took over 1 s: wall clock,
    then CPU time when given."""
    text = f"master moves={len(walls)} wall clock {_spread(walls)}"
    return f"{text}; CPU time {_spread(cpus)}" if cpus else text


def _spread(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    over = sum(t > 1.0 for t in times)
    return (
        f"median {1000 * statistics.median(times):.2f} ms p99 {1000 * p99:.0f} ms "
        f"max {1000 * times[-1]:.0f} ms, over 1 s: {over}"
    )


def strength(
    deals: int,
    master_deals: int,
    jobs: int | None,
    seed: int,
    presets=PRESETS,
    master_options: dict | None = None,
    first_deal: int = 0,
    save: str | None = None,
) -> None:
    print("## Strength: 2 players, duplicate deals (each shuffle played with seats swapped)")
    if master_options:
        print(f"master options: {json.dumps(master_options, sort_keys=True)}")
    if first_deal:
        print(f"deals from number {first_deal} of the seed's sequence")
    saved = {}
    for strong, weak, _, _ in LADDER_GOALS:
        n = master_deals if "master" in (strong, weak) else deals
        if n <= 0:
            continue
        for rules in presets:
            start = time.perf_counter()
            # Bots built as the tournament builds named ones (seeds seed, seed + 1); with one
            # job the tournament plays in this process, and the master's moves are timed.
            line = [
                TimedMaster(seed + i, **master_kwargs(master_options))
                if b == "master" and jobs == 1
                else get_bot(
                    b, seed=seed + i, **(master_kwargs(master_options) if b == "master" else {})
                )
                for i, b in enumerate((strong, weak))
            ]
            TimedMaster.clear()
            result = tournament(
                line,
                deals=n,
                rules=rules,
                seed=seed,
                jobs=jobs,
                progress=False,
                first_deal=first_deal,
            )
            walls, cpus = list(TimedMaster.walls), list(TimedMaster.cpus)
            report(strong, weak, result, walls, cpus, time.perf_counter() - start)
            saved[(strong, weak, rules)] = (result, walls, cpus)
    if save:
        with open(save, "wb") as out:
            pickle.dump({"options": master_options, "seed": seed, "results": saved}, out)
        print(f"results saved to {save} (join parts with --join)")
    print()


def report(
    strong: str, weak: str, result, walls: list[float], cpus: list[float], seconds: float | None
) -> None:
    """One pairing's line: win rate and interval against its goal, mean penalties, move times."""
    goal, figure = next((g, f) for s, w, g, f in LADDER_GOALS if (s, w) == (strong, weak))
    s = result.stats[0]
    value = s.win_rate if figure == "win rate" else s.win_ci[0]
    verdict = "met" if value >= goal else "NOT met"
    took = f"  ({seconds:.0f} s)" if seconds is not None else ""
    print(
        f"{strong:>6} vs {weak:<6} {result.rules:<11} deals={result.deals:<5} "
        f"games={len(result.records):<5} win {100 * s.win_rate:5.1f}% [{100 * s.win_ci[0]:5.1f}, "
        f"{100 * s.win_ci[1]:5.1f}]  mean penalty {s.mean_penalty:5.2f} vs "
        f"{result.stats[1].mean_penalty:5.2f}  voids {result.voids}  "
        f"goal {figure} >= {100 * goal:.0f}%: {verdict}{took}"
    )
    if walls:
        print(f"  {move_times(walls, cpus)}", flush=True)


def _load(path: str) -> dict:
    """A strength run saved with ``--save``: options, seed, and per pairing (result, walls,
    CPU times)."""
    with open(path, "rb") as saved:
        return pickle.load(saved)


def join(paths: list[str]) -> None:
    """Strength runs saved in parts (``--first-deal``, ``--save``), reported as one run."""
    print("## Strength, parts joined: " + ", ".join(paths))
    parts = [_load(path) for path in paths]
    if any((p["options"], p["seed"]) != (parts[0]["options"], parts[0]["seed"]) for p in parts):
        raise SystemExit("the parts were played with other master options or seeds")
    print(f"master options: {json.dumps(parts[0]['options'] or {}, sort_keys=True)}")
    for key, (result, walls, cpus) in parts[0]["results"].items():
        walls, cpus = list(walls), list(cpus)
        for part in parts[1:]:
            more, more_walls, more_cpus = part["results"][key]
            result = result.join(more)
            walls += more_walls
            cpus += more_cpus
        report(key[0], key[1], result, walls, cpus, None)
    print()


def compare(base: str, variant: str) -> None:
    """Two saved strength runs on the same deals, game by game: the master's wins in
    ``variant`` less those in ``base``. Most games are the same move for move, so this
    difference is far less noisy than the two win rates' intervals suggest."""
    runs = []
    for path in (base, variant):
        part = _load(path)
        runs += [
            (part["options"] or {}, result)
            for (strong, _, _), (result, _, _) in part["results"].items()
            if strong == "master"
        ]
    (options_a, a), (options_b, b) = runs

    def outcomes(result) -> dict:
        """Per decided game: did the master win, and the other bot's penalty less the
        master's (points the master is ahead by; 2 players)."""
        return {
            (r.deal, r.seats): (
                float(r.seats[r.winner] == 0),
                sum(r.penalties) - 2 * r.penalties[r.seats.index(0)],
            )
            for r in result.records
            if r.winner is not None
        }

    def rummies(result) -> int:
        return sum(r.rummy and r.seats[r.winner] == 0 for r in result.records)

    seen_a, seen_b = outcomes(a), outcomes(b)
    both = [k for k in seen_a if k in seen_b]
    gains = [seen_b[k][0] - seen_a[k][0] for k in both]
    mean, se = paired(gains)
    print(
        f"## Compared game by game ({a.rules}, {len(gains)} games decided in both): "
        f"{json.dumps(options_b, sort_keys=True)} {100 * b.stats[0].win_rate:.1f}% against "
        f"{json.dumps(options_a, sort_keys=True)} {100 * a.stats[0].win_rate:.1f}%; "
        f"{sum(g != 0 for g in gains)} games ended otherwise; difference "
        f"{100 * mean:+.2f} points (SE {100 * se:.2f})"
    )
    ahead_a = [seen_a[k][1] for k in both]
    ahead_b = [seen_b[k][1] for k in both]
    diff, diff_se = paired([y - x for x, y in zip(ahead_a, ahead_b, strict=True)])
    n = max(1, len(both))
    print(
        f"  penalty points the master is ahead by per game: {sum(ahead_b) / n:+.2f} against "
        f"{sum(ahead_a) / n:+.2f}, difference {diff:+.2f} (SE {diff_se:.2f}); the "
        f"master's Rummies {rummies(b)} against {rummies(a)}"
    )


def decision_times(name: str, rules: str, deals: int, seed: int) -> list[float]:
    """Seconds per ``act`` call of ``name`` playing against itself."""
    bots = [get_bot(name, seed=seed), get_bot(name, seed=seed + 1)]
    times: list[float] = []
    for deal in range(deals):
        game = Game(2, rules, seed=seed * 7919 + deal)
        while game.phase != "over":
            seat = game.current_player
            obs = game.observation(seat)
            start = time.process_time()
            action = bots[seat].act(obs)
            times.append(time.process_time() - start)
            game.apply(action, seat)
    return times


def speed(seed: int, master_moves: int, master_options: dict | None = None) -> None:
    print("## Decision time per move (bot against itself, one process)")
    for name, deals in (("random", 30), ("basic", 60), ("expert", 60), ("master", 0)):
        for rules in PRESETS:
            if name == "master":
                times = master_decisions(rules, master_moves, seed, master_options)
            else:
                times = decision_times(name, rules, deals, seed)
            if not times:
                continue
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"{name:>6} {rules:<11} moves={len(times):<6} median "
                f"{1000 * statistics.median(times):7.2f} ms  p99 {1000 * p99:7.2f} ms  "
                f"max {1000 * times[-1]:7.2f} ms"
            )
    print()


def master_decisions(rules: str, moves: int, seed: int, options: dict | None = None) -> list[float]:
    """Master's time per move against expert, on the first ``moves`` moves of a few deals."""
    if moves <= 0:
        return []
    master = get_bot("master", seed=seed, **master_kwargs(options))
    expert = get_bot("expert", seed=seed)
    times: list[float] = []
    walls: ClassVar[list[float]] = []
    deal = 0
    while len(times) < moves:
        game = Game(2, rules, seed=seed * 104_729 + deal)
        while game.phase != "over" and len(times) < moves:
            seat = game.current_player
            obs = game.observation(seat)
            bot = master if seat == 0 else expert
            start, wall = time.process_time(), time.perf_counter()
            action = bot.act(obs)
            if seat == 0:
                times.append(time.process_time() - start)
                walls.append(time.perf_counter() - wall)
            game.apply(action, seat)
        deal += 1
    walls.sort()
    print(
        f"master {rules:<11} wall clock: median {1000 * statistics.median(walls):7.2f} ms  "
        f"max {1000 * walls[-1]:7.2f} ms"
    )
    return times


def throughput(seconds: float, seed: int, profile: bool) -> dict[str, float]:
    """Deals per second of basic against basic, per preset (run in a fresh process)."""
    print("## Throughput: basic against basic, full deals, one core, a fresh process")
    rates = {}
    for rules in PRESETS:
        bots = [get_bot("basic", seed=seed), get_bot("basic", seed=seed + 1)]
        deals = moves = 0
        histories = []
        elapsed = 0.0  # CPU time inside ``play_game`` only, not this loop's own bookkeeping
        while elapsed < seconds:
            start = time.process_time()
            game = play_game(Game(2, rules, seed=seed * 1009 + deals), bots)
            elapsed += time.process_time() - start
            deals += 1
            moves += len(game.history)
            # As one string: lists of Action objects kept for the replay below would give the
            # garbage collector 200,000 more objects to walk while the deals are timed.
            histories.append(json.dumps([a.to_json() for _, a in game.history]))
        rates[rules] = deals / elapsed
        engine = engine_only(rules, seed, histories)
        print(
            f"basic vs basic {rules:<11} {deals / elapsed:7.1f} deals/s "
            f"({moves / deals:.1f} moves per deal, {1e6 * elapsed / moves:.0f} us per move); "
            f"the engine alone (same moves, Game() + observation + apply): {engine:7.1f} deals/s"
            f" = {100 * (deals / elapsed) / engine:.0f}% of the time"
        )
    if profile:
        where_time_goes(seed)
    print(flush=True)
    return rates


def engine_only(rules: str, seed: int, histories: list) -> float:
    """Deals per second of the engine replaying the same moves, one observation per move."""
    start = time.process_time()
    for deal, moves in enumerate(histories):
        game = Game(2, rules, seed=seed * 1009 + deal)
        for action in map(Action.from_json, json.loads(moves)):
            game.observation(game.current_player)
            game.apply(action, game.current_player)
    return len(histories) / (time.process_time() - start)


def where_time_goes(seed: int) -> None:
    """Split a basic-vs-basic run between the engine and the bots (cProfile, cumulative)."""
    bots = [get_bot("basic", seed=seed), get_bot("basic", seed=seed + 1)]
    profiler = cProfile.Profile()
    profiler.enable()
    for deal in range(100):
        play_game(Game(2, "traditional", seed=deal), bots)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    wanted = {
        "observation": "Game.observation (engine)",
        "apply": "Game.apply (engine)",
        "__init__": "Game() deal (engine)",
        "act": "bot.act (bots, incl. solver)",
        "best_arrangement": "solver best_arrangement",
    }
    print("  profile of 100 deals (cumulative seconds, share of total):")
    for (path, _, func), row in sorted(stats.stats.items()):
        label = wanted.get(func)
        if label is None:
            continue
        if func == "__init__" and not path.endswith("game.py"):
            continue
        if func in ("observation", "apply") and not path.endswith("game.py"):
            continue
        if func == "act" and "bots" not in path:
            continue
        cumulative = row[3]
        print(f"    {label:<32} {cumulative:6.2f} s  {100 * cumulative / total:5.1f}%")
    print(f"    {'total':<32} {total:6.2f} s")


def openspiel_rate(seconds: float) -> float | None:
    """OpenSpiel's C++ simple gin rummy bot against itself, through pyspiel."""
    print("## OpenSpiel gin rummy: C++ simple bot against itself")
    try:
        import pyspiel
    except ImportError as err:
        print(f"pyspiel is not installed ({err}); `pip install open-spiel` (the bench extra)")
        print()
        return None
    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        for bot in bots:
            bot.restart()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        games += 1
    rate = games / (time.process_time() - start)
    print(f"open_spiel simple gin bot {rate:7.1f} games/s")
    print()
    return rate


def deviations(deals: int, seed: int, rules: str, options: dict | None = None) -> None:
    """Where the master leaves the expert's choice, and whether that wins or loses.

    The master plays the expert on ``deals`` duplicate deals (seats swapped, in this process);
    at every own-progress choice that leaves the expert's, the real position (the engine's, hidden
    cards and all: this is the benchmark's view, never the bot's) is played out twice with
    expert play for both seats, once after the master's choice and once after the expert's.
    The difference of the two finishes, scored as the master scores (+1 / -1 for the win, the
    penalty difference / 100), is that deviation's true gain in this deal."""
    import copy

    from rummy_widget.bots.expert import ExpertBot
    from rummy_widget.bots.tournament import deal_seed

    found: list[tuple] = []
    current: list[Game] = []

    class Watched(TimedMaster):
        def progress_plan(self, turn, plan):
            chosen = super().progress_plan(turn, plan)
            if chosen != plan:
                self._found(turn.seen, ("plan", 1), ("plan", 0), [plan, chosen])
            return chosen

        def progress_draw(self, turn, expert):
            chosen = super().progress_draw(turn, expert)
            if chosen != expert:
                self._found(turn.seen, ("draw", chosen), ("draw", expert), None)
            return chosen

        def _found(self, seen, best, base, plans):
            """Keep the real position of a choice that left the expert's, to score it later."""
            opponent = min(n for s, n in enumerate(seen.hand_sizes) if s != seen.seat)
            state = copy.deepcopy(current[0])
            found.append((state, seen.seat, best, base, plans, opponent))

    def finish(game: Game, me: int, option: tuple, plans) -> float:
        kind, value = option
        if kind == "draw":
            game.draw(value)
        else:
            for action in plans[value]:
                if game.phase != "over":
                    game.apply(action)
        bots = [ExpertBot(seed + 100 + s) for s in range(game.players)]
        moves = 0
        while game.phase != "over" and moves < 2000:
            seat = game.current_player
            game.apply(bots[seat].act(game.observation(seat)), seat)
            moves += 1
        result = game.result
        if result is None or result.void:
            return 0.0
        won = 1.0 if result.winner == me else -1.0
        return won + (result.penalties[1 - me] - result.penalties[me]) / 100

    progressed = wins = games = 0
    TimedMaster.clear()
    for deal in range(deals):
        for seat in (0, 1):
            bots = [ExpertBot(seed + 1), ExpertBot(seed + 1)]
            bots[seat] = Watched(seed, **master_kwargs(options))
            game = Game(2, rules, seed=deal_seed(seed, deal))
            current[:] = [game]
            play_game(game, bots)
            progressed += bots[seat].progressed
            if game.result is not None and not game.result.void:
                games += 1
                wins += game.result.winner == seat
    groups: dict[str, list[float]] = {}
    for game, me, best, base, plans, opponent in found:
        gain = finish(copy.deepcopy(game), me, best, plans)
        gain -= finish(copy.deepcopy(game), me, base, plans)
        if best[0] == "draw":
            kind = "take the pile card" if best[1] == "discard" else "refuse the pile card"
        else:
            ours, theirs = len(plans[best[1]]), len(plans[base[1]])
            kind = "meld now" if ours > theirs else "hold" if ours < theirs else "other discard"
        where = "opponent at 5 or fewer" if opponent <= 5 else "opponent at 6 or more"
        for key in ("all", kind, where):
            groups.setdefault(key, []).append(gain)
    print(
        f"## Deviations: master {json.dumps(options or {})} vs expert, {rules}, {deals} deals, "
        f"seed {seed}: won {wins} of {games} games; {len(found)} of {progressed} own-progress "
        f"choices left the expert's"
    )
    for key, gains in groups.items():
        n = len(gains)
        mean = statistics.mean(gains)
        se = statistics.stdev(gains) / n**0.5 if n > 1 else 0.0
        print(f"  {key:<24} n={n:<5} true gain per deviation {mean:+.3f} (SE {se:.3f})")
    print(f"  {move_times(TimedMaster.walls, TimedMaster.cpus)}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", choices=["strength", "speed", "deviations"], default=None)
    ap.add_argument("--deals", type=int, default=1000, help="deals per ladder pairing")
    ap.add_argument("--master-deals", type=int, default=100, help="deals for master pairings")
    ap.add_argument("--master-moves", type=int, default=100, help="master moves to time")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=10.0, help="time per throughput run")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--profile", action="store_true", help="split throughput by component")
    ap.add_argument("--rules", choices=PRESETS, default=None, help="one preset only (strength)")
    ap.add_argument(
        "--master-options",
        type=json.loads,
        default=None,
        help="the master's Options, as JSON, e.g. '{\"samples\": 200}'",
    )
    ap.add_argument(
        "--first-deal", type=int, default=0, help="strength: start at this deal of the sequence"
    )
    ap.add_argument("--save", default=None, help="strength: pickle the results to this file")
    ap.add_argument(
        "--join", nargs="+", default=None, help="report saved strength parts as one run"
    )
    ap.add_argument(
        "--compare",
        nargs=2,
        default=None,
        metavar=("BASE", "VARIANT"),
        help="two saved strength runs on the same deals, game by game",
    )
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if args.join:
        join(args.join)
        return
    print(
        f"# benchmarks/bots.py  python {platform.python_version()}  "
        f"{platform.machine()}  cpus {os.cpu_count()}"
    )
    print()
    if args.only in (None, "speed"):
        speed(args.seed, args.master_moves, args.master_options)
        # A new interpreter: the master's moves above leave large solver memos behind,
        # and the garbage collector's passes over them would slow the deals timed after.
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            ours = pool.apply(throughput, (args.seconds, args.seed, args.profile))
        theirs = openspiel_rate(args.seconds)
        for rules, rate in ours.items():
            goal = "met" if rate >= 250 else "NOT met"
            ratio = f"; ratio to OpenSpiel's simple gin bot {rate / theirs:.2f}" if theirs else ""
            print(f"basic vs basic {rules:<11} {rate:6.1f} deals/s (goal >= 250: {goal}){ratio}")
        print()
    if args.only == "deviations":
        for rules in PRESETS if args.rules is None else (args.rules,):
            deviations(args.master_deals, args.seed, rules, args.master_options)
    if args.only in (None, "strength"):
        presets = PRESETS if args.rules is None else (args.rules,)
        strength(
            args.deals,
            args.master_deals,
            args.jobs,
            args.seed,
            presets,
            args.master_options,
            args.first_deal,
            args.save,
        )


if __name__ == "__main__":
    main()
