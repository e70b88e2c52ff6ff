"""What a review returns: every decision looked at, the mistakes, the good finds.

Costs are in *points*: the expected difference between the opponents' penalty points and the
seat's own at the end of the deal (docs/review.md), estimated by playouts; each comes with its
standard error. A decision is a mistake only when the best option beat the played one by more
than the review's ``z`` standard errors and by at least ``min_points``: otherwise the two are
"about equal".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.actions import Action
from ..i18n import check_lang, t

#: What a decision's figures say: the played move was the best tried, or a find (it beat the
#: expert bot's choice clearly), about equal to the best, or a mistake.
VERDICTS = ("best", "find", "about_equal", "mistake")


def action_text(action: Action, lang: str) -> str:
    """A move as a noun phrase for the review's sentences ("discarding 4♠")."""
    if action.kind == "draw":
        return t(f"review.action.draw_{action.source}", lang)
    if action.kind == "meld":
        return t("review.action.meld", lang, cards=" ".join(str(c) for c in action.cards))
    return t(f"review.action.{action.kind}", lang, card=str(action.card))


@dataclass(frozen=True)
class Option:
    """One option tried: its mean points over the worlds and its gain over the played move."""

    action: Action
    points: float
    gain: float
    error: float


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: ``move`` is its index in ``game.history``.

    ``better`` is the best option tried when it beat the played one (else None); ``cost`` is
    how many points the played move lost against it (0.0 if none did), ``error`` its standard
    error. For a find, ``cost`` is 0.0 and ``margin`` says by how much the played move beat the
    expert bot's choice (``expert``)."""

    move: int
    seat: int
    played: Action
    better: Action | None
    cost: float
    error: float
    verdict: str
    expert: Action
    options: tuple[Option, ...]
    samples: int
    observation: dict = field(repr=False, compare=False)
    margin: float = 0.0
    take_backs: int = 0
    checked: int = 0  # fresh worlds of the second look (0: none); ``cost`` comes from them
    unchecked: bool = False  # a lead worth a second look that the review's budget did not reach

    @property
    def is_mistake(self) -> bool:
        return self.verdict == "mistake"

    def reason(self, lang: str = "en") -> str:
        """The verdict in plain words: the reason first, one number at most."""
        check_lang(lang)
        played = action_text(self.played, lang)
        if self.verdict == "mistake":
            better = action_text(self.better, lang)
            if self.played.kind in ("meld", "lay_off") and self.better.kind == "discard":
                better = t("review.action.hold", lang, card=str(self.better.card))
            points = max(1, round(self.cost))
            return t("review.reason.mistake", lang, better=better, played=played, points=points)
        if self.verdict == "about_equal":
            better = action_text(self.better, lang)
            return t("review.reason.about_equal", lang, better=better, played=played)
        if self.verdict == "find":
            expert = action_text(self.expert, lang)
            points = max(1, round(self.margin))
            return t("review.reason.find", lang, played=played, expert=expert, points=points)
        return t("review.reason.best", lang, played=played)

    def details(self, lang: str = "en") -> str:
        """The figures behind the verdict, for the curious: each option's mean and its gain."""
        check_lang(lang)
        rows = [
            t(
                "review.details.option",
                lang,
                action=action_text(o.action, lang),
                points=f"{o.points:+.1f}",
                gain=f"{o.gain:+.1f}",
                error=f"{o.error:.1f}",
            )
            for o in self.options
        ]
        text = t("review.details.head", lang, samples=self.samples) + "\n" + "\n".join(rows)
        if self.checked:
            figure = self.margin if self.verdict == "find" else self.cost
            text += "\n" + t(
                "review.details.checked",
                lang,
                samples=self.checked,
                gain=f"{figure:+.1f}",
                error=f"{self.error:.1f}",
            )
        if self.unchecked:
            text += "\n" + t("review.details.unchecked", lang)
        return text

    def to_json(self, lang: str = "en") -> dict:
        """What a table needs to list the decision and open its replay (``Game.from_dict(save,
        upto=move)`` is the position before it); card ids only, the seat's own view."""
        return {
            "move": self.move,
            "seat": self.seat,
            "verdict": self.verdict,
            "played": self.played.to_json(),
            "better": self.better.to_json() if self.better else None,
            "cost": round(self.cost, 2),
            "error": round(self.error, 2),
            "take_backs": self.take_backs,
            "reason": self.reason(lang),
        }

    def __repr__(self) -> str:
        figure = f"{self.cost:.1f} ± {self.error:.1f}"
        better = f" (better: {self.better})" if self.better else ""
        return f"Decision(move {self.move}: {self.played}{better}, {self.verdict}, {figure})"


@dataclass(frozen=True)
class Review:
    """The review of one seat's decisions in one deal."""

    seat: int
    decisions: tuple[Decision, ...]
    names: tuple[str, ...]
    lang: str
    samples: int
    seed: int
    playouts: int = 0  # the playouts the review ran: at most its budget (docs/review.md)

    @property
    def mistakes(self) -> list[Decision]:
        """The flagged decisions, costliest first."""
        found = [d for d in self.decisions if d.verdict == "mistake"]
        return sorted(found, key=lambda d: (-d.cost, d.move))

    @property
    def finds(self) -> list[Decision]:
        """Moves that clearly beat the expert bot's choice, best first: worth praising."""
        found = [d for d in self.decisions if d.verdict == "find"]
        return sorted(found, key=lambda d: (-d.margin, d.move))

    @property
    def cost(self) -> float:
        """Points lost in all, over the flagged mistakes."""
        return sum(d.cost for d in self.mistakes)

    def to_json(self, lang: str | None = None) -> dict:
        """The review as JSON for a table: its seat, the decisions in order, the mistakes'
        and finds' moves."""
        lang = check_lang(lang or self.lang)
        return {
            "seat": self.seat,
            "samples": self.samples,
            "decisions": [d.to_json(lang) for d in self.decisions],
            "mistakes": [d.move for d in self.mistakes],
            "finds": [d.move for d in self.finds],
        }

    def text(self, lang: str | None = None) -> str:
        """The summary line, then each mistake and find with its reason."""
        lang = check_lang(lang or self.lang)
        lines = [summary(self, lang)]
        for d in [*self.mistakes, *self.finds]:
            lines.append(f"{t('review.move', lang, n=d.move + 1)}: {d.reason(lang)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"Review(seat {self.seat}: {len(self.decisions)} decisions, "
            f"{len(self.mistakes)} mistakes, {len(self.finds)} finds)"
        )

    def _repr_html_(self) -> str:
        from .html import review_html

        return review_html(self, self.lang)


def summary(review: Review, lang: str) -> str:
    """ "12 decisions looked at: 2 mistakes, 1 good find." in ``lang``."""
    return t(
        "review.summary",
        lang,
        decisions=len(review.decisions),
        mistakes=len(review.mistakes),
        finds=len(review.finds),
    )
