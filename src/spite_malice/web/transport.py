"""The WebSocket code ``spite-malice serve`` runs under uvicorn: uvicorn's sans-I/O
``websockets`` protocol, which answers a handshake it refuses.

uvicorn has three WebSocket implementations. Measured with a trivial echo on this stack
(``python -m spite_malice.bench.ws_floor``, docs/deploying.md "The floor"), the sans-I/O one
(``websockets-sansio``, uvicorn's automatic choice, and the one its deprecated ``websockets``
will point at) costs a server about a third less CPU a message than the legacy
``websockets`` one the server ran before, and less than ``wsproto``.

Used as it is, it holds a handshake open unanswered when the request cannot be parsed (a
request line over 8 KB, too many or too long headers): the ``websockets`` library writes its
refusal (414, 431) into the connection's output, but uvicorn only sends that output once it
sees a request or a parse error of a frame. :class:`GameSocketProtocol` sends it and closes
the connection, as the legacy protocol did (with 400 for everything).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class GameSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, answering a handshake it could not parse."""

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (
            not self.handshake_initiated
            and self.conn.handshake_exc is not None
            and not self.transport.is_closing()
        ):
            # the refusal the websockets library wrote (or its end of stream): sent, closed
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()


__all__ = ["GameSocketProtocol"]
