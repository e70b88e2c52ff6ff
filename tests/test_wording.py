"""Explanations and hints agree with their numbers: "1 point", "the only legal move"."""

from rummy_widget import Action, Game
from rummy_widget.bots import get_bot


def test_the_random_bot_with_one_legal_move_says_so():
    game = Game.from_layout(hands=["KS QD 4C", "2H 3H 9C"], stock="5C 6C", discard="")
    bot = get_bot("random", seed=1)
    observation = game.observation(0)
    move = bot.act(observation)
    assert move == Action.draw("stock")
    assert bot.explain(observation, move, "en") == "I made the only legal move."
    assert bot.advise(observation, move, "fi") == "Ainoa sallittu siirto."
    two = Game.from_layout(hands=["KS QD 4C", "2H 3H 9C"], stock="5C 6C", discard="8D")
    seen = two.observation(0)
    assert "from the 2 legal moves" in bot.explain(seen, bot.act(seen), "en")


def test_a_card_worth_one_point_is_one_point():
    # Traditional: the ace is worth 1. Basic takes a low card that joins nothing yet.
    game = Game.from_layout(hands=["KS QD 9C 2H", "2D 3H 9H 4S"], stock="5C 6C", discard="AC")
    bot = get_bot("basic", seed=1)
    observation = game.observation(0)
    take = Action.draw("discard")
    assert bot.advise(observation, take, "en") == (
        "Take A♣ from the discard pile: it is worth only 1 point and may become part of a meld."
    )
    assert "1 pisteen arvoinen" in bot.advise(observation, take, "fi")
