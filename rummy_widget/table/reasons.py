"""Why some cards are not a meld, named by the rule that failed, in the table's language.

The engine says only "not a meld"; a learner who tried K♠ K♦ K♦ in Rummy Royal needs to hear
that a set needs different suits there. ``explain_meld`` finds the first rule the cards break,
checked in the order a learner would: too few cards, then the set rules (one rank), then the
run rules (one suit), else a mix of both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.cards import Card
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
