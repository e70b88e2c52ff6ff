"""uvicorn's WebSocket protocol with Nagle's algorithm off on every connection.

asyncio turns on TCP_NODELAY only for sockets whose protocol number is IPPROTO_TCP; the
listening socket uvicorn creates for several workers has protocol 0, so its connections kept
Nagle's algorithm, and each small ``ack`` after a ``state`` waited for the client's delayed
ACK: a 40-odd ms round trip with two workers against under 10 ms with one (measured with
benchmarks/classroom.py). Every WebSocket now sets TCP_NODELAY itself.
"""

from __future__ import annotations

import contextlib
import socket

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class NoDelayWebSocket(WebSocketsSansIOProtocol):
    def connection_made(self, transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
