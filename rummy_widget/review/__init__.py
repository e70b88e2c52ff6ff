"""Game review: every decision of one seat, what it cost against the best option tried, and
why, judged only from what that seat saw (docs/review.md).

``review(game, seat)`` is also ``rummy_widget.review``. The table imports this layer; it
imports the bots (for playouts) and the static display (for drawing itself).
"""

import sys

from .core import review
from .result import Decision, Option, Review, action_text
from .takebacks import take_back_default

__all__ = ["Decision", "Option", "Review", "action_text", "review", "take_back_default"]


class _CallablePackage(sys.modules[__name__].__class__):
    """``rummy_widget.review`` is this package whichever way it was imported (``import
    rummy_widget.review`` binds the package there), so the package itself can be called:
    ``rummy_widget.review(game, seat)`` is ``review(game, seat)``."""

    def __call__(self, *args, **options) -> Review:
        return review(*args, **options)


sys.modules[__name__].__class__ = _CallablePackage
