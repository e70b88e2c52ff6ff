"""``rummy-widget classroom``: start the server and print where learners and the teacher go."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
from urllib.parse import urlsplit

from .settings import Settings


def add_parser(commands) -> None:
    cls = commands.add_parser(
        "classroom", help="serve tables to a classroom and the teacher's board"
    )
    cls.add_argument("--port", type=int, default=8765)
    cls.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    cls.add_argument(
        "--database", default="classroom.sqlite3", help="SQLite file or postgresql:// URL"
    )
    cls.add_argument("--workers", type=int, default=1, help="worker processes (more need --redis)")
    cls.add_argument(
        "--redis", default=None, help="redis://host:port, shares tables between workers"
    )
    cls.add_argument(
        "--bots", default="basic", help="the bot in empty seats and for learners who left"
    )
    cls.add_argument(
        "--replace-after",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a learner who left is replaced by the bot after this long",
    )
    cls.add_argument("--players", type=int, default=4, help="seats at each table (2-4)")
    cls.add_argument("--deals", type=int, default=3, help="deals each table plays")
    cls.add_argument("--rate", type=float, default=20.0, help="messages a second per connection")
    cls.add_argument(
        "--origin",
        action="append",
        default=[],
        help="a notebook page's address allowed to connect (http://localhost:8888); repeat it",
    )
    cls.add_argument(
        "--room",
        action="append",
        default=[],
        metavar="NAME",
        help="make this room at start (learners join only rooms the teacher made); repeat it",
    )
    cls.add_argument(
        "--lang", choices=("en", "fi"), default="en", help="language of the --room rooms' bots"
    )
    cls.add_argument(
        "--open-rooms",
        action="store_true",
        help="a learner's join makes the room (a trusted class; --rooms-per-address caps it)",
    )
    cls.add_argument("--rooms-per-address", type=int, default=3, metavar="N")
    cls.add_argument("--max-tables", type=int, default=25, metavar="N", help="tables a room")
    cls.add_argument(
        "--max-connections", type=int, default=200, metavar="N", help="sockets an address"
    )
    cls.add_argument(
        "--rotate-key",
        action="store_true",
        help="make a new teacher key (the old one stops working) and print it once",
    )
    cls.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST",
        help="another name the server is reached by (besides the printed address, localhost)",
    )
    cls.add_argument("--certfile", help="TLS certificate (PEM): serve https and wss")
    cls.add_argument("--keyfile", help="the certificate's private key (PEM)")


def origin_of(address: str) -> str:
    """The origin a browser sends for a page: scheme and host of what the teacher pasted from
    the address bar (``http://localhost:8888/lab/tree/x.ipynb`` -> ``http://localhost:8888``)."""
    parts = urlsplit(address.strip())
    if address.strip() == "*" or not parts.scheme or not parts.netloc:
        return address.strip()
    return f"{parts.scheme}://{parts.netloc}".lower()


def address(host: str, port: int, scheme: str = "http") -> str:
    """The address to give learners: this machine's name on the network when serving all."""
    if host in ("0.0.0.0", "::"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(("10.255.255.255", 1))  # UDP: no packet is sent
                host = probe.getsockname()[0]
            except OSError:
                host = socket.gethostname()
    return f"{scheme}://{host}:{port}"


def allowed_hosts(url: str, host: str, extra: list[str]) -> list[str]:
    """The ``Host`` values the server answers: the printed address, this machine's name,
    localhost, and the teacher's ``--allowed-host`` ones. Another name (a DNS rebinding
    page's) is refused."""
    names = {urlsplit(url).hostname, socket.gethostname(), "localhost", "127.0.0.1", "::1"}
    if host not in ("0.0.0.0", "::"):
        names.add(host)
    return sorted({name.lower() for name in names if name} | set(extra))


def prepare_store(args: argparse.Namespace, settings: Settings) -> str | None:
    """Before the workers start: the teacher key (the key if made now, to print once), secret
    seeds for rooms an earlier version made with seed 0, and the rooms of ``--room``."""
    from .keys import prepare
    from .protocol import ProtocolError, room_name
    from .rooms import RoomConfig, give_rooms_secrets
    from .store import Conflict, Store

    store = Store(settings.database)
    try:
        key = prepare(store, rotate=args.rotate_key)
        give_rooms_secrets(store)
        for name in args.room:
            try:
                room_name(name)
            except ProtocolError as err:
                raise SystemExit(f"--room {name!r}: {err.localized('en')}") from None
            config = RoomConfig(
                players=settings.players,
                bots=settings.bots,
                replace_after=settings.replace_after,
                deals=settings.deals,
                lang=args.lang,
            )
            if store.room(name) is None:
                with contextlib.suppress(Conflict):
                    store.add_room(name, config.with_secret().to_dict())
    finally:
        store.close()
    return key


def announce(url: str, key: str | None, rooms: list[str], open_rooms: bool) -> None:
    """Where learners, the teacher and the projector go; the key only when it was made."""
    if open_rooms:
        where = "open rooms: a learner's join makes the room"
    elif rooms:
        where = "rooms: " + ", ".join(rooms)
    else:
        where = "no rooms yet: make them on the teacher's board"
    print(f"Learners join: {url}  ({where})", flush=True)
    print(f"Teacher's board: {url}/board  (it asks for the teacher key)", flush=True)
    print(f"Projector: {url}/projector  (no key; it never shows a hand)", flush=True)
    if key is not None:
        print(f"Teacher key (shown once): {key}", flush=True)
    else:
        print("Teacher key: unchanged (lost it? start with --rotate-key for a new one)", flush=True)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..bots import BOT_NAMES

    if args.workers > 1 and not args.redis:
        raise SystemExit("--workers above 1 needs --redis URL to share the tables")
    if args.bots not in BOT_NAMES:
        raise SystemExit(f"--bots: choose one of {', '.join(BOT_NAMES)}")
    if bool(args.certfile) != bool(args.keyfile):
        raise SystemExit("--certfile and --keyfile go together")
    url = address(args.host, args.port, "https" if args.certfile else "http")
    settings = Settings(
        database=args.database,
        redis=args.redis,
        bots=args.bots,
        replace_after=args.replace_after,
        players=args.players,
        deals=args.deals,
        origins=[origin_of(o) for o in args.origin],
        rate=args.rate,
        burst=max(1, int(args.rate * 2)),
        open_rooms=args.open_rooms,
        rooms_per_address=args.rooms_per_address,
        max_tables=args.max_tables,
        max_connections=args.max_connections,
        allowed_hosts=allowed_hosts(url, args.host, args.allowed_host),
    )
    key = prepare_store(args, settings)
    announce(url, key, args.room, args.open_rooms)
    os.environ.update(settings.to_env())
    uvicorn.run(
        "rummy_widget.classroom.server:app_from_env",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        ws="rummy_widget.classroom.websocket:NoDelayWebSocket",
        ws_max_size=16384,
        ws_per_message_deflate=False,  # compressing every small state cost more than it saved
        access_log=False,
        log_level="warning",
        ssl_certfile=args.certfile,
        ssl_keyfile=args.keyfile,
    )
    return 0
