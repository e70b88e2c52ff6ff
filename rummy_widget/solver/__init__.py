"""The best arrangement of a hand: melds, lay-offs and the fewest penalty points left.

``best_arrangement(hand, rules, table_melds)`` is exact: no way of playing the hand's cards this
turn leaves fewer penalty points. ``min_penalty`` gives the same number without building cards.
``can_go_out`` and ``outs`` answer the questions bots and hints ask. The algorithm, the
tie-break rule and measured speeds are in ``docs/solver.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card
from ..rules import Rules
from . import _core
from ._core import TableMelds, min_penalty
from .arrangement import Arrangement
from .helpers import GoOut, Out, can_go_out, outs

__all__ = ["Arrangement", "GoOut", "Out", "best_arrangement", "can_go_out", "min_penalty", "outs"]


def best_arrangement(
    hand: Iterable[Card | str], rules: Rules | str, table_melds: TableMelds = ()
) -> Arrangement:
    """The melds and lay-offs that leave the fewest penalty points (ties: docs/solver.md).

    ``table_melds`` are the melds already on the table (``Meld`` objects or card sequences), in
    table order; lay-offs name them by index. They are extended, never rearranged.
    """
    ctx = _core.context(rules, table_melds)
    total, cards = _core.encode(hand, ctx)
    return _core.arrangement(ctx, total, cards)
