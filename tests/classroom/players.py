"""Scripted learners for the classroom tests: a basic bot acting through a real seat."""

from __future__ import annotations

import secrets
import threading

from rummy_widget.bots import get_bot
from rummy_widget.classroom import Seat, connect


def play(seat: Seat, acked: list | None = None, until=None, seed: int = 0) -> dict:
    """Play the seat's turns with a basic bot until the table is finished (or ``until``)."""
    bots: dict[int, object] = {}
    while True:
        state = seat.wait(lambda s: s["finished"] or seat.my_turn(s) or (until and until(s)), 120)
        if state["finished"] or (until and until(state)):
            return state
        bot = bots.setdefault(state["deal"], get_bot("basic", seed=seed + seat.seat))
        nonce = secrets.token_hex(6)
        number = seat.act(bot.act(state["view"]), id=nonce)
        if acked is not None:
            acked.append((seat.table, state["deal"], number, seat.seat, nonce))


def table_of_four(url: str, room: str, names=("Ann", "Bo", "Cy", "Di")) -> list[Seat]:
    return [connect(url, room, name) for name in names]


def play_all(seats: list[Seat], acked: list | None = None, until=None) -> list[dict]:
    """Each seat in its own thread, as learners at their own machines, until the table is
    finished (or ``until``, as ``play``); the last states."""
    finals: dict[int, dict] = {}
    errors: list[BaseException] = []

    def run(i: int, seat: Seat) -> None:
        try:
            finals[i] = play(seat, acked, until=until, seed=i)
        except BaseException as err:  # reported below, in the test's thread
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    if errors:
        raise errors[0]
    return [finals[i] for i in range(len(seats))]
