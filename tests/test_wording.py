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
        "A♣ is cheap and may join a meld later: take it from the discard pile."
    )
    assert bot.why(observation, take, "en").startswith("A♣ is worth only 1 point:")
    assert bot.why(observation, take, "fi").startswith("Kortista A♣ tulee vain 1 piste:")


def test_the_expert_quotes_the_stock_average_of_the_rules_in_force():
    """A card drawn blind averages 85/13 = 6.5 points with the ace worth 1, 95/13 = 7.3 with
    the ace worth 11: the detailed reason says the figure of the preset played."""
    hands = ["2S 3S 4S 7H 9D 5C", "2D 3H 9H 4C 8C 6H"]
    for rules, en, fi in (("traditional", "6.5", "6,5"), ("rummy_royal", "7.3", "7,3")):
        game = Game.from_layout(hands=hands, stock="5D 6C", discard="KC", rules=rules)
        bot = get_bot("expert", seed=1)
        observation = game.observation(0)
        move = bot.act(observation)
        assert move == Action.draw("stock")
        assert bot.explain(observation, move, "en") == (
            "K♣ is worth too many points to take without a meld, so I drew from the stock."
        )
        assert f"worth {en} points on average" in bot.why(observation, move, "en")
        assert f"keskimäärin {fi} pistettä" in bot.why(observation, move, "fi")


def test_short_reasons_hold_at_most_one_number_and_the_detail_keeps_them():
    """Hints for a 12-year-old: the reason first, at most one number; the numbers move to
    ``why``. Played out over seeded deals of both presets with every built-in bot."""
    import re

    from rummy_widget.bots import BOT_NAMES

    number = re.compile(r"(?<![♠♥♦♣\w])\d+(?:[.,]\d+)?(?![♠♥♦♣\w])")
    for rules in ("traditional", "rummy_royal"):
        for name in BOT_NAMES:
            if name == "master":
                continue  # its reasons are the expert's or the progress ones, tested in test_bots
            game = Game(2, rules, seed=7)
            bot = get_bot(name, seed=2)
            for _ in range(120):
                if game.phase == "over":
                    break
                seat = game.current_player
                observation = game.observation(seat)
                move = bot.act(observation)
                for lang in ("en", "fi"):
                    for short in (
                        bot.explain(observation, move, lang),
                        bot.advise(observation, move, lang),
                    ):
                        bare = re.sub(r"\d+[♠♥♦♣]|[AJQK][♠♥♦♣]", "", short)
                        assert len(number.findall(bare)) <= 1, short
                    assert bot.why(observation, move, lang)
                game.apply(move, seat)
