"""uvicorn's WebSocket protocol as the classroom runs it: Nagle's algorithm off, no pause of
the socket for every message read, and a direct write for the hub's pushes.

- TCP_NODELAY. asyncio turns it on only for sockets whose protocol number is IPPROTO_TCP;
  the listening socket uvicorn creates for several workers has protocol 0, so its
  connections kept Nagle's algorithm, and each small ``ack`` after a ``state`` waited for the
  client's delayed ACK: a 40-odd ms round trip with two workers against under 10 ms with one
  (measured with benchmarks/classroom.py). Every WebSocket now sets TCP_NODELAY itself.
- Reading. uvicorn stops reading a socket as soon as one message waits for the app and
  starts again when the app has taken it: two ``epoll_ctl`` calls for every message a
  client sends (about 6 % of the server's CPU under benchmarks/classroom.py). Here reading
  stops only once ``QUEUED`` messages wait, so a client sending faster than the app reads
  is still held back, and the rate limit (``Conn.allow``) still refuses the excess; at most
  ``QUEUED`` frames of up to ``ws_max_size`` (16 KiB), 256 KiB, wait for the app a connection.
- Reading into one buffer. asyncio reads a plain protocol's socket with ``recv(262144)``,
  which allocates (and, above the allocator's mmap threshold, maps and unmaps) a quarter
  megabyte for each read: about 12 µs a read against 2.5 µs for ``recv_into`` a buffer
  already there (a 700-byte message on a socket pair). As a ``BufferedProtocol`` the
  connection is read into one buffer that the worker's connections share (the loop reads
  one socket at a time, and each read's bytes are copied out before the next).
- Writing. ``write_now`` (the ASGI scope's extension ``rummy.write``) frames text messages
  and hands them to the socket in one write, in the caller's turn of the event loop, when
  the socket is open and not applying back-pressure; otherwise it returns False and the
  caller goes through the ordinary ASGI ``send``. The same frames leave, in the same order:
  a client cannot tell the difference, except that a seat's update and the ``ack`` after it
  arrive in one TCP segment.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

#: Messages read ahead of the app before the socket stops being read.
QUEUED = 16
#: The scope extension naming ``write_now``.
WRITE = "rummy.write"
#: What each read of any connection goes into (then copied out at once).
_READ = memoryview(bytearray(64 * 1024))


class NoDelayWebSocket(WebSocketsSansIOProtocol, asyncio.BufferedProtocol):
    def get_buffer(self, sizehint: int) -> memoryview:
        return _READ

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(_READ[:nbytes]))

    def connection_made(self, transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        self.scope.setdefault("extensions", {})[WRITE] = self.write_now

    def send_receive_event_to_app(self) -> None:
        if self.read_paused or self.queue.qsize() + 1 >= QUEUED:
            super().send_receive_event_to_app()  # pauses reading (if it was not paused)
            return
        self.read_paused = True  # so that uvicorn does not pause reading for this one
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    def write_now(self, texts: list[str]) -> bool:
        """Send ``texts`` as text frames in one socket write; False if that cannot be done
        now (closing, closed, or the socket's buffer full), and nothing was sent."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            for text in texts:
                self.conn.send_text(text.encode())
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
