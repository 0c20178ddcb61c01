"""uvicorn's WebSocket protocol, letting the app drop a connection that reads nothing.

A client that stops reading cannot be sent a close frame: uvicorn waits for its socket to
drain before writing anything more, and after the app returns it closes the transport
gracefully, which also waits for the drain. So the app is handed the transport's
``abort`` (as ``scope["boneyard.abort"]``) and calls it when such a client fell too far
behind: the connection is reset at once and its buffers freed.

It also hands over its own ``send`` (``scope["boneyard.send"]``): a table's pushes, the
server's most frequent message, then go straight to the socket rather than through every
middleware's wrapper of ``send`` (none of which does anything to a WebSocket message).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class AbortableWebSocketProtocol(WebSocketsSansIOProtocol):
    """The sans-I/O WebSocket protocol of uvicorn, exposing ``transport.abort`` in the scope."""

    async def run_asgi(self) -> None:
        """Run the app with the transport's ``abort`` and the protocol's ``send`` in its scope."""
        self.scope["boneyard.abort"] = self.transport.abort  # type: ignore[typeddict-unknown-key]
        self.scope["boneyard.send"] = self.send  # type: ignore[typeddict-unknown-key]
        await super().run_asgi()
