"""Errors a learner meets outside the moves themselves speak the chosen language too."""

import pytest

from rummy_widget import Card, Game, RuleError, set_language
from rummy_widget.bots import get_bot
from rummy_widget.display import card_html


@pytest.fixture
def finnish():
    set_language("fi")
    yield
    set_language("en")


def test_asking_a_bot_to_move_for_a_seat_not_to_play(finnish):
    game = Game(seed=3)
    observation = game.observation(1)  # seat 0 is to play
    with pytest.raises(RuleError) as err:
        get_bot("basic").act(observation)
    assert err.value.code == "not_to_play"
    assert str(err.value).startswith("Tämä havainto on paikan 1")
    assert "seat 1's" in err.value.localized("en")
    # The phase in words, in the message's language: no code such as "draw".
    assert str(err.value).endswith("(vuorossa oleva pelaaja nostaa korttia).")
    assert "drawing a card" in err.value.localized("en")
    assert game.observation(1) == observation  # nothing changed


def test_an_unknown_card_size_lists_the_sizes(finnish):
    with pytest.raises(RuleError) as err:
        card_html(Card.parse("7H"), size="huge")
    assert "'huge'" in str(err.value) and "large" in str(err.value)
    assert str(err.value).startswith("Korttikokoa")
