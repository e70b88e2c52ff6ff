"""Command line: ``python -m rummy_widget tournament --bots basic expert --deals 2000``,
``rummy-widget handout --rules rummy_royal --lang fi``, ``rummy-widget lessons --lang fi DIR``."""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from .bots import BOT_NAMES
from .classroom import cli as classroom_cli
from .engine.rules import PRESETS
from .i18n import LANGUAGES


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(prog="python -m rummy_widget", description=__doc__)
    commands = main.add_subparsers(dest="command", required=True)
    _add_teaching_commands(commands)
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
    if args.command in ("handout", "lessons"):
        return _teaching(args)
    return 0


def _add_teaching_commands(commands) -> None:
    """``handout``: the printable rules page; ``lessons``: the notebooks into a folder."""
    hand = commands.add_parser("handout", help="write a one-page printable rules handout (HTML)")
    hand.add_argument("--rules", choices=PRESETS, default="traditional")
    hand.add_argument("--lang", choices=LANGUAGES, default="en")
    hand.add_argument("-o", "--output", metavar="FILE", help="default: rules_handout_RULES.html")
    lessons = commands.add_parser(
        "lessons", help="write the lessons and the rules handouts into a folder, open JupyterLab"
    )
    lessons.add_argument("folder", nargs="?", default="rummy-lessons", metavar="DIR")
    lessons.add_argument("--lang", choices=LANGUAGES, default="en")
    lessons.add_argument("--overwrite", action="store_true", help="replace files already there")
    lessons.add_argument("--no-open", action="store_true", help="do not start JupyterLab")


def _teaching(args: argparse.Namespace) -> int:
    from .i18n import t
    from .teaching.handout import handout
    from .teaching.lesson_files import FIRST_LESSON, write_lessons

    if args.command == "handout":
        path = Path(args.output or f"rules_handout_{args.rules}.html")
        path.write_text(handout(args.rules, args.lang), encoding="utf-8")
        print(t("cli.handout.written", args.lang, file=path))
        return 0
    lang, written = args.lang, write_lessons(args.folder, args.lang, args.overwrite)
    folder = written.folder
    lessons, handouts = len(written.lessons), len(written.handouts)
    if lessons or handouts:
        print(t("cli.lessons.written", lang, lessons=lessons, handouts=handouts, folder=folder))
    if written.kept:
        kept = ", ".join(p.name for p in written.kept)
        print(t("cli.lessons.kept", lang, option="--overwrite", files=kept))
    command = f"jupyter lab {shlex.quote(str(folder))}"
    if args.no_open:
        print(t("cli.lessons.next", lang, command=command))
        return 0
    if importlib.util.find_spec("jupyterlab") is None:
        install = "pip install 'rummy_widget[lab]'"
        print(t("cli.lessons.no_lab", lang, install=install, command=command))
        return 0
    print(t("cli.lessons.open", lang, folder=folder))
    return subprocess.call([sys.executable, "-m", "jupyterlab", FIRST_LESSON], cwd=folder)


if __name__ == "__main__":
    sys.exit(main())
