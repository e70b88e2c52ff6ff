"""Why some cards are not a meld, or a card does not fit a meld, named by the rule that failed,
in the table's language.

The engine says only "not a meld"; a learner who tried K♠ K♦ K♦ in Rummy Royal needs to hear
that a set needs different suits there. ``explain_meld`` finds the first rule the cards break,
checked in the order a learner would: too few cards, then the set rules (one rank), then the
run rules (one suit), else a mix of both. ``explain_lay_off`` says what a meld on the table
takes instead: "a set of jacks takes only jacks", "a run of hearts takes only the next card at
either end: 4♥ or 8♥".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce

from ..engine.cards import Card
from ..engine.melds import Meld
from ..engine.rules import Rules
from ..i18n import t

Text = Callable[[str], str]


def meld_reason(cards: Sequence[Card], rules: Rules) -> tuple[str, dict] | None:
    """The translation key and parameters of the first broken rule, or None for a meld."""
    if rules.meld_kind(list(cards)) is not None:
        return None
    if len(cards) < rules.min_meld:
        return "ui.reason.too_few", {"n": rules.min_meld}
    ranks = sorted(c.rank for c in cards)
    suits = {c.suit for c in cards}
    if len(set(ranks)) == 1:
        if rules.set_max is not None and len(cards) > rules.set_max:
            return "ui.reason.set_max", {"n": rules.set_max}
        return "ui.reason.set_suits", {}
    if len(suits) != 1:
        return "ui.reason.mixed", {}
    if len(set(ranks)) != len(ranks):
        return "ui.reason.run_twice", {}
    if ranks[0] == 1 and ranks[-1] == 13:
        low = ranks[: next(i for i, r in enumerate([*ranks, 0]) if r != i + 1)]
        high = [r for r in ranks if r not in low]
        # K-A-2: the ace joins a king and a two at once; Q-K-A under an ace-low preset.
        if not rules.ace_high and len(low) == 1:
            key = "ui.reason.ace_low" if rules.name == "traditional" else "ui.reason.ace_low_rules"
            return key, {}
        if low and high and len(low) + len(high) == len(ranks) and len(low) > 1:
            return "ui.reason.corner", {}
    return "ui.reason.gap", {}


def explain_meld(cards: Sequence[Card] | None, rules: Rules) -> Text | None:
    """The sentence for a refused meld, as a function of the language; None for a meld."""
    if not cards:
        return None
    found = meld_reason(list(cards), rules)
    if found is None:
        return None
    key, params = found
    shown = " ".join(str(c) for c in cards)

    def text(lang: str) -> str:
        return t("ui.reason.not_a_meld", lang, cards=shown, reason=t(key, lang, **params))

    return text


def lay_off_reason(card: Card, meld: Meld, rules: Rules) -> tuple[str, dict] | None:
    """The translation key and parameters that say what ``meld`` takes instead of ``card``
    (None if the card fits). Parameters in ``{}`` are card faces, translated when worded."""
    if meld.with_card(card, rules) is not None:
        return None
    fits = [c for c in map(Card, range(52)) if meld.with_card(c, rules) is not None]
    first = meld.cards[0]
    if meld.kind == "set":
        if rules.set_max is not None and len(meld.cards) >= rules.set_max:
            return "ui.reason.set_max", {"n": rules.set_max}
        if card.rank != first.rank or not fits:
            return "ui.lay_off_reason.set_rank", {"rank": first.rank}
        return "ui.lay_off_reason.set_suits", {"cards": fits}
    if not fits:
        return "ui.lay_off_reason.run_full", {}
    if len(fits) == 1:
        return "ui.lay_off_reason.run_one", {"suit": first.suit, "card": fits[0]}
    return "ui.lay_off_reason.run_two", {"suit": first.suit, "low": fits[0], "high": fits[-1]}


def seen_meld(seen: dict) -> Meld:
    """A meld of an observation (``{"owner", "kind", "cards"}``) as the engine's ``Meld``: a
    classroom seat knows the table only from its observation."""
    return Meld(tuple(Card(c["id"]) for c in seen["cards"]), seen["kind"], seen["owner"])


def explain_lay_off(card: Card, meld: Meld, index: int, rules: Rules) -> Text | None:
    """The sentence for a refused lay-off onto meld ``index`` as a function of the language:
    the card, the meld's number (the one ``game.lay_off`` takes) and the rule; None if it fits."""
    found = lay_off_reason(card, meld, rules)
    if found is None:
        return None
    key, params = found

    def text(lang: str) -> str:
        words = dict(params)
        if "rank" in words:
            words["rank"] = t(f"card.rank.{params['rank']}", lang)
        if "suit" in words:
            words["suit"] = t(f"card.suit.{params['suit']}", lang)
        if "cards" in words:
            named = [str(c) for c in params["cards"]]
            words["cards"] = reduce(lambda a, b: t("ui.lay_off_reason.or", lang, a=a, b=b), named)
        for name in ("card", "low", "high"):
            if name in words:
                words[name] = str(words[name])
        reason = t(key, lang, **words)
        return t("ui.lay_off_reason.not_fit", lang, card=card, index=index, reason=reason)

    return text
