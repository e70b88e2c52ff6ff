"""Self-checks for the tutorial notebooks' exercises, answering in the notebook's language.

A learner writes an answer in code (``answer = 17``) and calls a checker
(``checks.hand_points("7H QS", answer, lang=LANG)``). ``None`` means "not answered yet" and
gets a friendly reminder, so an exercise cell runs without error as committed. Every checker
returns a ``Feedback``: shown as a coloured box with a word and a symbol (never colour alone),
and as one stable line of text for strict nbval. Texts come from the ``check.*`` keys.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.cards import DECK, Card, cards_text, choose_copies, parse_cards, read_names
from ..engine.game import Game
from ..engine.match import payout as share_pool
from ..engine.melds import Meld
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import check_lang, t
from ..solver import best_arrangement

#: Answer words accepted in either language (inputs, never shown).
KIND_WORDS: dict[str, str | None] = {
    "set": "set",
    "setti": "set",
    "run": "run",
    "suora": "run",
    "none": None,
    "no": None,
    "ei": None,
    "ei mikään": None,
    "not a meld": None,
    "ei pöytäys": None,
}
YES_WORDS = {"yes", "kyllä", "true"}
NO_WORDS = {"no", "ei", "false"}
#: A learner's bot gets this many moves per game before the check calls the game endless.
MAX_MOVES = 2000
_STYLES = {
    True: ("✓", "#2e7d32", "#e8f5e9"),
    False: ("✗", "#c62828", "#ffebee"),
    None: ("…", "#8c8c8c", "#f5f5f5"),
}


@dataclass(frozen=True)
class Feedback:
    """A checker's answer: ``ok`` is True (right), False (wrong) or None (not checked yet)."""

    ok: bool | None
    text: str
    lang: str = "en"

    def __bool__(self) -> bool:
        return self.ok is True

    def __repr__(self) -> str:
        return f"{_STYLES[self.ok][0]} {self.text}"

    __str__ = __repr__

    def _repr_html_(self) -> str:
        mark, ink, paper = _STYLES[self.ok]
        style = (
            f"border-left:4px solid {ink};background:{paper};color:#1a1a1a;"
            "padding:6px 10px;margin:4px 0;font-family:Arial,Helvetica,sans-serif"
        )
        return (
            f'<div class="rw-s-check" role="status" lang="{self.lang}" style="{style}">'
            f'<span aria-hidden="true" style="color:{ink};font-weight:700">{mark}</span> '
            f"{html.escape(self.text)}</div>"
        )


def _right(lang: str, *details: str) -> Feedback:
    return Feedback(True, " ".join([t("check.right", lang), *details]), lang)


def _wrong(lang: str, *details: str) -> Feedback:
    return Feedback(False, " ".join([t("check.wrong", lang), *details]), lang)


def _not_answered(lang: str) -> Feedback:
    return Feedback(None, t("check.not_answered", lang), lang)


def _unreadable(key: str, answer: object, lang: str, **params: object) -> Feedback:
    return Feedback(None, t(key, lang, answer=repr(answer), **params), lang)


def _as_int(answer: object) -> int | None:
    """A whole-number answer (``12`` or ``"12"``), or None if it is not one."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float) and answer.is_integer():
        return int(answer)
    if isinstance(answer, str) and answer.strip().lstrip("-").isdigit():
        return int(answer.strip())
    return None


def _number_exercise(
    hand: str | Iterable[Card | str], answer: object, rules: str | Rules, lang: str
) -> tuple[Rules, list[Card], int] | Feedback:
    """What a "how many points?" exercise reads: the rules, the cards and the learner's whole
    number; or the feedback for an answer missing or not a number. The cards are read first,
    so a hand that is not cards is an error whatever the answer."""
    check_lang(lang)
    rules = Rules.preset(rules)
    cards = parse_cards(hand)
    if answer is None:
        return _not_answered(lang)
    value = _as_int(answer)
    if value is None:
        return _unreadable("check.expect.number", answer, lang)
    return rules, cards, value


def _missed(value: int, right: int, lang: str, hint: str) -> Feedback:
    """A wrong number: too high or too low, then a hint."""
    return _wrong(lang, _size_hint(value, right, lang), hint)


# --- cards and points ------------------------------------------------------------------------


def hand_points(
    hand: str | Iterable[Card | str],
    answer: object,
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> Feedback:
    """How many penalty points are these cards worth? (every card counts, no melds)"""
    read = _number_exercise(hand, answer, rules, lang)
    if isinstance(read, Feedback):
        return read
    rules, cards, value = read
    right = rules.points(cards)
    if value == right:
        return _right(lang, t("check.points.right", lang, cards=cards_text(cards), total=right))
    return _missed(value, right, lang, _points_hint(rules, lang))


def _points_hint(rules: Rules, lang: str) -> str:
    return t("check.points.hint", lang, ace=rules.ace_points, face=rules.face_points)


def _size_hint(value: int, right: int, lang: str) -> str:
    return t("check.too_high" if value > right else "check.too_low", lang)


# --- melds -----------------------------------------------------------------------------------


def why_meld(cards: str | Iterable[Card | str], rules: str | Rules = "traditional", lang="en"):
    """One sentence saying what these cards are under ``rules``, and why."""
    rules = Rules.preset(rules)
    cards = list(parse_cards(cards))
    text = cards_text(rules.order_meld(cards) if rules.meld_kind(cards) else cards)
    kind = rules.meld_kind(cards)
    if kind == "set":
        key = "check.why.set_distinct" if rules.set_distinct_suits else "check.why.set"
        return t(key, lang, cards=text, min=rules.min_meld, max=rules.set_max or "")
    if kind == "run":
        return t("check.why.run", lang, cards=text, min=rules.min_meld)
    return t(f"check.why.{_not_meld_reason(cards, rules)}", lang, cards=text, **_limits(rules))


def _limits(rules: Rules) -> dict:
    return {"min": rules.min_meld, "max": rules.set_max or ""}


def _not_meld_reason(cards: list[Card], rules: Rules) -> str:
    """Which rule these cards break (they are not a meld under ``rules``)."""
    if len(cards) < rules.min_meld:
        return "too_few"
    ranks = sorted(c.rank for c in cards)
    if len(set(ranks)) == 1:
        if rules.set_max is not None and len(cards) > rules.set_max:
            return "set_too_big"
        return "suit_repeats"
    if len({c.suit for c in cards}) != 1:
        return "mixed"
    if len(set(ranks)) != len(ranks):
        return "rank_twice"
    if 1 in ranks:
        high = sorted([*ranks[1:], 14])
        if high == list(range(high[0], high[0] + len(high))):
            return "ace_low_only"  # Q-K-A is a run only where the ace may be high
        if 13 in ranks and 2 in ranks:
            return "corner"
    return "gap"


def meld_kind(
    cards: str | Iterable[Card | str],
    answer: object,
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> Feedback:
    """Set, run or no meld? Answers: "set"/"setti", "run"/"suora", "none"/"ei"."""
    check_lang(lang)
    rules = Rules.preset(rules)
    cards = list(parse_cards(cards))
    if answer is None:
        return _not_answered(lang)
    if answer is False:
        answer = "none"
    word = str(answer).strip().lower() if isinstance(answer, str | bool) else None
    if word not in KIND_WORDS:
        return _unreadable("check.expect.kind", answer, lang)
    why = why_meld(cards, rules, lang)
    if KIND_WORDS[word] == rules.meld_kind(cards):
        return _right(lang, why)
    return _wrong(lang, why)


def _yes_no(answer: object) -> bool | None:
    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        word = answer.strip().lower()
        if word in YES_WORDS:
            return True
        if word in NO_WORDS:
            return False
    return None


def lay_off(
    meld: str | Iterable[Card | str] | Meld,
    card: str | Card,
    answer: object,
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> Feedback:
    """May ``card`` be laid off on this meld on the table? Answer True or False."""
    check_lang(lang)
    rules = Rules.preset(rules)
    if not isinstance(meld, Meld):
        made = Meld.make(parse_cards(meld), rules, 0)
        if made is None:
            raise RuleError("not_a_meld", lang, cards=parse_cards(meld))
        meld = made
    card = Card.parse(card)
    if card in meld.cards:  # "4D" names the copy already in the meld: the learner means the twin
        card = Card((card.id + 52) % 104)
    if answer is None:
        return _not_answered(lang)
    said = _yes_no(answer)
    if said is None:
        return _unreadable("check.expect.yes_no", answer, lang)
    grown = meld.with_card(card, rules)
    names = {"card": str(card), "meld": cards_text(meld.cards)}
    if grown is not None:
        why = t("check.lay_off.yes", lang, grown=cards_text(grown.cards), **names)
    else:
        why = (
            t("check.lay_off.no", lang, **names) + " " + why_meld([*meld.cards, card], rules, lang)
        )
    return _right(lang, why) if said == (grown is not None) else _wrong(lang, why)


def best_penalty(
    hand: str | Iterable[Card | str],
    answer: object,
    rules: str | Rules = "traditional",
    table_melds: Sequence = (),
    lang: str = "en",
) -> Feedback:
    """Penalty points left once the best melds (and lay-offs) are set aside."""
    read = _number_exercise(hand, answer, rules, lang)
    if isinstance(read, Feedback):
        return read
    rules, _, value = read
    cards = _beside_table(hand, table_melds, lang)
    best = best_arrangement(cards, rules, table_melds)
    if value != best.penalty:
        return _missed(value, best.penalty, lang, t("check.best.hint", lang))
    if not best.melds and not best.lay_offs:
        return _right(lang, t("check.best.no_melds", lang, points=best.penalty))
    melds = ", ".join(cards_text(m) for m in best.melds)
    melds = ", ".join(p for p in [melds, cards_text(c for c, _ in best.lay_offs)] if p)
    left = cards_text(best.leftover) or t("display.none", lang)
    return _right(lang, t("check.best.right", lang, melds=melds, left=left, points=best.penalty))


def _beside_table(hand: str | Iterable[Card | str], table_melds: Sequence, lang: str) -> list[Card]:
    """The hand's cards, a face taking a copy that is not on the table (``"7H"`` beside a
    meld holding 7♥ is the other 7♥)."""
    on_table = {
        c.id for m in table_melds for c in (m.cards if isinstance(m, Meld) else parse_cards(m))
    }
    return choose_copies(read_names(hand, lang), [c for c in DECK if c.id not in on_table], lang)


# --- scoring ---------------------------------------------------------------------------------


def deal_penalty(
    hand: str | Iterable[Card | str],
    answer: object,
    rummy: bool = False,
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> Feedback:
    """A loser's penalty for a deal: the cards left, plus the bonus if the winner went Rummy."""
    read = _number_exercise(hand, answer, rules, lang)
    if isinstance(read, Feedback):
        return read
    rules, cards, value = read
    points = rules.points(cards)
    bonus = rules.rummy_bonus if rummy else 0
    if value == points + bonus:
        key = "check.deal.right_rummy" if rummy else "check.points.right"
        text = t(key, lang, cards=cards_text(cards), points=points, bonus=bonus, total=value)
        return _right(lang, text)
    if rummy and value == points:
        return _wrong(lang, t("check.deal.hint_rummy", lang, bonus=rules.rummy_bonus))
    return _missed(value, points + bonus, lang, _points_hint(rules, lang))


def payout(
    pool_cents: int,
    totals: Sequence[int],
    answer: object,
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> Feedback:
    """Each player's share of a ring-game pool, in cents, in seat order."""
    check_lang(lang)
    rules = Rules.preset(rules)
    totals = list(totals)
    if answer is None:
        return _not_answered(lang)
    values = None
    if isinstance(answer, list | tuple) and len(answer) == len(totals):
        values = [_as_int(a) for a in answer]
    if values is None or None in values:
        return _unreadable("check.expect.list", answer, lang, n=len(totals))
    right = share_pool(pool_cents, totals, rules)
    if values == right:
        return _right(lang, t("check.payout.right", lang, shares=", ".join(map(str, right))))
    if sum(values) != pool_cents:
        return _wrong(lang, t("check.payout.sum", lang, got=sum(values), pool=pool_cents))
    return _wrong(lang, t("check.payout.hint", lang, margin=rules.payout_margin))


# --- a learner's bot -------------------------------------------------------------------------


def my_bot(
    bot: object,
    lang: str = "en",
    opponents: Sequence[str] = ("random", "basic"),
    deals: int = 1,
    rules: str | Rules = "traditional",
    seed: int = 0,
) -> Feedback:
    """Play the learner's bot against each opponent on ``deals`` deals, from both seats, and
    report the first illegal move or error (in the learner's words), or the games won."""
    check_lang(lang)
    if not callable(getattr(bot, "act", None)):
        return Feedback(False, t("check.bot.no_act", lang), lang)
    from ..bots import get_bot

    games = wins = 0
    for n, name in enumerate(opponents):
        for deal in range(deals):
            for seat in (0, 1):
                games += 1
                game = Game(2, rules, seed=seed * 1000 + n * 100 + deal, lang=lang)
                players = [copy.deepcopy(bot), get_bot(name, seed=seed + deal)]
                if seat:
                    players.reverse()
                problem = _play(game, players, seat, games, lang)
                if problem is not None:
                    return problem
                wins += game.result.winner == seat
    return Feedback(True, t("check.bot.ok", lang, games=games, wins=wins), lang)


def _play(game: Game, players: list, seat: int, number: int, lang: str) -> Feedback | None:
    """Play one game; a Feedback if the learner's bot (at ``seat``) misbehaved."""
    moves = 0
    while game.phase != "over":
        player = game.current_player
        observation = game.observation(player)
        try:
            answer = players[player].act(observation)
        except Exception as err:  # the learner's code: report it, do not crash the notebook
            if player != seat:
                raise
            error = f"{type(err).__name__}: {err}"
            return Feedback(False, t("check.bot.crashed", lang, game=number, error=error), lang)
        try:
            action = answer if isinstance(answer, Action) else Action.from_json(answer)
        except RuleError:
            text = t("check.bot.not_action", lang, game=number, answer=repr(answer)[:60])
            return Feedback(False, text, lang)
        top = game.discard_pile[0] if game.discard_pile else None
        try:
            game.apply(action, player=player)
        except RuleError as err:
            if player != seat:
                raise
            move = _move_text(action, lang, top)
            text = t("check.bot.illegal", lang, game=number, move=move, reason=err.localized(lang))
            return Feedback(False, text, lang)
        moves += 1
        if moves > MAX_MOVES:
            return Feedback(
                False, t("check.bot.too_long", lang, game=number, moves=MAX_MOVES), lang
            )
    return None


def _move_text(action: Action, lang: str, top: Card | None) -> str:
    from .lessons import describe

    return describe(action, lang, discard_top=top).rstrip(".")


__all__ = [
    "Feedback",
    "best_penalty",
    "deal_penalty",
    "hand_points",
    "lay_off",
    "meld_kind",
    "my_bot",
    "payout",
    "why_meld",
]
