"""The one error a learner sees: an illegal move or bad input, with a stable code."""

from __future__ import annotations

from .i18n import DEFAULT_LANG, t


class RuleError(ValueError):
    """An illegal action or unreadable input. ``code`` is stable; the message is localized.

    The message key is ``error.<code>`` in the translation tables; ``params`` fill its
    placeholders. ``localized(lang)`` gives the message in another language.
    """

    def __init__(self, code: str, lang: str = DEFAULT_LANG, /, **params: object) -> None:
        self.code = code
        self.params = {k: str(v) for k, v in params.items()}
        self.lang = lang
        super().__init__(self.localized(lang))

    def localized(self, lang: str) -> str:
        return t(f"error.{self.code}", lang, **self.params)

    def in_lang(self, lang: str) -> RuleError:
        """The same error with its message in ``lang``."""
        return RuleError(self.code, lang, **self.params)
