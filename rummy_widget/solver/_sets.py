"""Sets within one rank: which of a rank's cards can go into sets or onto table sets.

A rank's cards are described by a vector of counts per suit (S, H, D, C), each 0..2. An option
takes a part of that vector and shows how it is fully used: new sets made from the hand and
cards laid off onto table sets whose room is shared between suits (``Rules`` variants with a
maximum size but repeated suits). Table sets whose room is per suit (every preset) are handled
as free slots by the run solver instead, which keeps this list short.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import product
from operator import itemgetter

Vector = tuple[int, int, int, int]


@dataclass(frozen=True)
class SetOption:
    """Use ``taken`` of a rank's cards: ``groups`` as new sets, ``lays`` onto table sets."""

    taken: Vector
    groups: tuple[Vector, ...]
    lays: tuple[tuple[int, Vector], ...]  # (table meld index, cards laid off onto it)

    @cached_property
    def lay_count(self) -> int:
        return sum(sum(v) for _, v in self.lays)

    @cached_property
    def delta(self) -> int:
        """``taken`` as face counts of rank 1 (suit s at bit ``52 * s``): what the choice
        takes from a hand's counts, shifted by ``4 * (rank - 1)``."""
        t = self.taken
        return t[0] | t[1] << 52 | t[2] << 104 | t[3] << 156

    @cached_property
    def in_order(self) -> tuple[tuple[int, Vector], ...]:
        """(first suit, set) for each new set, by first suit: their order on the table."""
        firsts = [(next(s for s in range(4) if g[s]), g) for g in self.groups]
        return tuple(sorted(firsts, key=itemgetter(0)))  # stable: equal first suits keep order

    @cached_property
    def taken_suits(self) -> tuple[tuple[int, int], ...]:
        """(suit, cards taken) for each suit the choice takes cards of."""
        return tuple((s, t) for s, t in enumerate(self.taken) if t)

    @cached_property
    def set_suits(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """``in_order`` with each set as the suits of its cards, in suit order."""
        return tuple(
            (first, tuple(s for s in range(4) for _ in range(g[s]))) for first, g in self.in_order
        )


def sub_vectors(vec: Vector) -> list[Vector]:
    """Every part of ``vec``, largest total first (sets are tried before runs)."""
    parts = [tuple(p) for p in product(*(range(c + 1) for c in vec))]
    return sorted(parts, key=lambda v: (-sum(v), [-x for x in v]))


def _sub(a: Vector, b: Vector) -> Vector:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def _add(a: Vector, b: Vector) -> Vector:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class RankSets:
    """The options of one rank under one set rule, with table sets of shared room."""

    def __init__(
        self, is_set: Callable[[Vector], bool], table_sets: tuple[tuple[int, Vector], ...] = ()
    ) -> None:
        known: dict[Vector, bool] = {}

        def cached_is_set(vec: Vector) -> bool:
            found = known.get(vec)
            if found is None:
                found = known[vec] = is_set(vec)
            return found

        self.is_set = cached_is_set
        self.table_sets = table_sets
        self.cache: dict[Vector, tuple[SetOption, ...]] = {}
        # vector -> the options ``undominated`` keeps, by reach (``fill``, no table sets only)
        self.kept: dict[Vector, tuple[tuple[SetOption, ...], ...]] = {}
        self._groups: dict[Vector, tuple[Vector, ...] | None] = {}

    def fill(self) -> RankSets:
        """Work out the options of every vector (0..2 cards of each suit) now, not on demand,
        and, without table sets (no lay-offs), the ones kept for each reach."""
        for vec in sub_vectors((2, 2, 2, 2)):
            every = self.options(vec)
            if not self.table_sets:
                self.kept[vec] = undominated(every)
        return self

    def options(self, vec: Vector) -> tuple[SetOption, ...]:
        """Every way to use part of ``vec``, sets first; ``taken == (0,0,0,0)`` is last."""
        found = self.cache.get(vec)
        if found is None:
            found = tuple(o for o in map(self._best_use, sub_vectors(vec)) if o is not None)
            self.cache[vec] = found
        return found

    def _best_use(self, taken: Vector) -> SetOption | None:
        """Fewest lay-offs, then fewest sets, that use exactly ``taken``; None if impossible."""
        best: SetOption | None = None
        for lays, rest in self._lay_choices(0, taken):
            groups = self._partition(rest)
            if groups is None:
                continue
            option = SetOption(taken, groups, lays)
            if best is None or (option.lay_count, len(groups)) < (best.lay_count, len(best.groups)):
                best = option
        return best

    def _lay_choices(self, i: int, rest: Vector):
        if i == len(self.table_sets):
            yield (), rest
            return
        index, table = self.table_sets[i]
        for part in sub_vectors(rest):
            if any(part) and not self.is_set(_add(table, part)):
                continue
            for lays, left in self._lay_choices(i + 1, _sub(rest, part)):
                yield (((index, part), *lays) if any(part) else lays), left

    def _partition(self, vec: Vector) -> tuple[Vector, ...] | None:
        """Split ``vec`` into as few new sets as possible, or None."""
        if vec in self._groups:
            return self._groups[vec]
        best: tuple[Vector, ...] | None = None
        if not any(vec):
            best = ()
        else:
            first = next(i for i, c in enumerate(vec) if c)
            for part in sub_vectors(vec):
                if not part[first] or not self.is_set(part):
                    continue
                rest = self._partition(_sub(vec, part))
                if rest is not None and (best is None or len(rest) + 1 < len(best)):
                    best = (part, *rest)
        self._groups[vec] = best
        return best


GUARDS = 0x8888  # bit 3 of each suit's 4-bit field in a packed vector
# suits (4 bits) -> the reach masks (bit r for reach r) sharing no suit with them
DISJOINT = tuple(sum(1 << r for r in range(16) if not r & d) for d in range(16))


def undominated(every: tuple[SetOption, ...]) -> tuple[tuple[SetOption, ...], ...]:
    """For each reach (bit s: suit s's cards may join runs), the options without lay-offs that
    no other option beats: one beats another when it takes the same cards of the reaching suits
    and more of the others (each card more would otherwise be left over, costing more).

    ``every`` comes largest first, so only earlier options can take more.
    """
    packed = [o.taken[0] | o.taken[1] << 4 | o.taken[2] << 8 | o.taken[3] << 12 for o in every]
    beaten = []  # per option: bit r set when some option beats it under reach r
    for i, mine in enumerate(packed):
        under = 0
        for other in packed[:i]:
            if other != mine and ((other | GUARDS) - mine) & GUARDS == GUARDS:
                more = other ^ mine
                more |= more >> 1 | more >> 2 | more >> 3
                under |= DISJOINT[(more & 1) | (more >> 3 & 2) | (more >> 6 & 4) | (more >> 9 & 8)]
        beaten.append(under)
    return tuple(
        tuple(o for o, under in zip(every, beaten, strict=True) if not under >> reach & 1)
        for reach in range(16)
    )
