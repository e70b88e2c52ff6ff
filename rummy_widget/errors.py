"""The one error a learner sees: an illegal move or bad input, with a stable code."""

from __future__ import annotations

from .i18n import DEFAULT_LANG, t


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
