"""The translation tables: one JSON file per language, shared by Python and the front end.

Every learner-visible string lives in ``locales/<lang>.json`` under a dotted key. Placeholders
use ``{name}`` and are filled with ``str.format``; the front end uses the same files and syntax.
A count with its unit is written ``{name:unit}``: the number takes the unit's singular or
plural form (``plural.<unit>.one`` / ``plural.<unit>.other``), so a card worth 1 reads
"1 point" / "1 piste", not "1 points". Only Python's texts use this form; a test keeps it out
of the front end's keys.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

LANGUAGES: tuple[str, ...] = ("en", "fi")
DEFAULT_LANG = "en"


@cache
def table(lang: str) -> dict[str, str]:
    """The whole translation table for ``lang`` ("en" or "fi")."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    text = resources.files(__package__).joinpath("locales", f"{lang}.json").read_text("utf-8")
    return json.loads(text)


_default = {"lang": DEFAULT_LANG}


def set_language(lang: str) -> None:
    """Choose the language of cards, melds and results shown in a notebook (``"en"``/``"fi"``).

    Objects without a language of their own (a card, a hand, a meld, an arrangement) draw
    their accessible names and labels in this language.
    """
    _default["lang"] = check_lang(lang)


def current_language() -> str:
    """The language set by ``set_language`` (English until then)."""
    return _default["lang"]


def check_lang(lang: str) -> str:
    """Return ``lang`` if it is supported, else raise a ValueError naming the choices."""
    table(lang)
    return lang


def t(key: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The text for ``key`` in ``lang``, with ``{placeholders}`` filled from ``params``."""
    text = table(lang).get(key)
    if text is None:
        raise KeyError(f"no translation for {key!r} in {lang!r}")
    if not params:
        return text
    if ":" in text:
        text = _COUNT.sub(lambda m: count(params[m[1]], m[2], lang).replace("{", "{{"), text)
    return text.format(**params)


_COUNT = re.compile(r"\{(\w+):(\w+)\}")


def you_text(key: str, lang: str, you: bool, /, **params: object) -> str:
    """The seat's own wording (``key.you``: "You went out") when it is about that seat."""
    own = f"{key}.you"
    return t(own if you and own in table(lang) else key, lang, **params)


def count(n: object, unit: str, lang: str = DEFAULT_LANG) -> str:
    """``n`` with ``unit`` in the right number: "1 point", "5 points"; "1 piste", "5 pistettä"."""
    form = "one" if str(n) == "1" else "other"  # an error's parameters are already text
    return t(f"plural.{unit}.{form}", lang, n=n)


#: The cases a sentence may need a card's name in: the name itself ("nom"), the genitive, which
#: is also a whole object's accusative ("Otit herttasotilaan"), and the partitive ("korttia").
CASES: tuple[str, ...] = ("nom", "gen", "part")


def inflect_card(name: str, case: str, lang: str = DEFAULT_LANG) -> str:
    """A card's name in ``case``: "herttasotilas" -> "herttasotilaan" (gen), "herttasotilasta".

    A Finnish card name is one compound whose last part, the rank's word, inflects
    (``card.rank.N.gen``/``.part`` in fi.json); the suit before it stays. A card shown by its
    symbols ("Q♥") cannot inflect, so the word for a card takes the case in front of it
    ("kortin Q♥", ``card.code.<case>``). English names stay as they are.
    """
    if case not in CASES:
        raise ValueError(f"unknown case {case!r}; choose one of {', '.join(CASES)}")
    if case == "nom":
        return name
    for key, word in _rank_words(lang):
        if name.endswith(word):
            return name[: len(name) - len(word)] + table(lang)[f"{key}.{case}"]
    return t(f"card.code.{case}", lang, card=name)


def inflect_cards(names: Sequence[str], case: str, lang: str = DEFAULT_LANG) -> str:
    """Several cards' names in ``case`` as one list: "herttasotilaan, ruutusotilaan ja
    ristisotilaan" (``card.list`` joins the last two)."""
    said = [inflect_card(name, case, lang) for name in names]
    if len(said) < 2:
        return "".join(said)
    return t("card.list", lang, a=", ".join(said[:-1]), b=said[-1])


@cache
def _rank_words(lang: str) -> tuple[tuple[str, str], ...]:
    """The ranks' names with their keys, longest first (so no shorter word matches a part)."""
    words = table(lang)
    ranks = [(f"card.rank.{n}", words[f"card.rank.{n}"]) for n in range(1, 14)]
    return tuple(sorted(ranks, key=lambda pair: -len(pair[1])))
