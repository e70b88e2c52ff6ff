"""The review drawn for notebooks and GitHub: the positions with cards, no JavaScript.

Each mistake and find shows the table as the seat saw it just before the move (never another
hand), the move played and the better one as cards, and the reason; then a short table of
every decision looked at.
"""

from __future__ import annotations

from ..display import cards_html, table_html
from ..display.markup import esc, tag
from ..display.tables import table, td, th
from ..engine.actions import Action
from ..i18n import t
from .result import Decision, Review, action_text, headline, summary
from .wording import number

ITEM_STYLE = "border-left:4px solid {colour};padding:4px 10px;margin:10px 0"
COLOURS = {"mistake": "#c62828", "find": "#2e7d32", "about_equal": "#9e9e9e", "best": "#9e9e9e"}


def move_cards(action: Action) -> list:
    """The cards a move names (none for a stock draw)."""
    if action.kind == "meld":
        return list(action.cards)
    return [action.card] if action.card is not None else []


def move_html(label: str, action: Action, lang: str) -> str:
    """A labelled move: its words, and its cards small."""
    cards = move_cards(action)
    words = tag("div", esc(f"{label}: {action_text(action, lang)}"))
    pictures = cards_html(cards, lang) if cards else ""
    return tag("div", words + pictures, style="display:inline-block;margin-right:24px")


def decision_html(review: Review, decision: Decision, lang: str) -> str:
    """One decision worth talking about: the position, the moves, the reason."""
    grade = t(f"review.grade.{decision.grade}", lang)
    head = tag("strong", esc(f"{t('review.move', lang, n=decision.move + 1)} ({grade})"))
    body = tag("div", head + " " + esc(decision.reason(lang)))
    if decision.take_backs:
        body += tag("div", esc(t("review.took_back", lang, count=decision.take_backs)))
    body += table_html(decision.observation, list(review.names), lang)
    moves = move_html(t("review.played", lang), decision.played, lang)
    if decision.better is not None and decision.verdict == "mistake":
        moves += move_html(t("review.better", lang), decision.better, lang)
    body += tag("div", moves)
    colour = COLOURS[decision.verdict]
    return tag("div", body, class_="rw-s-review-item", style=ITEM_STYLE.format(colour=colour))


def decisions_table(review: Review, lang: str) -> str:
    """Every decision looked at: move, what was played, the verdict, the cost and its error."""
    head = [
        th(t("review.col.move", lang), "col", numeric=True),
        th(t("review.played", lang), "col"),
        th(t("review.col.verdict", lang), "col"),
        th(t("review.col.cost", lang), "col", numeric=True),
    ]
    rows = []
    for d in review.decisions:
        cost = f"{number(d.cost, lang)} ± {number(d.error, lang)}"
        cells = [
            td(str(d.move + 1), numeric=True),
            td(esc(action_text(d.played, lang))),
            td(esc(t(f"review.grade.{d.grade}", lang))),
            td(esc(cost), numeric=True),
        ]
        rows.append(tag("tr", "".join(cells)))
    return table(t("review.col.caption", lang), head, rows, "review", lang)


def review_html(review: Review, lang: str) -> str:
    """The whole review: the summary, each mistake and find, the table of decisions."""
    body = tag("div", tag("strong", esc(headline(review, lang))))
    body += tag("div", esc(summary(review, lang)))
    for decision in [*review.mistakes, *review.finds]:
        body += decision_html(review, decision, lang)
    body += decisions_table(review, lang)
    return tag("div", body, class_="rw-s-review", lang=lang)
