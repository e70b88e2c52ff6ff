"""Traditional Rummy as a Jupyter widget and a bilingual (English/Finnish) teaching kit."""

from .actions import Action
from .cards import Card, Cards, card_name, parse_cards
from .errors import RuleError
from .game import DealResult, Game
from .i18n import set_language
from .match import Match, payout
from .melds import Meld
from .rules import Rules
from .solver import Arrangement, GoOut, Out, best_arrangement, can_go_out, min_penalty, outs

# Imported eagerly: the name must be the function, never shadowed by its submodule.
from .tournament import tournament

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
    "set_language",
    "tournament",
]
__version__ = "0.1.0"

_LAZY = {"RummyTable": "widget", "get_bot": "bots"}


def __getattr__(name: str):
    """The widget, bots and tournaments load on first use: the engine alone stays light."""
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
