"""Traditional Rummy as a Jupyter widget and a bilingual (English/Finnish) teaching kit."""

from .cards import Card, Cards, card_name, parse_cards
from .errors import RuleError
from .rules import Rules

__all__ = ["Card", "Cards", "RuleError", "Rules", "card_name", "parse_cards"]
__version__ = "0.1.0"
