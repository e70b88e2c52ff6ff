"""Cards in groups: one card, a hand, a meld, a solver's arrangement.

A group is a flex row of inline SVG cards with a space between them, so the cards still stand
in a row, a space apart, where a sanitizer removes ``style`` attributes.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.cards import card_name
from ..i18n import check_lang, t
from .faces import back_svg, card_svg
from .markup import as_card, as_cards, esc, field, tag

ROW_STYLE = "display:flex;flex-wrap:wrap;gap:4px;align-items:center"
GROUP_STYLE = "display:inline-block;vertical-align:top;margin:0 12px 8px 0"
LABEL_STYLE = "font-size:0.9em;font-weight:600;margin-bottom:2px"
NOTE_STYLE = "font-style:italic;opacity:0.8"


def capital(text: str) -> str:
    """Text with a capital first letter ("setti" -> "Setti"), for labels made of a table word."""
    return text[:1].upper() + text[1:]


def card_html(
    card: object, lang: str = "en", four_color: bool = False, size: str = "normal"
) -> str:
    """One card face as inline SVG, named for screen readers in ``lang``."""
    return card_svg(as_card(card), lang, four_color, size)


def card_back_html(lang: str = "en", size: str = "normal") -> str:
    """One face-down card. The markup carries no id, code, rank or suit."""
    return back_svg(lang, size)


def row_html(items: Iterable[str], label: str, lang: str) -> str:
    """Finished card SVGs in a row, announced as a group called ``label``."""
    items = list(items)
    content = (
        " ".join(items) if items else tag("span", esc(t("display.none", lang)), style=NOTE_STYLE)
    )
    return tag("div", content, class_="rw-s-cards", role="group", aria_label=label, style=ROW_STYLE)


def labelled(label: str, content: str, kind: str) -> str:
    """A block with a visible label above its content."""
    head = tag("div", esc(label), class_="rw-s-label", style=LABEL_STYLE)
    return tag("div", head + content, class_=f"rw-s-group rw-s-{kind}", style=GROUP_STYLE)


def cards_html(
    cards: object,
    lang: str = "en",
    four_color: bool = False,
    size: str = "normal",
    label: str | None = None,
) -> str:
    """A hand or any list of cards, face up, in the order given.

    ``label`` (already translated) is shown above the cards; without it the row is announced
    by its card count.
    """
    check_lang(lang)
    cards = as_cards(cards)
    faces = [card_svg(c, lang, four_color, size) for c in cards]
    count = t("display.card_count", lang, n=len(cards))
    if label is None:
        return tag("div", row_html(faces, count, lang), class_="rw-s-hand", lang=lang)
    return tag(
        "div",
        labelled(label, row_html(faces, f"{label} ({count})", lang), "hand"),
        class_="rw-s-hand-box",
        lang=lang,
    )


def meld_label(kind: str, index: int | None, lang: str) -> str:
    """ "Meld 2: run" when the meld has a number on the table, else "Run"."""
    word = t(f"display.kind.{kind}", lang)
    if index is None:
        return capital(word)
    return t("display.meld_label", lang, index=index, kind=word)


def meld_html(
    meld: object,
    lang: str = "en",
    four_color: bool = False,
    size: str = "normal",
    index: int | None = None,
) -> str:
    """A meld (a ``Meld`` or an observation's meld dict) with its kind, and its number if known."""
    check_lang(lang)
    if index is None:
        index = field(meld, "index")
    label = meld_label(str(field(meld, "kind")), index, lang)
    faces = [card_svg(c, lang, four_color, size) for c in as_cards(field(meld, "cards"))]
    return tag("div", labelled(label, row_html(faces, label, lang), "meld"), lang=lang)


def arrangement_html(
    arr: object, lang: str = "en", four_color: bool = False, size: str = "normal"
) -> str:
    """A solver's arrangement: the melds it lays down, its lay-offs, the cards left, the cost.

    Duck-typed: anything with ``melds``, ``lay_offs``, ``leftover`` and ``penalty``.
    """
    check_lang(lang)
    parts = []
    for meld_cards in field(arr, "melds", ()) or ():
        cards = as_cards(meld_cards)
        kind = _kind_of(cards)
        label = capital(t(f"display.kind.{kind}", lang)) if kind else t("display.melds", lang)
        parts.append(
            labelled(label, row_html(_faces(cards, lang, four_color, size), label, lang), "meld")
        )
    if not parts:
        label = t("display.melds", lang)
        parts.append(labelled(label, row_html([], label, lang), "meld"))
    lay_offs = list(field(arr, "lay_offs", ()) or ())
    if lay_offs:
        items = []
        for card, index in lay_offs:
            card = as_card(card)
            text = t("display.arr.lay_off", lang, card=card_name(card, lang), index=index)
            items.append(tag("div", card_svg(card, lang, four_color, size) + " " + esc(text)))
        label = t("display.arr.lay_offs", lang)
        parts.append(labelled(label, tag("div", "".join(items), style=ROW_STYLE), "lay-offs"))
    leftover = as_cards(field(arr, "leftover", ()))
    label = t("display.arr.leftover", lang)
    parts.append(
        labelled(label, row_html(_faces(leftover, lang, four_color, size), label, lang), "leftover")
    )
    title = tag("div", tag("strong", esc(t("display.arr.title", lang))))
    penalty = tag("div", esc(t("display.arr.penalty", lang, n=field(arr, "penalty", 0))))
    return tag(
        "div", title + tag("div", "".join(parts)) + penalty, class_="rw-s-arrangement", lang=lang
    )


def _faces(cards: list, lang: str, four_color: bool, size: str) -> list[str]:
    return [card_svg(c, lang, four_color, size) for c in cards]


def _kind_of(cards: list) -> str | None:
    """Set or run, read from the cards themselves (an arrangement's melds carry no kind)."""
    if len({c.rank for c in cards}) == 1:
        return "set"
    if len({c.suit for c in cards}) == 1:
        return "run"
    return None
