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
from .patterns import Finding
from .wording import finding_reason, number

#: What a decision's figures say: the played move was the best tried, or a find (it beat the
#: expert bot's choice clearly), about equal to the best, or a mistake.
VERDICTS = ("best", "find", "about_equal", "mistake")
#: The grades learners know from chess reviews, worst first. A flagged decision is a blunder,
#: a mistake or an inaccuracy by the points it gave away (``GRADE_POINTS``); the others are
#: "good" (about equal to the best tried) or "best" (nothing tried did better, or a find).
GRADES = ("blunder", "mistake", "inaccuracy", "good", "best")
#: The least points of a blunder and of a mistake; less is an inaccuracy (docs/review.md).
GRADE_POINTS = {"blunder": 10.0, "mistake": 4.0}


def grade_of(points: float) -> str:
    """The grade of a flagged decision that gave away ``points``."""
    for grade, least in GRADE_POINTS.items():
        if points >= least:
            return grade
    return "inaccuracy"


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
    grade: str = ""  # one of ``GRADES``; "" takes it from the verdict
    finding: Finding | None = None  # a learner's blunder spotted (``patterns.py``), flagged or not

    def __post_init__(self) -> None:
        if not self.grade:
            found = "best" if self.verdict in ("best", "find") else "good"
            if self.verdict == "mistake":
                found = grade_of(self.cost)
            object.__setattr__(self, "grade", found)

    @property
    def flagged_finding(self) -> bool:
        """Is this a learner's blunder the review stands by (its reason names the cards)?"""
        return self.finding is not None and self.verdict == "mistake"

    @property
    def points(self) -> float:
        """The points the grade rests on: the cheap look's gap for a learner's blunder, else
        the playouts' cost."""
        if self.flagged_finding:
            return float(self.finding.gap)
        return self.cost

    @property
    def is_mistake(self) -> bool:
        return self.verdict == "mistake"

    def reason(self, lang: str = "en") -> str:
        """The verdict in plain words: the reason first, one number at most."""
        check_lang(lang)
        played = action_text(self.played, lang)
        if self.flagged_finding:
            return finding_reason(self.finding, self.played, self.observation, lang)
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
                points=number(o.points, lang, sign=True),
                gain=number(o.gain, lang, sign=True),
                error=number(o.error, lang),
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
                gain=number(figure, lang, sign=True),
                error=number(self.error, lang),
            )
        if self.unchecked:
            text += "\n" + t("review.details.unchecked", lang)
        if self.flagged_finding:
            gap = number(self.finding.gap, lang)
            text += "\n" + t("review.details.gap", lang, points=gap)
        return text

    def to_json(self, lang: str = "en") -> dict:
        """What a table needs to list the decision and open its replay (``Game.from_dict(save,
        upto=move)`` is the position before it); card ids only, the seat's own view."""
        return {
            "move": self.move,
            "seat": self.seat,
            "verdict": self.verdict,
            "grade": self.grade,
            "kind": self.finding.kind if self.flagged_finding else None,
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
        return f"Decision(move {self.move}: {self.played}{better}, {self.grade}, {figure})"


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
        """The flagged decisions (blunders, mistakes, inaccuracies), costliest first."""
        found = [d for d in self.decisions if d.verdict == "mistake"]
        return sorted(found, key=lambda d: (GRADES.index(d.grade), -d.points, d.move))

    def count(self, grade: str) -> int:
        """How many decisions got ``grade``."""
        return sum(d.grade == grade for d in self.decisions)

    def headline(self, lang: str | None = None) -> str:
        """The deal's summary for the top of the review and the table's Review screen:
        "1 blunder, 2 mistakes; the biggest: move 7, discarding 4♣."."""
        return headline(self, check_lang(lang or self.lang))

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
            "headline": headline(self, lang),
            "counts": {g: self.count(g) for g in GRADES},
            "samples": self.samples,
            "decisions": [d.to_json(lang) for d in self.decisions],
            "mistakes": [d.move for d in self.mistakes],
            "finds": [d.move for d in self.finds],
        }

    def text(self, lang: str | None = None) -> str:
        """The summary line, then each mistake and find with its reason."""
        lang = check_lang(lang or self.lang)
        lines = [headline(self, lang), summary(self, lang)]
        for d in [*self.mistakes, *self.finds]:
            grade = t(f"review.grade.{d.grade}", lang)
            lines.append(f"{t('review.move', lang, n=d.move + 1)} ({grade}): {d.reason(lang)}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Review(seat {self.seat}: {headline(self, 'en')} {summary(self, 'en')})"

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


#: The grades a headline counts, in its order.
COUNTED = (("blunder", "blunders"), ("mistake", "mistakes"), ("inaccuracy", "inaccuracies"))


def headline(review: Review, lang: str) -> str:
    """ "1 blunder, 2 mistakes; the biggest: move 7, discarding 4♣." or "No mistakes found."
    in ``lang``."""
    counts = [
        t(f"plural.{unit}.{'one' if n == 1 else 'other'}", lang, n=n)
        for grade, unit in COUNTED
        if (n := review.count(grade))
    ]
    if not counts:
        return t("review.headline.clean", lang)
    biggest = review.mistakes[0]
    return t(
        "review.headline.flagged",
        lang,
        counts=", ".join(counts),
        n=biggest.move + 1,
        played=action_text(biggest.played, lang),
    )
