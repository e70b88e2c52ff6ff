"""The classroom attacked as a curious learner, a learner with the browser's developer tools,
and another class on the same Wi-Fi would: each attack runs against a real server process
and must fail (docs/classroom.md, "Threat model")."""

from __future__ import annotations

from rummy_widget.classroom import Classroom, connect
from rummy_widget.classroom.rooms import deal_seed
from rummy_widget.engine.game import Game

from .players import play


def hand_codes(view: dict) -> list[str]:
    return sorted(card["code"] for card in view["hand"])


def dealt(server, room: str, names=("Ann", "Bo")) -> list[dict]:
    """Two learners at a room's first table, dealt: each one's first view."""
    seats = [connect(server.url, room, name) for name in names]
    views = [seat.wait(lambda s: s["view"] is not None)["view"] for seat in seats]
    for seat in seats:
        seat.close()
    return views


# --- 1. every hand could be predicted ---------------------------------------------------------


def test_a_learner_cannot_compute_the_deals_of_a_room_with_a_secret_seed(server_factory):
    server = server_factory()
    Classroom(server.url, server.key).create_room("SALA", players=2, deals=1)
    ann, _ = dealt(server, "SALA")
    mine = hand_codes(ann)
    # The attack: the package and a guessed seed. Seed 0 was every room's; a teacher's was
    # below 2**31 and each deal was ``random.Random(k)`` of a small number.
    guesses = [*range(2048), *(deal_seed(k, 0) for k in range(2048))]
    for guess in guesses:
        game = Game(["Ann", "Bo"], seed=guess)
        assert hand_codes(game.observation(0)) != mine


def test_a_teachers_seed_repeats_the_deals_and_the_finished_room_shows_its_seed(
    server_factory,
):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("TUNTI", players=2, deals=1, seed=7)
    teacher.create_room("TOINEN", players=2, deals=1, seed=7)
    first, second = dealt(server, "TUNTI"), dealt(server, "TOINEN")
    assert [hand_codes(v) for v in first] == [hand_codes(v) for v in second]
    lesson = Game(["Ann", "Bo"], seed=deal_seed(7, 0))  # predictable, as the docs say
    assert hand_codes(first[0]) == hand_codes(lesson.observation(0))
    rooms = {room["room"]: room for room in teacher.rooms()}
    assert rooms["TUNTI"]["config"]["seed"] is None  # not while a table still plays


def test_a_finished_room_shows_its_secret_seed_in_the_teachers_records(server_factory):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("LOPPU", players=2, deals=1)
    ann = connect(server.url, "LOPPU", "Ann")
    assert teacher.rooms()[0]["config"]["seed"] is None
    teacher.start("LOPPU")
    start = ann.wait(lambda s: s["view"] is not None)["view"]
    play(ann)
    (room,) = teacher.rooms()
    assert room["finished"]
    seed = room["config"]["seed"]
    assert isinstance(seed, int) and seed.bit_length() > 64  # 128 bits from ``secrets``
    names = [s["name"] for s in room["tables"][0]["seats"]]
    assert hand_codes(start) == hand_codes(Game(names, seed=deal_seed(seed, 0)).observation(0))
