"""A match of several deals with running penalty totals, and the ring-game payout (row 21)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import Reason, RuleError
from ..i18n import check_lang
from .game import DealResult, Game
from .inputs import check_seed, excerpt, is_whole
from .rules import Rules


class Match:
    """Several deals between the same players; the dealer moves one seat left each deal.

    Deal ``k`` uses seed ``seed * 1000 + k`` so each deal is reproducible on its own.
    """

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        rules: str | Rules = "traditional",
        seed: int = 0,
        deals: int = 1,
        lang: str = "en",
    ) -> None:
        self.lang = check_lang(lang)
        self.rules = Rules.preset(rules, self.lang)
        if not is_whole(deals) or deals < 1:
            raise RuleError("bad_deals", self.lang, deals=excerpt(deals))
        first = Game(players, self.rules, seed=check_seed(seed, self.lang) * 1000, lang=lang)
        self.names = list(first.names)
        self.seed = seed
        self.deals = deals
        self.results: list[DealResult] = []
        self.game = first
        self._recorded: Game | None = None

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self.results) + (0 if self._recorded is self.game else 1)

    @property
    def deal_penalties(self) -> list[list[int]]:
        """Penalty points of each finished deal, per seat."""
        return [list(r.penalties) for r in self.results]

    @property
    def totals(self) -> list[int]:
        """Running penalty totals per seat (lower is better)."""
        return [sum(r.penalties[p] for r in self.results) for p in range(len(self.names))]

    @property
    def over(self) -> bool:
        """Have all the match's deals been played and recorded?"""
        return len(self.results) >= self.deals

    def record(self) -> DealResult:
        """Add the finished current deal to the results; calling it again changes nothing."""
        result = self.game.result
        if result is None:
            raise RuleError("deal_not_over", self.lang)
        if self._recorded is not self.game:
            self.results.append(result)
            self._recorded = self.game
        return result

    def next_deal(self) -> Game:
        """Record the finished deal and deal the next one, the dealer one seat further left."""
        self.record()
        if self.over:
            raise RuleError("match_over", self.lang)
        dealer = (self.game.dealer + 1) % len(self.names)
        self.game = Game(
            self.names,
            self.rules,
            seed=self.seed * 1000 + len(self.results),
            lang=self.lang,
            dealer=dealer,
        )
        return self.game

    def scoreboard(self):
        """The match's scoreboard for a notebook (rows per deal, totals)."""
        from ..display import scoreboard_view

        return scoreboard_view(self.names, self.deal_penalties, self.totals, lang=self.lang)

    def __repr__(self) -> str:
        return (
            f"Match({self.rules.name}, {len(self.names)} players, deal {self.deal_number} of "
            f"{self.deals}, totals={self.totals})"
        )


def payout(
    pool_cents: int,
    totals: Sequence[int] | Mapping[str, int],
    rules: str | Rules = "traditional",
    lang: str = "en",
) -> list[int] | dict[str, int]:
    """Share a ring-game pool (integer cents) by match penalty totals (row 21).

    The formula (docs/rules.md, "The payout"): the best total wins. Players less than
    ``rules.payout_margin`` (50) points behind the best qualify; each gets weight
    ``margin - behind``, so a closer player weighs more. If nobody qualifies, the winners take
    the whole pool. Otherwise the qualifiers share ``1 - payout_winner_share`` (25%) of the pool
    in proportion to their weights, each rounded down to a cent, and the winners take the rest
    (at least 75%, including every rounding remainder). Winners tied for first split their part
    equally; cents that do not divide go one each to the tied winners in seat order. With tiny
    pools, a qualifier's share is capped at a tied winner's share, the excess going to the winners.
    A bad pool or bad totals raise a ``RuleError`` in ``lang``.
    """
    rules = Rules.preset(rules)
    check_lang(lang)
    if not isinstance(pool_cents, int) or isinstance(pool_cents, bool) or pool_cents < 0:
        raise RuleError("bad_payout", lang, reason=Reason("pool_cents"))
    if not isinstance(totals, (Sequence, Mapping)) or isinstance(totals, str):
        raise RuleError("bad_payout", lang, reason=Reason("totals_points"))
    keys = list(totals) if isinstance(totals, Mapping) else None
    values = [totals[k] for k in keys] if keys is not None else list(totals)
    if not values or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        raise RuleError("bad_payout", lang, reason=Reason("totals_points"))
    best = min(values)
    winners = [i for i, v in enumerate(values) if v == best]
    weights = {
        i: rules.payout_margin - (v - best)
        for i, v in enumerate(values)
        if v != best and v - best < rules.payout_margin
    }
    shares = [0] * len(values)
    if weights:
        rest = pool_cents - _ceil_share(pool_cents, rules.payout_winner_share)
        total_weight = sum(weights.values())
        for i, w in weights.items():
            shares[i] = rest * w // total_weight
    while True:  # with tiny pools and tied winners, no qualifier may out-earn a winner
        each, extra = divmod(pool_cents - sum(shares), len(winners))
        over = [i for i in weights if shares[i] > each]
        if not over:
            break
        for i in over:
            shares[i] = each
    for n, i in enumerate(winners):
        shares[i] = each + (1 if n < extra else 0)
    return dict(zip(keys, shares, strict=True)) if keys is not None else shares


def _ceil_share(pool: int, share: float) -> int:
    """The winners' minimum part in whole cents, rounded up so it is never under the share."""
    numerator, denominator = share.as_integer_ratio()
    return -(-pool * numerator // denominator)
