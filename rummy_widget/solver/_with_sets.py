"""The warm path of ``best_arrangement`` for hands whose ranks hold enough cards for sets.

The search (``_core.search``) picks the set choices; the cards then split cleanly when every
face goes whole one way: both copies into sets, or none. The set melds then depend only on the
rank's cards and the choice (memoized per context), and the rest of each suit is a suit part
already built by ``_build`` for exactly those cards. The cards are the same the full rebuild
(``_core.arrangement``) gives: the rest of a suit holds no face the sets touch, so the copy
rule (lower id into the first meld using the face) cannot differ, and ``set_order`` places the
sets where the full rebuild's meld sort does. Otherwise (one copy into a set and the other
elsewhere, or cards laid off onto table sets of shared room) the full rebuild answers.
"""

from __future__ import annotations

from ..engine.cards import Card
from . import _core
from ._build import CARDS, FACE_BITS, join, set_order, suit_parts
from ._core import SUIT_MASK
from ._runs import K_PENALTY
from .arrangement import Arrangement

# an answer's fields: melds, lay-offs, leftover (a tuple: each call gets its own list), penalty
Answer = tuple[tuple, tuple, tuple, int]
# (rank, suit) -> the ids of both copies of that face
FACE_IDS = tuple(
    tuple((1 << (13 * s + r - 1)) | (1 << (52 + 13 * s + r - 1)) if r else 0 for s in range(4))
    for r in range(14)
)
RANK_IDS = tuple(sum(faces) for faces in FACE_IDS)

# (set choice delta, the rank's card ids) -> (ids going into sets, set melds as (order, seq,
# cards)), or None when some face splits between a set and the rest
SetPart = tuple[int, tuple] | None


def with_sets(ctx: _core.Context, ids: int, total: int, hand: list[Card]) -> Answer:
    """The best arrangement of ``hand`` (card ids ``ids``, face counts ``total``) as its fields:
    melds, lay-offs, leftover (a tuple) and penalty (``best_arrangement`` memoizes them)."""
    score, combo = _core.search(ctx, total)
    parts = ctx.set_parts
    set_ids = 0
    melds: tuple = ()
    for delta, lays, rank, option in combo:
        if not delta:
            continue
        if lays:
            return _fields(_core.arrangement(ctx, total, hand, (score, combo)))
        key = (delta, ids & RANK_IDS[rank])
        part = parts.get(key)
        if part is None:
            if key in parts:
                return _split(ctx, ids, total, hand, score, combo)
            part = parts[key] = _set_part(ctx, rank, option, key[1])
            if part is None:
                return _split(ctx, ids, total, hand, score, combo)
        set_ids |= part[0]
        melds += part[1]
    return join(suit_parts(ctx, ids & ~set_ids), score, melds)


def _fields(made: Arrangement) -> Answer:
    return made.melds, made.lay_offs, tuple(made.leftover), made.penalty


def _split(
    ctx: _core.Context, ids: int, total: int, hand: list[Card], score: int, combo: tuple
) -> Answer:
    """A face split between a set and the rest: every meld is made anew, faces taking the
    lower id first in meld order (``_core.arrangement``'s copy rule), from bit masks when no
    table meld touches any suit (no lay-offs), else by ``_core.arrangement``."""
    rest = total
    for delta, _, _, _ in combo:
        rest -= delta
    melds = []  # (order, seq, faces, runs from 2 to the high ace: the table puts it low)
    for s, solver in enumerate(ctx.suits):
        plain = solver.plain
        if plain is None:  # lay-offs possible: the full rebuild
            return _fields(_core.arrangement(ctx, total, hand, (score, combo)))
        low = 13 * s - 1
        for run in plain.key_runs(rest >> (52 * s) & SUIT_MASK):
            faces = [low + (1 if p == 14 else p) for p in run]
            melds.append(((run[0], s, 1), len(melds), faces, run[0] == 2 and run[-1] == 14))
    for _, _, rank, option in combo:
        for g in option.groups:  # ordered by rank, then first suit
            faces = [13 * s + rank - 1 for s in range(4) for _ in range(g[s])]
            melds.append(((rank, _first_suit(g), 0), len(melds), faces, False))
    melds.sort()  # by order; equal orders keep their places
    left = ids
    out = []
    for _, _, faces, whole in melds:
        cards, left = _take(faces, left)
        if whole:
            cards.insert(0, cards.pop())
        out.append(tuple(cards))
    leftover = []
    faces = (left | left >> 52) & FACE_BITS
    while faces:
        bit = faces & -faces
        f = bit.bit_length() - 1
        if left & bit:
            leftover.append(CARDS[f])
        if left >> 52 & bit:
            leftover.append(CARDS[f + 52])
        faces ^= bit
    return tuple(out), (), tuple(leftover), score // K_PENALTY


def _set_part(ctx: _core.Context, rank: int, option, rank_ids: int) -> SetPart:
    """The ids a set choice takes and its melds as cards, or None if a face would split."""
    taken_ids = 0
    faces = FACE_IDS[rank]
    for s, t in option.taken_suits:
        have = rank_ids & faces[s]
        if have.bit_count() != t:
            return None
        taken_ids |= have
    left = taken_ids
    melds = []
    low = rank - 1
    for j, (first, suits) in enumerate(option.set_suits):
        # by suit, then lower id first: ``rules.order_meld``'s order for a set already
        cards, left = _take(suits, left, 13, low)
        melds.append((set_order(rank, first), j, tuple(cards)))
    return taken_ids, tuple(melds)


def _take(faces, left: int, step: int = 1, low: int = 0) -> tuple[list[Card], int]:
    """The cards of faces ``step * f + low`` for ``f`` in ``faces`` (0..51 by default; the
    suits of one rank with ``step`` 13) from the ids ``left``, the lower id of a face first,
    and the ids left after them."""
    cards = []
    for f in faces:
        f = step * f + low
        if left >> f & 1:
            left ^= 1 << f
            cards.append(CARDS[f])
        else:
            left ^= 1 << (f + 52)
            cards.append(CARDS[f + 52])
    return cards, left


def _first_suit(group: tuple[int, ...]) -> int:
    return next(s for s in range(4) if group[s])
