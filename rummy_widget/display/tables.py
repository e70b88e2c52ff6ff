"""Tables a teacher projects: the rules in force, a deal's result, a match's scoreboard.

Plain ``<table>`` markup with ``<caption>`` and ``<th scope>``: it reads correctly to a screen
reader and survives every sanitizer; the inline styles only add borders and padding.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import check_lang, t
from .faces import card_svg
from .groups import row_html
from .markup import Snippet, as_cards, esc, field, tag

TABLE_STYLE = "border-collapse:collapse;margin:4px 0"
CELL_STYLE = "border:1px solid #b0b0b0;padding:3px 8px;text-align:left;vertical-align:middle"
NUM_STYLE = "border:1px solid #b0b0b0;padding:3px 8px;text-align:right;vertical-align:middle"
CAPTION_STYLE = "text-align:left;font-weight:700;padding:2px 0"


def th(text: str, scope: str, numeric: bool = False) -> str:
    return tag("th", esc(text), scope=scope, style=NUM_STYLE if numeric else CELL_STYLE)


def td(content: str, numeric: bool = False) -> str:
    """A data cell; ``content`` is markup."""
    return tag("td", content, style=NUM_STYLE if numeric else CELL_STYLE)


def table(caption: str, head: list[str], rows: list[str], kind: str, lang: str) -> str:
    """A captioned table; ``head`` cells and ``rows`` are finished markup."""
    body = tag("caption", esc(caption), style=CAPTION_STYLE)
    body += tag("thead", tag("tr", "".join(head)))
    body += tag("tbody", "".join(rows))
    return tag("table", body, class_=f"rw-s-{kind}", lang=lang, style=TABLE_STYLE)


def rules_html(description: object) -> str:
    """A ``RulesDescription``: its title and its (rule, setting) rows, in its language."""
    lang = check_lang(str(field(description, "lang", "en")))
    head = [th(t("display.rules.rule", lang), "col"), th(t("display.rules.setting", lang), "col")]
    rows = [
        tag("tr", th(rule, "row") + td(esc(value))) for rule, value in field(description, "rows")
    ]
    return table(str(field(description, "title")), head, rows, "rules", lang)


def fill_names(names: Sequence[str] | None, seats: int, lang: str) -> list[str]:
    """The given names, with "Player 3" for any seat that has none."""
    names = [str(n) for n in names or []]
    return names + [t("common.player_n", lang, n=i + 1) for i in range(len(names), seats)]


def result_sentence(result: object, names: Sequence[str], lang: str) -> str:
    """Who went out, and how: "Ann went Rummy!", or that the deal was void."""
    if field(result, "void", False):
        return t("display.result.void", lang)
    winner = field(result, "winner")
    if winner is None:
        return t("display.result.void", lang)
    key = "display.result.rummy" if field(result, "rummy", False) else "display.result.out"
    return t(key, lang, name=names[winner])


def result_html(
    result: object,
    names: Sequence[str] | None = None,
    lang: str = "en",
    four_color: bool = False,
    size: str = "normal",
) -> str:
    """A deal's result (a ``DealResult`` or an observation's result dict): the cards left in
    every hand and the penalty points they cost. Seats without a name get "Player n"."""
    check_lang(lang)
    penalties = list(field(result, "penalties", []) or [])
    hands = list(field(result, "hands", []) or [])
    winner = field(result, "winner")
    names = fill_names(names, max(len(penalties), len(hands)), lang)
    head = [
        th(t("display.col.player", lang), "col"),
        th(t("display.col.cards_left", lang), "col"),
        th(t("display.col.penalty", lang), "col", numeric=True),
    ]
    rows = []
    for seat, name in enumerate(names):
        cards = as_cards(hands[seat]) if seat < len(hands) else []
        faces = [card_svg(c, lang, four_color, size) for c in cards]
        label = t("display.hand_of", lang, name=name)
        who = tag("strong", esc(name)) if seat == winner else esc(name)
        points = str(penalties[seat]) if seat < len(penalties) else ""
        rows.append(
            tag(
                "tr",
                tag("th", who, scope="row", style=CELL_STYLE)
                + td(row_html(faces, label, lang))
                + td(esc(points), numeric=True),
            )
        )
    sentence = tag("div", tag("strong", esc(result_sentence(result, names, lang))))
    grid = table(t("display.result.title", lang), head, rows, "result-table", lang)
    return tag("div", sentence + grid, class_="rw-s-result", lang=lang)


def leaders(totals: Sequence[int]) -> list[int]:
    """Seats with the fewest penalty points (ties share the lead)."""
    if not totals:
        return []
    best = min(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def scoreboard_html(
    names: Sequence[str],
    deal_penalties: Sequence[Sequence[int]],
    totals: Sequence[int],
    lang: str = "en",
) -> str:
    """A match so far: one row per deal, the totals, the leader(s) marked with a star and a word.

    Nobody is marked before the first deal is played.
    """
    check_lang(lang)
    names = fill_names(names, len(totals), lang)
    head = [tag("td", "", style=CELL_STYLE)] + [th(name, "col", numeric=True) for name in names]
    rows = []
    for number, penalties in enumerate(deal_penalties, start=1):
        cells = "".join(td(esc(p), numeric=True) for p in penalties)
        rows.append(tag("tr", th(t("display.score.deal", lang, n=number), "row") + cells))
    lead = leaders(totals) if deal_penalties else []
    marker = " ★ " + t("display.score.leader", lang)
    cells = "".join(
        td(tag("strong", esc(total) + esc(marker)) if seat in lead else esc(total), numeric=True)
        for seat, total in enumerate(totals)
    )
    rows.append(tag("tr", th(t("display.score.total", lang), "row") + cells, class_="rw-s-totals"))
    grid = table(t("display.score.title", lang), head, rows, "scoreboard-table", lang)
    note = ""
    if lead:
        who = ", ".join(names[seat] for seat in lead)
        note = tag("div", esc(t("display.score.leading", lang, names=who)))
    return tag("div", grid + note, class_="rw-s-scoreboard", lang=lang)


def scoreboard_text(
    names: Sequence[str], deal_penalties: Sequence[Sequence[int]], totals: Sequence[int], lang: str
) -> str:
    """One line for terminals and strict nbval: "Scoreboard · Total: Ann 23, Bo 40"."""
    names = fill_names(names, len(totals), lang)
    scores = ", ".join(f"{name} {total}" for name, total in zip(names, totals, strict=False))
    parts = [t("display.score.title", lang), f"{t('display.score.total', lang)}: {scores}"]
    if deal_penalties:
        who = ", ".join(names[seat] for seat in leaders(totals))
        parts.append(t("display.score.leading", lang, names=who))
    return " · ".join(parts)


def scoreboard_view(
    names: Sequence[str],
    deal_penalties: Sequence[Sequence[int]],
    totals: Sequence[int],
    lang: str = "en",
) -> Snippet:
    """``scoreboard_html`` wrapped for display: what ``Match.scoreboard()`` returns."""
    html = scoreboard_html(names, deal_penalties, totals, lang)
    return Snippet(html, scoreboard_text(names, deal_penalties, totals, lang))
