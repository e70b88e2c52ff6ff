"""One card as inline SVG: a face, a face-down back, or an empty place on the table.

The geometry is drawn in a 56 x 80 viewBox and scaled by the ``width``/``height`` attributes, so
"normal" (56 x 80 px) and "large" (84 x 120 px, for a projector) are the same drawing. Colours and
shapes are SVG presentation attributes, not CSS: sanitizers that drop ``<style>`` and ``style=``
keep them. docs/display.md writes this design down for the widget's front end.
"""

from __future__ import annotations

from ..engine.cards import RANK_TEXT, Card, card_name
from ..i18n import check_lang, t
from .markup import check_size, esc, num, tag

VIEW_W, VIEW_H = 56, 80

CARD_FILL = "#ffffff"
CARD_STROKE = "#8c8c8c"
RED = "#c62828"
BLACK = "#1a1a1a"
#: The four-colour deck: spades black, hearts red, diamonds blue, clubs green.
FOUR_COLOURS: dict[str, str] = {"S": BLACK, "H": RED, "D": "#1565c0", "C": "#2e7d32"}
BACK_FILL = "#1f4e8c"
BACK_LINE = "#ffffff"
EMPTY_STROKE = "#9e9e9e"

#: Suit shapes in a 100 x 100 box centred on (50, 50); drawn as paths so no font or emoji
#: presentation can change their colour or shape.
SUIT_PATHS: dict[str, str] = {
    "S": (
        "M50 6C50 6 8 36 8 60C8 74 19 82 30 82C39 82 45 77 48 71C47 81 43 89 36 94L64 94"
        "C57 89 53 81 52 71C55 77 61 82 70 82C81 82 92 74 92 60C92 36 50 6 50 6Z"
    ),
    "H": "M50 92C50 92 6 62 6 34C6 18 18 8 31 8C40 8 47 13 50 21C53 13 60 8 69 8C82 8 94 18 94 34"
    "C94 62 50 92 50 92Z",
    "D": "M50 4L88 50L50 96L12 50Z",
    "C": (
        "M50 9A19 19 0 1 1 50 47A19 19 0 1 1 50 9Z"
        "M28 41A19 19 0 1 1 28 79A19 19 0 1 1 28 41Z"
        "M72 41A19 19 0 1 1 72 79A19 19 0 1 1 72 41Z"
        "M50 28L28 60L72 60Z"
        "M46 56C46 76 42 86 34 94L66 94C58 86 54 76 54 56Z"
    ),
}

#: Rank glyphs as stroked paths in a box 11 units high: (width, path). Drawn, not typeset, so
#: every platform shows the same card, and a sanitizer that strips ``<svg>`` leaves only the
#: card's ``<title>`` ("7 of hearts") as text instead of stray corner letters.
RANK_PATHS: dict[str, tuple[int, str]] = {
    "A": (8, "M0.3 11L4 0L7.7 11M1.6 7.2H6.4"),
    "2": (8, "M0.7 2.9C0.9 1.1 2.3 0 4 0C5.9 0 7.3 1.2 7.3 3C7.3 4.8 6.1 5.9 4.3 7.3L0.6 11H7.6"),
    "3": (
        8,
        "M0.7 1.4C1.4 0.5 2.6 0 3.9 0C5.9 0 7.2 1.1 7.2 2.8C7.2 4.4 5.9 5.4 3.7 5.4"
        "C6.1 5.4 7.5 6.5 7.5 8.2C7.5 10 6 11 4 11C2.4 11 1.1 10.4 0.4 9.5",
    ),
    "4": (8, "M5.8 11V0L0.3 7.9H7.8"),
    "5": (
        8,
        "M7 0H1.5L1 5C1.8 4.5 2.8 4.2 3.9 4.2C6.1 4.2 7.5 5.5 7.5 7.6C7.5 9.7 6 11 3.9 11"
        "C2.3 11 1.1 10.4 0.4 9.5",
    ),
    "6": (
        8,
        "M6.9 1C6.3 0.4 5.3 0 4.3 0C1.9 0 0.5 2.4 0.5 6.1C0.5 9.3 1.9 11 4.1 11"
        "C6.2 11 7.6 9.6 7.6 7.5C7.6 5.4 6.2 4.1 4.2 4.1C2.5 4.1 1.1 5 0.6 6.4",
    ),
    "7": (8, "M0.4 0H7.6L3.1 11"),
    "8": (
        8,
        "M4 5.2C2.2 5.2 1 4.2 1 2.6C1 1 2.2 0 4 0C5.8 0 7 1 7 2.6C7 4.2 5.8 5.2 4 5.2"
        "C1.9 5.2 0.5 6.3 0.5 8.1C0.5 9.9 2 11 4 11C6 11 7.5 9.9 7.5 8.1C7.5 6.3 6.1 5.2 4 5.2Z",
    ),
    "9": (
        8,
        "M1.1 10C1.7 10.6 2.7 11 3.7 11C6.1 11 7.5 8.6 7.5 4.9C7.5 1.7 6.1 0 3.9 0"
        "C1.8 0 0.4 1.4 0.4 3.5C0.4 5.6 1.8 6.9 3.8 6.9C5.5 6.9 6.9 6 7.4 4.6",
    ),
    "10": (
        12,
        "M0.3 2.2L2.6 0V11M8.4 0C10.7 0 11.8 2.4 11.8 5.5C11.8 8.6 10.7 11 8.4 11"
        "C6.1 11 5 8.6 5 5.5C5 2.4 6.1 0 8.4 0Z",
    ),
    "J": (7, "M5.8 0V7.8C5.8 9.9 4.8 11 3.1 11C1.6 11 0.6 10.1 0.3 8.6"),
    "Q": (
        8,
        "M4 0C6.4 0 7.6 2.4 7.6 5.4C7.6 8.5 6.4 10.8 4 10.8C1.6 10.8 0.4 8.5 0.4 5.4"
        "C0.4 2.4 1.6 0 4 0ZM4.6 8L7.6 11.4",
    ),
    "K": (8, "M0.9 0V11M7.4 0L0.9 7.1M3.1 4.8L7.6 11"),
}
RANK_STROKE = "2"

# Corner index: the rank glyph centred on x=10 from y=6 to y=17, a small suit below it.
RANK_X, RANK_TOP = 10, 6
PIP_X, PIP_Y, PIP_SIZE = 10, 26, 10
CENTRE_X, CENTRE_Y, CENTRE_SIZE = 28, 40, 24
CORNER_RADIUS = 5


def suit_colour(suit: str, four_color: bool = False) -> str:
    """The ink of a suit: red/black, or the four-colour deck's colour."""
    if four_color:
        return FOUR_COLOURS[suit]
    return RED if suit in ("H", "D") else BLACK


def suit_shape(suit: str, cx: float, cy: float, size: float, colour: str) -> str:
    """A suit symbol ``size`` units wide, centred on (cx, cy)."""
    half = size / 2
    transform = f"translate({num(cx - half)} {num(cy - half)}) scale({num(size / 100)})"
    return tag("path", None, d=SUIT_PATHS[suit], fill=colour, transform=transform)


def rank_shape(rank: str, colour: str) -> str:
    """The corner's rank glyph ("A", "2".."10", "J", "Q", "K"), centred on ``RANK_X``."""
    width, path = RANK_PATHS[rank]
    return tag(
        "path",
        None,
        d=path,
        fill="none",
        stroke=colour,
        stroke_width=RANK_STROKE,
        stroke_linecap="round",
        stroke_linejoin="round",
        transform=f"translate({num(RANK_X - width / 2)} {RANK_TOP})",
    )


def _frame(fill: str) -> str:
    return tag(
        "rect",
        None,
        x="0.5",
        y="0.5",
        width=VIEW_W - 1,
        height=VIEW_H - 1,
        rx=CORNER_RADIUS,
        fill=fill,
        stroke=CARD_STROKE,
        stroke_width="1",
    )


def _svg(body: str, label: str, size: str, kind: str, style: str = "") -> str:
    width, height = check_size(size)
    return tag(
        "svg",
        tag("title", esc(label)) + body,
        class_=f"rw-s-card rw-s-{kind}",
        width=width,
        height=height,
        viewBox=f"0 0 {VIEW_W} {VIEW_H}",
        role="img",
        aria_label=label,
        style="vertical-align:middle" + style,
    )


def card_svg(card: Card, lang: str = "en", four_color: bool = False, size: str = "normal") -> str:
    """A card face: corner indices top-left and (turned) bottom-right, a big centre suit."""
    check_lang(lang)
    colour = suit_colour(card.suit, four_color)
    corner = rank_shape(RANK_TEXT[card.rank], colour) + suit_shape(
        card.suit, PIP_X, PIP_Y, PIP_SIZE, colour
    )
    body = (
        _frame(CARD_FILL)
        + corner
        + tag("g", corner, transform=f"rotate(180 {VIEW_W // 2} {VIEW_H // 2})")
        + suit_shape(card.suit, CENTRE_X, CENTRE_Y, CENTRE_SIZE, colour)
    )
    return _svg(body, card_name(card, lang), size, "face")


def _lattice() -> str:
    """The back's pattern: a grid of small diamonds inside the white frame."""
    steps = []
    for y in range(10, 71, 10):
        for x in range(10, 47, 9):
            steps.append(f"M{x} {y - 4}L{x + 3.5:g} {y}L{x} {y + 4}L{x - 3.5:g} {y}Z")
    return "".join(steps)


def back_svg(lang: str = "en", size: str = "normal", style: str = "") -> str:
    """A face-down card. It says only that it is face down: no id, code, rank or suit.

    ``style`` adds inline CSS (``;margin-left:-38px`` fans a hand)."""
    body = (
        _frame(BACK_FILL)
        + tag(
            "rect",
            None,
            x="4",
            y="4",
            width=VIEW_W - 8,
            height=VIEW_H - 8,
            rx="3",
            fill="none",
            stroke=BACK_LINE,
            stroke_width="1.5",
        )
        + tag("path", None, d=_lattice(), fill=BACK_LINE, fill_opacity="0.3")
    )
    return _svg(body, t("card.face_down", check_lang(lang)), size, "back", style)


def empty_svg(label: str, size: str = "normal") -> str:
    """An empty place (no stock left, empty discard pile): a dashed outline."""
    body = tag(
        "rect",
        None,
        x="1",
        y="1",
        width=VIEW_W - 2,
        height=VIEW_H - 2,
        rx=CORNER_RADIUS,
        fill="none",
        stroke=EMPTY_STROKE,
        stroke_width="1.5",
        stroke_dasharray="4 3",
    )
    return _svg(body, label, size, "empty")
