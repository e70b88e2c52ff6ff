"""The rules of Traditional Rummy as one frozen object with two presets.

Every field cites its row of the decisions table in ``docs/rules.md``. ``traditional``
follows the English rules text and ``rummy_royal`` the Finnish (Rummy Royal) one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property

from ..errors import Reason, RuleError
from ..i18n import check_lang, current_language, t
from .cards import DECK_SIZE, SUITS, Card, parse_cards
from .inputs import excerpt, is_whole

PRESETS = ("traditional", "rummy_royal")


@dataclass(frozen=True)
class Rules:
    """Every rule switch of the game. Build one with ``Rules.preset(name)``."""

    name: str = "traditional"
    decks: int = 2  # row 1: two 52-card decks, no jokers
    min_players: int = 2  # row 2
    max_players: int = 4  # row 2
    hand_size: int = 10  # row 3
    ace_high: bool = False  # row 4: may an ace follow the king (Q-K-A)? never around the corner
    ace_points: int = 1  # row 5
    face_points: int = 10  # row 6: J, Q, K; 2-10 score their number
    set_max: int | None = None  # row 7: None = no upper limit (two decks: up to 8 cards)
    set_distinct_suits: bool = False  # row 7: must a set's suits all differ?
    min_meld: int = 3  # rows 7 and 8
    discard_taken_card: bool = False  # row 13: may the card taken from the pile go back at once?
    final_discard: bool = False  # rows 14-15: must a player going out end with a discard?
    rummy_bonus: int = 25  # row 20
    max_rebuilds: int = 3  # row 18: rebuilds of the stock before the deal is void
    max_turns: int = 1000  # row 18: turns before the deal is void (ends discard-swapping loops)
    payout_winner_share: float = 0.75  # row 21
    payout_margin: int = 50  # row 21: "less than 50 penalty points behind first place"

    def __post_init__(self) -> None:
        """Refuse switches the engine cannot play (``RuleError("bad_rules")``, saying which)."""
        problem = _problem(self)
        if problem is not None:
            raise RuleError("bad_rules", current_language(), reason=problem)

    @cached_property
    def memo(self) -> dict:
        """What other parts work out once from these rules (the solver's tables and memos),
        kept as long as this object. Not a rule: never compared, hashed, saved or pickled."""
        return {}

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "memo"}

    @classmethod
    def preset(cls, name: str | Rules, lang: str | None = None) -> Rules:
        """``"traditional"`` (the English text) or ``"rummy_royal"`` (the Finnish text)."""
        if isinstance(name, Rules):
            return name
        if name.__class__ is str and name in _PRESETS:
            return _PRESETS[name]
        raise RuleError(
            "unknown_rules",
            lang or current_language(),
            name=excerpt(name),
            choices=", ".join(PRESETS),
        )

    def with_changes(self, **changes: object) -> Rules:
        """A copy with some switches changed, e.g. ``rules.with_changes(max_rebuilds=1)``."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rules from ``to_dict``'s form; fields it does not know are ignored."""
        if not isinstance(data, dict):
            raise RuleError("bad_rules", current_language(), reason=Reason("rules_dict"))
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    # --- scoring ---------------------------------------------------------------------------

    def card_points(self, card: Card) -> int:
        """Penalty points of one card (rows 5 and 6)."""
        if card.rank == 1:
            return self.ace_points
        return self.face_points if card.rank > 10 else card.rank

    def points(self, cards: Iterable[Card | str] | str) -> int:
        """Penalty points of cards left in a hand (row 19)."""
        return sum(self.card_points(c) for c in parse_cards(cards))

    # --- melds -----------------------------------------------------------------------------

    def is_set(self, cards: list[Card]) -> bool:
        """Row 7: three or more of a rank; Rummy Royal: 3-4 cards, suits all different."""
        if len(cards) < self.min_meld or len({c.rank for c in cards}) != 1:
            return False
        if self.set_max is not None and len(cards) > self.set_max:
            return False
        return not self.set_distinct_suits or len({c.suit for c in cards}) == len(cards)

    def run_ranks(self, cards: list[Card]) -> list[int] | None:
        """Row 8 and row 4: the run's ranks in order (ace high counts 14), or None.

        A run has three or more cards of one suit, each rank once, consecutive. The ace is low
        (A-2-3); with ``ace_high`` it may instead be high (Q-K-A), never both and never
        around the corner (K-A-2).
        """
        if len(cards) < self.min_meld or len({c.suit for c in cards}) != 1:
            return None
        ranks = sorted(c.rank for c in cards)
        if len(set(ranks)) != len(ranks):
            return None
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return ranks
        if self.ace_high and ranks[0] == 1:
            high = [*ranks[1:], 14]
            if high == list(range(high[0], high[0] + len(high))):
                return high
        return None

    def meld_kind(self, cards: Iterable[Card | str] | str) -> str | None:
        """``"set"``, ``"run"`` or None for cards that are not a meld under these rules."""
        cards = list(parse_cards(cards))
        if self.is_set(cards):
            return "set"
        if self.run_ranks(cards) is not None:
            return "run"
        return None

    def order_meld(self, cards: list[Card]) -> list[Card]:
        """A meld's cards in table order: runs low to high, sets by suit."""
        ranks = self.run_ranks(cards)
        if ranks is None:
            return sorted(cards, key=lambda c: (SUITS.index(c.suit), c.id))
        high_ace = 14 in ranks
        return sorted(cards, key=lambda c: 14 if (c.rank == 1 and high_ace) else c.rank)

    # --- teaching --------------------------------------------------------------------------

    def describe(self, lang: str = "en") -> RulesDescription:
        """The active rules as a table in English ("en") or Finnish ("fi"), from the code."""
        check_lang(lang)
        return RulesDescription(self, lang)


_FLAGS = ("ace_high", "set_distinct_suits", "discard_taken_card", "final_discard")
_AT_LEAST = {
    "ace_points": 0,
    "face_points": 0,
    "rummy_bonus": 0,
    "max_rebuilds": 0,
    "max_turns": 1,
    "payout_margin": 0,
}


def _problem(rules: Rules) -> Reason | None:
    """What is wrong with these switches, or None: types first, then the ranges that a deal of
    two decks can hold (every hand dealt, a discard turned up and a card left in the stock)."""
    r = rules
    if r.name.__class__ is not str or r.name not in PRESETS:
        return Reason("rules_name", field="name", value=excerpt(r.name), choices=", ".join(PRESETS))
    for name in _FLAGS:
        if not isinstance(getattr(r, name), bool):
            return Reason("rules_flag", field=name, value=excerpt(getattr(r, name)))
    share = r.payout_winner_share
    if not isinstance(share, int | float) or isinstance(share, bool) or not 0 <= share <= 1:
        return Reason("rules_share", field="payout_winner_share", value=excerpt(share))
    for name, low in _AT_LEAST.items():
        value = getattr(r, name)
        if not is_whole(value) or value < low:
            return Reason("rules_at_least", field=name, low=low, value=excerpt(value))
    ranges = [("decks", 2, 2), ("min_players", 2, 10), ("max_players", 2, 10)]
    ranges.append(("min_meld", 2, 13))  # two-card melds are a variant the solver is tested with
    for name, low, high in ranges:
        if not _whole_in(getattr(r, name), low, high):
            return _range(name, getattr(r, name), low, high)
    if r.max_players < r.min_players:
        return _range("max_players", r.max_players, r.min_players, 10)
    most = (DECK_SIZE - 2) // r.max_players
    if not _whole_in(r.hand_size, 1, most):
        return _range("hand_size", r.hand_size, 1, most)
    if r.set_max is not None and not _whole_in(r.set_max, r.min_meld, 8):
        return _range("set_max", r.set_max, r.min_meld, 8)
    return None


def _whole_in(value: object, low: int, high: int) -> bool:
    return is_whole(value) and low <= value <= high


def _range(name: str, value: object, low: int, high: int) -> Reason:
    return Reason("rules_range", field=name, low=low, high=high, value=excerpt(value))


_PRESETS: dict[str, Rules] = {
    "traditional": Rules(name="traditional"),
    "rummy_royal": Rules(
        name="rummy_royal",
        ace_high=True,
        ace_points=11,
        set_max=4,
        set_distinct_suits=True,
        final_discard=True,
    ),
}


def _yes_no(value: bool, lang: str) -> str:
    return t("common.yes" if value else "common.no", lang)


class RulesDescription:
    """Rows of (rule, value) describing a ``Rules`` object in one language."""

    def __init__(self, rules: Rules, lang: str) -> None:
        self.rules = rules
        self.lang = lang
        self.title = t("rules.title", lang, preset=t(f"rules.preset.{rules.name}", lang))
        self.rows: list[tuple[str, str]] = [
            (t(f"rules.row.{key}", lang), value) for key, value in self._values()
        ]

    def _values(self) -> list[tuple[str, str]]:
        r, lang = self.rules, self.lang
        set_rule = (
            t("rules.value.set_distinct", lang, max=r.set_max or "∞")
            if r.set_distinct_suits
            else t("rules.value.set_any", lang, min=r.min_meld)
        )
        return [
            ("deck", t("rules.value.deck", lang, cards=52 * r.decks)),
            ("players", t("rules.value.players", lang, min=r.min_players, max=r.max_players)),
            ("deal", t("rules.value.deal", lang, cards=r.hand_size)),
            ("ace_runs", t("rules.value.ace_high" if r.ace_high else "rules.value.ace_low", lang)),
            ("ace_points", str(r.ace_points)),
            ("other_points", t("rules.value.other_points", lang, face=r.face_points)),
            ("set", set_rule),
            ("run", t("rules.value.run", lang, min=r.min_meld)),
            ("lay_off", t("rules.value.lay_off", lang)),
            ("discard_taken", _yes_no(r.discard_taken_card, lang)),
            ("final_discard", _yes_no(r.final_discard, lang)),
            ("rummy_bonus", str(r.rummy_bonus)),
            ("rebuilds", t("rules.value.rebuilds", lang, n=r.max_rebuilds, turns=r.max_turns)),
            (
                "payout",
                t(
                    "rules.value.payout",
                    lang,
                    share=round(r.payout_winner_share * 100),
                    margin=r.payout_margin,
                ),
            ),
        ]

    def __str__(self) -> str:
        width = max(len(k) for k, _ in self.rows)
        lines = [self.title] + [f"{k.ljust(width)}  {v}" for k, v in self.rows]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_markdown_(self) -> str:
        head = f"**{self.title}**\n\n| | |\n|---|---|\n"
        return head + "\n".join(f"| {k} | {v} |" for k, v in self.rows)

    def _repr_html_(self) -> str:
        from ..display import rules_html

        return rules_html(self)
