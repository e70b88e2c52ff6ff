"""The coach on learners' blunders: the labelled positions of ``rummy_widget/review/examples.py``
are named by the cheap look, flagged by the review with the better move and a reason about the
cards (en and fi), right moves are left alone, hidden cards change nothing, and Hint's own move
is never called a mistake on a few worlds' say-so. Recall and false alarms over the whole set
at the default budget: ``benchmarks/review.py --examples`` (docs/review.md)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rummy_widget import Action, Game
from rummy_widget.bots import get_bot
from rummy_widget.bots.seen import Seen
from rummy_widget.review import Review, review
from rummy_widget.review.core import CONFIRM, judge, positions
from rummy_widget.review.evaluate import Measured, same_choice
from rummy_widget.review.examples import BLUNDERS, RIGHT, Example
from rummy_widget.review.patterns import spot
from rummy_widget.review.result import GRADES, grade_of

#: A smaller budget than the default for the reviews run here (the benchmark runs the default).
SMALL = {"samples": 6, "confirm": 16}


def judged(example: Example) -> tuple[Game, dict, Action]:
    """The example's game, the seat's observation before the judged move, and the move."""
    game = example.game()
    observation, played = next((o, a) for i, o, a in positions(game, 0) if i == example.move)
    return game, observation, played


def test_the_labelled_set_covers_both_presets_two_to_four_players_and_every_kind():
    assert len(BLUNDERS) >= 60 and len(RIGHT) >= 20
    for examples in (BLUNDERS, RIGHT):
        assert {e.rules for e in examples} == {"traditional", "rummy_royal"}
        assert {e.players for e in examples} == {2, 3, 4}
    kinds = {e.kind for e in BLUNDERS}
    assert kinds == {
        "broke_meld",
        "extended_meld",
        "high_card",
        "missed_rummy",
        "missed_out",
        "take_to_go_out",
        "took_nothing",
        "missed_lay_off",
        "fed_next",
    }
    assert len({e.name for e in (*BLUNDERS, *RIGHT)}) == len(BLUNDERS) + len(RIGHT)
    for example in (*BLUNDERS, *RIGHT):
        game = example.game()
        assert game.history[-1][0] == 0 and len(game.history) == len(example.moves)


@pytest.mark.parametrize("example", BLUNDERS, ids=lambda e: e.name)
def test_the_cheap_look_names_each_blunder_and_its_better_move(example):
    game, observation, played = judged(example)
    found = spot(Seen.read(observation), played)
    assert found is not None and found.kind == example.kind
    assert any(same_choice(found.better, b) for b in example.better_actions(game))
    assert found.gap > 0


@pytest.mark.parametrize("example", RIGHT, ids=lambda e: e.name)
def test_the_cheap_look_names_nothing_in_a_right_move(example):
    _, observation, played = judged(example)
    assert spot(Seen.read(observation), played) is None


def one_of_each_kind() -> list[Example]:
    found: dict[str, Example] = {}
    for example in BLUNDERS:
        found.setdefault(example.kind, example)
    return list(found.values())


@pytest.mark.parametrize("example", one_of_each_kind(), ids=lambda e: e.kind)
def test_the_review_flags_a_blunder_with_its_better_move_and_a_reason_about_the_cards(example):
    game = example.game()
    result = review(game, 0, seed=1, **SMALL)
    (decision,) = [d for d in result.decisions if d.move == example.move]
    assert decision.verdict == "mistake" and decision.grade in GRADES[:3]
    assert decision.finding.kind == example.kind
    assert any(same_choice(decision.better, b) for b in example.better_actions(game))
    assert decision in result.mistakes
    played = decision.played
    if played.kind == "discard":
        assert str(played.card) in decision.reason("en")
    named = [*decision.finding.cards.values()]
    for card in named:
        assert str(card) in decision.reason("en")
    fi = decision.reason("fi")
    assert fi != decision.reason("en") and "poistaa" not in fi and "poistit" not in fi
    assert decision.to_json("fi")["kind"] == example.kind


@pytest.mark.parametrize("example", RIGHT[::4], ids=lambda e: e.name)
def test_the_review_leaves_a_right_move_alone(example):
    result = review(example.game(), 0, seed=1, **SMALL)
    (decision,) = [d for d in result.decisions if d.move == example.move]
    assert decision.verdict != "mistake" and decision.grade in ("good", "best")


def test_a_broken_run_is_explained_in_plain_words_in_both_languages():
    example = next(e for e in BLUNDERS if e.name == "run 2-4C thrown")
    result = review(example.game(), 0, seed=1, **SMALL)
    (decision,) = result.mistakes
    assert decision.reason("en") == (
        "You broke your run 2♣ 3♣ 4♣ by throwing 4♣ away; throwing K♠ away keeps it."
    )
    assert decision.reason("fi") == (
        "Rikoit suorasi 2♣ 3♣ 4♣, kun heitit pois ristinelosen. Jos olisit heittänyt pois "
        "patakuninkaan, suora olisi säilynyt."
    )
    assert decision.grade == "blunder" and decision.points == 15
    assert result.headline("en") == "1 blunder; the biggest: move 2, discarding 4♣."
    assert result.headline("fi") == "1 möhläys; suurin: siirto 2, kortin 4♣ heittäminen pois."
    assert "15,0" in decision.details("fi") and "15.0" in decision.details("en")


def test_hidden_cards_change_nothing_in_a_blunders_review():
    # The same seen cards (seat 0's hand, the pile, the card it draws); everything else is
    # dealt from another shuffle.
    example = next(e for e in BLUNDERS if e.name == "set of 5s broken")
    one = replace(example, discard="QH").game()
    two = replace(example, name="set of 5s broken, other hidden cards", discard="QH").game()
    assert one.hand(1) != two.hand(1) and one.stock != two.stock
    first, second = review(one, 0, seed=2, **SMALL), review(two, 0, seed=2, **SMALL)
    assert first.mistakes and first.to_json() == second.to_json()
    assert first._repr_html_() == second._repr_html_()


def test_grades_follow_the_points_and_the_headline_counts_them():
    assert [grade_of(p) for p in (12, 10, 9.9, 4, 3.9, 1)] == [
        "blunder",
        "blunder",
        "mistake",
        "mistake",
        "inaccuracy",
        "inaccuracy",
    ]
    played, other = Action.draw("stock"), Action.draw("discard")
    observation = judged(BLUNDERS[0])[1]

    def flagged(move: int, gain: float) -> object:
        measured = [
            Measured(played, (0.0,) * 4, 0.0, 0.0),
            Measured(other, (gain,) * 4, gain, 0.0),
        ]
        return judge(move, observation, played, measured, played, 2.5, 1.0, 0)

    decisions = (flagged(0, 12.0), flagged(2, 5.0), flagged(4, 6.0), flagged(6, 2.0))
    result = Review(0, decisions, ("Ann", "Bo"), "en", 4, 0)
    assert [d.grade for d in result.mistakes] == ["blunder", "mistake", "mistake", "inaccuracy"]
    assert result.headline() == (
        "1 blunder, 2 mistakes, 1 inaccuracy; the biggest: move 1, drawing from the stock."
    )
    assert result.headline("fi").startswith("1 möhläys, 2 virhettä, 1 epätarkkuus; suurin: ")
    one = Review(0, decisions[1:2], ("Ann", "Bo"), "en", 4, 0)
    assert one.headline() == "1 mistake; the biggest: move 3, drawing from the stock."
    clean = Review(0, (), ("Ann", "Bo"), "en", 4, 0)
    assert clean.headline() == "No mistakes found." and clean.to_json()["headline"] == (
        "No mistakes found."
    )
    assert result.to_json()["counts"] == {
        "blunder": 1,
        "mistake": 2,
        "inaccuracy": 1,
        "good": 0,
        "best": 0,
    }


def test_hints_move_is_a_mistake_only_on_a_second_looks_full_test():
    example = next(e for e in BLUNDERS if e.name == "king kept over a three")
    _, observation, played = judged(example)
    finding = spot(Seen.read(observation), played)
    better = finding.better

    def decision(gains: tuple[float, ...], again: bool, expert: Action) -> object:
        mine = Measured(played, (0.0,) * len(gains), 0.0, 0.0)
        other = Measured(better, gains, sum(gains) / len(gains), 1.0)
        second = [mine, other] if again else None
        return judge(
            1, observation, played, [mine, other], expert, 2.5, 1.0, 0, second, False, finding
        )

    noisy = (6.0, -2.0, 5.0, -1.0)  # a lead within the noise
    clear = (9.0, 8.0, 10.0, 9.0) * 8
    # Not the expert's move: the cheap look names it, and the playouts do not speak against it.
    assert decision(noisy, False, better).verdict == "mistake"
    # The expert's (Hint's) own move: never on the first look, and only on a clear second one.
    assert decision(noisy, False, played).verdict != "mistake"
    assert decision(noisy, True, played).verdict != "mistake"
    hinted = decision(clear, True, played)
    assert hinted.verdict == "mistake" and hinted.checked == len(clear)
    assert "K♣" in hinted.reason("en") and "3♠" in hinted.reason("en")
    # Playouts clearly against the cheap look: it is dropped.
    against = tuple(-g for g in clear)
    assert decision(against, True, better).verdict != "mistake"


def hint_game(seed: int) -> Game:
    """A deal where seat 0 plays Hint's move every time (the table's expert, a fresh one per
    hint) against an expert."""
    game = Game(2, seed=seed)
    other = get_bot("expert", seed=seed + 1)
    while game.phase != "over":
        player = game.current_player
        bot = get_bot("expert", seed=seed) if player == 0 else other
        game.apply(bot.act(game.observation(player)), player)
    return game


def test_a_deal_played_by_following_hint_gets_no_mistake_without_cards_and_worlds():
    game = hint_game(11)
    result = review(game, 0, seed=random.Random(11).randrange(100))
    assert len(result.decisions) > 5
    for decision in result.mistakes:
        assert decision.finding is not None and decision.checked >= CONFIRM
        assert decision.reason("en") != decision.reason("fi")
