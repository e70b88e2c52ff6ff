"""Material the tutorial notebooks share: pictures and small tables in the notebook's language.

The engine's objects draw themselves in the language chosen with ``set_language`` (English by
default); the helpers here take ``lang`` explicitly, so a notebook's pictures follow its
``lang-setup`` cell whatever was set before. Each returns a ``Snippet``: HTML for the notebook
(saved with it, so GitHub and nbviewer show the cards) and a short, stable text form for strict
nbval. Every word comes from the translation tables (``lesson.*``, ``display.*``, ``log.*``,
``ui.*``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..display import (
    Snippet,
    arrangement_html,
    card_html,
    cards_html,
    meld_html,
    result_html,
)
from ..display.log_words import MOVES, event_text, moves_in
from ..display.markup import esc, tag
from ..display.tables import table, td, th
from ..engine.actions import Action
from ..engine.cards import SUITS, Card, card_name, cards_text, parse_cards
from ..engine.game import DealResult, Game
from ..engine.match import payout
from ..engine.melds import Meld
from ..engine.rules import PRESETS, Rules, RulesDescription
from ..i18n import check_lang, t
from ..solver import Arrangement

__all__ = [
    "card_names",
    "describe",
    "lesson_rules",
    "meld_table",
    "money",
    "moves",
    "payout_table",
    "points_table",
    "rules_differences",
    "setup_notebook",
    "show",
]


def show(obj: object, lang: str = "en", four_color: bool = False, size: str = "normal") -> Snippet:
    """Draw a card, cards, a meld, a deal's result, a solver arrangement or a game in ``lang``.

    Cards may be given as text (``"7H 8H 9H"``). A ``Game`` is drawn from seat 0, as
    ``game.show(lang=lang)`` does.
    """
    check_lang(lang)
    style = {"four_color": four_color, "size": size}
    if isinstance(obj, Game):
        return obj.show(0, lang=lang, **style)
    if isinstance(obj, RulesDescription):
        obj = obj.rules.describe(lang)
        return Snippet(obj._repr_html_(), str(obj))
    if isinstance(obj, Card):
        return Snippet(tag("span", card_html(obj, lang, **style), lang=lang), str(obj))
    if isinstance(obj, Meld):
        return Snippet(meld_html(obj, lang, **style), repr(obj))
    if isinstance(obj, DealResult):
        names = obj.names or None
        return Snippet(result_html(obj, names, lang, **style), _result_text(obj, names, lang))
    if isinstance(obj, Arrangement):
        return Snippet(arrangement_html(obj, lang, **style), repr(obj))
    cards = parse_cards(obj)
    return Snippet(cards_html(cards, lang, **style), repr(cards))


def _result_text(result: DealResult, names: Sequence[str] | None, lang: str) -> str:
    from ..display.tables import fill_names, result_sentence

    names = fill_names(names, len(result.penalties), lang)
    points = ", ".join(f"{n} {p}" for n, p in zip(names, result.penalties, strict=True))
    return f"{result_sentence(result, names, lang)} · {t('display.col.penalty', lang)}: {points}"


# --- tables ----------------------------------------------------------------------------------


def _snippet(caption: str, head: list[str], rows: list[list[str]], html_rows: list[str], lang: str):
    """A captioned table as HTML, and the same rows as aligned plain text."""
    markup = table(caption, [th(h, "col") for h in head], html_rows, "lesson", lang)
    lines = [head, *rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = [caption] + [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in lines
    ]
    return Snippet(tag("div", markup, lang=lang), "\n".join(text))


def _preset_name(name: str, lang: str) -> str:
    return t(f"lesson.preset.{name}", lang)


def points_table(
    cards: Iterable[Card | str] | str, lang: str = "en", presets: Sequence[str] = PRESETS
) -> Snippet:
    """Each card's penalty points under each preset, and the total: where the ace differs."""
    check_lang(lang)
    cards = parse_cards(cards)
    rules = [Rules.preset(p) for p in presets]
    head = [t("lesson.col.card", lang), t("lesson.col.name", lang)]
    head += [t("lesson.col.points", lang, preset=_preset_name(r.name, lang)) for r in rules]
    rows, html_rows = [], []
    for card in cards:
        points = [str(r.card_points(card)) for r in rules]
        name = card_name(card, lang)
        rows.append([str(card), name, *points])
        html_rows.append(
            tag(
                "tr",
                td(card_html(card, lang))
                + td(esc(name))
                + "".join(td(esc(p), numeric=True) for p in points),
            )
        )
    totals = [str(r.points(cards)) for r in rules]
    total = t("display.score.total", lang)
    rows.append([total, "", *totals])
    html_rows.append(
        tag(
            "tr",
            th(total, "row") + td("") + "".join(td(tag("strong", esc(x)), True) for x in totals),
        )
    )
    return _snippet(t("lesson.points_caption", lang), head, rows, html_rows, lang)


def _kind_word(kind: str | None, lang: str) -> str:
    return t(f"lesson.kind.{kind or 'none'}", lang)


def meld_table(
    examples: Iterable[str | Iterable[Card | str]],
    lang: str = "en",
    presets: Sequence[str] = PRESETS,
) -> Snippet:
    """Is each group of cards a set, a run or no meld, under each preset side by side?"""
    check_lang(lang)
    rules = [Rules.preset(p) for p in presets]
    head = [t("lesson.col.cards", lang)] + [_preset_name(r.name, lang) for r in rules]
    head.append(t("lesson.col.differs", lang))
    rows, html_rows = [], []
    for example in examples:
        cards = parse_cards(example)
        kinds = [_kind_word(r.meld_kind(cards), lang) for r in rules]
        differs = t("common.yes", lang) if len(set(kinds)) > 1 else ""
        rows.append([repr(cards), *kinds, differs])
        cells = "".join(td(esc(k)) for k in kinds) + td(tag("strong", esc(differs)))
        html_rows.append(tag("tr", td(cards_html(cards, lang)) + cells))
    return _snippet(t("lesson.melds_caption", lang), head, rows, html_rows, lang)


def rules_differences(lang: str = "en", presets: Sequence[str] = PRESETS) -> Snippet:
    """Only the rows of the two presets' rules tables that differ."""
    check_lang(lang)
    described = [Rules.preset(p).describe(lang) for p in presets]
    head = [t("display.rules.rule", lang)] + [_preset_name(d.rules.name, lang) for d in described]
    rows, html_rows = [], []
    for i, (rule, _value) in enumerate(described[0].rows):
        values = [d.rows[i][1] for d in described]
        if len(set(values)) > 1:
            rows.append([rule, *values])
            html_rows.append(tag("tr", th(rule, "row") + "".join(td(esc(v)) for v in values)))
    return _snippet(t("lesson.differences_caption", lang), head, rows, html_rows, lang)


def card_names(lang: str = "en") -> Snippet:
    """Every rank and suit as the notebook's language names them (for the glossary).

    Where the language inflects a card's name (Finnish), the genitive and partitive follow the
    name: the forms the kit's sentences use.
    """
    check_lang(lang)
    examples = [Card.of(1, s) for s in SUITS] + [Card.of(r, "H") for r in range(2, 14)]
    inflected = any(card_name(c, lang, "gen") != card_name(c, lang) for c in examples)
    forms = ("nom", "gen", "part") if inflected else ("nom",)
    head = [t("lesson.col.code", lang), t("lesson.col.card", lang), t("lesson.col.name", lang)]
    head += [t(f"lesson.col.{form}", lang) for form in forms[1:]]
    rows, html_rows = [], []
    for card in examples:
        names = [card_name(card, lang, form) for form in forms]
        rows.append([card.code, str(card), *names])
        cells = "".join(td(esc(name)) for name in names)
        html_rows.append(tag("tr", td(esc(card.code)) + td(card_html(card, lang)) + cells))
    return _snippet(t("lesson.names_caption", lang), head, rows, html_rows, lang)


def money(cents: int, lang: str = "en") -> str:
    """Cents as a sum of money: ``75.01`` in English, ``75,01`` in Finnish."""
    text = f"{cents // 100}.{cents % 100:02d}"
    return text.replace(".", ",") if lang == "fi" else text


def payout_table(
    pool_cents: int,
    totals: Sequence[int] | Mapping[str, int],
    lang: str = "en",
    names: Sequence[str] | None = None,
    rules: str | Rules = "traditional",
) -> Snippet:
    """The ring-game payout worked through: how far behind, the weight, the share of the pool.

    The pool is counted in whole tokens (``payout``'s smallest unit, a cent for money): the
    lessons share tokens or points, never money, since their learners are minors."""
    check_lang(lang)
    rules = Rules.preset(rules)
    if isinstance(totals, Mapping):
        names, values = list(totals), list(totals.values())
    else:
        values = list(totals)
        names = (
            list(names)
            if names
            else [t("common.player_n", lang, n=i + 1) for i in range(len(values))]
        )
    shares = payout(pool_cents, values, rules)
    best = min(values)
    head = [
        t("display.col.player", lang),
        t("lesson.col.total", lang),
        t("lesson.col.behind", lang),
        t("lesson.col.weight", lang),
        t("lesson.col.share", lang),
    ]
    rows, html_rows = [], []
    for name, total, share in zip(names, values, shares, strict=True):
        behind = total - best
        weight = rules.payout_margin - behind if 0 < behind < rules.payout_margin else None
        if behind == 0:
            role = t("lesson.payout.winner", lang)
        elif weight is None:
            role = t("lesson.payout.out", lang, margin=rules.payout_margin)
        else:
            role = str(weight)
        row = [str(name), str(total), str(behind), role, str(share)]
        rows.append(row)
        html_rows.append(
            tag("tr", th(row[0], "row") + "".join(td(esc(c), numeric=True) for c in row[1:]))
        )
    caption = t("lesson.payout_caption", lang, pool=pool_cents)
    return _snippet(caption, head, rows, html_rows, lang)


# --- moves in words --------------------------------------------------------------------------


def describe(action: Action, lang: str = "en", discard_top: Card | None = None) -> str:
    """One move as an instruction ("Draw from the stock."); melds by their number from 0, as the
    table's pictures label them and as ``game.lay_off(card, meld)`` takes them."""
    check_lang(lang)
    if action.kind == "draw":
        if action.source == "stock" or discard_top is None:
            return t("ui.hint_action.draw_stock", lang)
        return t("ui.hint_action.draw_discard", lang, card=discard_top)
    if action.kind == "meld":
        return t("ui.hint_action.meld", lang, cards=cards_text(action.cards))
    if action.kind == "lay_off":
        return t("ui.hint_action.lay_off", lang, card=action.card, index=action.meld_index)
    return t("ui.hint_action.discard", lang, card=action.card)


def moves(game: Game, lang: str = "en", start: int = 0) -> Snippet:
    """The public record of the deal in words from event ``start`` of ``game.log``, each move
    numbered as the table, the replay and the review number it (the n-th entry of
    ``game.history``, from 1); a deal or a rebuilt stock has no number."""
    check_lang(lang)
    number = moves_in(game.log[:start])
    lines = []
    for event in game.log[start:]:
        line = event_text(event, game.names, lang, short=True)
        if event["type"] in MOVES:
            number += 1
            line = f"{number}. {line}"
        lines.append(line)
    items = "".join(tag("li", esc(line)) for line in lines)
    label = t("ui.log", lang)
    html = tag(
        "div",
        tag("div", tag("strong", esc(label))) + tag("ul", items, style="list-style:none;padding:0"),
        class_="rw-s-moves",
        lang=lang,
    )
    return Snippet(html, "\n".join(lines))


#: The rules each language's lessons play: the rules text the learners read in that language.
LESSON_RULES = {"en": "traditional", "fi": "rummy_royal"}


def lesson_rules(lang: str = "en") -> str:
    """The preset a lesson in ``lang`` plays: English lessons the English rules text
    (``traditional``), Finnish lessons the Finnish one (Rummy Royal's, ``rummy_royal``). The
    code cells are the same in both languages; this is where they part."""
    return LESSON_RULES[check_lang(lang)]


def setup_notebook() -> None:
    """Make a lesson's outputs short and stable: errors as one line (type and message, with no
    file paths from this computer), and no warnings from libraries the lesson does not teach.

    Strict nbval compares every output, so a warning that appears in one environment but not
    another would fail the notebook checks.
    """
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning)
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to set
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "InteractiveTB"):
        shell.InteractiveTB.set_mode(mode="Minimal")
