"""JSON objects that cannot be changed, so one game can hand the same pieces to many readers.

An observation is rebuilt for every move of every bot, and copying the whole event log and
every card's ``{"id", "code"}`` each time would be a large share of a bot-against-bot deal.
So the game builds each log event and each card's JSON once, as a ``Frozen`` dict, and
every observation shares them. They are real ``dict`` subclasses (``json.dumps``, ``==`` and
``.copy()`` behave as for a plain dict), but changing one raises ``TypeError``: a reader cannot
change the game, or what another seat reads, through a shared piece.
"""

from __future__ import annotations

from typing import Any, NoReturn

from ..i18n import current_language, t


class Frozen(dict):
    """A read-only dict. ``.copy()`` (and ``dict(f)``) give an ordinary, changeable dict."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(t("error.read_only", current_language()))

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple:
        # pickle, copy and deepcopy would otherwise refill the new object item by item.
        return (Frozen, (dict(self),))

    def __repr__(self) -> str:
        return dict.__repr__(self)
