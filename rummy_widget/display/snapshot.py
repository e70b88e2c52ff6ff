"""A game as one seat sees it, drawn from that seat's observation dict alone.

Built only from ``Game.observation(seat)`` (docs/ARCHITECTURE.md), so it cannot show what the
seat may not see: the other hands are face-down backs counted from ``hand_size``, the stock is
a back with its size. Only the teacher's ``hands`` option (open hands) turns them face up.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import Cards, card_name
from ..i18n import check_lang, t
from .faces import back_svg, card_svg, empty_svg
from .groups import NOTE_STYLE, ROW_STYLE, labelled, meld_html, row_html
from .markup import Snippet, as_card, as_cards, check_size, esc, tag
from .tables import result_html

#: How far each face-down card of a fanned hand slides under the previous one, per size.
FAN_OVERLAP = {"normal": 38, "large": 57}
BOX_STYLE = "font-family:Arial,Helvetica,sans-serif;padding:6px 0"
STATUS_STYLE = "margin-bottom:6px"


def seat_names(observation: dict, names: Sequence[str] | None) -> list[str]:
    """The players' names: given ones, else the observation's."""
    if names is not None:
        return [str(n) for n in names]
    return [str(p.get("name", i)) for i, p in enumerate(observation["players"])]


def fanned_backs(count: int, label: str, lang: str, size: str) -> str:
    """``count`` face-down cards overlapping like a held hand; announced with their count."""
    overlap = FAN_OVERLAP[size]
    backs = [back_svg(lang, size, f";margin-left:-{overlap}px" if i else "") for i in range(count)]
    content = " ".join(backs) or tag("span", esc(t("display.none", lang)), style=NOTE_STYLE)
    return tag(
        "div",
        content,
        class_="rw-s-cards rw-s-fan",
        role="group",
        aria_label=label,
        style="display:flex",
    )


def _player_label(name: str, seat: int, observation: dict, lang: str, hidden: int | None) -> str:
    if hidden is None:
        text = t("display.hand_of", lang, name=name)
    else:
        text = t("display.hidden_hand", lang, name=name, n=hidden)
    if observation.get("dealer") == seat:
        text += f" ({t('display.dealer', lang)})"
    return text


def _opponents(observation, names, hands, lang, four_color, size) -> str:
    seat = observation["seat"]
    count = len(observation["players"])
    parts = []
    for other in [(seat + k) % count for k in range(1, count)]:
        name = names[other]
        if hands is not None:
            label = _player_label(name, other, observation, lang, None)
            faces = [card_svg(c, lang, four_color, size) for c in as_cards(hands[other])]
            parts.append(labelled(label, row_html(faces, label, lang), "opponent"))
        else:
            n = int(observation["players"][other]["hand_size"])
            label = _player_label(name, other, observation, lang, n)
            parts.append(labelled(label, fanned_backs(n, label, lang, size), "opponent"))
    return tag("div", "".join(parts), class_="rw-s-opponents")


def _piles(observation: dict, lang: str, four_color: bool, size: str) -> str:
    stock_size = int(observation.get("stock_size", 0))
    stock_label = t("display.stock", lang, n=stock_size)
    empty = t("display.empty", lang)
    stock = back_svg(lang, size) if stock_size else empty_svg(empty, size)
    pile = observation.get("discard_pile") or []
    pile_label = t("display.discard_pile", lang, n=len(pile))
    top = card_svg(as_card(pile[0]), lang, four_color, size) if pile else empty_svg(empty, size)
    parts = labelled(stock_label, row_html([stock], stock_label, lang), "stock")
    parts += labelled(pile_label, row_html([top], pile_label, lang), "discard")
    taken = observation.get("taken_from_discard")
    if taken:
        card = as_card(taken)
        text = t("display.taken", lang, card=card_name(card, lang))
        parts += tag("div", esc(text), class_="rw-s-taken", style=NOTE_STYLE)
    return tag("div", parts, class_="rw-s-piles", style=ROW_STYLE)


def _melds(observation: dict, names: list[str], lang: str, four_color: bool, size: str) -> str:
    melds = observation.get("melds") or []
    if not melds:
        return tag("div", esc(t("display.no_melds", lang)), class_="rw-s-melds", style=NOTE_STYLE)
    groups = []
    for owner, name in enumerate(names):
        own = [m for m in melds if m.get("owner") == owner]
        if own:
            label = t("display.melds_of", lang, name=name)
            body = "".join(meld_html(m, lang, four_color, size) for m in own)
            groups.append(labelled(label, tag("div", body, style=ROW_STYLE), "owner"))
    return tag("div", "".join(groups), class_="rw-s-melds")


def status_text(observation: dict, names: list[str], lang: str) -> str:
    """ "Seen by Ann · Turn: Bo: draw a card ..." for the top line and the text form."""
    seat = observation["seat"]
    phase = observation.get("phase", "draw")
    parts = [t("display.view_of", lang, name=names[seat])]
    if phase == "over":
        parts.append(t("display.phase.over", lang))
    else:
        turn = t("display.turn", lang, name=names[observation["current_player"]])
        parts.append(f"{turn}: {t(f'display.phase.{phase}', lang)}")
    return " · ".join(parts)


def table_html(
    observation: dict,
    names: Sequence[str] | None = None,
    lang: str = "en",
    hands: Sequence[object] | None = None,
    four_color: bool = False,
    size: str = "normal",
) -> str:
    """The table from one seat: the others' hands (face down unless ``hands`` opens them), the
    stock and discard pile, the melds by owner, the seat's own hand face up, and the result
    once the deal is over."""
    check_lang(lang)
    check_size(size)
    names = seat_names(observation, names)
    seat = observation["seat"]
    own_label = _player_label(names[seat], seat, observation, lang, None)
    own = as_cards(observation.get("hand") or [])
    own_faces = [card_svg(c, lang, four_color, size) for c in own]
    body = tag("div", tag("strong", esc(status_text(observation, names, lang))), style=STATUS_STYLE)
    body += _opponents(observation, names, hands, lang, four_color, size)
    body += _piles(observation, lang, four_color, size)
    body += tag("div", tag("div", esc(t("display.melds", lang)), style="font-weight:700"))
    body += _melds(observation, names, lang, four_color, size)
    body += tag("div", labelled(own_label, row_html(own_faces, own_label, lang), "own"))
    result = observation.get("result")
    if result:
        body += result_html(result, names, lang, four_color, size)
    return tag("div", body, class_="rw-s-table", lang=lang, style=BOX_STYLE)


def table_text(observation: dict, names: Sequence[str] | None = None, lang: str = "en") -> str:
    """One line for terminals and strict nbval: whose view, whose turn, the hand, the piles."""
    names = seat_names(observation, names)
    seat = observation["seat"]
    pile = observation.get("discard_pile") or []
    hand = Cards(as_cards(observation.get("hand") or []))
    parts = [
        status_text(observation, names, lang),
        f"{t('display.hand_of', lang, name=names[seat])}: {hand}",
        t("display.stock", lang, n=int(observation.get("stock_size", 0))),
        t("display.discard_pile", lang, n=len(pile)) + (f": {as_card(pile[0])}" if pile else ""),
    ]
    return " · ".join(parts)


def table_view(
    observation: dict,
    names: Sequence[str] | None = None,
    lang: str = "en",
    hands: Sequence[object] | None = None,
    four_color: bool = False,
    size: str = "normal",
) -> Snippet:
    """``table_html`` wrapped for display: what ``Game.show()`` returns."""
    html = table_html(observation, names, lang, hands, four_color, size)
    return Snippet(html, table_text(observation, names, lang))
