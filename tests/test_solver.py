"""The solver: exact against a brute force, each rule difference, tie-breaks, chains, helpers."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest
from solver_hands import hard_hand, random_hand, table_deal

from rummy_widget.engine.cards import Card, Cards, parse_cards
from rummy_widget.engine.melds import Meld
from rummy_widget.engine.rules import Rules
from rummy_widget.errors import RuleError
from rummy_widget.solver import (
    Arrangement,
    _core,
    best_arrangement,
    can_go_out,
    min_penalty,
    outs,
)
from rummy_widget.solver._core import context
from rummy_widget.solver._runs import _runs_of
from rummy_widget.solver.reference import brute_best

TRAD = Rules.preset("traditional")
ROYAL = Rules.preset("rummy_royal")
PRESETS = [TRAD, ROYAL]


def P(text: str) -> Cards:
    return parse_cards(text)


def table(*melds: str, rules: Rules = TRAD) -> list[Meld]:
    return [Meld.make(P(m), rules, owner=0) for m in melds]


def check_arrangement(arr: Arrangement, hand, rules: Rules, melds=()) -> None:
    """Every card placed once, melds legal, lay-offs playable in the order given."""
    placed = [c for m in arr.melds for c in m] + [c for c, _ in arr.lay_offs] + list(arr.leftover)
    assert sorted(placed) == sorted(hand)
    for meld in arr.melds:
        assert rules.meld_kind(list(meld)) is not None, meld
        assert list(meld) == rules.order_meld(list(meld))
    grown = list(melds)
    for card, index in arr.lay_offs:
        after = grown[index].with_card(card, rules)
        assert after is not None, f"{card} onto {grown[index]}"
        grown[index] = after
    assert arr.penalty == rules.points(arr.leftover)
    assert list(arr.leftover) == sorted(arr.leftover, key=lambda c: (c.face_index, c.id))


def score(arr: Arrangement) -> tuple[int, int, int]:
    return (arr.penalty, len(arr.leftover), len(arr.lay_offs))


# --- exactness against the brute force ----------------------------------------------------------


def _deals(rules: Rules, seed: int, count: int):
    """Random 10/11-card hands, hard hands and hands facing table melds, in equal shares."""
    rng = random.Random(seed)
    for i in range(count):
        kind = i % 3
        if kind == 0:
            yield random_hand(rng, rng.choice([10, 11])), []
        elif kind == 1:
            yield hard_hand(rng, rules), []
        else:
            yield table_deal(rng, rules)


def _agree(rules: Rules, seed: int, count: int) -> None:
    for hand, melds in _deals(rules, seed, count):
        arr = best_arrangement(hand, rules, melds)
        expected = brute_best(hand, rules, melds)
        assert score(arr) == expected, (hand, melds, arr, expected)
        assert min_penalty(hand, rules, melds) == expected[0]
        check_arrangement(arr, hand, rules, melds)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_agrees_with_brute_force(rules: Rules) -> None:
    _agree(rules, seed=1, count=900)


@pytest.mark.slow
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_agrees_with_brute_force_20000_hands(rules: Rules) -> None:
    _agree(rules, seed=20_000, count=20_000)


CUSTOM = [
    TRAD.with_changes(set_max=4),  # repeated suits but at most 4: table sets share their room
    TRAD.with_changes(set_distinct_suits=True),  # distinct suits, no size limit
    TRAD.with_changes(ace_high=True),  # ace high with the ace worth 1
    ROYAL.with_changes(min_meld=4),  # melds of four or more
    ROYAL.with_changes(set_max=3),  # full table sets take nothing
]


@pytest.mark.parametrize("rules", CUSTOM, ids=["max4", "distinct", "acehigh1", "min4", "max3"])
def test_custom_rules_agree_with_brute_force(rules: Rules) -> None:
    _agree(rules, seed=7, count=240)


# --- rule differences, one concrete hand each ---------------------------------------------------


def test_ace_high_run_only_under_royal() -> None:
    hand = P("QH KH AH")
    assert best_arrangement(hand, TRAD).penalty == 21  # ace low only: Q-K-A is no run
    arr = best_arrangement(hand, ROYAL)
    assert arr.penalty == 0
    assert [str(c) for c in arr.melds[0]] == ["Q♥", "K♥", "A♥"]


def test_never_around_the_corner() -> None:
    assert best_arrangement(P("KH AH 2H"), ROYAL).penalty == 10 + 11 + 2
    assert best_arrangement(P("KH AH 2H"), TRAD).penalty == 10 + 1 + 2


def test_two_aces_one_low_one_high_under_royal() -> None:
    arr = best_arrangement(P("AH 2H 3H QH KH AH#1"), ROYAL)
    assert arr.penalty == 0 and len(arr.melds) == 2
    assert best_arrangement(P("AH 2H 3H QH KH AH#1"), TRAD).penalty == 1 + 12 + 10 - 2


def test_a_run_may_not_hold_the_ace_at_both_ends() -> None:
    hand = P("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH#1")
    arr = best_arrangement(hand, ROYAL)
    assert arr.penalty == 0
    assert all(len(m) <= 13 for m in arr.melds) and len(arr.melds) >= 2


def test_a_whole_suit_run_lies_ace_first_as_the_table_orders_it() -> None:
    # 2 to K with the ace high is the whole suit: ``order_meld`` puts its ace low
    arr = best_arrangement(P("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"), ROYAL)
    assert [str(c) for c in arr.melds[0]] == [
        "A♥",
        *(f"{r}♥" for r in range(2, 11)),
        "J♥",
        "Q♥",
        "K♥",
    ]
    # with a set taking one copy of a face (the split rebuild), and a shorter high run
    for text in ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 5H#1 5S 5D", "JH QH KH AH 2S 2D 2H"):
        arr = best_arrangement(P(text), ROYAL)
        check_arrangement(arr, P(text), ROYAL)
        assert arr.penalty == 0


def test_ace_points() -> None:
    assert best_arrangement(P("AS 9D"), TRAD).penalty == 1 + 9
    assert best_arrangement(P("AS 9D"), ROYAL).penalty == 11 + 9


def test_repeated_suits_in_sets_only_under_traditional() -> None:
    hand = P("7S 7S#1 7H")
    assert best_arrangement(hand, TRAD).penalty == 0
    assert best_arrangement(hand, ROYAL).penalty == 21


def test_big_sets() -> None:
    hand = P("7S 7H 7D 7C 7S#1")
    arr = best_arrangement(hand, TRAD)
    assert arr.penalty == 0 and len(arr.melds) == 1 and len(arr.melds[0]) == 5
    arr = best_arrangement(hand, ROYAL)  # four suits at most: one seven stays
    assert arr.penalty == 7 and len(arr.melds[0]) == 4
    eight = P("7S 7H 7D 7C 7S#1 7H#1 7D#1 7C#1")
    assert len(best_arrangement(eight, TRAD).melds[0]) == 8
    two_sets = best_arrangement(P("7S 7H 7D 7S#1 7H#1 7C"), ROYAL)
    assert two_sets.penalty == 0 and sorted(len(m) for m in two_sets.melds) == [3, 3]


def test_long_runs_and_duplicates() -> None:
    arr = best_arrangement(P("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"), TRAD)
    assert arr.penalty == 0 and len(arr.melds) == 1 and len(arr.melds[0]) == 13
    arr = best_arrangement(P("5H 5H#1 6H 6H#1 7H 7H#1"), TRAD)
    assert arr.penalty == 0 and [len(m) for m in arr.melds] == [3, 3]
    arr = best_arrangement(P("4H 5H 5H#1 6H 6H#1 7H"), ROYAL)  # 4-5-6 and 5-6-7
    assert arr.penalty == 0


def test_sets_and_runs_compete_for_a_card() -> None:
    arr = best_arrangement(P("5S 5D 5C 5H 6H 7H"), TRAD)
    assert arr.penalty == 0  # 5♠ 5♦ 5♣ and 5♥ 6♥ 7♥
    arr = best_arrangement(P("3H 4H 5H 6H 6S 6D"), ROYAL)
    assert arr.penalty == 0  # 3-4-5♥ and 6♥ 6♠ 6♦


# --- lay-offs -----------------------------------------------------------------------------------


def test_lay_offs_chain_both_ways_in_playing_order() -> None:
    melds = table("5H 6H 7H")
    arr = best_arrangement(P("4H 3H 8H 9H 2C"), TRAD, melds)
    assert [(str(c), i) for c, i in arr.lay_offs] == [("8♥", 0), ("9♥", 0), ("4♥", 0), ("3♥", 0)]
    assert arr.penalty == 2
    check_arrangement(arr, P("4H 3H 8H 9H 2C"), TRAD, melds)


def test_lay_offs_need_a_connected_chain() -> None:
    arr = best_arrangement(P("9H 10H"), TRAD, table("5H 6H 7H"))
    assert arr.penalty == 19 and not arr.lay_offs


def test_lay_offs_onto_sets_follow_the_set_rule() -> None:
    melds = table("7S 7H 7D")
    assert best_arrangement(P("7S#1"), TRAD, melds).lay_offs == ((Card.parse("7S#1"), 0),)
    royal = table("7S 7H 7D", rules=ROYAL)
    assert best_arrangement(P("7S#1"), ROYAL, royal).penalty == 7  # suit already there
    assert best_arrangement(P("7C"), ROYAL, royal).penalty == 0
    arr = best_arrangement(P("7C 7C#1"), ROYAL, royal)  # only one club fits
    assert arr.penalty == 7 and len(arr.lay_offs) == 1
    full = table("7S 7H 7D 7C", rules=ROYAL)
    assert best_arrangement(P("7S#1"), ROYAL, full).penalty == 7


def test_two_table_sets_each_take_their_missing_suit() -> None:
    melds = table("7S 7H 7D", "7S#1 7H#1 7C", rules=ROYAL)
    arr = best_arrangement(P("7C#1 7D#1 3S"), ROYAL, melds)
    assert sorted((str(c), i) for c, i in arr.lay_offs) == [("7♣", 0), ("7♦", 1)]
    assert arr.penalty == 3


def test_ace_lay_offs() -> None:
    assert best_arrangement(P("AH"), ROYAL, table("JH QH KH", rules=ROYAL)).penalty == 0
    assert best_arrangement(P("AH"), TRAD, table("JH QH KH")).penalty == 1
    assert best_arrangement(P("2H"), ROYAL, table("QH KH AH", rules=ROYAL)).penalty == 2
    long_run = table("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", rules=ROYAL)
    arr = best_arrangement(P("AH AH#1"), ROYAL, long_run)  # low or high, not both
    assert arr.penalty == 11 and len(arr.lay_offs) == 1


def test_table_melds_are_never_rearranged() -> None:
    melds = table("7S 7H 7D 7C")
    assert best_arrangement(P("5S 6S"), TRAD, melds).penalty == 11
    run = table("3H 4H 5H 6H")
    arr = best_arrangement(P("6H#1 7H"), TRAD, run)
    assert arr.penalty == 6 and [str(c) for c, _ in arr.lay_offs] == ["7♥"]


def test_table_melds_as_plain_card_lists() -> None:
    arr = best_arrangement(P("8H 9H"), TRAD, ["5H 6H 7H", ["KS", "KH", "KD"]])
    assert arr.penalty == 0 and [i for _, i in arr.lay_offs] == [0, 0]
    with pytest.raises(RuleError) as err:
        best_arrangement(P("8H"), TRAD, ["5H 6H 8H"])
    assert err.value.code == "not_a_meld"


def test_bad_hands_are_refused() -> None:
    with pytest.raises(RuleError) as err:
        best_arrangement([Card.parse("7H"), Card.parse("7H")], TRAD)
    assert err.value.code == "duplicate_card"
    with pytest.raises(RuleError):
        min_penalty(P("5H"), TRAD, table("5H 6H 7H"))  # that 5♥ lies on the table


def test_strings_and_preset_names_are_accepted() -> None:
    assert best_arrangement(["7H", "8H", "9H", "2C"], "traditional").penalty == 2
    assert min_penalty(["7H", "8H", "9H", "2C"], "rummy_royal") == 2


# --- tie-breaks and determinism -----------------------------------------------------------------


def test_tie_break_fewer_cards_left_over() -> None:
    # penalty 4 either as 4♠ alone or as 2♥ 2♦: one card left over wins
    arr = best_arrangement(P("2S 3S 4S 2H 3H 3H#1 3D 2C"), TRAD)
    assert arr.penalty == 4 and [str(c) for c in arr.leftover] == ["4♠"]
    arr = best_arrangement(P("3S 2H 3H 2D 3D 4D 2C 3C"), ROYAL)
    assert arr.penalty == 4 and len(arr.leftover) == 1


def test_tie_break_own_meld_before_lay_offs() -> None:
    arr = best_arrangement(P("8H 9H 10H"), TRAD, table("5H 6H 7H"))
    assert arr.lay_offs == () and len(arr.melds) == 1
    arr = best_arrangement(P("7C 7C#1 7H"), TRAD, table("7S 7D 7H#1"))
    assert arr.lay_offs == () and len(arr.melds[0]) == 3


def test_tie_break_between_equal_run_splits() -> None:
    # several ways to place every card of a suit with second copies: the program's first best
    # path picks one, always the same (these were the answers before the bit-mask shortcut)
    cases = [
        (TRAD, "AH 2H 2H#1 3H 3H#1 4H 4H#1 5H", ["A♥ 2♥ 3♥ 4♥", "2♥ 3♥ 4♥ 5♥"]),
        (TRAD, "3S 4S 4S#1 5S 5S#1 6S 6S#1 7S 8S", ["3♠ 4♠ 5♠", "4♠ 5♠ 6♠", "6♠ 7♠ 8♠"]),
        (ROYAL, "JD QD QD#1 KD KD#1 AD AD#1 2D 3D", ["A♦ 2♦ 3♦", "J♦ Q♦ K♦", "Q♦ K♦ A♦"]),
        (TRAD, "5C 6C 6C#1 7C 7C#1 8C 8C#1 9C 9C#1 10C", ["5♣ 6♣ 7♣", "6♣ 7♣ 8♣ 9♣", "8♣ 9♣ 10♣"]),
    ]
    for rules, hand, melds in cases:
        for _ in range(2):  # first sight, then from the memos
            arr = best_arrangement(P(hand), rules)
            assert [" ".join(str(c) for c in m) for m in arr.melds] == melds
            assert arr.penalty == 0


@pytest.mark.parametrize(
    "rules", [*PRESETS, replace(TRAD, min_meld=4)], ids=lambda r: f"{r.name}-{r.min_meld}"
)
def test_bit_mask_suits_agree_with_the_suit_program(rules: Rules) -> None:
    # a suit facing no table meld is scored and planned from bit masks (``_plain``); the
    # whole-suit program of ``SuitRuns`` must give the same score and the same runs
    solver = context(rules).suits[0]
    assert solver.plain is not None
    rng = random.Random(11)
    for _ in range(1500):
        counts = [rng.choice((0, 0, 1, 1, 2)) for _ in range(13)]
        key = sum(n << (4 * r) for r, n in enumerate(counts))
        assert solver.plain.score(key) == solver._score(key), counts
        mine, theirs = solver.plain.plan(key), solver._plan(key)
        assert (mine.runs, mine.left, mine.to_sets) == (theirs.runs, theirs.left, {}), counts


# the rules whose tables of rank masks the tests check: both presets and three variants
TABLE_RULES = pytest.mark.parametrize(
    "rules",
    [*PRESETS, replace(TRAD, min_meld=4), replace(TRAD, ace_high=True), replace(ROYAL, min_meld=2)],
    ids=lambda r: f"{r.name}-{r.min_meld}-{r.ace_high}",
)


@TABLE_RULES
def test_single_copy_table_agrees_with_the_full_rebuild(rules: Rules) -> None:
    # every entry of the rules' table of rank masks (``PlainSuit.single``), each mask in one
    # suit with its cards split between the two copies at random: the suit part built from
    # the table equals what the full rebuild (``_core.arrangement``, from the suit's plan)
    # makes of those cards, and the score is the whole-suit program's
    ctx = context(rules)
    plain = ctx.suits[0].plain
    assert plain is not None and all(s.plain is plain for s in ctx.suits)
    rng = random.Random(5)
    for mask in range(1 << 13):
        s = mask % 4
        high = rng.getrandbits(13) & mask if mask % 3 else mask * (mask % 2)
        ranks = [r for r in range(13) if mask >> r & 1]
        cards = [Card(52 * (high >> r & 1) + 13 * s + r) for r in ranks]
        rng.shuffle(cards)
        key = sum(1 << (4 * r) for r in ranks)
        score, table_key, runs, _, _ = plain.single[mask]
        assert table_key == key
        if score is None:  # the ace question: built from the key by ``build``
            assert rules.ace_high and mask & 1 and mask >> 12 & 1
            assert key not in plain.single_scores
            continue
        assert score == ctx.suits[s]._score(key) == plain.single_scores[key], mask
        part = plain.build_held(s, mask ^ high, high)
        expected = _core.arrangement(ctx, key << (52 * s), cards)
        assert part[0] == score and part[2] == () and part[4] == key
        assert [m[2] for m in part[1]] == list(expected.melds), mask
        orders = [8 * run[0] + 2 * s + 1 for run in ctx.suits[s].plans[key].runs]
        assert [m[0] for m in part[1]] == orders, mask
        assert list(part[3]) == list(expected.leftover), mask
        assert score // (1 << 16) == expected.penalty
        assert len(runs) == len(expected.melds)
        # the same mask with some ranks outside its runs held twice (``_build_twice``)
        twice = rng.getrandbits(13) & mask & ~plain.single[mask][4]
        if twice:
            cards += [
                Card(52 * (1 - (high >> r & 1)) + 13 * s + r) for r in ranks if twice >> r & 1
            ]
            ids = sum(1 << c.id for c in cards)
            part = plain.build(s, ids)
            total = sum(1 << (4 * (c.id % 52)) for c in cards)
            expected = _core.arrangement(ctx, total, cards)
            assert [m[2] for m in part[1]] == list(expected.melds), (mask, twice)
            assert list(part[3]) == list(expected.leftover), (mask, twice)
            assert part[0] == ctx.suits[s]._score(total >> (52 * s)), (mask, twice)
            assert part[4] == total >> (52 * s)


@TABLE_RULES
def test_first_sights_agree_with_the_full_rebuild(rules: Rules) -> None:
    # a hand never seen, its suits built from the rules' table of rank masks (most hands hold
    # no meld) or by the suit's plan, gives what the full rebuild gives
    ctx = context(rules)
    rng = random.Random(23)
    seen = {"left over": 0, "melds": 0}
    for n in range(3000):
        if n % 3:  # one card per face, either copy: mostly hands holding no meld
            faces = rng.sample(range(52), rng.randint(1, 12))
            hand = [Card(f + 52 * rng.randint(0, 1)) for f in faces]
        else:  # runs, sets and both copies of a face
            hand = hard_hand(rng, rules)
        _core.clear_hand_memos(rules)
        got = best_arrangement(hand, rules)
        total = sum(1 << (4 * (c.id % 52)) for c in hand)
        want = _core.arrangement(ctx, total, hand)
        assert got == want, hand
        seen["left over" if not got.melds else "melds"] += 1
    assert min(seen.values()) > 500, seen  # both kinds of hands were asked about


@pytest.mark.parametrize("m", [2, 3, 4])
def test_stretches_without_the_program_agree_with_it(m: int) -> None:
    # a run stretch of m positions, or with one or two second copies, is scored (and, when
    # its best runs are the only ones, planned) without the program: same score, same runs,
    # tie-break included (every stretch up to 8 positions, longer ones with one or two copies)
    for rules in (replace(TRAD, min_meld=m), replace(ROYAL, min_meld=m)):
        solver = context(rules).suits[0]
        for size in range(m, solver.last + 1):
            for part in product((1, 2), repeat=size):
                if 2 in part and (size < 9 or part.count(2) <= 2):
                    for first in range(1, solver.last - size + 2):
                        expected = solver._stretch(first, part)
                        line = sum(n << (4 * (first - 1 + k)) for k, n in enumerate(part))
                        assert solver.plain.score_line(line) == expected, (first, part)
                        states = solver._stretch(first, part, want_states=True)
                        assert solver.plain.runs(line) == _runs_of(states, first, m), (first, part)


@pytest.mark.parametrize(
    "rules",
    [*PRESETS, replace(TRAD, min_meld=4), replace(ROYAL, min_meld=4), replace(TRAD, ace_high=True)],
    ids=lambda r: f"{r.name}-{r.min_meld}-{r.ace_high}",
)
def test_reach_of_all_suits_at_once_is_each_suits_reach(rules: Rules) -> None:
    # the search asks which faces may join runs for the four suits at once (bit masks); each
    # suit's own definition (``SuitRuns._reach``) must agree, table runs included
    from rummy_widget.solver._core import SUIT_MASK, encode, reach

    rng = random.Random(5)
    for i in range(600):
        hand, melds = table_deal(rng, rules) if i % 2 else (hard_hand(rng, rules), [])
        ctx = context(rules, melds)
        total, _, _ = encode(hand, ctx)
        cover = reach(ctx, total)
        for s, suit in enumerate(ctx.suits):
            key = total >> (52 * s) & SUIT_MASK
            assert cover >> (52 * s) & SUIT_MASK == suit._reach(key), (hand, melds, s)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_set_choices_kept_for_each_reach(rules: Rules) -> None:
    # a choice is dropped when another takes the same cards of the suits that reach runs and
    # more of the others; the table filled with the rules says so for every vector and reach
    sets = context(rules).rank_sets[1]
    for vec, kept in sets.kept.items():
        every = sets.options(vec)
        for reach in range(16):

            def beaten(o, reach=reach, every=every) -> bool:
                return any(
                    b.taken != o.taken
                    and all(b.taken[s] >= o.taken[s] for s in range(4))
                    and all(b.taken[s] == o.taken[s] for s in range(4) if reach >> s & 1)
                    for b in every
                )

            assert kept[reach] == tuple(o for o in every if not beaten(o)), (vec, reach)


def test_same_cards_same_answer_in_any_order() -> None:
    rng = random.Random(3)
    for _ in range(200):
        hand = hard_hand(rng, TRAD)
        shuffled = list(hand)
        rng.shuffle(shuffled)
        assert best_arrangement(hand, TRAD) == best_arrangement(shuffled, TRAD)


def test_lower_copy_goes_to_the_meld() -> None:
    arr = best_arrangement(P("7H#1 8H 9H 7H"), TRAD)
    assert Card.parse("7H") in arr.melds[0] and list(arr.leftover) == [Card.parse("7H#1")]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_a_face_split_between_a_run_and_a_set_gives_the_lower_copy_to_the_first(
    rules: Rules,
) -> None:
    # one copy of a face in a set, the other in a run: the meld listed first takes the lower
    # id (a run starting below the rank comes first; at the rank or above, the set does)
    cases = [
        ("5S 6S 7S 7S#1 7H 7D", "7♠", "7♠#1"),  # run 5-6-7 first: it takes 7♠
        ("7S 8S 9S 7S#1 7H 7D", "7♠#1", "7♠"),  # the set first: it takes 7♠
        ("10H JH QH KH AH QH#1 QD QC 2S", "Q♥", "Q♥#1"),  # a run to the high ace, first
    ]
    for hand, in_run, in_set in cases:
        for _ in range(2):  # first sight, then from the memos
            arr = best_arrangement(P(hand), rules)  # (traditional: 10-J-Q-K, the ace low)
            run = next(m for m in arr.melds if len({c.suit for c in m}) == 1)
            group = next(m for m in arr.melds if len({c.rank for c in m}) == 1)
            assert Card.parse(in_run) in run and Card.parse(in_set) in group, arr
            check_arrangement(arr, P(hand), rules)


# --- the result object --------------------------------------------------------------------------


def test_repr_is_short() -> None:
    arr = best_arrangement(P("7H 8H 9H 2C 10H"), TRAD, table("JH QH KH"))
    assert repr(arr) == "Arrangement(melds=[7♥ 8♥ 9♥ 10♥], lay_offs=[], leftover=[2♣], penalty=2)"
    arr = best_arrangement(P("10H 2C"), TRAD, table("7H 8H 9H"))
    assert repr(arr) == "Arrangement(melds=[], lay_offs=[10♥→0], leftover=[2♣], penalty=2)"


def test_repr_html_draws_the_arrangement_in_the_chosen_language() -> None:
    import rummy_widget

    arr = best_arrangement(P("7H 8H 9H 2C"), TRAD)
    assert "7 of hearts" in arr._repr_html_() and "2 of clubs" in arr._repr_html_()
    try:
        rummy_widget.set_language("fi")
        assert "herttaseiska" in arr._repr_html_()
    finally:
        rummy_widget.set_language("en")


def test_arrangement_is_frozen_and_hashable() -> None:
    arr = best_arrangement(P("7H 8H 9H 2C"), TRAD)
    with pytest.raises(AttributeError):
        arr.penalty = 0  # type: ignore[misc]
    assert hash(arr) == hash(best_arrangement(P("2C 9H 8H 7H"), TRAD))
    changed = arr._replace(penalty=0)
    assert changed.penalty == 0 and arr.penalty == 2 and changed.melds == arr.melds


@pytest.mark.parametrize("hand", ["2C 9D KS 5H", "7H 8H 9H 2C", "7H 7S 7D 7C 2C"])
def test_each_answer_has_its_own_leftover_list(hand: str) -> None:
    """The answers are memoized: changing one answer's leftover must not change the next."""
    first = best_arrangement(P(hand), TRAD)
    expected = list(first.leftover)
    first.leftover.append(Card.parse("AS"))
    first.leftover.reverse()
    again = best_arrangement(P(hand), TRAD)
    assert again.leftover == expected and type(again.leftover) is Cards
    assert again.leftover is not first.leftover


# --- going out ----------------------------------------------------------------------------------


def test_going_out_traditional_may_place_every_card() -> None:
    result = can_go_out(P("7H 8H 9H"), TRAD)
    assert result and result.discard is None and result.rummy
    assert not can_go_out(P("7H 8H 9H"), TRAD, has_melded=True).rummy
    result = can_go_out(P("7H 8H 9H KS"), TRAD)
    assert result and result.discard == Card.parse("KS")
    assert not can_go_out(P("7H 8H 9H KS 2C"), TRAD)


def test_going_out_royal_must_end_with_a_discard() -> None:
    assert not can_go_out(P("7H 8H 9H"), ROYAL)  # nothing left to discard
    result = can_go_out(P("7H 8H 9H KS"), ROYAL)
    assert result and result.discard == Card.parse("KS") and result.rummy
    assert len(result.arrangement.placed) == 3
    assert can_go_out(P("7H 8H 9H 10H"), ROYAL).discard is not None  # keep 7♥ or 10♥ back
    assert not can_go_out(P("7H 8H 9H"), TRAD, must_discard=True)


def test_going_out_keep_out_card_may_not_be_the_discard() -> None:
    assert not can_go_out(P("7H 8H 9H KS"), ROYAL, keep_out="KS")
    result = can_go_out(P("7H 8H 9H KS KS#1"), ROYAL, table("KH KD KC"), keep_out="KS")
    assert result and result.discard == Card.parse("KS#1")


def test_going_out_with_lay_offs() -> None:
    result = can_go_out(P("10H 2C"), ROYAL, table("7H 8H 9H", rules=ROYAL), has_melded=True)
    assert result and not result.rummy and result.discard == Card.parse("2C")
    assert result.arrangement.lay_offs == ((Card.parse("10H"), 0),)


# --- outs ---------------------------------------------------------------------------------------


def test_outs_name_the_cards_that_lower_the_penalty() -> None:
    hand = P("7H 8H KS QD 2C")
    found = outs(hand, TRAD)
    assert found == sorted(found, key=lambda o: (-o.drop, o.cards[0].face_index))
    by_face = {str(o.cards[0]): o for o in found}
    assert by_face["9♥"].drop == (7 + 8 + 10 + 10 + 2) - (10 + 2)  # 7-8-9 melds, K♠ goes
    assert by_face["9♥"].penalty == min_penalty(P("7H 8H 9H QD 2C"), TRAD)
    assert len(by_face["9♥"].cards) == 2  # both copies unseen
    assert by_face["9♥"].joins
    assert by_face["5♦"].drop == 10 - 5 and not by_face["5♦"].joins  # only replaces K♠
    assert "K♦" not in by_face  # as costly as the card it would replace


def test_outs_respect_the_unseen_cards_and_the_table() -> None:
    hand = P("7H 8H KS QD 2C")
    found = outs(hand, TRAD, unseen=P("9H 6S"))
    assert [str(o.cards[0]) for o in found] == ["9♥", "6♠"]
    melds = table("9H 10H JH")
    faces = {str(o.cards[0]) for o in outs(P("KS QD 2C 3C"), TRAD, melds)}
    assert {"8♥", "Q♥"} <= faces  # both extend the table run
    on_table = {c.id for c in melds[0].cards}
    assert all(c.id not in on_table for o in outs(hand, TRAD, melds) for c in o.cards)


def test_memos_stay_bounded_and_answers_unchanged() -> None:
    # the memos about hands start over when full (``_build.Memo``): answers stay the same
    rng = random.Random(3)
    hands = [random_hand(rng, 10) for _ in range(300)] + [
        [Card(f) for f in rng.sample(range(52), 10)] for _ in range(300)
    ]
    expected = [best_arrangement(h, TRAD) for h in hands]
    _core.clear_caches(TRAD)
    ctx = context(TRAD)
    ctx.hands.limit = 8
    for built in ctx.built:
        built.limit = 40
    for hand, want in zip(hands, expected, strict=True):
        assert best_arrangement(hand, TRAD) == want
        assert len(ctx.hands) <= 8
        assert all(len(built) <= 40 for built in ctx.built)
    _core.clear_caches(TRAD)


def test_held_tables_fill_once_when_threads_ask_together() -> None:
    """The classroom's seats and a tournament's threads may each make the solver's first
    call at once: every thread must see the card tables whole, and built once."""
    import threading

    from rummy_widget.solver import _build

    expected = _build.build_held()
    saved = list(_build.HELD)
    _build.HELD.clear()
    start = threading.Barrier(8)
    seen: list[object] = []

    def first_call() -> None:
        start.wait()
        tables = _build.held_tables()
        seen.append((len(tables), tables[7][-1]))

    try:
        threads = [threading.Thread(target=first_call) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(seen) == 8  # no thread failed on a half-filled table
        held = _build.HELD
        assert held == expected  # each table once, in its place
        assert all(n == 8 and last == expected[7][-1] for n, last in seen)
    finally:
        _build.HELD[:] = saved or expected


def test_the_solver_cache_lives_in_the_rules_and_stays_out_of_pickles() -> None:
    import copy
    import pickle

    rules = replace(TRAD, max_rebuilds=2)
    hand = P("7H 8H 9H 2C KS")
    answer = best_arrangement(hand, rules)
    assert "solver" in rules.memo  # one cache per Rules object, as long as it lives
    for twin in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules)):
        assert twin == rules and "memo" not in twin.__dict__
        assert best_arrangement(hand, twin) == answer
    assert rules.to_dict() == TRAD.to_dict() | {"max_rebuilds": 2}
