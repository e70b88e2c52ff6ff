"""Small helpers for writing safe, deterministic markup by hand.

Every text that reaches the page passes through ``esc`` exactly once, at the point where it is
put into markup; attribute values are escaped by ``tag``. The output is also well-formed XML (no
named entities, every element closed), so tests can parse it with ``xml.etree``.
"""

from __future__ import annotations

from html import escape

from ..engine.cards import Card, parse_cards
from ..errors import RuleError
from ..i18n import current_language

#: The two sizes of a card on the page, in CSS pixels: notebook and projector.
SIZES: dict[str, tuple[int, int]] = {"normal": (56, 80), "large": (84, 120)}


def esc(text: object) -> str:
    """Text made safe for element content and attribute values."""
    return escape(str(text), quote=True)


def num(value: float) -> str:
    """A number in SVG without trailing zeros, so the markup stays short and stable."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def tag(name: str, content: str | None = "", /, **attrs: object) -> str:
    """``<name attrs>content</name>``; ``aria_label`` becomes ``aria-label``, ``class_`` ``class``.

    ``content`` must already be markup; attributes whose value is None are left out. With
    ``content=None`` the element is written self-closed (SVG shapes).
    """
    parts = [name]
    for key, value in attrs.items():
        if value is None:
            continue
        parts.append(f'{key.rstrip("_").replace("_", "-")}="{esc(value)}"')
    head = " ".join(parts)
    if content is None:
        return f"<{head}/>"
    return f"<{head}>{content}</{name}>"


def check_size(size: str) -> tuple[int, int]:
    """Width and height of a card of this size; a clear error for a misspelt size."""
    if size not in SIZES:
        choices = ", ".join(SIZES)
        raise RuleError("unknown_size", current_language(), size=repr(size), choices=choices)
    return SIZES[size]


def as_card(value: object) -> Card:
    """A ``Card`` from a Card, an observation's ``{"id", "code"}`` dict, an id or a code."""
    if isinstance(value, Card):
        return value
    if isinstance(value, dict):
        return Card(int(value["id"]))
    if isinstance(value, int) and not isinstance(value, bool):
        return Card(value)
    return Card.parse(value)


def as_cards(values: object) -> list[Card]:
    """Several cards from any of the forms ``as_card`` reads, or from a text like ``"7H 8H"``."""
    if values is None:
        return []
    if isinstance(values, str):
        return list(parse_cards(values))
    return [as_card(v) for v in values]


def field(obj: object, name: str, default: object = None) -> object:
    """``obj.name`` or ``obj[name]``: results and arrangements come as objects or JSON dicts."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


class Snippet:
    """Finished HTML that a notebook displays, with a short, stable text form.

    ``Game.show()`` returns one: the notebook shows the HTML; a terminal, a doctest or strict
    nbval sees only ``text`` (no memory address, nothing random).
    """

    __slots__ = ("html", "text")

    def __init__(self, html: str, text: str) -> None:
        self.html = html
        self.text = text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snippet) and (self.html, self.text) == (other.html, other.text)

    def __hash__(self) -> int:
        return hash((self.html, self.text))
