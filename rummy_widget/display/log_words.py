"""A move of the game's log in words: one wording for the table, the lessons and the board.

The table's front end, the classroom board and the lessons' ``moves()`` all show the log; they
take its sentences from here (the table's view sends each event with its ``text``), so the
browser carries no copy of the wording and every place says a move the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import Card, card_name, cards_text
from ..engine.frozen import Frozen
from ..i18n import inflect_card, inflect_cards, t, you_text

#: Sentences said of the game's own log events, which are read-only and shared by every
#: observation (engine/frozen.py): each view words the last 15-odd moves again. Keyed by the
#: event's identity, each entry holding its event (so that identity is not reused); started
#: over when full.
_SAID: dict[tuple, tuple[Frozen, str]] = {}
_SAID_MAX = 2048
#: The log's events that are moves, one for each entry of ``game.history``; a deal, a stock
#: rebuilt from the discard pile and a deal's end are events but not moves.
MOVES = frozenset(("draw", "meld", "lay_off", "discard"))


def event_text(
    event: dict, names: Sequence[str], lang: str, you: int = -1, short: bool = False
) -> str:
    """``event`` (an entry of ``game.log`` or of an observation's log) as a sentence in ``lang``.

    ``you`` is the seat the sentence speaks to ("You drew from the stock."; -1 names everyone,
    as a replay or a spectator does). Cards are spoken names ("queen of hearts", for screen
    readers and the table's log) unless ``short`` ("Q♥", as the lessons print them).
    """
    if event.__class__ is not Frozen:
        return _said(event, names, lang, you, short)
    key = (id(event), tuple(names), lang, you, short)
    known = _SAID.get(key)
    if known is not None and known[0] is event:
        return known[1]
    text = _said(event, names, lang, you, short)
    if len(_SAID) >= _SAID_MAX:
        _SAID.clear()
    _SAID[key] = (event, text)
    return text


def worded(
    events: Sequence[dict],
    names: Sequence[str],
    lang: str,
    you: int = -1,
    moves_before: int | None = None,
) -> list[dict]:
    """Each event with its ``text`` (``event_text``): a log as a view sends it.

    With ``moves_before`` (the moves played before the first of ``events``), each move also
    gets ``move``: its number, the n-th entry of ``game.history`` counting from 1, the number
    the review and the replay give it. Other events get none.
    """
    said = [dict(e, text=event_text(e, names, lang, you)) for e in events]
    if moves_before is not None:
        number = moves_before
        for event in said:
            if event["type"] in MOVES:
                number += 1
                event["move"] = number
    return said


def moves_in(events: Sequence[dict]) -> int:
    """How many of ``events`` are moves (entries of ``game.history``)."""
    return sum(1 for e in events if e["type"] in MOVES)


def _said(event: dict, names: Sequence[str], lang: str, you: int, short: bool) -> str:
    kind = event["type"]
    player = event.get("player", 0)
    name = names[player] if 0 <= player < len(names) else ""

    def card(data: dict) -> str:  # the object of the sentence: "herttasotilaan", "kortin J♥"
        found = Card(data["id"])
        return inflect_card(str(found) if short else card_name(found, lang), "gen", lang)

    def said(key: str, seat: int, **params: object) -> str:
        return you_text(key, lang, seat == you, **params)

    if kind == "deal":
        dealer = event.get("dealer", 0)
        return said("log.deal", dealer, name=names[dealer] if dealer < len(names) else "")
    if kind == "draw":
        if event.get("source") == "discard" and event.get("card"):
            return said("log.draw_discard", player, name=name, card_gen=card(event["card"]))
        return said("log.draw_stock", player, name=name)
    if kind == "meld":
        melded = [Card(c["id"]) for c in event.get("cards", ())]
        spoken = [card_name(c, lang) for c in melded]
        words = cards_text(melded) if short else inflect_cards(spoken, "gen", lang)
        return said("log.meld", player, name=name, cards_gen=words)
    if kind == "lay_off":
        index = event.get("meld_index", 0)  # the number game.lay_off(card, i) takes
        return said("log.lay_off", player, name=name, card_gen=card(event["card"]), index=index)
    if kind == "discard":
        return said("log.discard", player, name=name, card_gen=card(event["card"]))
    if kind == "rebuild":
        return t("log.rebuild", lang)
    winner = event.get("winner")
    if event.get("void") or winner is None:
        return t("log.end_void", lang)
    key = "log.end_rummy" if event.get("rummy") else "log.end_out"
    return said(key, winner, name=names[winner] if winner < len(names) else "")
