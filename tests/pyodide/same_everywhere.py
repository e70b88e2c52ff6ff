"""Seeded games, solver answers and payouts as JSON, to compare between Python builds.

tests/test_pyodide.py runs this file in CPython and in Pyodide (32-bit WebAssembly): the same
seed must give the same game on every machine. It leaves the JSON in ``text``, which is also
its last expression (what Pyodide's ``runPython`` returns).
"""

import json
import sys

from rummy_widget import Game, best_arrangement, min_penalty, outs, parse_cards, payout
from rummy_widget.bots import get_bot
from rummy_widget.bots.tournament import play_game

found = {"word_size": 64 if sys.maxsize > 2**32 else 32}
for rules in ("traditional", "rummy_royal"):
    for players, names in ((2, ("random", "basic")), (3, ("expert", "random", "basic"))):
        for seed in (3, 11):
            bots = [get_bot(name, seed=seed + seat) for seat, name in enumerate(names)]
            game = play_game(Game(players, rules, seed=seed), bots)
            key = f"{rules}/{'-'.join(names)}/{seed}"
            found[key] = {"save": game.to_dict(), "penalties": game.result.penalties}
hands = [
    "7H 8H 9H 10H KD KH KS 2C AS AH",
    "QS KS AS 2S 3S 5D 5D#1 5C 9H 9H#1",
    "2C 3C 4C 4C#1 5C 6C 7D 7D#1 7S",
]
for rules in ("traditional", "rummy_royal"):
    for written in hands:
        hand = parse_cards(written)
        found[f"{rules}/{written}"] = {
            "best": repr(best_arrangement(hand, rules)),
            "min": min_penalty(hand, rules),
            "outs": repr(outs(hand, rules)),
        }
found["payout"] = payout(10_000, [0, 12, 37, 80])
text = json.dumps(found, sort_keys=True)
text  # noqa: B018 (Pyodide's runPython returns the last expression)
