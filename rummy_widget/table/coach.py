"""The Review button's part of the table: run ``review`` on a finished deal, list its mistakes
and finds for the seat, and open the replay at one of them with the better move outlined.

The review runs in the kernel while the intent is handled, so its budget is small by default
(``REVIEW_SAMPLES`` worlds per decision, no second look); a caller can give more. Progress goes
to a callback (the widget's ``progress`` trait). See docs/widget.md, "Review".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.game import Game
from ..i18n import t
from ..review import Review, review

#: Worlds per decision at the table: the reviewer's default is 12 with a 32-world second look.
REVIEW_SAMPLES = 4
#: The second look's worlds at the table (0: none), to keep the kernel free.
REVIEW_CONFIRM = 0

Progress = Callable[[int, int], object]


@dataclass
class Coach:
    """The review of one seat's finished deal and the saved game it replays."""

    seat: int
    result: Review
    save: dict

    @classmethod
    def run(
        cls, game: Game, seat: int, lang: str, seed: int, samples: int, progress: Progress | None
    ) -> Coach:
        found = review(
            game,
            seat,
            lang=lang,
            seed=seed,
            samples=samples,
            confirm=REVIEW_CONFIRM,
            progress=progress or False,
        )
        return cls(seat, found, game.to_dict())

    def view(self, lang: str) -> dict:
        """The deal's headline ("1 blunder, 2 mistakes; the biggest: ..."), then the mistakes
        (worst first) and the finds, each under the grade the review gives it, localized: what
        the list on the table shows."""
        items = []
        for d in [*self.result.mistakes, *self.result.finds]:
            grade = t(f"review.grade.{d.grade}", lang)
            cost = round(d.points, 1)
            label = t("ui.review.item", lang, n=d.move + 1, verdict=grade, cost=cost)
            items.append(
                {
                    "move": d.move,
                    "verdict": d.verdict,
                    "cost": cost,
                    "label": label,
                    "reason": d.reason(lang),
                }
            )
        return {"summary": self.result.headline(lang), "items": items}

    def better(self, move: int) -> Action | None:
        """The better move at ``move``, for the replay's outline; None if it is not listed."""
        for d in [*self.result.mistakes, *self.result.finds]:
            if d.move == move:
                return d.better or d.played
        return None

    def reason(self, move: int, lang: str) -> str:
        return next(d.reason(lang) for d in self.result.decisions if d.move == move)
