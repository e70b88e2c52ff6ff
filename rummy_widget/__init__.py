"""Traditional Rummy as a Jupyter widget and a bilingual (English/Finnish) teaching kit."""

from .engine.actions import Action
from .engine.cards import Card, Cards, card_name, parse_cards
from .engine.game import DealResult, Game
from .engine.match import Match, payout
from .engine.melds import Meld
from .engine.rules import Rules
from .errors import RuleError
from .i18n import set_language
from .solver import Arrangement, GoOut, Out, best_arrangement, can_go_out, min_penalty, outs

__all__ = [
    "Action",
    "Arrangement",
    "Card",
    "Cards",
    "DealResult",
    "Game",
    "GoOut",
    "Match",
    "Meld",
    "Out",
    "RuleError",
    "Rules",
    "RummyTable",
    "best_arrangement",
    "can_go_out",
    "card_name",
    "get_bot",
    "min_penalty",
    "outs",
    "parse_cards",
    "payout",
    "review",
    "set_language",
    "tournament",
]
__version__ = "0.1.0"

_LAZY = {"RummyTable": "table.widget", "get_bot": "bots", "tournament": "bots.tournament"}
#: Modules that lived at the top level before the layers had folders: ``from rummy_widget
#: import checks`` keeps working.
_MOVED = {"checks": "teaching.checks", "lessons": "teaching.lessons"}
#: Packages that are also called as a function: ``review(game, seat)`` (rummy_widget/review/).
_CALLED = {"review": "review"}


def __getattr__(name: str):
    """The widget, bots, tournaments and reviews load on first use: the engine alone stays light."""
    from importlib import import_module

    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    if name in _MOVED:
        return import_module(f".{_MOVED[name]}", __name__)
    if name in _CALLED:
        return import_module(f".{_CALLED[name]}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
