"""Moves as numbers and a seat's observation as a fixed-size array, for learning agents.

Both encodings read one seat's observation dict (``Game.observation(seat)``) and nothing else,
so an agent gets exactly what the seat may see. ``docs/env.md`` explains the layout and why
the action space has the size it has; in short:

* A move is named by the **hand slots** it uses. The hand, sorted by face then id (twins side
  by side), is at most ``hand_size + 1`` cards in the play phase (ten dealt, one drawn; every
  turn ends with a discard), so slot numbers 0..10 name every card a move can use. A meld is
  the *set* of slots it takes (every subset of three or more slots has a number), a lay-off is
  a slot and a meld's index on the table, a discard is a slot. Naming cards by slot tells the
  two copies of a face apart, so the encoding is one-to-one on any list of moves, whichever
  copies ``legal_actions`` names (as Hanabi's actions name hand positions in PettingZoo).
* The table never holds more than ``(104 - 2) // 3 = 34`` melds: every meld has three cards at
  least, and while a deal goes on the player to move and one other player hold a card each.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from math import comb

import numpy as np

from ..engine.actions import Action
from ..engine.cards import DECK, DECK_SIZE, Card
from ..engine.rules import Rules

FACES = 52
SEATS = 4  # the most players a preset allows: every array has room for four seats
PHASES = ("draw", "play", "over")


def hand_slots(rules: Rules) -> int:
    """The most cards a hand holds when a move is chosen: the deal plus the card drawn."""
    return rules.hand_size + 1


def table_melds(rules: Rules) -> int:
    """The most melds the table can hold while two hands still hold a card each."""
    return (DECK_SIZE - 2) // rules.min_meld


def slot_order(cards: Iterable[Card]) -> list[Card]:
    """A hand in slot order: by face (suit, then rank), the lower id first."""
    return sorted(cards, key=_slot_key)


def sorted_hand(cards: Iterable[dict]) -> list[Card]:
    """An observation's hand (cards as ``{"id", "code"}``) in slot order."""
    return sorted((DECK[c["id"]] for c in cards), key=_slot_key)


def _slot_key(card: Card) -> int:
    return SLOT_KEY[card.id]


#: ``2 - n`` for each byte value n (what ``bytes.translate`` needs): copies not placed.
TWO_MINUS = bytes((2 - n) % 256 for n in range(256))
#: A card id's place in slot order: by face, the first copy first.
SLOT_KEY: tuple[int, ...] = tuple(i % 52 * 2 + i // 52 for i in range(DECK_SIZE))


class ActionCodec:
    """The fixed ``Discrete`` action space of one rule set: moves to numbers and back.

    ===========================  ===============================================
    number                       move
    ===========================  ===============================================
    0                            draw from the stock
    1                            draw from the discard pile
    2 .. 2+melds-1               meld the cards in a set of three or more slots
    lay_off_base + s*T + i       lay off the card in slot ``s`` onto meld ``i``
    discard_base + s             discard the card in slot ``s``
    ===========================  ===============================================

    With the presets' ten-card hands (11 slots, T = 34 table melds): 1,981 melds (every subset
    of 3..11 of the 11 slots), 374 lay-offs and 11 discards, 2,368 numbers in all.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.slots = slots = hand_slots(rules)
        self.table = table_melds(rules)
        sizes = range(rules.min_meld, slots + 1)  # a meld may take the whole hand
        self.melds = sum(comb(slots, k) for k in sizes)
        self.meld_base = 2
        self.lay_off_base = self.meld_base + self.melds
        self.discard_base = self.lay_off_base + slots * self.table
        self.size = self.discard_base + slots
        #: slot set (bit s for slot s) -> its number, and number -> slot tuple
        self._meld_number: dict[int, int] = {}
        self._meld_slots: list[tuple[int, ...]] = []
        for k in sizes:
            for chosen in combinations(range(slots), k):
                self._meld_number[sum(1 << s for s in chosen)] = self.meld_base + len(
                    self._meld_slots
                )
                self._meld_slots.append(chosen)

    # --- moves to numbers ------------------------------------------------------------------

    def encode(self, action: Action, hand: Sequence[Card]) -> int:
        """The number of ``action`` for a seat holding ``hand`` (in slot order).

        A card the hand does not hold by its id is matched to a held copy of its face (the
        engine resolves such a name the same way); a card of neither kind raises ``ValueError``.
        """
        return self._number(action, hand, {c.id: s for s, c in enumerate(hand)})

    def numbers(self, actions: Sequence[Action], hand: Sequence[Card]) -> dict[int, Action]:
        """Each action by its number (the environment's table of legal moves)."""
        slots = {c.id: s for s, c in enumerate(hand)}
        return {self._number(a, hand, slots): a for a in actions}

    def _number(self, action: Action, hand: Sequence[Card], slots: dict[int, int]) -> int:
        kind = action.kind
        if kind == "draw":
            return 0 if action.source == "stock" else 1
        if kind == "meld":
            bits = 0
            for card in action.cards:
                s = slots.get(card.id)
                if s is None or bits >> s & 1:
                    s = _slot(card, hand, bits)
                bits |= 1 << s
            return self._meld_number[bits]
        slot = slots.get(action.card.id)
        if slot is None:
            slot = _slot(action.card, hand, 0)
        if kind == "discard":
            return self.discard_base + slot
        if not 0 <= action.meld_index < self.table:
            raise ValueError(f"meld index {action.meld_index} outside 0..{self.table - 1}")
        return self.lay_off_base + slot * self.table + action.meld_index

    def mask(self, actions: Sequence[Action], hand: Sequence[Card]) -> np.ndarray:
        """The ``action_mask``: 1 for the number of every action listed, else 0."""
        return self.mask_of(self.numbers(actions, hand))

    def mask_of(self, numbers: Iterable[int]) -> np.ndarray:
        """The ``action_mask`` with a 1 at each of ``numbers``."""
        mask = bytearray(self.size)
        for n in numbers:
            mask[n] = 1
        return np.frombuffer(mask, np.int8)

    # --- numbers to moves ------------------------------------------------------------------

    def decode(self, number: int, hand: Sequence[Card]) -> Action | None:
        """The move a number names for this hand, or None when its slots hold no card.

        The environment plays the listed legal move with that number instead (so the copies
        are exactly those ``legal_actions`` chose); this is for reading numbers, e.g. in docs.
        """
        number = int(number)
        if number in (0, 1):
            return Action.draw("stock" if number == 0 else "discard")
        if self.meld_base <= number < self.lay_off_base:
            chosen = self._meld_slots[number - self.meld_base]
            if chosen[-1] >= len(hand):
                return None
            return Action.meld(hand[s] for s in chosen)
        if self.lay_off_base <= number < self.discard_base:
            slot, index = divmod(number - self.lay_off_base, self.table)
            return Action.lay_off(hand[slot], index) if slot < len(hand) else None
        if self.discard_base <= number < self.size:
            slot = number - self.discard_base
            return Action.discard(hand[slot]) if slot < len(hand) else None
        raise ValueError(f"action {number} outside 0..{self.size - 1}")


def _slot(card: Card, hand: Sequence[Card], taken: int) -> int:
    """The slot of ``card`` in ``hand``; failing that, a free slot holding its other copy."""
    for s, held in enumerate(hand):
        if held.id == card.id and not taken >> s & 1:
            return s
    face = card.id % 52
    for s, held in enumerate(hand):
        if held.id % 52 == face and not taken >> s & 1:
            return s
    raise ValueError(f"{card} is not in the hand")


class ObservationEncoder:
    """A seat's observation dict as one flat ``int8`` array (layout in ``docs/env.md``).

    Sections, in order (F = 52 faces, suits ♠ ♥ ♦ ♣, ranks A..K; seats are counted from the
    observing seat: 0 is the seat itself, 1 the next to play after it, ...):

    * ``cards``: 9 planes of F counts (0..2): own hand, the whole discard pile, its top card,
      the card taken from the pile this turn, the melds on the table, the cards seats 1-3 are
      known to hold (taken from the pile and not played since), and the cards the seat cannot
      place (in the stock or unseen in another hand).
    * ``slots``: for each hand slot, F one-hot face bits and one bit "this is the card taken
      from the pile this turn" (the numbering of melds, lay-offs and discards).
    * ``table``: for each of the T meld places, F counts, one bit "run" and 4 bits of owner.
    * ``state``: phase (draw, play, over), "my turn", current player (4), dealer (4), number
      of players (2, 3, 4), hand sizes (4), has melded (4), stock size, pile size, rebuilds,
      "Rummy Royal rules".
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.slots = hand_slots(rules)
        self.table = table_melds(rules)
        self.slots_at = 9 * FACES
        self.table_at = self.slots_at + self.slots * (FACES + 1)
        self.state_at = self.table_at + self.table * (FACES + 5)
        self.size = self.state_at + 3 + 1 + SEATS + SEATS + 3 + SEATS + SEATS + 4
        high = np.ones(self.size, np.int8)
        high[: 9 * FACES] = 2
        for m in range(self.table):
            start = self.table_at + m * (FACES + 5)
            high[start : start + FACES] = 2
        sizes = self.state_at + 3 + 1 + SEATS + SEATS + 3
        high[sizes : sizes + SEATS] = self.slots
        tail = self.size - 4
        high[tail : tail + 2] = DECK_SIZE
        high[tail + 2] = rules.max_rebuilds
        #: The bound of every entry, for the observation space.
        self.high = high

    def encode(
        self,
        observation: dict,
        known: Sequence[set[int]] | None = None,
        hand: Sequence[Card] | None = None,
    ) -> np.ndarray:
        """The array for one observation; ``known`` (per absolute seat, card ids) comes from
        ``KnownCards`` reading the same observations' public log, ``hand`` is the observation's
        hand in slot order when the caller has it already."""
        seat = observation["seat"]
        players = observation["players"]
        count = len(players)
        if hand is None:
            hand = sorted_hand(observation["hand"])
        hand = [c.id for c in hand]
        if len(hand) > self.slots:
            raise ValueError(f"a hand of {len(hand)} cards has more than {self.slots} slots")
        pile = observation["discard_pile"]
        melds = observation["melds"]
        taken = observation["taken_from_discard"]
        taken_id = taken["id"] if taken else -1
        # Filled byte by byte and viewed as int8 at the end: a list of positions would cost
        # more to turn into an index array than the counting itself.
        out = bytearray(self.size)
        placed = bytearray(FACES)  # per face: copies the seat can place
        for i in hand:
            out[i % 52] += 1
            placed[i % 52] += 1
        for c in pile:
            f = c["id"] % 52
            out[FACES + f] += 1
            placed[f] += 1
        if pile:
            out[2 * FACES + pile[0]["id"] % 52] = 1
        if taken:
            out[3 * FACES + taken_id % 52] = 1
        base = self.table_at
        for meld in melds:
            for c in meld["cards"]:
                f = c["id"] % 52
                out[4 * FACES + f] += 1
                out[base + f] += 1
                placed[f] += 1
            if meld["kind"] == "run":
                out[base + FACES] = 1
            out[base + FACES + 1 + (meld["owner"] - seat) % count] = 1
            base += FACES + 5
        if known is not None:
            for rel in range(1, count):
                plane = (4 + rel) * FACES
                for i in known[(seat + rel) % count]:
                    out[plane + i % 52] += 1
                    placed[i % 52] += 1
        out[8 * FACES : 9 * FACES] = placed.translate(TWO_MINUS)
        base = self.slots_at
        for i in hand:
            out[base + i % 52] = 1
            if i == taken_id:
                out[base + FACES] = 1
            base += FACES + 1
        at = self.state_at
        phase = observation["phase"]
        current = observation["current_player"]
        out[at + PHASES.index(phase)] = 1
        out[at + 3] = phase != "over" and current == seat
        out[at + 4 + (current - seat) % count] = 1
        out[at + 8 + (observation["dealer"] - seat) % count] = 1
        out[at + 12 + count - 2] = 1
        for p, info in enumerate(players):
            rel = (p - seat) % count
            out[at + 15 + rel] = info["hand_size"]
            out[at + 19 + rel] = info["has_melded"]
        out[at + 23] = observation["stock_size"]
        out[at + 24] = len(pile)
        out[at + 25] = observation["rebuilds"]
        out[at + 26] = observation["rules"] == "rummy_royal"
        return np.frombuffer(out, np.int8)


class KnownCards:
    """Cards each seat is known to hold, read from the public log as it grows.

    A card taken from the discard pile is known to be in the taker's hand until that player
    melds, lays off or discards it. The log is the same in every seat's observation, so one
    reader serves all seats; it reads each event once.
    """

    def __init__(self, players: int) -> None:
        self.held: list[set[int]] = [set() for _ in range(players)]
        self.read = 0

    def update(self, log: Sequence[dict]) -> list[set[int]]:
        for event in log[self.read :]:
            kind = event["type"]
            if kind == "draw":
                if event["source"] == "discard":
                    self.held[event["player"]].add(event["card"]["id"])
            elif kind == "meld":
                self.held[event["player"]].difference_update(c["id"] for c in event["cards"])
            elif kind in ("lay_off", "discard"):
                self.held[event["player"]].discard(event["card"]["id"])
        self.read = len(log)
        return self.held
