"""One card as inline SVG: a face, a face-down back, or an empty place on the table.

The geometry is drawn in a 56 x 80 viewBox and scaled by the ``width``/``height`` attributes, so
"normal" (56 x 80 px) and "large" (84 x 120 px, for a projector) are the same drawing. Colours and
shapes are SVG presentation attributes, not CSS: sanitizers that drop ``<style>`` and ``style=``
keep them. docs/display.md writes this design down for the widget's front end.
"""

from __future__ import annotations

from ..cards import RANK_TEXT, Card, card_name
from ..i18n import check_lang, t
from .markup import FONT, check_size, esc, num, tag

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

# Corner index: rank centred on x=10 with its baseline at y=17, a small suit below it.
RANK_X, RANK_Y, RANK_FONT, RANK_FONT_10 = 10, 17, 15, 13
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
        class_=f"rw-card rw-{kind}",
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
    rank = RANK_TEXT[card.rank]
    corner = tag(
        "text",
        esc(rank),
        x=RANK_X,
        y=RANK_Y,
        font_family=FONT,
        font_size=RANK_FONT_10 if rank == "10" else RANK_FONT,
        font_weight="700",
        text_anchor="middle",
        fill=colour,
    ) + suit_shape(card.suit, PIP_X, PIP_Y, PIP_SIZE, colour)
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
