"""The move log in words: one wording (display/log_words.py) for the table, lessons and board.

The table's front end shows the ``text`` each event of its view carries, so these sentences
are what a learner reads in the log and hears from the screen reader.
"""

from __future__ import annotations

from rummy_widget.display.log_words import event_text
from rummy_widget.engine.cards import parse_cards
from rummy_widget.table.core import Table


def draw(player: int) -> dict:
    return {"type": "draw", "player": player, "source": "stock"}


def test_the_learners_own_moves_read_in_the_second_person_in_both_languages() -> None:
    assert event_text(draw(0), ["You", "Aino"], "en", you=0) == "You drew from the stock."
    assert event_text(draw(0), ["Sinä", "Aino"], "fi", you=0) == "Nostit nostopakasta."
    assert event_text(draw(1), ["You", "Aino"], "en", you=0) == "Aino drew from the stock."
    assert event_text(draw(1), ["Sinä", "Aino"], "fi", you=0) == "Aino nosti nostopakasta."


def test_with_no_seat_spoken_to_every_player_is_named() -> None:
    assert event_text(draw(0), ["Ann", "Bo"], "en") == "Ann drew from the stock."
    end = {"type": "end", "winner": 0, "rummy": True, "void": False}
    assert event_text(end, ["Ann", "Bo"], "en") == "Ann went Rummy!"
    assert event_text(end, ["You", "Bo"], "en", you=0) == "You went Rummy!"
    assert event_text(end, ["Sinä", "Bo"], "fi", you=0) == "Teit Rummy-ulosmenon!"


def test_cards_are_spoken_names_on_the_table_and_short_in_the_lessons() -> None:
    queen, six = (c.to_json() for c in parse_cards("QH 6C"))
    taken = {"type": "draw", "player": 1, "source": "discard", "card": queen}
    assert event_text(taken, ["You", "Aino"], "en") == (
        "Aino took queen of hearts from the discard pile."
    )
    assert event_text(taken, ["Sinä", "Aino"], "fi") == (
        "Aino otti poistopakasta herttakuningattaren."
    )
    assert event_text(taken, ["You", "Aino"], "en", short=True) == (
        "Aino took Q♥ from the discard pile."
    )
    laid = {"type": "lay_off", "player": 0, "card": six, "meld_index": 0}
    assert event_text(laid, ["You", "Aino"], "en", you=0) == "You laid off 6 of clubs on meld 0."
    melded = {"type": "meld", "player": 1, "cards": [c.to_json() for c in parse_cards("5H 6H 7H")]}
    assert event_text(melded, ["You", "Aino"], "en") == (
        "Aino melded 5 of hearts, 6 of hearts, 7 of hearts."
    )
    assert event_text(melded, ["You", "Aino"], "en", short=True) == "Aino melded 5♥ 6♥ 7♥."


def test_a_view_sends_each_event_of_its_log_and_steps_in_the_seats_words() -> None:
    table = Table(opponents=["basic"], seed=4)
    table.intent(
        {"type": "action", "rev": table.rev, "action": {"type": "draw", "source": "stock"}}
    )
    card = table.view(0)["hand"][-1]["id"]
    table.intent({"type": "action", "rev": table.rev, "action": {"type": "discard", "card": card}})
    names = table.names
    for lang in ("en", "fi"):
        view = table.view(0, lang)
        assert view["log"], "the deal has moves"
        for event in view["log"]:
            assert event["text"] == event_text(event, names, lang, you=0)
        events = [e for step in view["steps"] for e in step["events"]]
        assert events, "the bot's turn is sent to be animated"
        assert all(e["text"] == event_text(e, names, lang, you=0) for e in events)
    assert table.view(0, "en")["log"][-1]["text"].startswith(names[1])
    assert any(e["text"].startswith("You discarded") for e in table.view(0, "en")["log"])


def test_the_games_own_events_are_worded_again_for_each_language_seat_and_names() -> None:
    """Their sentences are remembered (display/log_words.py): never one said for another."""
    table = Table(opponents=["basic"], seed=4)
    table.intent(
        {"type": "action", "rev": table.rev, "action": {"type": "draw", "source": "stock"}}
    )
    event = table.game.log[-1]
    plain = dict(event)
    for _ in range(2):
        assert event_text(event, ["You", "Aino"], "en", you=0) == "You drew from the stock."
        assert event_text(event, ["You", "Aino"], "en") == "You drew from the stock."
        assert event_text(event, ["Ann", "Bo"], "en") == "Ann drew from the stock."
        assert event_text(event, ["Sinä", "Aino"], "fi", you=0) == "Nostit nostopakasta."
        assert event_text(event, ["Ann", "Bo"], "fi") == "Ann nosti nostopakasta."
        assert event_text(plain, ["Ann", "Bo"], "fi") == "Ann nosti nostopakasta."
