"""Game review: a planted blunder is flagged, a tie is not, hidden cards change nothing, the
same seed gives the same review; take-backs keep to their limits and survive a save."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rummy_widget
from rummy_widget import Action, Game, RuleError
from rummy_widget.bots import get_bot
from rummy_widget.bots.memory import Memory
from rummy_widget.bots.seen import Seen
from rummy_widget.bots.tournament import play_game
from rummy_widget.review import Review, core, evaluate, review, take_back_default
from rummy_widget.review.budget import MIN_WORLDS
from rummy_widget.review.core import SAMPLES, judge
from rummy_widget.review.evaluate import Measured
from rummy_widget.review.sampling import sample_world, world_game

FAST = {"samples": 8, "alternatives": 2}


def blunder_game(opponent: str = "2D 3S 8H 4S 8C JC", stock: str = "KD 4D 10S QS JS") -> Game:
    """Seat 0 draws K♦ and could go Rummy (meld both, throw K♦ away); it throws 5♥ instead."""
    game = Game.from_layout(hands=["5H 6H 7H 9S 9D 9C", opponent], stock=stock, discard="2C")
    game.draw("stock")
    game.discard("5H")
    return game


def test_a_planted_blunder_is_flagged_with_a_better_move():
    result = review(blunder_game(), 0, **FAST)
    (mistake,) = result.mistakes
    assert mistake.move == 1 and mistake.played.kind == "discard"
    assert mistake.played.card.face == (5, "H")
    assert mistake.better is not None and mistake.better != mistake.played
    assert mistake.cost > 2 * mistake.error and mistake.cost > 10
    assert "5♥" in mistake.reason("en") and "5♥" in mistake.reason("fi")
    assert result.decisions[0].verdict != "mistake"  # the stock draw was fine


def test_a_tie_is_not_flagged():
    # Two ways to go out at once (meld the run of four, or the run of three and lay off):
    # every world gives both the same result.
    game = Game.from_layout(
        hands=["5H 6H 7H 8H", "2D 3S 8C 4S 9C JC"], stock="QS 4D 10S", discard="2C"
    )
    game.draw("stock")
    game.meld("5H 6H 7H")
    result = review(game, 0, **FAST)
    melded = next(d for d in result.decisions if d.move == 1)
    assert melded.verdict == "best" and melded.cost == 0.0
    ties = [o for o in melded.options[1:] if o.action.kind == "meld"]
    assert ties and all(o.gain == 0.0 and o.error == 0.0 for o in ties)
    assert result.mistakes == []


def test_about_equal_when_the_difference_is_within_the_noise():
    played, other = Action.draw("stock"), Action.draw("discard")
    measured = [Measured(played, (0.0, 0.0), 0.0, 0.0), Measured(other, (3.0, -1.0), 1.0, 2.0)]
    decision = judge(0, {"seat": 0}, played, measured, played, 2.0, 1.0, 0)
    assert decision.verdict == "about_equal" and decision.better == other
    assert "About equal" in decision.reason("en")
    clear = [Measured(played, (0.0, 0.0), 0.0, 0.0), Measured(other, (9.0, 11.0), 10.0, 1.0)]
    assert judge(0, {"seat": 0}, played, clear, played, 2.0, 1.0, 0).verdict == "mistake"


def test_hidden_cards_change_nothing():
    # Same seen cards (seat 0's hand, the pile, the stock's top card it draws); the
    # opponent's hand and the rest of the stock differ.
    one = blunder_game("2D 3S 8H 4S 8C JC", "KD 4D 10S QS JS")
    two = blunder_game("QS JS 4D 10S 3D AC", "KD 2D 3S 8H 4S")
    assert one.hand(1) != two.hand(1)
    first, second = review(one, 0, **FAST), review(two, 0, **FAST)
    assert first.to_json() == second.to_json()
    assert [d.options for d in first.decisions] == [d.options for d in second.decisions]
    assert first._repr_html_() == second._repr_html_()


def test_the_same_seed_gives_the_same_review_and_leaves_the_game_alone():
    game = blunder_game()
    saved = game.to_dict()
    first = review(game, 0, seed=3, **FAST)
    assert review(game, 0, seed=3, **FAST).to_json() == first.to_json()
    assert game.to_dict() == saved


def test_the_review_is_public_shows_itself_and_speaks_both_languages():
    result = rummy_widget.review(blunder_game(), 0, lang="fi", **FAST)
    assert isinstance(result, Review)
    assert repr(result) == (
        "Review(seat 0: 1 blunder; the biggest: move 2, discarding 5♥. "
        "2 decisions looked at, 0 good finds.)"
    )
    html = result._repr_html_()
    assert "<svg" in html and 'lang="fi"' in html and "möhläys" in html
    assert re.search(r">\d+,\d ± \d+,\d<", html) and not re.search(r">\d+\.\d ± ", html)
    assert result.text("en").startswith("1 blunder; the biggest: move 2, discarding 5♥.\n")
    assert result.text().startswith("1 möhläys; suurin: siirto 2, kortin 5♥ heittäminen pois.")
    assert "Tarkasteltu 2 päätöstä" in result.text()


def test_a_bad_budget_is_refused():
    with pytest.raises(RuleError) as err:
        review(blunder_game(), 0, samples=0)
    assert err.value.code == "bad_review_budget"


# --- take-backs ----------------------------------------------------------------------------


def laid_game() -> Game:
    game = Game.from_layout(
        hands=["5H 6H 7H 2C KD 9S", "2D 3S 9H 4S 8C 4C"], stock="5C 6C 9D", discard="8H"
    )
    game.draw("discard")
    game.meld("5H 6H 7H")
    game.lay_off("8H", 0)
    return game


def test_take_backs_go_back_to_the_draw_one_move_at_a_time():
    game = laid_game()
    before_draw = Game.from_dict(game.to_dict(), upto=0).to_dict()
    assert game.take_back().kind == "lay_off"
    assert game.take_back().kind == "meld"
    assert game.take_back() == Action.draw("discard")
    assert game.phase == "draw" and str(game.discard_pile[0]) == "8♥"
    assert [b.action.kind for b in game.take_backs] == ["lay_off", "meld", "draw"]
    assert {k: v for k, v in game.to_dict().items() if k != "take_backs"} == {
        k: v for k, v in before_draw.items() if k != "take_backs"
    }
    with pytest.raises(RuleError) as err:
        game.take_back()
    assert err.value.code == "nothing_to_take_back"


def test_a_stock_draw_a_discard_and_a_finished_deal_cannot_be_taken_back():
    game = Game.from_layout(hands=["5H 6H 7H 2C", "2D 3S 8H 4S"], stock="5C 6C 9D", discard="9H")
    game.draw("stock")
    saved = game.to_dict()
    with pytest.raises(RuleError) as err:
        game.take_back()
    assert err.value.code == "stock_draw_kept" and "stock" in str(err.value)
    assert game.to_dict() == saved  # a refused take-back changes nothing
    game.discard("2C")
    assert game.take_back_problem() == "nothing_to_take_back"  # the next player's turn
    assert game.take_back_problem(player=0) == "not_your_turn"
    game.draw("stock", player=1)
    game.discard("8H", player=1)
    game.draw("discard")
    game.meld("5H 6H 7H 8H")
    game.discard("5C")
    assert game.phase == "over"
    assert game.take_back_problem() == "deal_over"


def test_take_backs_survive_a_save_and_old_saves_load():
    game = laid_game()
    game.take_back()
    game.take_back()
    game.meld("5H 6H 7H 8H")
    data = game.to_dict()
    back = Game.from_dict(data)
    assert back.take_backs == game.take_backs and back.to_dict() == data
    lay_off, meld = game.take_backs
    assert (lay_off.move, meld.move) == (2, 1)
    assert Game.from_dict(data, upto=1).take_backs == [meld]  # those at the first move kept
    assert Game.from_dict(data, upto=0).take_backs == []
    old = {k: v for k, v in data.items() if k != "take_backs"}
    assert Game.from_dict(old).take_backs == []
    for damaged in ([{"move": 9, "player": 0, "action": {"type": "draw"}}], [{"move": 1}]):
        with pytest.raises(RuleError) as err:
            Game.from_dict({**data, "take_backs": damaged})
        assert err.value.code == "bad_save"


def test_the_review_counts_take_backs_at_their_decision():
    game = laid_game()
    game.take_back()
    game.take_back()
    game.discard("KD")
    result = review(game, 0, **FAST)
    counts = {d.move: d.take_backs for d in result.decisions}
    assert counts.get(1) == 2


def test_progress_shows_a_bar_or_calls_back_and_changes_nothing(capsys):
    calls = []
    quiet = review(blunder_game(), 0, **FAST)
    called = review(
        blunder_game(), 0, progress=lambda done, total: calls.append((done, total)), **FAST
    )
    assert called.to_json() == quiet.to_json()
    assert calls == [(1, 2), (2, 2), (3, 3)]  # two moves, then the blunder's second look
    assert review(blunder_game(), 0, progress=True, **FAST).to_json() == quiet.to_json()
    assert "Reviewing" in capsys.readouterr().err


def test_tables_offer_take_backs_only_to_one_person_among_bots():
    assert take_back_default(people=1, bots=1) and take_back_default(people=1, bots=3)
    assert not take_back_default(people=2, bots=0)  # hot seat
    assert not take_back_default(people=2, bots=1)
    assert not take_back_default(people=0, bots=2)  # bots alone: a tournament


def _without_take_backs(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "take_backs"}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 50), min_size=1, max_size=60))
def test_a_take_back_is_refused_unchanged_or_returns_to_the_move_before(seed, choices):
    game = Game(2, seed=seed)
    for choice in choices:
        if game.phase == "over":
            break
        before = game.to_dict()
        if choice % 4 == 0:  # try a take-back every so often
            problem = game.take_back_problem()
            try:
                game.take_back()
            except RuleError as err:
                assert err.code == problem and game.to_dict() == before
            else:
                assert problem is None
                earlier = Game.from_dict(before, upto=len(before["history"]) - 1)
                assert _without_take_backs(game.to_dict()) == _without_take_backs(earlier.to_dict())
            continue
        moves = game.legal_actions()
        game.apply(moves[choice % len(moves)])
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_worlds_keep_what_was_seen_and_guess_the_rest():
    game = Game(2, seed=4)
    game.draw("stock")
    game.discard(game.hand(0)[0])
    game.draw("discard", player=1)  # seat 1 now holds a card seat 0 saw
    taken = game.taken_from_discard
    game.discard(game.hand(1)[0] if game.hand(1)[0] != taken else game.hand(1)[1])
    observation = game.observation(0)
    seen = Seen.read(observation)
    memory = Memory.read(seen)
    visible = {c.id for c in seen.hand} | {c.id for c in seen.discard_pile}
    rng = random.Random(0)
    worlds = [sample_world(seen, memory, rng) for _ in range(20)]
    for world in worlds:
        assert taken in world.hands[1] and len(world.hands[1]) == len(game.hand(1))
        assert world.hands[0] == tuple(seen.hand) and len(world.stock) == len(game.stock)
        assert not visible & {c.id for c in world.hands[1] + world.stock}
        assert world_game(observation, seen, world).observation(0)["hand"] == observation["hand"]
    assert all(sorted(w.hands[1]) != sorted(game.hand(1)) for w in worlds)  # never the truth


# --- the budget ----------------------------------------------------------------------------


def played_deal(seed: int) -> Game:
    """A seeded deal of a basic bot (seat 0) against an expert, as the benchmark plays them."""
    bots = [get_bot("basic", seed=seed), get_bot("expert", seed=seed + 1)]
    return play_game(Game(2, seed=seed), bots)


def counted(monkeypatch) -> list[int]:
    """Count the playouts the review really runs (not what it says it ran)."""
    runs: list[int] = []
    real = evaluate.playout

    def playout(*args):
        runs.append(1)
        return real(*args)

    monkeypatch.setattr(evaluate, "playout", playout)
    return runs


def test_the_budget_bounds_the_playouts_whatever_the_deal_length(monkeypatch):
    runs = counted(monkeypatch)
    budget = {"budget": 400, "alternatives": 1, "confirm": 8}
    short, long = played_deal(19), played_deal(8)  # 17 and 74 moves
    assert len(long.history) > 3 * len(short.history)
    brief = review(short, 0, **budget)
    assert brief.playouts == len(runs) <= 400 and brief.samples == SAMPLES  # not binding
    runs.clear()
    full = review(long, 0, **budget)
    assert full.playouts == len(runs) <= 400
    assert MIN_WORLDS <= full.samples < SAMPLES  # fewer worlds per decision, not more work
    assert all(d.samples == full.samples for d in full.decisions)
    assert review(long, 0, **budget).to_json() == full.to_json()  # still deterministic


def contested_lead(decision) -> float:
    """The first look's lead, in standard errors, of the option a second look would measure."""
    best = max(decision.options, key=lambda o: o.gain)
    if best.gain <= 0:
        best = next(o for o in decision.options[1:] if o.action == decision.expert)
    return abs(best.gain) / best.error if best.error else float("inf")


def test_second_looks_go_to_blunders_then_the_largest_leads_and_the_rest_are_never_flagged():
    small = {"samples": MIN_WORLDS, "alternatives": 1, "confirm": 35}
    first = review(played_deal(8), 0, budget=10_000, **small)
    leads = [d for d in first.decisions if d.checked]
    assert not any(d.unchecked for d in first.decisions)
    looks = first.playouts - sum(2 * d.checked for d in leads)  # what the first looks took
    # The same first looks (their share of the budget is two thirds), and room for fewer
    # second looks than there are leads.
    budget = looks + (looks + 1) // 2
    short = review(played_deal(8), 0, budget=budget, **small)
    assert [d.options for d in short.decisions] == [d.options for d in first.decisions]
    checked = [d for d in short.decisions if d.checked]
    unchecked = [d for d in short.decisions if d.unchecked]
    room = len(checked)
    assert 1 <= room < len(leads) and len(unchecked) == len(leads) - room
    assert short.playouts == looks + sum(2 * d.checked for d in checked) <= budget
    # A learner's blunder spotted by the cheap look comes first, then the largest leads.
    blunders = [d for d in leads if d.finding is not None]
    if len(blunders) <= room:
        assert {d.move for d in blunders} <= {d.move for d in checked}
    else:
        assert all(d.finding is not None for d in checked)
    plain = [d for d in checked if d.finding is None]
    if plain:
        assert all(d.finding is None for d in unchecked)
        assert min(map(contested_lead, plain)) >= max(map(contested_lead, unchecked))
    assert all(d.verdict in ("about_equal", "best") for d in unchecked)
    assert "budget" in unchecked[0].details("en") and "budjetti" in unchecked[0].details("fi")


def test_a_larger_budget_never_flips_the_planted_blunder():
    verdicts = []
    for budget in (110, 400, 4_000):  # from room for one second look upwards
        (mistake,) = review(blunder_game(), 0, budget=budget, **FAST).mistakes
        verdicts.append((mistake.move, mistake.better.kind, mistake.finding.kind))
    # A missed Rummy is a sure blunder: it stands with or without room for a second look.
    assert verdicts == [(1, "meld", "missed_rummy")] * 3


def test_a_budget_too_small_for_a_second_look_flags_nothing_from_the_first_alone(monkeypatch):
    sure = review(blunder_game(), 0, budget=1, **FAST)
    # The cheap look names the missed Rummy (going out now wins in every world): it stands.
    assert [(d.move, d.finding.kind, d.checked) for d in sure.mistakes] == [(1, "missed_rummy", 0)]
    # Without the cheap look, the playouts' first look alone flags nothing.
    monkeypatch.setattr(core, "spot", lambda *args: None)
    runs = counted(monkeypatch)
    result = review(blunder_game(), 0, budget=1, **FAST)
    # Two decisions (two options for the draw, three for the discard) at the floor of worlds.
    assert result.samples == MIN_WORLDS and result.playouts == len(runs) == 5 * MIN_WORLDS
    (blunder,) = [d for d in result.decisions if d.move == 1]
    assert blunder.verdict == "about_equal" and blunder.unchecked and not result.mistakes
    with pytest.raises(RuleError) as err:
        review(blunder_game(), 0, budget=0)
    assert err.value.code == "bad_review_playouts"
