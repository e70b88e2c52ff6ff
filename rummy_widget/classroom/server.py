"""The classroom server: a Starlette app on uvicorn, one WebSocket route for every seat and
spectator, and the teacher's board and its JSON and CSV under a key.

Each WebSocket message goes through ``protocol.decode`` (size, shape, version) and a rate
limit before the hub sees it; anything refused gets a localized ``error`` and changes
nothing. A browser's WebSocket must come from the server's own origin or one the teacher
allowed (``--origin``), so another page cannot play a learner's seat through their browser.
"""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import RuleError
from . import board
from .hub import Conn, Hub
from .protocol import ProtocolError, decode
from .settings import Settings
from .websocket import WRITE


def origin_allowed(origin: str | None, host: str | None, allowed: list[str]) -> bool:
    """No Origin header (a script, not a browser), the server's own, or one allowed."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    return host is not None and urlsplit(origin).netloc == host


async def seat_socket(ws: WebSocket) -> None:
    hub: Hub = ws.app.state.hub
    settings = hub.settings
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings.origins):
        await ws.close(code=1008)
        return
    await ws.accept()
    write = ws.scope.get("extensions", {}).get(WRITE)  # uvicorn with our protocol
    conn = Conn(ws.send_text, write=write, tokens=settings.burst)
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            message = None
            try:
                if not conn.allow(settings.rate, settings.burst):
                    raise ProtocolError("rate")
                message = decode(frame.get("text", frame.get("bytes")))
                await hub.handle(conn, message)
            except RuleError as err:
                await hub.reply_error(conn, err, message)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.left(conn)


def build(settings: Settings) -> Starlette:
    """The app for these settings; uvicorn's workers call ``app_from_env`` instead."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.hub = Hub(settings)
        await app.state.hub.start()
        yield
        await app.state.hub.close()

    async def health(request: Request):
        from starlette.responses import PlainTextResponse

        return PlainTextResponse("ok")

    routes = [
        WebSocketRoute("/ws", seat_socket),
        Route("/health", health),
        *board.routes(),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def app_from_env() -> Starlette:
    return build(Settings.from_env())
