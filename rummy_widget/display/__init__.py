"""Static HTML and SVG for notebooks, GitHub, nbviewer, VS Code and projectors: no JavaScript.

Lower layers call these lazily from ``_repr_html_`` (``Card``, ``Cards``, ``Meld``,
``RulesDescription``); ``Game.show()`` returns ``table_view(...)``, a ``Snippet``. Every card is
an inline SVG with ``role="img"``, an ``aria-label`` and a ``<title>`` naming it in the chosen
language; a face-down card names nothing but that. The design is written down in
docs/display.md for the widget's front end.
"""

from .faces import FOUR_COLOURS, RANK_PATHS, SUIT_PATHS, back_svg, card_svg, suit_colour
from .groups import arrangement_html, card_back_html, card_html, cards_html, meld_html
from .markup import SIZES, Snippet
from .snapshot import table_html, table_text, table_view
from .tables import result_html, rules_html, scoreboard_html, scoreboard_text, scoreboard_view

__all__ = [
    "FOUR_COLOURS",
    "RANK_PATHS",
    "SIZES",
    "SUIT_PATHS",
    "Snippet",
    "arrangement_html",
    "back_svg",
    "card_back_html",
    "card_html",
    "card_svg",
    "cards_html",
    "meld_html",
    "result_html",
    "rules_html",
    "scoreboard_html",
    "scoreboard_text",
    "scoreboard_view",
    "suit_colour",
    "table_html",
    "table_text",
    "table_view",
]
