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
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import RuleError
from . import board
from .hub import Conn, Hub
from .protocol import ProtocolError, decode, encode, error
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
    address = ws.client.host if ws.client else ""
    await ws.accept()
    if hub.connections.get(address, 0) >= settings.max_connections:
        refusal = ProtocolError("too_many_connections", limit=settings.max_connections)
        await ws.send_text(encode(error(refusal, "en")))
        await ws.close(code=1008)
        return
    hub.connections[address] = hub.connections.get(address, 0) + 1
    write = ws.scope.get("extensions", {}).get(WRITE)  # uvicorn with our protocol
    conn = Conn(
        ws.send_text,
        write=write,
        tokens=settings.burst,
        strikes=settings.burst,
        address=address,
        close_socket=lambda code: ws.close(code=code),
    )
    try:
        await _serve(ws, hub, conn)
    except WebSocketDisconnect:
        pass
    finally:
        hub.connections[address] -= 1
        if not hub.connections[address]:
            del hub.connections[address]
        await hub.left(conn)


async def _serve(ws: WebSocket, hub: Hub, conn: Conn) -> None:
    """Read the connection's frames until it closes, or the server closes it."""
    settings = hub.settings
    while not conn.closing:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text", frame.get("bytes"))
        try:
            if not conn.allow(settings.rate, settings.burst):
                raise rate_refusal(conn, settings.rate)
            await hub.handle(conn, decode(text))
        except RuleError as err:
            await hub.refuse(conn, err, text)


def rate_refusal(conn: Conn, rate: float) -> ProtocolError:
    """``classroom.rate``, saying when the next message will be read (``retry_after``,
    seconds) and the rate, so that a client can pace itself instead of being refused."""
    refusal = ProtocolError("rate")
    refusal.extra = {"retry_after": round(max(0.0, 1 - conn.tokens) / rate, 4), "rate": rate}
    return refusal


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
    # A page on another name that resolves to this server (DNS rebinding) is refused.
    hosts = [Middleware(TrustedHostMiddleware, allowed_hosts=settings.allowed_hosts or ["*"])]
    return Starlette(routes=routes, lifespan=lifespan, middleware=hosts)


def app_from_env() -> Starlette:
    return build(Settings.from_env())
