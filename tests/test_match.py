"""Matches over several deals, and the ring-game payout's properties (decisions row 21)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy_widget import Match, RuleError, payout

totals_lists = st.lists(st.integers(0, 400), min_size=1, max_size=6)
pools = st.integers(0, 10**9)


@settings(max_examples=400, deadline=None)
@given(pool=pools, totals=totals_lists)
def test_payout_properties(pool, totals):
    shares = payout(pool, totals)
    best = min(totals)
    winners = [i for i, t in enumerate(totals) if t == best]
    qualifiers = [i for i, t in enumerate(totals) if best < t < best + 50]
    assert sum(shares) == pool  # 5: adds up exactly, in cents
    assert all(isinstance(s, int) and s >= 0 for s in shares)
    assert sum(shares[i] for i in winners) * 4 >= pool * 3  # 1: winners get at least 75%
    for i, t in enumerate(totals):  # 2: only those less than 50 behind share the rest
        if t >= best + 50:
            assert shares[i] == 0
    for i in range(len(totals)):  # 3: closer never gets less
        for j in range(len(totals)):
            if totals[i] < totals[j]:
                assert shares[i] >= shares[j]
    if not qualifiers:  # 4: nobody qualifies, the winners take it all
        assert sum(shares[i] for i in winners) == pool
    winner_shares = [shares[i] for i in winners]  # 6: tied winners split equally
    assert max(winner_shares) - min(winner_shares) <= 1


def test_payout_worked_example():
    # totals 20, 35, 60, 71 on a 100.00 pool: 35 is 15 behind (weight 35), 60 is 40 behind
    # (weight 10), 71 is 51 behind (out). The rest, 25.00, splits 35:10.
    assert payout(10_000, [20, 35, 60, 71]) == [7_500 + 1, 1_944, 555, 0]
    assert payout(10_000, {"Ann": 0, "Bo": 80}) == {"Ann": 10_000, "Bo": 0}
    assert payout(101, [5, 5]) == [51, 50]


@pytest.mark.parametrize("bad", [[], [-1, 3], [1.5, 2], "12", 12, None])
def test_payout_refuses_bad_totals(bad):
    with pytest.raises(RuleError) as err:
        payout(100, bad)
    assert err.value.code == "bad_payout"
    assert "totals must be whole penalty points" in str(err.value)


def test_payout_errors_speak_the_language_asked_for():
    with pytest.raises(RuleError) as err:
        payout(-5, [1, 2], lang="fi")
    assert str(err.value).startswith("Pottia ei voi jakaa: potin pitää olla")
    assert "pool must be a whole number of cents" in err.value.localized("en")


def test_payout_refuses_bad_pools():
    with pytest.raises(RuleError):
        payout(-1, [1, 2])
    with pytest.raises(RuleError):
        payout(10.5, [1, 2])


def play_out(game, rng):
    while game.phase != "over":
        game.apply(rng.choice(game.legal_actions()))


def test_match_keeps_running_totals_and_rotates_the_dealer():
    match = Match(players=["Ann", "Bo", "Cy"], rules="rummy_royal", seed=4, deals=3)
    rng = random.Random(4)
    dealers = []
    while True:
        dealers.append(match.game.dealer)
        play_out(match.game, rng)
        match.record()
        match.record()  # recording twice counts the deal once
        if match.over:
            break
        match.next_deal()
    assert len(match.results) == 3 and match.deal_number == 3
    assert dealers == [2, 0, 1]
    assert match.totals == [sum(d[p] for d in match.deal_penalties) for p in range(3)]
    with pytest.raises(RuleError) as err:
        match.next_deal()
    assert err.value.code == "match_over"


def test_match_refuses_a_new_deal_before_the_end():
    match = Match(seed=1, deals=2)
    with pytest.raises(RuleError) as err:
        match.next_deal()
    assert err.value.code == "deal_not_over"


def test_match_deals_are_reproducible():
    a, b = Match(seed=8, deals=2), Match(seed=8, deals=2)
    assert a.game.to_dict() == b.game.to_dict()


@pytest.mark.parametrize("deals", [0, -3, True, 2.0, "3"])
def test_a_match_needs_a_whole_number_of_deals(deals):
    with pytest.raises(RuleError) as err:
        Match(deals=deals, lang="fi")
    assert err.value.code == "bad_deals" and "vähintään 1" in str(err.value)
