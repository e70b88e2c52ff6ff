"""``rummy-widget classroom``: start the server and print where learners and the teacher go."""

from __future__ import annotations

import argparse
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


def origin_of(address: str) -> str:
    """The origin a browser sends for a page: scheme and host of what the teacher pasted from
    the address bar (``http://localhost:8888/lab/tree/x.ipynb`` -> ``http://localhost:8888``)."""
    parts = urlsplit(address.strip())
    if address.strip() == "*" or not parts.scheme or not parts.netloc:
        return address.strip()
    return f"{parts.scheme}://{parts.netloc}".lower()


def address(host: str, port: int) -> str:
    """The address to give learners: this machine's name on the network when serving all."""
    if host in ("0.0.0.0", "::"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect(("10.255.255.255", 1))  # UDP: no packet is sent
                host = probe.getsockname()[0]
            except OSError:
                host = socket.gethostname()
    return f"http://{host}:{port}"


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ..bots import BOT_NAMES
    from .store import Store

    if args.workers > 1 and not args.redis:
        raise SystemExit("--workers above 1 needs --redis URL to share the tables")
    if args.bots not in BOT_NAMES:
        raise SystemExit(f"--bots: choose one of {', '.join(BOT_NAMES)}")
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
    )
    store = Store(settings.database)
    import secrets

    key = store.setting("teacher_key", lambda: secrets.token_urlsafe(24))
    store.close()
    url = address(args.host, args.port)
    print(f"Learners join: {url}  (room: any short name, e.g. KETTU)", flush=True)
    print(f"Teacher's board: {url}/board#key={key}", flush=True)
    print(f"Teacher key: {key}", flush=True)
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
    )
    return 0
