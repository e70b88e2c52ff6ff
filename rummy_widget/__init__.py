"""Traditional Rummy as a Jupyter widget and a bilingual (English/Finnish) teaching kit."""

from .actions import Action
from .cards import Card, Cards, card_name, parse_cards
from .errors import RuleError
from .game import DealResult, Game
from .match import Match, payout
from .melds import Meld
from .rules import Rules

__all__ = [
    "Action",
    "Card",
    "Cards",
    "DealResult",
    "Game",
    "Match",
    "Meld",
    "RuleError",
    "Rules",
    "card_name",
    "parse_cards",
    "payout",
]
__version__ = "0.1.0"
