"""A classroom room: its tables, who sits where, and the deals each table plays.

A room's tables fill in order; a table starts when its last seat is taken, or when the
teacher starts the room, which seats the teacher's bot in every empty seat. A learner who
leaves is replaced by that bot after ``replace_after`` seconds and takes the seat back with
the token issued at the join. With ``duplicate`` on (the default), deal ``k`` is the same
shuffle at every table, so a class can compare how each table played the same cards.

Everything here is also in the ``Store``: ``Table.sync`` rebuilds a table from it, which is
how a restarted server, or another worker, catches up.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from ..bots import BOT_NAMES, get_bot
from ..engine.actions import Action
from ..engine.game import Game
from ..engine.inputs import is_whole
from ..engine.rules import PRESETS
from ..errors import RuleError
from ..i18n import LANGUAGES, t
from .protocol import ProtocolError
from .store import Conflict, SeatRow, Store, digest

#: Seats a bot plays: an empty seat's, a learner's who left ("replaced", until they come
#: back) and a learner's the teacher removed ("removed", for good).
BOT_CONTROLS = ("bot", "replaced", "removed")
#: Bits of a room's secret seed (drawn from ``secrets``), and the most a teacher's may have.
SEED_BITS, SEED_BITS_MAX = 128, 256


def deal_seed(seed: int, deal: int, spread: int = 0) -> int:
    """The ``Game`` seed of deal ``deal`` in a room of secret ``seed`` (``spread``: the table's
    index when its deals differ from the other tables', else 0): 128 bits of
    HMAC-SHA256(seed, "deal:spread:deal")."""
    mac = hmac.new(str(seed).encode(), f"deal:{spread}:{deal}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest()[:16], "big")


@dataclass
class RoomConfig:
    """What the teacher chooses for a room (JSON-ready; stored with the room)."""

    players: int = 4
    bots: str = "basic"
    replace_after: float = 60.0
    deals: int = 3
    #: The room's secret: every deal's shuffle is derived from it (``deal_seed``). None
    #: until the room is made, which draws 128 bits from ``secrets`` unless the teacher
    #: chose one (for a lesson or a replay: anyone who knows it can compute the deals).
    seed: int | None = None
    duplicate: bool = True
    rules: str = "traditional"
    lang: str = "en"
    layouts: list[dict] = field(default_factory=list)  # prepared deals (``Game.to_dict``)
    closed: bool = False  # the teacher closed the room: no join, no move; records stay

    @classmethod
    def read(cls, data: object) -> RoomConfig:
        """Check a config sent by the teacher; a bad one raises ``ProtocolError``."""
        if not isinstance(data, dict) or set(data) - set(cls.__dataclass_fields__):
            raise ProtocolError("bad_field", field="config")
        config = cls(**data)
        checks = {
            "players": isinstance(config.players, int) and 2 <= config.players <= 4,
            "bots": isinstance(config.bots, str) and config.bots in BOT_NAMES,
            "replace_after": isinstance(config.replace_after, int | float)
            and 0 <= config.replace_after <= 86400,
            "deals": isinstance(config.deals, int) and 1 <= config.deals <= 1000,
            "seed": config.seed is None
            or (is_whole(config.seed) and 0 <= config.seed < 2**SEED_BITS_MAX),
            "duplicate": isinstance(config.duplicate, bool),
            "rules": isinstance(config.rules, str) and config.rules in PRESETS,
            "lang": isinstance(config.lang, str) and config.lang in LANGUAGES,
            "layouts": isinstance(config.layouts, list) and len(config.layouts) <= 100,
            "closed": config.closed is False,
        }
        for name, ok in checks.items():
            if not ok:
                raise ProtocolError("bad_field", field=name)
        for layout in config.layouts:
            if not isinstance(layout, dict) or len(layout.get("players", ())) != config.players:
                raise ProtocolError("bad_field", field="layouts")
            Game.from_dict({**layout, "history": []})  # a damaged one raises "bad_save"
        return config

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def with_secret(self) -> RoomConfig:
        """This config with a seed: the teacher's, or 128 bits from ``secrets``."""
        if self.seed is None:
            self.seed = secrets.randbits(SEED_BITS)
        return self


def give_rooms_secrets(store: Store) -> list[str]:
    """Rooms an earlier version made kept its default seed 0, so anyone with the package could
    compute their deals. Each gets a secret seed for the deals it has not dealt yet (a dealt
    deal is stored whole, so it plays on as it was). Such a room is the one whose config has
    no ``closed``, which every room made since has; a seed a teacher chose is kept."""
    upgraded = []
    for name, config in sorted(store.rooms().items()):
        if "closed" not in config and config.get("seed", 0) == 0:
            store.put_room(name, {**config, "seed": secrets.randbits(SEED_BITS), "closed": False})
            upgraded.append(name)
    return upgraded


class Table:
    """One table of a room: seats, the current deal's ``Game`` and the moves' nonces."""

    def __init__(self, room: str, index: int, config: RoomConfig) -> None:
        self.room, self.index, self.config = room, index, config
        self.seats: list[SeatRow | None] = [None] * config.players
        self.deal: int | None = None
        self.game: Game | None = None
        self.nonces: dict[str, tuple[int, int]] = {}  # nonce -> (seat, move number)
        #: Moves applied here and waiting for their group commit: until they are stored,
        #: reading the store must not settle the deal, and nothing is pushed.
        self.unstored = 0
        #: The deal before this one, kept when it ended here: its final view is pushed
        #: before the next deal's, so that every seat sees each deal's result.
        self.ended: tuple[int, Game] | None = None
        #: Penalty points per seat over the deals before ``deal``.
        self.before: list[int] = [0] * config.players
        #: Moves another worker stored and pushed, whose update this worker forwarded to
        #: its connections as it was: applied here only when the table is next needed
        #: (``catch_up``). Each is (seat, action JSON).
        self.pending: list[tuple[int, dict]] = []
        self._bots: dict[tuple[int, int], object] = {}

    @property
    def moves(self) -> int:
        return len(self.game.history) if self.game else 0

    @property
    def finished(self) -> bool:
        over = self.game is not None and self.game.phase == "over"
        return over and self.deal == self.config.deals - 1

    @property
    def totals(self) -> list[int]:
        """The match's running totals: penalty points per seat over the finished deals."""
        game = self.game
        if game is None or game.phase != "over":
            return list(self.before)
        return [a + b for a, b in zip(self.before, game.result.penalties, strict=True)]

    def deal_seed(self, deal: int) -> int:
        """Deal ``deal``'s shuffle: an HMAC keyed with the room's seed, so that nobody without
        the seed can compute it (``random.Random(k)`` of a small ``k`` anyone could)."""
        return deal_seed(self.config.seed or 0, deal, 0 if self.config.duplicate else self.index)

    # --- catching up with the store --------------------------------------------------------

    def sync(self, store: Store) -> bool:
        """Read what other workers (or an earlier run) stored; True if anything changed."""
        changed = self.catch_up()
        rows = {row.seat: row for row in store.seats(self.room, self.index)}
        seats = [rows.get(i) for i in range(self.config.players)]
        if seats != self.seats:
            self.seats, changed = seats, True
        status = store.deal_status(self.room, self.index)
        if status is None:
            return changed
        deal, has_result = status
        if deal != self.deal:  # only a new deal needs its starting game read and decoded
            deal, start, has_result = store.last_deal(self.room, self.index)
            self._begin(store, deal, Game.from_dict(start))
            changed = True
        for seat, action, nonce in store.moves(self.room, self.index, deal, since=self.moves):
            self.nonces[nonce] = (seat, self.moves)
            self.game.apply(Action.from_json(action), player=seat)
            changed = True
        if not self.unstored:
            self._settle(store, has_result)
        return changed

    def _carry(self, store: Store, deal: int) -> None:
        """Before ``deal`` replaces the deal held here: keep the held one if it just ended
        (its last moves read first, when another worker played them), and the totals before
        ``deal`` (added up here, or read from the stored results)."""
        game = self.game
        if game is not None and self.deal == deal - 1 and game.phase != "over":
            for seat, action, _ in store.moves(self.room, self.index, self.deal, since=self.moves):
                game.apply(Action.from_json(action), player=seat)
        if game is not None and game.phase == "over" and self.deal == deal - 1:
            self.before, self.ended = self.totals, (self.deal, game)
            return
        self.ended = None
        totals = [0] * self.config.players
        for _, number, _, result in store.deals(self.room, self.index):
            if number < deal and result is not None:
                totals = [a + b for a, b in zip(totals, result["penalties"], strict=True)]
        self.before = totals

    def _settle(self, store: Store, has_result: bool) -> None:
        """After a deal's last move: its result, then the next deal. Also run on reading the
        store, in case a worker died between the last move and these two writes."""
        if self.game is None or self.game.phase != "over":
            return
        if not has_result:
            store.finish_deal(self.room, self.index, self.deal, self.result())
        if self.deal + 1 < self.config.deals:
            self.start_deal(store, self.deal + 1)

    # --- playing ---------------------------------------------------------------------------

    def new_game(self, deal: int) -> Game:
        """Deal ``deal``'s starting game, made from the room's config and the seats' names:
        the same in every worker (the same shuffle at every table when duplicate)."""
        names = [row.name for row in self.seats]
        layouts = self.config.layouts
        if layouts:
            return Game.from_dict({**layouts[deal % len(layouts)], "players": names, "history": []})
        return Game(names, rules=self.config.rules, seed=self.deal_seed(deal))

    def start_deal(self, store: Store, deal: int) -> None:
        """Deal ``deal``, stored first, and play it from here without reading it back."""
        game = self.new_game(deal)
        try:
            store.add_deal(self.room, self.index, deal, game.to_dict())
        except Conflict:  # another worker dealt it: read it back
            self.sync(store)
            return
        self._begin(store, deal, game)

    def _begin(self, store: Store, deal: int, game: Game) -> None:
        """Hold ``deal``, stored with ``game`` as its start, in place of the deal held here."""
        self._carry(store, deal)
        self.deal, self.game, self.nonces = deal, game, {}

    async def play(self, store: Store, seat: int, action: Action, nonce: str) -> int:
        """Check ``action`` with the engine, apply it, and return its number once stored.

        An illegal move raises the engine's ``RuleError`` and changes nothing; ``Conflict``
        means another worker stored this move number first (the table is read back from
        the store). The move is committed with the others of this turn of the event loop.
        """
        if self.pending:
            self.sync(store)
        if self.game is None:
            raise ProtocolError("not_started")
        if self.game.phase == "over":
            raise RuleError("deal_over")
        if seat != self.game.current_player:
            raise RuleError("not_your_turn", player=self.game.names[self.game.current_player])
        number = self.moves
        self.game.apply(action, seat)  # the engine checks before it changes anything
        played = self.game.history[-1][1]  # the copy of a card actually held
        self.nonces[nonce] = (seat, number)
        self.unstored += 1
        try:
            await store.queue_move(
                self.room, self.index, self.deal, number, seat, played.to_json(), nonce
            )
        except BaseException:
            self.unstored -= 1
            store.drop_queued(self.room, self.index)  # moves played on top of this one
            self.deal = self.game = None  # not stored: read the table back as the store has it
            self.sync(store)
            raise
        self.unstored -= 1
        self._settle(store, has_result=False)
        return number

    def follow(
        self, store: Store, deal: int, number: int, seat: int, action: dict, nonce: str
    ) -> bool:
        """Apply a move another worker stored and announced, without reading the store;
        False when it does not follow on from this table as it is here (then ``sync``).
        A move that ends the deal is followed by the next deal (``_dealt_elsewhere``)."""
        self.catch_up()
        if self.unstored or self.deal != deal or self.moves != number or self.game is None:
            return False
        if self.game.phase == "over" or self.game.current_player != seat:
            return False
        try:
            self.game.apply(Action.from_json(action), seat)
        except RuleError:
            self.deal = self.game = None
            return False
        self.nonces[nonce] = (seat, number)
        return self.game.phase != "over" or self._dealt_elsewhere(store)

    def _dealt_elsewhere(self, store: Store) -> bool:
        """After the last move of the deal held here, which another worker stored: take on
        the result and the next deal that worker stored after it, without reading the game
        back (it is ``new_game``, made here the same way). False, for ``sync`` to read and
        settle it, if the store does not hold them (that worker stopped in between)."""
        status = store.deal_status(self.room, self.index)
        if self.deal + 1 >= self.config.deals:
            return status == (self.deal, True)
        if status != (self.deal + 1, False):
            return False
        self._begin(store, self.deal + 1, self.new_game(self.deal + 1))
        return True

    def defer(self, deal: int, number: int, seat: int, action: dict, nonce: str) -> bool:
        """Keep a move another worker stored (and whose update was forwarded) to apply
        when the table is next needed; False when it does not follow on from the table
        here. The worker that stored it checked it, and it did not end the deal."""
        game = self.game
        if self.unstored or game is None or self.deal != deal:
            return False
        if self.moves + len(self.pending) != number:
            return False
        self.pending.append((seat, action))
        self.nonces[nonce] = (seat, number)
        return True

    def catch_up(self) -> bool:
        """Apply the deferred moves; True if there were any. One that does not apply (the
        engine refuses it, or it ends the deal) empties the table: ``sync`` reads it."""
        pending, self.pending = self.pending, []
        if self.game is None:
            return bool(pending)
        for seat, action in pending:
            try:
                self.game.apply(Action.from_json(action), seat)
            except RuleError:
                self.deal = self.game = None
                return True
        if pending and self.game.phase == "over":
            self.deal = self.game = None
        return bool(pending)

    def result(self) -> dict:
        res = self.game.result
        controls = [row.control for row in self.seats]
        return {
            "winner": res.winner,
            "rummy": res.rummy,
            "void": res.void,
            "penalties": list(res.penalties),
            "names": list(self.game.names),
            "controls": controls,
            "moves": self.moves,
        }

    def bot_move(self) -> tuple[int, Action] | None:
        """The move of a bot whose turn it is (an empty seat's or a replaced learner's)."""
        self.catch_up()
        game = self.game
        if game is None or game.phase == "over" or self.config.closed:
            return None
        seat = game.current_player
        row = self.seats[seat]
        if row is None or row.control not in BOT_CONTROLS:
            return None
        key = (self.deal, seat)
        if key not in self._bots:
            self._bots = {k: v for k, v in self._bots.items() if k[0] == self.deal}
            self._bots[key] = get_bot(self.config.bots, seed=self.deal_seed(self.deal) + seat)
        try:
            action = self._bots[key].act(game.observation(seat))
        except Exception:  # a bot's bug must not stop a learner's table
            action = None
        if not isinstance(action, Action) or action not in game.legal_actions():
            action = game.legal_actions()[0]
        return seat, action


class Room:
    """A room's tables, rebuilt from the store; seats are taken through ``join``."""

    def __init__(self, name: str, config: RoomConfig) -> None:
        self.name, self.config = name, config
        self.tables: dict[int, Table] = {}

    def table(self, index: int) -> Table:
        if index not in self.tables:
            self.tables[index] = Table(self.name, index, self.config)
        return self.tables[index]

    def load(self, store: Store) -> None:
        for index in sorted({row.tbl for row in store.seats(self.name)}):
            self.table(index).sync(store)

    def join(
        self, store: Store, name: str, token: str | None, max_tables: int = 25
    ) -> tuple[Table, int, str]:
        """Seat a learner: the seat its token names, else the first free one of the first
        ``max_tables`` tables. Returns the table, the seat and the token (new, or the one
        given)."""
        if token is not None:
            row = store.seat_by_token(self.name, token)
            if row is None:
                raise ProtocolError("bad_token")
            if row.control == "removed":
                raise ProtocolError("removed")
            table = self.table(row.tbl)
            if row.control == "replaced":
                store.set_control(self.name, row.tbl, row.seat, "human")
            table.sync(store)
            return table, row.seat, token
        token = secrets.token_urlsafe(24)
        for index in range(max_tables):
            table = self.table(index)
            if table.deal is not None:
                continue  # a started table never has a free seat again
            table.sync(store)
            if table.deal is not None:
                continue
            for seat, row in enumerate(table.seats):
                if row is not None:
                    continue
                try:
                    store.add_seat(self.name, SeatRow(index, seat, name, digest(token), "human"))
                except Conflict:
                    continue  # taken meanwhile by a learner on another worker
                table.sync(store)
                if all(table.seats):
                    table.start_deal(store, 0)
                return table, seat, token
        raise ProtocolError("room_full")

    def start(self, store: Store) -> list[Table]:
        """Seat bots in the empty seats of every table with a learner, and deal."""
        started = []
        for table in list(self.tables.values()):
            table.sync(store)
            if table.deal is not None or not any(table.seats):
                continue
            for seat, row in enumerate(table.seats):
                if row is None:
                    name = f"classroom.bot_seat.{self.config.bots}"
                    bot = t(name, self.config.lang, n=seat + 1)
                    with contextlib.suppress(Conflict):
                        store.add_seat(self.name, SeatRow(table.index, seat, bot, None, "bot"))
            table.sync(store)
            table.start_deal(store, 0)
            started.append(table)
        return started
