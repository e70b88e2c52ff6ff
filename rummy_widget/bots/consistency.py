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

When the opponent drew from the stock, which of its cards was the drawn one is not known.
``misfits`` picks one at random among those it could have been, which accepts a world with
the chance that an expert would have played as observed, but makes the real hand misfit
deeper turns whenever the pick is wrong. ``fewest_misfits`` chooses the drawn cards to fit
(the real hand then always fits, however deep the check), and ``fit_likelihood`` averages
over them. docs/bots.md ("Third round") measures the three: choosing to fit guesses best.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..engine.actions import Action
from ..engine.cards import Card
from .expert import ExpertBot, Style
from .memory import Memory
from .seen import CARDS, Seen
from .turn import Turn, placed


class Judge(ExpertBot):
    """The expert that rebuilt past turns are put to: it plays like ``ExpertBot`` but reads
    the public log once per past position, not once per guessed hand.

    Checking a world asks the expert about the same past position with many hands; reading
    the log for each was a fifth of the time. The hand changes only which cards the seat
    knows it holds and which are unseen, so those are derived from one read without a hand
    (the same ``Memory`` as ``Memory.read``; a test compares them)."""

    def __init__(self, seed: int = 0, style: Style | None = None, memo: dict | None = None):
        super().__init__(seed, style)
        if memo is not None:
            self._memo = memo  # same rules, same answers: share the solver cache
        self._bases: dict[tuple[int, int, int], tuple[list, Memory]] = {}

    def memory(self, seen: Seen) -> Memory:
        key = (seen.seat, len(seen.log), tuple(c.id for c in seen.hand))
        if key != self._memory_key:
            self._memory_key, self._memory = key, self._with_hand(seen)
        return self._memory

    def _with_hand(self, seen: Seen) -> Memory:
        # Keyed by the log object itself (kept alive with the answer, so its id stays its
        # own): past positions are rebuilt once per search, each with its own log slice.
        found = self._bases.get(key := (seen.seat, len(seen.log), id(seen.log)))
        if found is None:
            found = self._bases[key] = (seen.log, Memory.read(replace(seen, hand=[])))
        base = found[1]
        held = {c.id for c in seen.hand}
        unseen = [c for c in base.unseen if c.id not in held]
        if len(unseen) + len(held) != len(base.unseen):
            return Memory.read(seen)  # a hand holding a visible card: read it plainly
        live = list(base.live)
        for card in seen.hand:
            live[card.face_index] -= 1
        known = list(base.known)
        known[seen.seat] = sorted(seen.hand)
        return Memory(known, base.took, base.discarded, unseen, live)

    def would_discard(self, turn: Turn, cards: list[Card], face: int) -> bool:
        """Is a card of ``face`` what ``choose_discard`` throws from ``cards``? The same order
        as ``discard_choices`` (``discard_key``), but it stops at the first card that beats
        ``face``: most guessed hands misfit, and they do so without scoring every discard."""
        memory = self.memory(turn.seen)
        options = turn.discardable(cards)

        def key(card: Card) -> tuple[float, int, int]:
            return self.discard_key(turn, cards, card, memory)

        mine = [key(c) for c in options if c.id % 52 == face]
        if not mine:
            return False
        best = min(mine)
        return all(key(c) > best for c in options if c.id % 52 != face)


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
    hand in one world) would have made otherwise. Walks back from the most recent turn; a stock
    draw's card is one of those it could have been, at random."""
    count = 0
    cards = list(hand)
    for past in turns:
        after = cards + list(past.played)
        count += play_misfit(past, after, bot)
        options = draw_options(past, after)
        if not options:
            return count
        drawn = options[0] if past.took is not None else options[rng.randrange(len(options))]
        before = [c for c in after if c != drawn]
        count += draw_misfit(past, before, bot)
        cards = before
    return count


class Verdicts:
    """The expert's verdicts on a world's past turns, each asked once per hand: paths that
    drew the same cards in another order reach the same hand, and share the answer."""

    def __init__(self, turns: list[PastTurn], bot: ExpertBot) -> None:
        self.turns, self.bot = turns, bot
        self.asked = 0  # expert decisions made (answers looked up again are free)
        self._memo: dict[tuple, int] = {}

    def play(self, k: int, after: list[Card], ids: frozenset[int]) -> int:
        """``play_misfit`` of turn ``k`` with ``after`` (whose card ids are ``ids``)."""
        return self._ask((k, "play", ids), play_misfit, after)

    def draw(self, k: int, before: list[Card], ids: frozenset[int]) -> int:
        """``draw_misfit`` of turn ``k`` with ``before`` (whose card ids are ``ids``)."""
        return self._ask((k, "draw", ids), draw_misfit, before)

    def _ask(self, key: tuple, verdict, cards: list[Card]) -> int:
        if key not in self._memo:
            self.asked += 1
            self._memo[key] = verdict(self.turns[key[0]], cards, self.bot)
        return self._memo[key]


def fewest_misfits(
    turns: list[PastTurn],
    hand: list[Card],
    bot: ExpertBot,
    rng: random.Random,
    checks: int = 60,
    most: int = 2,
) -> int:
    """Like ``misfits``, but each stock draw's card is *chosen to fit*: the fewest decisions
    an expert holding ``hand`` would have made otherwise, over the cards each stock draw could
    have brought (a depth-first search that stops at the first path fitting every turn).

    Picking the drawn card at random makes the real hand misfit deeper turns whenever the pick
    is wrong, so deep checks doubted the truth; over all the candidates the real hand, whose
    real draws are among them, always fits, and deep checks become usable. After ``checks``
    expert decisions the search tries no further candidates and returns the fewest found (the
    first path is always walked to the end, so the answer is never below the true fewest).
    A hand that misfits ``most`` times is given up on (the answer is then ``most``): such
    worlds are kept only when too few others fit, and most dealt worlds are such, so the
    search spends its checks on the likely ones."""
    verdicts = Verdicts(turns, bot)
    best = most

    def walk(k: int, cards: list[Card], count: int) -> None:
        nonlocal best
        if k == len(turns):
            best = min(best, count)
            return
        after = cards + list(turns[k].played)
        ids = frozenset(c.id for c in after)
        count += verdicts.play(k, after, ids)
        options = draw_options(turns[k], after)
        if count >= best or not options:
            best = min(best, count)
            return
        if turns[k].took is None:
            rng.shuffle(options)
        for j, drawn in enumerate(options):
            if j and (verdicts.asked >= checks or best == 0):
                return
            before = [c for c in after if c != drawn]
            walk(k + 1, before, count + verdicts.draw(k, before, ids - {drawn.id}))

    walk(0, list(hand), 0)
    return best


def fit_likelihood(
    verdicts: Verdicts, hand: list[Card], rng: random.Random, weight: float = 0.1, branch: int = 3
) -> float:
    """How likely an expert holding ``hand`` was to play ``turns`` as it did: ``weight`` to
    the power of its decisions made otherwise, *averaged* over the cards each stock draw
    could have brought (up to ``branch`` of them per draw, at random) rather than at the one
    that fits best (``fewest_misfits``) or one picked at random (``misfits``). ``verdicts``
    holds the turns and the expert that judges them.

    The drawn card is a hidden part of the world, so the chance of the log given the hand is
    an average over it: the best card overstates how well a wrong hand fits (almost any hand
    has some history that fits), one random card is right on average but noisy. Paths that
    reach two misfits stop there (their weight is ``weight ** 2``)."""
    turns, most = verdicts.turns, 2

    def value(k: int, cards: list[Card], count: int) -> float:
        if count >= most or k == len(turns):
            return weight ** min(count, most)
        after = cards + list(turns[k].played)
        ids = frozenset(c.id for c in after)
        count += verdicts.play(k, after, ids)
        options = draw_options(turns[k], after)
        if count >= most or not options:
            return weight ** min(count, most)
        if turns[k].took is None and len(options) > branch:
            options = rng.sample(options, branch)
        total = 0.0
        for drawn in options:
            before = [c for c in after if c != drawn]
            total += value(k + 1, before, count + verdicts.draw(k, before, ids - {drawn.id}))
        return total / len(options)

    return value(0, list(hand), 0)


def play_misfit(past: PastTurn, after: list[Card], bot: ExpertBot) -> int:
    """1 if an expert holding ``after`` right after ``past``'s draw would have played that
    turn otherwise (other melds, a lay-off, going out, another discard), else 0."""
    seen = replace(past.play_seen, hand=after)
    turn = Turn(seen, bot._memo)
    moves = turn.going_out()
    if moves is None and isinstance(bot, Judge):
        moves = bot.table_plays(turn)
        if not _same_plays(moves, past):
            return 1
        rest = list(after)
        for move in moves:
            for card in placed(move):
                rest.remove(card)
        return int(not bot.would_discard(turn, rest, past.discard_face))
    moves = moves or bot.plan_turn(turn)
    last = moves[-1]
    return int(
        last.kind != "discard"
        or last.card.id % 52 != past.discard_face
        or not _same_plays(moves, past)
    )


def _same_plays(moves: list[Action], past: PastTurn) -> bool:
    """Do ``moves`` put the faces on the table that ``past`` melded, with no lay-off?"""
    faces = sorted(c.id % 52 for m in moves if m.kind == "meld" for c in m.cards)
    return faces == list(past.table_faces) and not any(m.kind == "lay_off" for m in moves)


def draw_misfit(past: PastTurn, before: list[Card], bot: ExpertBot) -> int:
    """1 if an expert holding ``before`` would have drawn from the other pile, else 0 (0 too
    when there was no choice)."""
    if not past.choice or past.draw_seen.stock_size <= 0:
        return 0
    seen = replace(past.draw_seen, hand=before)
    return int(bot.choose_draw(Turn(seen, bot._memo)) != past.source)


def draw_options(past: PastTurn, after: list[Card]) -> list[Card]:
    """The cards ``past``'s draw could have brought: the pile card taken, or for a stock draw
    any card of the hand then that was not known in it before (earlier pick-ups)."""
    if past.took is not None:
        return [past.took]
    return [c for c in after if c.id not in past.held_before]
