"""Observations share read-only pieces (log events, cards, melds) instead of copying them."""

import copy
import json
import pickle

import pytest

from rummy_widget import Game, set_language
from rummy_widget.engine.frozen import Frozen


def played(moves: int = 12) -> Game:
    game = Game(seed=4)
    for _ in range(moves):
        game.apply(game.legal_actions()[-1])
    return game


def every_shared_piece(obs: dict) -> list[dict]:
    pieces = list(obs["log"]) + obs["hand"] + obs["discard_pile"] + obs["melds"]
    pieces += [card for m in obs["melds"] for card in m["cards"]]
    return pieces + [e["card"] for e in obs["log"] if "card" in e]


def test_a_reader_cannot_change_the_game_through_an_observation():
    game = Game.from_layout(
        hands=["7H 8H 9H 2C", "KS QD"], stock="5C 6C", discard="9D", melds=[("JS QS KS", 1)]
    )
    game.draw("discard")
    game.meld("7H 8H 9H")
    obs = game.observation(1)
    before = json.dumps(game.to_dict()), json.dumps(game.observation(0))
    pieces = every_shared_piece(obs)
    assert len(pieces) > 8
    for piece in pieces:
        for change in (
            lambda p: p.__setitem__("id", 0),
            lambda p: p.update(player=1),
            lambda p: p.pop("type", None),
            lambda p: p.clear(),
            lambda p: p.setdefault("extra", 1),
        ):
            with pytest.raises(TypeError):
                change(piece)
    obs["log"].append({"type": "fake"})
    obs["discard_pile"].clear()
    assert (json.dumps(game.to_dict()), json.dumps(game.observation(0))) == before


def test_the_read_only_error_is_localized():
    game = played()
    event = game.observation(0)["log"][0]
    try:
        set_language("fi")
        with pytest.raises(TypeError, match="kopioi"):
            event["dealer"] = 3
    finally:
        set_language("en")
    with pytest.raises(TypeError, match="copy it"):
        event["dealer"] = 3


def test_shared_pieces_behave_like_plain_json():
    game = played()
    obs = game.observation(1)
    plain = json.loads(json.dumps(obs))
    assert json.loads(json.dumps(plain)) == plain
    event = obs["log"][-1]
    mine = event.copy()
    mine["note"] = "mine"  # a copy is an ordinary dict
    assert type(mine) is dict and "note" not in event
    for twin in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert twin == event and type(twin) is Frozen


def test_observations_are_unchanged_in_content():
    """The same moves give the same JSON observation as a plain rebuild from the save."""
    game = played(30)
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    for seat in range(game.players):
        assert json.dumps(game.observation(seat)) == json.dumps(again.observation(seat))
