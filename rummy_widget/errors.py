"""The errors a learner sees: an illegal move or bad input with a stable code, and an optional
extra that is not installed."""

from __future__ import annotations

import importlib.util
import sys

from .i18n import DEFAULT_LANG, check_lang, t


class Reason:
    """A translatable part of an error message (why a layout or a payout was refused), kept
    as a key so that the message can be given in either language."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = f"error.reason.{key}"
        self.params = {k: str(v) for k, v in params.items()}

    def text(self, lang: str) -> str:
        return t(self.key, lang, **self.params)

    def __repr__(self) -> str:
        return f"Reason({self.key!r})"


class RuleError(ValueError):
    """An illegal action or unreadable input. ``code`` is stable; the message is localized.

    The message key is ``error.<code>`` in the translation tables; ``params`` fill its
    placeholders (a ``Reason`` is translated too). ``localized(lang)`` gives the message in
    another language.
    """

    def __init__(self, code: str, lang: str = DEFAULT_LANG, /, **params: object) -> None:
        self.code = code
        self.params = {k: v if isinstance(v, Reason) else str(v) for k, v in params.items()}
        self.lang = lang
        super().__init__(self.localized(lang))

    def localized(self, lang: str) -> str:
        params = {k: v.text(lang) if isinstance(v, Reason) else v for k, v in self.params.items()}
        return t(f"error.{self.code}", lang, **params)


#: The optional extras that lessons need, with the modules each one brings (pyproject.toml).
EXTRAS = {"env": ("numpy", "gymnasium", "pettingzoo"), "plot": ("matplotlib",)}


class ExtraMissing(ImportError):
    """An optional extra is not installed. The message names the extra and how to install it;
    in Pyodide (the offline site, which holds only the wheels built into it) it says instead
    that the lesson runs only in a full Python, since no pip can reach PyPI there."""

    def __init__(self, extra: str, lang: str, missing: str) -> None:
        self.extra = extra
        self.lang = lang
        modules = ", ".join(EXTRAS[extra])
        key = "error.extra_missing.site" if sys.platform == "emscripten" else "error.extra_missing"
        command = f'pip install "rummy_widget[{extra}]"'
        text = t(key, lang, extra=extra, modules=modules, missing=missing, command=command)
        super().__init__(text, name=missing)


def require_extra(extra: str, lang: str = DEFAULT_LANG) -> None:
    """Nothing if every module of ``extra`` imports; else ``ExtraMissing`` in ``lang``.

    A lesson calls it before importing the extra, so that where the extra cannot be installed
    (the offline site has no numpy) its first cell says why instead of a bare ModuleNotFoundError.
    """
    check_lang(lang)
    for module in EXTRAS[extra]:
        if importlib.util.find_spec(module) is None:
            raise ExtraMissing(extra, lang, module)
