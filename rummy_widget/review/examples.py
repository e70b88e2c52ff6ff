"""Labelled positions: learners' blunders with the better move, and moves that are right.

The coach is measured on these (tests/test_review_examples.py, benchmarks/review.py) and
lesson 11 shows one. Each example is a position built with ``Game.from_layout``: seat 0's hand,
the pile, the cards it draws, the table, and the moves that lead to the judged one (the last
move, always seat 0's). The cards nobody named are dealt at random (a fixed seed) to the other
hands and the stock: the review never sees them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.cards import DECK, Card, parse_cards
from ..engine.game import Game


@dataclass(frozen=True)
class Example:
    """A position and its label: the judged move's expected kind of blunder (None: a right
    move) and the better moves that count as found (any one of them)."""

    name: str
    rules: str
    hand: str
    moves: tuple[str, ...]  # "draw stock", "discard 4C", "meld 2C 3C 4C", "lay_off 8H 0"; "1 ..."
    kind: str | None = None
    better: tuple[str, ...] = ()
    stock: str = ""  # the top cards, drawn in this order
    discard: str = ""  # the pile, top first (none named: a card dealt at random)
    players: int = 2
    others: tuple[str, ...] = ()  # the other seats' hands (the rest dealt at random)
    melds: tuple[tuple[str, int], ...] = ()
    melded: tuple[int, ...] = ()  # seats that have melded
    start: int = 0  # the seat to play first

    def game(self, names: list[str] | None = None, lang: str = "en") -> Game:
        """The position after every move of ``moves``: the judged move is the last one.
        ``names`` and ``lang`` are the game's (a lesson's players, its language)."""
        named = [*parse_cards(self.hand), *parse_cards(self.stock), *parse_cards(self.discard)]
        for hand in self.others:
            named += parse_cards(hand)
        for cards, _ in self.melds:
            named += parse_cards(cards)
        used = {c.id for c in named}
        rest = [c for c in DECK if c.id not in used]
        random.Random(self.name).shuffle(rest)
        discard = list(parse_cards(self.discard)) or [rest.pop()]
        size = len(parse_cards(self.hand))
        hands: list[list[Card]] = [list(parse_cards(self.hand))]
        for seat in range(1, self.players):
            given = list(parse_cards(self.others[seat - 1])) if seat <= len(self.others) else []
            while len(given) < size:
                given.append(rest.pop())
            hands.append(given)
        game = Game.from_layout(
            hands=hands,
            stock=[*parse_cards(self.stock), *rest[:40]],
            discard=discard,
            rules=self.rules,
            current_player=self.start,
            melds=[(cards, owner) for cards, owner in self.melds],
            has_melded=[seat in self.melded for seat in range(self.players)],
            players=names,
            lang=lang,
        )
        for move in self.moves:
            player, action = parse_move(move, game)
            game.apply(action, player)
        return game

    @property
    def move(self) -> int:
        """The judged move's index in ``game.history``."""
        return len(self.moves) - 1

    def better_actions(self, game: Game) -> list[Action]:
        return [parse_move(text, game)[1] for text in self.better]


def parse_move(text: str, game: Game) -> tuple[int, Action]:
    """ "discard 4C" (seat 0) or "1 draw discard" (seat 1) as (seat, action)."""
    words = text.split()
    player = int(words.pop(0)) if words[0].isdigit() else 0
    verb, rest = words[0], words[1:]
    if verb == "draw":
        return player, Action.draw(rest[0])
    if verb == "meld":
        return player, Action.meld(in_hand(game, player, rest))
    if verb == "lay_off":
        return player, Action.lay_off(in_hand(game, player, rest[:1])[0], int(rest[1]))
    return player, Action.discard(in_hand(game, player, rest)[0])


def in_hand(game: Game, player: int, codes: list[str]) -> list[Card]:
    """The hand's own copies of the named faces (a meld of two copies names both)."""
    hand = list(game.hand(player))
    found = []
    for code in codes:
        face = parse_cards(code)[0].face_index
        card = next((c for c in hand if c.face_index == face), None)
        if card is None:  # not in the hand yet (a position before the draw): deck 0's copy
            card = parse_cards(code)[0]
        else:
            hand.remove(card)
        found.append(card)
    return found


def _b(name, rules, hand, moves, kind, better, **more) -> Example:
    return Example(
        name, rules, hand, tuple(moves.split(", ")), kind, tuple(better.split("|")), **more
    )


def _r(name, rules, hand, moves, **more) -> Example:
    return Example(name, rules, hand, tuple(moves.split(", ")), **more)


T, R = "traditional", "rummy_royal"

#: Learners' blunders: the judged move, its kind and the better move(s).
BLUNDERS: tuple[Example, ...] = (
    # --- a complete meld broken while loose cards remain ---
    _b(
        "run 2-4C thrown",
        T,
        "7H 8H 9H 2C 3C KS 6D 2H 4S 5S",
        "draw stock, discard 4C",
        "broke_meld",
        "discard KS",
        stock="4C",
    ),
    _b(
        "set of 5s broken",
        T,
        "5S 5H 5D KD 2C 7H 9C 3S 8D JC",
        "draw stock, discard 5H",
        "broke_meld",
        "discard KD",
        stock="AC",
    ),
    _b(
        "run 6-8D in royal",
        R,
        "6D 7D 8D AS AC 2H 9C 4S JH 3C",
        "draw stock, discard 7D",
        "broke_meld",
        "discard AS|discard AC",
        stock="5H",
    ),
    _b(
        "run 9-JS thrown top",
        T,
        "9S 10S JS 2D 4C 6H KH 3S 7C 5D",
        "draw stock, discard JS",
        "broke_meld",
        "discard KH",
        stock="8C",
    ),
    _b(
        "run A-3H thrown",
        T,
        "AH 2H 3H 9C 5S 7D QC 4C 8S 6D",
        "draw stock, discard 2H",
        "broke_meld",
        "discard QC",
        stock="10D",
    ),
    _b(
        "set of 8s three players",
        T,
        "8C 8D 8S KC 2H 5D",
        "draw stock, discard 8D",
        "broke_meld",
        "discard KC",
        stock="4S",
        players=3,
    ),
    _b(
        "set of Qs four players",
        T,
        "QC QD QH 3S 6C 9H",
        "draw stock, discard QH",
        "broke_meld",
        "discard 9H",
        stock="AD",
        players=4,
    ),
    _b(
        "run Q-A high royal",
        R,
        "QH KH AH 2C 5D 8S 9C 4S 6D 3C",
        "draw stock, discard KH",
        "broke_meld",
        "discard 9C",
        stock="7S",
    ),
    _b(
        "set of 7s royal three players",
        R,
        "7C 7D 7S AH 4C 2S",
        "draw stock, discard 7S",
        "broke_meld",
        "discard AH",
        stock="10C",
        players=3,
    ),
    _b(
        "run 4-6C royal four players",
        R,
        "4C 5C 6C KD 2S 9H",
        "draw stock, discard 5C",
        "broke_meld",
        "discard KD",
        stock="JH",
        players=4,
    ),
    _b(
        "drawn card completes a run",
        T,
        "5H 6H 2C 9S KD 3D 10C 4S AC QH",
        "draw stock, discard 7H",
        "broke_meld",
        "discard KD|discard QH|discard 10C",
        stock="7H",
    ),
    _b(
        "drawn card completes a set",
        T,
        "JC JD 2S 5H 8C AD 3H 6S 9D 4C",
        "draw stock, discard JS",
        "broke_meld",
        "discard 9D",
        stock="JS",
    ),
    _b(
        "taken card completes a run",
        T,
        "9C 10C 2D 4H 6S KS AS 3C 7D 5H",
        "draw discard, discard 10C",
        "broke_meld",
        "discard KS",
        discard="8C",
        stock="",
    ),
    _b(
        "run of four broken in the middle",
        T,
        "3S 4S 5S 6S 9H KC 2D 7C AH 10D",
        "draw stock, discard 4S",
        "broke_meld",
        "discard KC",
        stock="QD",
    ),
    _b(
        "set of 10s royal",
        R,
        "10C 10D 10H 2S 5C 8H 3D QS 6C 4H",
        "draw stock, discard 10H",
        "broke_meld",
        "discard QS",
        stock="9S",
    ),
    _b(
        "run 7-9S three players",
        T,
        "7S 8S 9S JD 3H AC",
        "draw stock, discard 9S",
        "broke_meld",
        "discard JD",
        stock="5C",
        players=3,
    ),
    # --- a card that makes a meld longer thrown while a loose card could go ---
    _b(
        "fourth card of a run",
        T,
        "2C 3C 4C 5C KS 7H 9D JH 6S AD",
        "draw stock, discard 5C",
        "extended_meld",
        "discard KS|discard JH",
        stock="3D",
    ),
    _b(
        "fourth card of a set",
        T,
        "9C 9D 9H 9S QC 2H 5D 7S AC 4H",
        "draw stock, discard 9S",
        "extended_meld",
        "discard QC",
        stock="3S",
    ),
    _b(
        "fourth card of a royal set",
        R,
        "6C 6D 6H 6S KC 2H 9D 4S 8C JH",
        "draw stock, discard 6S",
        "extended_meld",
        "discard KC|discard JH",
        stock="3H",
    ),
    _b(
        "top of a royal run",
        R,
        "8H 9H 10H JH AS 3C 5D 2S 7C QD",
        "draw stock, discard JH",
        "extended_meld",
        "discard AS|discard QD",
        stock="4S",
    ),
    _b(
        "end of a run three players",
        T,
        "6D 7D 8D 9D KC 2S",
        "draw stock, discard 9D",
        "extended_meld",
        "discard KC",
        stock="4H",
        players=3,
    ),
    _b(
        "end of a run four players",
        R,
        "JC QC KC AC 9H 3S",
        "draw stock, discard JC",
        "extended_meld",
        "discard 9H",
        stock="5D",
        players=4,
    ),
    _b(
        "drawn card extends a run",
        T,
        "3H 4H 5H KS 8C 2D 10S AC 7D QC",
        "draw stock, discard 6H",
        "extended_meld",
        "discard KS|discard QC|discard 10S",
        stock="6H",
    ),
    _b(
        "drawn card extends a set",
        T,
        "KC KD KH 2S 9D 4C 7H AS 6C JD",
        "draw stock, discard KS",
        "extended_meld",
        "discard JD|discard 7H",
        stock="KS",
    ),
    # --- high cards kept over low ones ---
    _b(
        "king kept over a three",
        T,
        "7H 8H 9H 3S KC 5D AC 10S 2D 6C",
        "draw stock, discard 3S",
        "high_card",
        "discard KC|discard 10S",
        stock="4H",
    ),
    _b(
        "queen kept over a two",
        T,
        "2C 3C 4C QD 2H 6S 9C AD 5H 8S",
        "draw stock, discard 2H",
        "high_card",
        "discard QD",
        stock="7D",
    ),
    _b(
        "ace kept over a four royal",
        R,
        "5S 6S 7S AD 4H 9C 2C JS 8D 3H",
        "draw stock, discard 4H",
        "high_card",
        "discard AD",
        stock="QC",
    ),
    _b(
        "jack kept over an ace",
        T,
        "10C 10D 10H JS AH 4D 7C 2S 6H 8D",
        "draw stock, discard AH",
        "high_card",
        "discard JS",
        stock="3C",
    ),
    _b(
        "king kept three players",
        T,
        "4D 5D 6D KH 2C 8S",
        "draw stock, discard 2C",
        "high_card",
        "discard KH",
        stock="JC",
        players=3,
    ),
    _b(
        "ace kept royal four players",
        R,
        "9C 9D 9H AS 3D 6H",
        "draw stock, discard 3D",
        "high_card",
        "discard AS",
        stock="QC",
        players=4,
    ),
    _b(
        "ten kept over a two",
        T,
        "JC QC KC 10D 2S 5H 8C AD 3H 6S",
        "draw stock, discard 2S",
        "high_card",
        "discard 10D",
        stock="7H",
    ),
    _b(
        "queen kept over an ace royal",
        R,
        "2H 3H 4H QS AC 7D 5S 9C 6D 8H",
        "draw stock, discard 5S",
        "high_card",
        "discard QS|discard AC",
        stock="JD",
    ),
    _b(
        "king kept over a four three players royal",
        R,
        "8S 8D 8C KD 4C 2H",
        "draw stock, discard 4C",
        "high_card",
        "discard KD",
        stock="6S",
        players=3,
    ),
    _b(
        "jack kept four players",
        T,
        "AC 2C 3C JD 4H 7S",
        "draw stock, discard 4H",
        "high_card",
        "discard JD",
        stock="6C",
        players=4,
    ),
    # --- a go-out or a Rummy missed ---
    _b(
        "Rummy missed",
        T,
        "2C 3C 4C 7H 8H 9H KD KS KH 6S",
        "draw stock, discard 6S",
        "missed_rummy",
        "meld 2C 3C 4C 5C|meld 7H 8H 9H|meld KD KS KH",
        stock="5C",
    ),
    _b(
        "Rummy missed by a meld",
        T,
        "5H 6H 7H 9S 9D 9C",
        "draw stock, discard 5H",
        "missed_rummy",
        "meld 5H 6H 7H|meld 9S 9D 9C",
        stock="KD",
    ),
    _b(
        "Rummy missed royal",
        R,
        "JC QC KC 4C 4H 4S 2D 3D 4D 9H",
        "draw stock, discard 9H",
        "missed_rummy",
        "meld JC QC KC|meld 4C 4H 4S|meld 2D 3D 4D 5D",
        stock="5D",
    ),
    _b(
        "go-out missed",
        T,
        "8C 9C 10C 3H",
        "draw stock, discard 3H",
        "missed_out",
        "meld 8C 9C 10C|meld 8C 9C 10C JC",
        stock="JC",
        melds=(("5S 5D 5H", 0),),
        melded=(0,),
    ),
    _b(
        "go-out missed three players",
        T,
        "2S 3S 4S 7D",
        "draw stock, discard 7D",
        "missed_out",
        "meld 2S 3S 4S|meld AS 2S 3S 4S",
        stock="AS",
        players=3,
        melds=(("QC QD QH", 0),),
        melded=(0,),
    ),
    _b(
        "go-out missed royal",
        R,
        "6H 7H 8H 2C 2D 9C",
        "draw stock, discard 6H",
        "missed_out",
        "meld 6H 7H 8H|meld 2C 2D 2S",
        stock="2S",
        melds=(("JC JD JH", 0),),
        melded=(0,),
    ),
    _b(
        "go-out missed four players",
        T,
        "KC KD 5H",
        "draw stock, discard 5H",
        "missed_out",
        "meld KC KD KS",
        stock="KS",
        players=4,
        melds=(("3C 4C 5C", 0),),
        melded=(0,),
    ),
    _b(
        "Rummy missed three players royal",
        R,
        "AS KS QS 3C 3D 3H",
        "draw stock, discard 3H",
        "missed_rummy",
        "meld QS KS AS|meld 3C 3D 3H",
        stock="9D",
        players=3,
    ),
    _b(
        "Rummy missed four players",
        T,
        "4C 5C 6C 8D 8H",
        "draw stock, discard 5C",
        "missed_rummy",
        "meld 4C 5C 6C|meld 8D 8H 8S",
        stock="8S",
        players=4,
    ),
    _b(
        "go-out missed by a lay-off",
        T,
        "9H 4C",
        "draw stock, discard 9H",
        "missed_out",
        "lay_off 9H 0|lay_off 4C 1|lay_off 10H 0",
        stock="10H",
        melds=(("6H 7H 8H", 1), ("AC 2C 3C", 0)),
        melded=(0, 1),
    ),
    # --- the discard that lets you go out not taken ---
    _b(
        "pile card goes out",
        T,
        "2C 3C 4C 7H 8H 9H KD KS KH 6S",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="5C",
        stock="QD",
        melds=(),
    ),
    _b(
        "pile card goes out royal",
        R,
        "5D 6D 7D 9C 9H 9S 2H 3H 4H JS",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="8D",
        stock="QC",
    ),
    _b(
        "pile card goes out three players",
        T,
        "JS QS KS 4C 4D 9H",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="4H",
        stock="7C",
        players=3,
    ),
    _b(
        "pile card goes out four players",
        T,
        "AD 2D 3D 6C",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="4D",
        stock="8S",
        players=4,
        melds=(("10H JH QH", 0),),
        melded=(0,),
    ),
    _b(
        "pile card lays off to go out",
        T,
        "6C 7C 8C 2H",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="KS",
        stock="5D",
        melds=(("10S JS QS", 1),),
        melded=(1,),
    ),
    _b(
        "pile card goes out royal four players",
        R,
        "2S 3S 4S 8H 8C 5C",
        "draw stock",
        "take_to_go_out",
        "draw discard",
        discard="8D",
        stock="JC",
        players=4,
    ),
    # --- a costly card taken that joins nothing ---
    _b(
        "king taken for nothing",
        T,
        "7H 8H 9H 2C 3C 5S 6D AD 4S 9C",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="KD",
    ),
    _b(
        "queen taken for nothing three players",
        T,
        "2S 3S 4S 5H 7C AD",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="QC",
        players=3,
    ),
    _b(
        "ace taken for nothing royal",
        R,
        "5C 6C 7C 2H 9D 3H 4D 8H 10C JS",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="AS",
    ),
    _b(
        "jack taken for nothing four players",
        T,
        "3D 4D 5D 9S AC 2H",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="JH",
        players=4,
    ),
    _b(
        "ten taken for nothing royal three players",
        R,
        "QC QD QH 3S 5D 7C",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="10S",
        players=3,
    ),
    _b(
        "king taken for nothing royal",
        R,
        "2D 3D 4D 6S 8C AH 5H 9C 7S 4C",
        "draw discard",
        "took_nothing",
        "draw stock",
        discard="KC",
    ),
    # --- a lay-off missed ---
    _b(
        "lay-off missed",
        T,
        "8H KS 2C 5D",
        "draw stock, discard KS",
        "missed_lay_off",
        "lay_off 8H 0",
        stock="3S",
        melds=(("5H 6H 7H", 0),),
        melded=(0,),
        others=("JC 4D",),
    ),
    _b(
        "lay-off on a set missed",
        T,
        "9D QC 4S 2H 7C",
        "draw stock, discard QC",
        "missed_lay_off",
        "lay_off 9D 0",
        stock="6C",
        melds=(("9C 9H 9S", 1),),
        melded=(0, 1),
        others=("KD 3C",),
    ),
    _b(
        "lay-off missed royal",
        R,
        "AH 5C 3D 8S 10C",
        "draw stock, discard 10C",
        "missed_lay_off",
        "lay_off AH 0",
        stock="7D",
        melds=(("QH KH JH", 0),),
        melded=(0,),
        others=("4S 9H",),
    ),
    _b(
        "lay-off missed three players",
        T,
        "JD 3C 6H 2S",
        "draw stock, discard 6H",
        "missed_lay_off",
        "lay_off JD 0",
        stock="8C",
        players=3,
        melds=(("8D 9D 10D", 2),),
        melded=(0, 2),
        others=("2C 7H", "5D QS 6S"),
    ),
    _b(
        "lay-off missed four players royal",
        R,
        "5S 9C 2H KD",
        "draw stock, discard KD",
        "missed_lay_off",
        "lay_off 5S 0",
        stock="4H",
        players=4,
        melds=(("5C 5D 5H", 1),),
        melded=(0, 1),
        others=("2C 8D", "JS 3H 7C", "9D 6S 10H"),
    ),
    # --- the next player fed the card that completes what it took from the pile ---
    _b(
        "third nine fed",
        T,
        "7H 8H 9H 2C 3C 9D 9C KS 5C 6S",
        "1 draw discard, 1 discard 2H, draw stock, discard 9C, 1 draw discard, 1 discard 4D, "
        "draw stock, discard 9D",
        "fed_next",
        "discard KS",
        discard="9S",
        others=("4H 2H 6C 10H JC 8S 3D QH 5S 4D",),
        start=1,
        stock="AS 10C",
    ),
    _b(
        "run card fed",
        T,
        "2C 3C 4C 8D QS 6H 10S 5S AH 7D",
        "1 draw discard, 1 discard 2H, draw stock, discard 7D, 1 draw discard, 1 discard 9C, "
        "draw stock, discard 8D",
        "fed_next",
        "discard QS|discard JH",
        discard="6D",
        others=("2H 9C 4S JC 3D KC 6C 10H AC 5H",),
        start=1,
        stock="3H JH",
    ),
    _b(
        "third jack fed royal",
        R,
        "6C 7C 8C JD 3S 4H 9S KS 2H JC",
        "1 draw discard, 1 discard 3C, draw stock, discard JC, 1 draw discard, 1 discard 8H, "
        "draw stock, discard JD",
        "fed_next",
        "discard KS",
        discard="JH",
        others=("3C 8H 2D 10C 4S 7D QH 5S AC 6D",),
        start=1,
        stock="9H 5D",
    ),
    _b(
        "third ten fed three players",
        T,
        "5S 6S 7S 10D JS 10C 2H",
        "1 draw discard, 1 discard 2C, 2 draw stock, 2 discard 3D, draw stock, discard 10C, "
        "1 draw discard, 1 discard 4H, 2 draw stock, 2 discard 8C, draw stock, discard 10D",
        "fed_next",
        "discard JS",
        discard="10H",
        others=("2C 4H 7D 9S AH KH QC", "3D 8C 6H 2D QS 4D 5C"),
        start=1,
        players=3,
        stock="9D AC KD 4C",
    ),
)

#: Right moves: the review should not flag them.
RIGHT: tuple[Example, ...] = (
    _r(
        "loose king thrown",
        T,
        "7H 8H 9H 2C 3C KS 6D 2H 4S 5S",
        "draw stock, discard KS",
        stock="4C",
    ),
    _r("set kept", T, "5S 5H 5D KD 2C 7H 9C 3S 8D JC", "draw stock, discard KD", stock="AC"),
    _r(
        "royal aces thrown",
        R,
        "6D 7D 8D AS AC 2H 9C 4S JH 3C",
        "draw stock, discard AS",
        stock="5H",
    ),
    _r(
        "three players king thrown",
        T,
        "8C 8D 8S KC 2H 5D",
        "draw stock, discard KC",
        stock="4S",
        players=3,
    ),
    _r(
        "four players nine thrown",
        T,
        "QC QD QH 3S 6C 9H",
        "draw stock, discard 9H",
        stock="AD",
        players=4,
    ),
    _r(
        "drawn run card kept",
        T,
        "5H 6H 2C 9S KD 3D 10C 4S AC QH",
        "draw stock, discard QH",
        stock="7H",
    ),
    _r(
        "loose king over a fourth card",
        T,
        "2C 3C 4C 5C KS 7H 9D JH 6S AD",
        "draw stock, discard KS",
        stock="3D",
    ),
    _r(
        "high card thrown",
        T,
        "7H 8H 9H 3S KC 5D AC 10S 2D 6C",
        "draw stock, discard KC",
        stock="4H",
    ),
    _r(
        "royal ace thrown", R, "5S 6S 7S AD 4H 9C 2C JS 8D 3H", "draw stock, discard AD", stock="QC"
    ),
    _r("Rummy taken", T, "5H 6H 7H 9S 9D 9C 2C", "draw stock, meld 5H 6H 7H", stock="KD"),
    _r(
        "go-out taken",
        T,
        "8C 9C 10C 3H",
        "draw stock, meld 8C 9C 10C JC",
        stock="JC",
        melds=(("5S 5D 5H", 0),),
        melded=(0,),
    ),
    _r(
        "pile card taken to go out",
        T,
        "2C 3C 4C 7H 8H 9H KD KS KH 6S",
        "draw discard",
        discard="5C",
        stock="QD",
    ),
    _r(
        "stock over a costly card",
        T,
        "7H 8H 9H 2C 3C 5S 6D AD 4S 9C",
        "draw stock",
        discard="KD",
        stock="3H",
    ),
    _r(
        "pile card that joins a run",
        T,
        "7H 8H 2C 3C 5S 6D AD 4S 9C KC",
        "draw discard",
        discard="9H",
    ),
    _r(
        "lay-off made",
        T,
        "8H KS 2C 5D",
        "draw stock, lay_off 8H 0",
        stock="3S",
        melds=(("5H 6H 7H", 0),),
        melded=(0,),
        others=("JC 4D",),
    ),
    _r(
        "lay-off made royal",
        R,
        "AH 5C 3D 8S 10C",
        "draw stock, lay_off AH 0",
        stock="7D",
        melds=(("QH KH JH", 0),),
        melded=(0,),
        others=("4S 9H",),
    ),
    _r(
        "safe card thrown",
        T,
        "7H 8H 9H 2C 3C 9D 9C KS 5C 6S",
        "1 draw discard, 1 discard 2H, draw stock, discard 9C, 1 draw discard, 1 discard 4D, "
        "draw stock, discard KS",
        discard="9S",
        others=("4H 2H 6C 10H JC 8S 3D QH 5S 4D",),
        start=1,
        stock="AS 10C",
    ),
    _r(
        "four players jack thrown",
        T,
        "AC 2C 3C JD 4H 7S",
        "draw stock, discard JD",
        stock="6C",
        players=4,
    ),
    _r(
        "three players royal king thrown",
        R,
        "8S 8D 8C KD 4C 2H",
        "draw stock, discard KD",
        stock="6S",
        players=3,
    ),
    _r(
        "stock draw four players",
        T,
        "3D 4D 5D 9S AC 2H",
        "draw stock",
        discard="JH",
        players=4,
        stock="6H",
    ),
    _r(
        "queen thrown from a broken hand",
        T,
        "2S 5H 8C JD QC 3H 6D 9S AH 4C",
        "draw stock, discard JD",
        stock="KC",
    ),
    _r("royal run kept", R, "4C 5C 6C KD 2S 9H", "draw stock, discard KD", stock="JH", players=4),
)
