"""Duplicate-deal tournaments between bots, with win rates and 95% confidence intervals.

Every deal is played once per seating: the same shuffle with the bots' seats rotated, so the
luck of the cards evens out and the comparison measures play, not deals. Deals run in parallel
over processes (or any ``concurrent.futures.Executor``), in chunks whose results are put back in
deal order, so the result is the same whatever ran them.
"""

from __future__ import annotations

import copy
import html
import math
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import LANGUAGES, check_lang, t

#: z for a two-sided 95% normal interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class GameRecord:
    """One game of a tournament: which entrant sat where, and how it ended."""

    deal: int
    seats: tuple[int, ...]  # entrant index per seat
    winner: int | None  # seat, None for a void deal
    rummy: bool
    penalties: tuple[int, ...]  # per seat
    moves: int  # -1: stopped after MAX_MOVES and counted as void


@dataclass(frozen=True)
class BotStats:
    """One entrant's figures over the decided (not void) games it played."""

    label: str
    games: int
    decided: int
    wins: int
    rummies: int
    win_rate: float
    win_ci: tuple[float, float]
    mean_penalty: float
    penalty_ci: tuple[float, float]


@dataclass
class TournamentResult:
    """Per-bot win rate and mean penalty with 95% intervals; ``records`` has every game."""

    names: dict[str, list[str]]  # language -> entrants' labels
    rules: str
    players: int
    deals: int
    seatings: int
    records: list[GameRecord]
    lang: str = "en"
    stats: list[BotStats] = field(init=False)

    def __post_init__(self) -> None:
        self.stats = [self._stats(e) for e in range(len(self.labels))]

    @property
    def labels(self) -> list[str]:
        """The entrants' names in the result's language."""
        return self.names[self.lang]

    @property
    def voids(self) -> int:
        return sum(1 for r in self.records if r.winner is None)

    def join(self, other: TournamentResult) -> TournamentResult:
        """This result and ``other`` as one: the same bots, rules and players on other deals
        (``tournament(..., first_deal=...)``), else a ``RuleError``."""
        same = (self.names, self.rules, self.players, self.seatings) == (
            other.names,
            other.rules,
            other.players,
            other.seatings,
        )
        if not same or {r.deal for r in self.records} & {r.deal for r in other.records}:
            raise RuleError("tournament_join", self.lang)
        return TournamentResult(
            self.names,
            self.rules,
            self.players,
            self.deals + other.deals,
            self.seatings,
            [*self.records, *other.records],
            self.lang,
        )

    def __getitem__(self, label: str) -> BotStats:
        for s in self.stats:
            if s.label == label:
                return s
        raise KeyError(label)

    def _stats(self, entrant: int) -> BotStats:
        """Ratio estimates clustered by deal: the seatings of one deal are not independent."""
        units: dict[int, list[float]] = {}  # deal -> [wins, decided, penalty]
        games = rummies = 0
        for r in self.records:
            mine = [s for s, e in enumerate(r.seats) if e == entrant]
            if not mine:
                continue
            games += 1
            unit = units.setdefault(r.deal, [0.0, 0.0, 0.0])
            if r.winner is None:
                continue
            unit[1] += 1
            if r.winner in mine:
                unit[0] += 1
                rummies += r.rummy
            unit[2] += sum(r.penalties[s] for s in mine) / len(mine)
        wins = [u[0] for u in units.values()]
        decided = [u[1] for u in units.values()]
        penalty = [u[2] for u in units.values()]
        rate, rate_ci = _ratio(wins, decided, clip=(0.0, 1.0))
        mean, mean_ci = _ratio(penalty, decided, clip=(0.0, math.inf))
        return BotStats(
            self.labels[entrant],
            games,
            int(sum(decided)),
            int(sum(wins)),
            rummies,
            rate,
            rate_ci,
            mean,
            mean_ci,
        )

    # --- display ---------------------------------------------------------------------------

    def rows(self, lang: str | None = None) -> tuple[list[str], list[list[str]]]:
        """The result table's header and rows as text, labels from the translation tables."""
        lang = check_lang(lang or self.lang)
        head = [
            t(f"tournament.{k}", lang)
            for k in ("bot", "games", "win_rate", "ci", "mean_penalty", "ci", "rummies")
        ]
        body = [
            [
                label,
                str(s.games),
                _pct(s.win_rate, lang),
                _interval(s.win_ci, _pct, lang),
                _num(s.mean_penalty, lang),
                _interval(s.penalty_ci, _num, lang),
                str(s.rummies),
            ]
            for s, label in zip(self.stats, self.names[lang], strict=True)
        ]
        return head, body

    def summary(self, lang: str | None = None) -> str:
        lang = check_lang(lang or self.lang)
        return t(
            "tournament.summary",
            lang,
            rules=t(f"rules.preset.{self.rules}", lang),
            players=self.players,
            deals=self.deals,
            seatings=self.seatings,
            games=len(self.records),
            voids=self.voids,
        )

    def table(self, lang: str | None = None) -> str:
        """A plain-text table (what ``repr`` shows)."""
        head, body = self.rows(lang)
        widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
        lines = [
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
            for row in [head, *body]
        ]
        return "\n".join([self.summary(lang), *lines])

    def __repr__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        head, body = self.rows()
        cells = lambda row, tag: "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in row)  # noqa: E731
        rows = "".join(f"<tr>{cells(r, 'td')}</tr>" for r in body)
        return (
            f'<table class="rummy-tournament"><caption>{html.escape(self.summary())}</caption>'
            f"<thead><tr>{cells(head, 'th')}</tr></thead><tbody>{rows}</tbody></table>"
        )

    def plot(self, ax=None, lang: str | None = None):
        """Win rates with their 95% intervals as bars; returns ``(figure, axes)``.

        Needs matplotlib (the ``[plot]`` extra); without it, ``PlotUnavailable``.
        """
        lang = check_lang(lang or self.lang)
        require_matplotlib(lang)
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots(figsize=(6, 0.6 + 0.5 * len(self.stats)))
        else:
            fig = ax.figure
        stats = self.stats[::-1]  # first entrant on top
        labels = self.names[lang][::-1]
        rates = [0.0 if math.isnan(s.win_rate) else 100 * s.win_rate for s in stats]
        errors = [
            [
                max(0.0, r - 100 * s.win_ci[0]) if not math.isnan(s.win_ci[0]) else 0.0
                for r, s in zip(rates, stats, strict=True)
            ],
            [
                max(0.0, 100 * s.win_ci[1] - r) if not math.isnan(s.win_ci[1]) else 0.0
                for r, s in zip(rates, stats, strict=True)
            ],
        ]
        ax.barh(labels, rates, xerr=errors, color="#3b7dd8", capsize=4)
        ax.set_xlim(0, 100)
        ax.set_xlabel(t("tournament.win_rate_axis", lang))
        ax.set_title(self.summary(lang), fontsize=9)
        fig.tight_layout()
        return fig, ax


#: What the missing-plot message names: the library and the command that installs it.
PLOT_MISSING = {"library": "matplotlib", "command": 'pip install "rummy_widget[plot]"'}


class PlotUnavailable(ImportError):
    """matplotlib is missing: the core installs without it (in Pyodide too), plots need the
    ``[plot]`` extra. The message is localized and says how to install it."""

    def __init__(self, lang: str) -> None:
        super().__init__(t("tournament.plot_missing", lang, **PLOT_MISSING), name="matplotlib")
        self.lang = lang


def require_matplotlib(lang: str):
    """The matplotlib module, or ``PlotUnavailable`` in ``lang`` when it is not installed."""
    try:
        import matplotlib
    except ImportError as missing:
        raise PlotUnavailable(check_lang(lang)) from missing
    return matplotlib


# --- playing ---------------------------------------------------------------------------------


#: A deal still going after this many moves is recorded as void: the rules let two players
#: take each other's discards for ever (the stock never runs out, so no rebuild voids it).
MAX_MOVES = 5_000


class EndlessDeal(RuntimeError):
    """The deal went on past ``max_moves``."""


def play_game(game: Game, bots: Sequence[object], max_moves: int = MAX_MOVES) -> Game:
    """Play ``game`` to its end, each seat's bot seeing only its own observation."""
    moves = 0
    while game.phase != "over":
        seat = game.current_player
        action = bots[seat].act(game.observation(seat))
        game.apply(action if isinstance(action, Action) else Action.from_json(action), seat)
        moves += 1
        if moves > max_moves:
            raise EndlessDeal(f"the deal did not end within {max_moves} moves")
    return game


def seatings(entrants: int, players: int) -> list[tuple[int, ...]]:
    """Every rotation of the entrants round the table (seats filled in turn), each once."""
    base = [i % entrants for i in range(players)]
    out: list[tuple[int, ...]] = []
    for r in range(players):
        seating = tuple(base[(s + r) % players] for s in range(players))
        if seating not in out:
            out.append(seating)
    return out


def deal_seed(seed: int, deal: int) -> int:
    """The shuffle of deal number ``deal`` in a tournament with ``seed``."""
    return seed * 1_000_003 + deal


def _play_chunk(
    bots: Sequence[object], rules: Rules, players: int, seed: int, deals: Sequence[int]
) -> list[GameRecord]:
    """Worker task: play the given deals in every seating. Top level so it pickles."""
    records = []
    for deal in deals:
        for seating in seatings(len(bots), players):
            # A fresh copy of each bot per game: no state carries over between games, so the
            # result does not depend on how deals were split between workers.
            seated = [copy.deepcopy(bots[e]) for e in seating]
            game = Game(players, rules, seed=deal_seed(seed, deal))
            try:
                play_game(game, seated)
            except EndlessDeal:
                records.append(GameRecord(deal, seating, None, False, (0,) * players, -1))
                continue
            result = game.result
            records.append(
                GameRecord(
                    deal,
                    seating,
                    result.winner,
                    result.rummy,
                    tuple(result.penalties),
                    len(game.history),
                )
            )
    return records


def tournament(
    bots: Sequence[object],
    deals: int = 100,
    rules: str | Rules = "traditional",
    seed: int = 0,
    players: int | None = None,
    executor: Executor | str | None = "processes",
    jobs: int | None = None,
    progress: bool = True,
    lang: str = "en",
    chunk: int | None = None,
    first_deal: int = 0,
) -> TournamentResult:
    """Play ``deals`` duplicate deals between ``bots`` (names or bot objects).

    ``players`` (2-4, default the number of bots) seats are filled with the bots in turn, and
    each deal is played in every rotation of them. ``executor="processes"`` (the default) uses
    ``jobs`` worker processes; pass any ``concurrent.futures.Executor`` (e.g. a Dask client's
    ``get_executor()``), or ``None`` to play here in this process (for bots that cannot be
    pickled; bots whose class was written in a notebook are played here by themselves when
    worker processes could not import it). The result is the same either way. Bad counts of
    bots or players raise a ``RuleError`` in ``lang``.

    ``first_deal``: the deals played are numbers ``first_deal`` to ``first_deal + deals - 1``
    of the seed's sequence, so a long tournament can be played in parts (and parts added
    later) and the parts put together with ``TournamentResult.join``: the same figures as one
    run over all the deals.
    """
    from . import get_bot

    lang = check_lang(lang)
    rules = Rules.preset(rules)
    entrants = [get_bot(b, seed=seed + i) if isinstance(b, str) else b for i, b in enumerate(bots)]
    players = len(entrants) if players is None else int(players)
    if len(entrants) < 2 or not rules.min_players <= players <= rules.max_players:
        low, high = rules.min_players, rules.max_players
        raise RuleError(
            "tournament_seats", lang, low=low, high=high, bots=len(entrants), players=players
        )
    if len(entrants) > players:
        raise RuleError("tournament_crowded", lang, bots=len(entrants), players=players)
    deals = int(deals)
    jobs = jobs or os.cpu_count() or 1
    if chunk is None:
        chunk = max(1, min(50, math.ceil(deals / (4 * jobs))))
    first, end = int(first_deal), int(first_deal) + deals
    parts = [list(range(i, min(end, i + chunk))) for i in range(first, end, chunk)]
    names = {code: _labels(entrants, code) for code in LANGUAGES}
    bar = _progress(deals, progress, lang)
    try:
        results = _play_parts(parts, (entrants, rules, players, seed), executor, jobs, bar)
    finally:
        bar.close()
    records = [r for part in results for r in part]
    return TournamentResult(
        names, rules.name, players, deals, len(seatings(len(entrants), players)), records, lang
    )


def _play_parts(
    parts: list[list[int]], args: tuple, executor: Executor | str | None, jobs: int, bar
) -> list[list[GameRecord]]:
    """Each part's records (``_play_chunk``), here or on ``executor``; ``"processes"``
    means worker processes of our own when there is more than one part and the bots can
    travel to them (``_travel``), else here."""
    results: list[list[GameRecord] | None] = [None] * len(parts)
    own = executor == "processes" and jobs > 1 and len(parts) > 1 and _travel(args[0])
    if executor == "processes" and not own:
        executor = None
    pool: Executor | None = ProcessPoolExecutor(jobs) if own else executor
    try:
        if pool is None:
            for i, part in enumerate(parts):
                results[i] = _play_chunk(*args, part)
                bar.update(len(part))
        else:
            futures: dict[Future, int] = {
                pool.submit(_play_chunk, *args, part): i for i, part in enumerate(parts)
            }
            for future in _completed(futures):
                i = futures[future]
                results[i] = future.result()
                bar.update(len(parts[i]))
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    return results


def _travel(entrants: Sequence[object]) -> bool:
    """Can these bots be played in worker processes? A bot class written in a notebook lives in
    ``__main__``, which a worker started by "spawn" or "forkserver" (macOS, Windows, Python 3.14
    on Linux) cannot import: such a tournament is played here instead (same result, one core)."""
    if all(type(bot).__module__ != "__main__" for bot in entrants):
        return True
    # allow_none=True: asking must not fix the process-wide start method as a side effect;
    # unset, the default is the first of get_all_start_methods().
    method = multiprocessing.get_start_method(allow_none=True)
    return (method or multiprocessing.get_all_start_methods()[0]) == "fork"


def _completed(futures: dict) -> list:
    """Futures as they finish when they are ``concurrent.futures`` ones, else in order."""
    if all(isinstance(f, Future) for f in futures):
        return as_completed(futures)
    return list(futures)


def _progress(total: int, enabled: bool, lang: str):
    from tqdm.auto import tqdm

    if sys.platform == "emscripten":
        # In the offline site tqdm.auto does not recognise the Pyodide kernel as a notebook
        # and would print its bar on stderr; and Pyodide has no threads for tqdm's monitor.
        from tqdm.notebook import tqdm

        tqdm.monitor_interval = 0
    return tqdm(total=total, disable=not enabled, desc=t("tournament.progress", lang), unit="")


def _labels(entrants: Sequence[object], lang: str) -> list[str]:
    """Names shown for the entrants, numbered when two would look alike."""
    names = []
    for bot in entrants:
        label: Callable | None = getattr(bot, "label", None)
        if callable(label):
            names.append(label(lang))
        else:
            names.append(str(getattr(bot, "name", type(bot).__name__)))
    return [
        f"{n} {names[:i].count(n) + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)
    ]


# --- statistics ------------------------------------------------------------------------------


def _ratio(
    values: list[float], counts: list[float], clip: tuple[float, float]
) -> tuple[float, tuple[float, float]]:
    """Σvalues/Σcounts with a 95% interval from the between-cluster spread (delta method)."""
    total = sum(counts)
    if not total:
        return math.nan, (math.nan, math.nan)
    ratio = sum(values) / total
    n = len(values)
    if n < 2:
        return ratio, (math.nan, math.nan)
    spread = sum((v - ratio * c) ** 2 for v, c in zip(values, counts, strict=True))
    se = math.sqrt(n / (n - 1) * spread) / total
    if se == 0 and clip == (0.0, 1.0) and ratio in (0.0, 1.0):  # a clean sweep: no spread
        return ratio, _wilson(ratio, n)
    return ratio, (max(clip[0], ratio - Z95 * se), min(clip[1], ratio + Z95 * se))


def _wilson(rate: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval for a rate seen in ``n`` independent deals.

    Used when all deals agree (0% or 100%), where the delta method's interval would shrink to a
    point; counting deals, not games, keeps it conservative.
    """
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


def _pct(x: float, lang: str) -> str:
    return _local(f"{100 * x:.1f}%", lang) if not math.isnan(x) else "–"


def _num(x: float, lang: str) -> str:
    return _local(f"{x:.2f}", lang) if not math.isnan(x) else "–"


def _local(text: str, lang: str) -> str:
    """Finnish writes a decimal comma and a space before the percent sign."""
    return text.replace(".", ",").replace("%", "\u00a0%") if lang == "fi" else text


def _interval(ci: tuple[float, float], fmt: Callable[[float, str], str], lang: str) -> str:
    if math.isnan(ci[0]):
        return "–"
    return f"{fmt(ci[0], lang)}–{fmt(ci[1], lang)}"
