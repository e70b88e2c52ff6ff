"""Command line: ``python -m rummy_widget tournament --bots basic expert --deals 2000``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .bots import BOT_NAMES
from .classroom import cli as classroom_cli
from .engine.rules import PRESETS
from .i18n import LANGUAGES


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m rummy_widget", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)
    tour = commands.add_parser(
        "tournament", help="play duplicate deals between bots and print their win rates"
    )
    tour.add_argument("--bots", nargs="+", choices=BOT_NAMES, default=["basic", "random"])
    tour.add_argument("--deals", type=int, default=200, help="shuffles, each played per seating")
    tour.add_argument("--rules", choices=PRESETS, default="traditional")
    tour.add_argument("--players", type=int, default=None, help="2-4, default: one per bot")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--jobs", type=int, default=None, help="worker processes (1: no pool)")
    tour.add_argument("--lang", choices=LANGUAGES, default="en")
    tour.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    tour.add_argument("--plot", metavar="FILE", help="also save the win-rate chart (PNG, SVG)")
    classroom_cli.add_parser(commands)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "classroom":
        return classroom_cli.serve(args)
    if args.command == "tournament":
        from .bots.tournament import PlotUnavailable, require_matplotlib, tournament

        if args.plot:  # say so before a long run, not after it
            try:
                matplotlib = require_matplotlib(args.lang)
            except PlotUnavailable as missing:
                print(missing, file=sys.stderr)
                return 2
            matplotlib.use("Agg")
        result = tournament(
            args.bots,
            deals=args.deals,
            rules=args.rules,
            seed=args.seed,
            players=args.players,
            jobs=args.jobs,
            executor="processes" if args.jobs != 1 else None,
            progress=not args.no_progress,
            lang=args.lang,
        )
        print(result)
        if args.plot:
            fig, _ = result.plot()
            fig.savefig(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
