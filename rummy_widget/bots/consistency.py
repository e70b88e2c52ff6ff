"""Would an expert-like opponent have played as it did with this hand? (consistent worlds)

The expert is deterministic: its draw and its turn's plays and discard follow from its hand and
the public log. So a sampled world (a guess at an opponent's hidden cards) can be checked
against that opponent's recent turns: rebuild each turn's position from the public log, give
the opponent the world's hand as it was then (today's hand, plus what it played that turn,
less what it drew), and ask an expert what it would have done. A world in which the expert
would have discarded another card, played other melds, gone out, or drawn from the other pile
is unlikely if the opponent plays like the expert, and gets a small weight.

The master assumes expert-like opponents here (docs/bots.md). Only the public log and the
world's own cards are read: the real hidden cards never are.

When the opponent drew from the stock, which of its cards was the drawn one is not known;
one is picked at random among those it could have been (the world is a guess anyway), which
accepts a world with the chance that an expert would have played as observed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..cards import Card
from .expert import ExpertBot
from .seen import CARDS, Seen
from .turn import Turn


@dataclass(frozen=True)
class PastTurn:
    """One completed turn of ``seat``, as the public log showed it."""

    draw_seen: Seen  # the position before the draw (hand left empty, filled per world)
    play_seen: Seen  # right after the draw
    source: str  # "stock" or "discard"
    took: Card | None  # the pile card taken
    played: tuple[Card, ...]  # cards that left the hand this turn (melds, lay-offs, discard)
    table_faces: tuple[int, ...]  # faces played to the table, sorted
    discard_face: int
    held_before: frozenset[int]  # ids known in the hand before the draw (earlier pick-ups)
    choice: bool  # was there a pile card to refuse or take?


def past_turns(seen: Seen, seat: int, depth: int) -> list[PastTurn]:
    """``seat``'s last ``depth`` completed turns, most recent first (fewer if the log has
    fewer, or a rebuild of the stock or a lay-off makes the position hard to rebuild)."""
    log = seen.log
    pile = list(seen.discard_pile)  # top first, walked backwards through the log
    sizes = list(seen.hand_sizes)
    stock = seen.stock_size
    table = list(range(len(seen.melds)))  # indices of the current melds still on the table
    turns: list[PastTurn] = []
    pending: list[int] = []  # events of seat's turn seen so far going backwards
    for i in range(len(log) - 1, -1, -1):
        event = log[i]
        kind = event["type"]
        if kind in ("rebuild", "lay_off", "deal", "end"):
            break  # the deal's start, or a change of the pile or a meld not rebuilt here
        player = event["player"]
        if kind == "discard":
            pile.pop(0)
            sizes[player] += 1
            if player == seat:
                pending = [i]
        elif kind == "meld":
            sizes[player] += len(event["cards"])
            if event["meld_index"] in table:
                table.remove(event["meld_index"])
            if player == seat and pending:
                pending.append(i)
        elif kind == "draw":
            if player == seat and pending:
                melds_then = [seen.melds[k] for k in table]
                key_then = tuple(seen.table_key[k] for k in table)
                turn = _turn(seen, seat, log, i, pile, sizes, stock, melds_then, key_then, pending)
                turns.append(turn)
                pending = []
                if len(turns) >= depth:
                    break
            sizes[player] -= 1
            if event["source"] == "discard":
                pile.insert(0, CARDS[event["card"]["id"]])
            else:
                stock += 1
    return turns


def _turn(seen, seat, log, i, pile, sizes, stock, melds, table_key, pending) -> PastTurn:
    """The turn whose draw is ``log[i]``; ``pile``, ``sizes``, ``stock`` are as right after it."""
    draw = log[i]
    source = draw["source"]
    took = CARDS[draw["card"]["id"]] if source == "discard" else None
    played: list[Card] = []
    table_faces: list[int] = []
    discard_face = -1
    for k in pending:
        event = log[k]
        if event["type"] == "meld":
            cards = [CARDS[c["id"]] for c in event["cards"]]
            played.extend(cards)
            table_faces.extend(c.id % 52 for c in cards)
        else:
            card = CARDS[event["card"]["id"]]
            played.append(card)
            discard_face = card.id % 52
    melded = [False] * len(sizes)
    held: dict[int, bool] = {}
    for event in log[:i]:
        kind = event["type"]
        if kind in ("meld", "lay_off"):
            melded[event["player"]] = True
        if event.get("player") != seat:
            continue
        if kind == "draw" and event["source"] == "discard":
            held[event["card"]["id"]] = True
        elif kind in ("discard", "lay_off"):
            held.pop(event["card"]["id"], None)
        elif kind == "meld":
            for c in event["cards"]:
                held.pop(c["id"], None)
    play_seen = replace(
        seen,
        seat=seat,
        phase="play",
        current_player=seat,
        hand=[],
        discard_pile=list(pile),
        melds=list(melds),
        taken=took,
        stock_size=stock,
        hand_sizes=list(sizes),
        has_melded=melded,
        log=log[: i + 1],
        table_key=table_key,
    )
    before_pile = [took, *pile] if took is not None else list(pile)
    before_sizes = list(sizes)
    before_sizes[seat] -= 1
    draw_seen = replace(
        play_seen,
        phase="draw",
        discard_pile=before_pile,
        taken=None,
        stock_size=stock + (source == "stock"),
        hand_sizes=before_sizes,
        log=log[:i],
    )
    return PastTurn(
        draw_seen,
        play_seen,
        source,
        took,
        tuple(played),
        tuple(sorted(table_faces)),
        discard_face,
        frozenset(held),
        bool(before_pile),
    )


def misfits(turns: list[PastTurn], hand: list[Card], bot: ExpertBot, rng: random.Random) -> int:
    """How many of the decisions in ``turns`` an expert holding ``hand`` now (the seat's whole
    hand in one world) would have made otherwise. Walks back from the most recent turn."""
    count = 0
    cards = list(hand)
    for past in turns:
        after = cards + list(past.played)
        seen = replace(past.play_seen, hand=after)
        turn = Turn(seen, bot._memo)
        moves = turn.going_out() or bot.plan_turn(turn)
        faces = sorted(c.id % 52 for m in moves if m.kind == "meld" for c in m.cards)
        last = moves[-1]
        if (
            last.kind != "discard"
            or last.card.id % 52 != past.discard_face
            or faces != list(past.table_faces)
            or any(m.kind == "lay_off" for m in moves)
        ):
            count += 1
        if past.took is not None:
            before = [c for c in after if c != past.took]
        else:
            could = [c for c in after if c.id not in past.held_before]
            if not could:
                return count
            drawn = could[rng.randrange(len(could))]
            before = [c for c in after if c != drawn]
        if past.choice and past.draw_seen.stock_size > 0:
            seen = replace(past.draw_seen, hand=before)
            if bot.choose_draw(Turn(seen, bot._memo)) != past.source:
                count += 1
        cards = before
    return count
