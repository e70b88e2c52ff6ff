"""A learner's blunder in plain words that name the cards, in English and Finnish.

English names a card by its symbol ("4♣"); Finnish by its compound name in the case the
sentence needs ("heitit pois ristinelosen"), as the rules text does. A meld is always shown
by its cards. Numbers use the decimal comma in Finnish.
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.cards import Card, card_name, cards_text
from ..i18n import t
from .patterns import Finding


def number(value: float, lang: str, sign: bool = False) -> str:
    """``value`` with one decimal, the decimal comma in Finnish ("+4,5")."""
    text = f"{value:+.1f}" if sign else f"{value:.1f}"
    return text.replace(".", ",") if lang == "fi" else text


def card_words(name: str, card: Card, lang: str) -> dict[str, str]:
    """A card's parameters: ``name`` (the object: "4♣" / "ristinelosen"), ``name_nom``,
    ``name_part``."""
    if lang != "fi":
        return {name: str(card), f"{name}_nom": str(card), f"{name}_part": str(card)}
    return {
        name: card_name(card, lang, "gen"),
        f"{name}_nom": card_name(card, lang, "nom"),
        f"{name}_part": card_name(card, lang, "part"),
    }


def finding_reason(finding: Finding, played: Action, observation: dict, lang: str) -> str:
    """The reason for a learner's blunder: what was lost, the better move, the cards."""
    from .result import action_text

    params: dict[str, object] = {
        "better_move": action_text(finding.better, lang),
        "played_move": action_text(played, lang),
        **finding.words,
    }
    if played.kind in ("discard", "lay_off"):
        params.update(card_words("played", played.card, lang))
    elif played.kind == "meld":
        params["played"] = cards_text(played.cards)
    for name, card in finding.cards.items():
        params.update(card_words(name, card, lang))
    for name, cards in finding.melds.items():
        params[name] = cards_text(cards)
    params["points"] = round(finding.gap)
    key = f"review.why.{finding.kind}"
    if finding.kind in ("broke_meld", "extended_meld"):
        key += "." + finding.words["meld_kind"]
    if finding.kind in ("missed_out", "missed_rummy"):
        key += "." + ("discard" if played.kind == "discard" else "play")
    if finding.kind == "fed_next":
        params["name"] = observation["players"][finding.words["seat"]]["name"]
    return t(key, lang, **params)
