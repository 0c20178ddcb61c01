"""A request body size limit, enforced before anything parses the body.

Every request body this server accepts is small: a move, a chat line or a name is well
under a kilobyte, and the largest, a practice table with a fixed deck, is a few. A body
far over that is a mistake or an attack, and reading and parsing megabytes of JSON holds
the event loop for everyone. :class:`BodyLimit` sits outermost and answers 413 at once
when the declared ``Content-Length`` is over the limit, and otherwise reads the body
itself, refusing it as soon as it passes the limit (a client that sends no length, or
lies about it), then hands the bytes it read to the app unchanged.
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Receive, Scope, Send

from .hotpath import replay_body

#: The limit for the requests a player sends during play (a move, "Next hand", a chat line).
SMALL_BODY = 4096
#: The limit for every other request (a new table with a fixed deck is the largest).
LARGE_BODY = 16384

_SMALL = re.compile(r"/api/tables/[^/]+/(actions|next|chat)")


def limit_for(path: str) -> int:
    """The most bytes a request body to ``path`` may have."""
    return SMALL_BODY if _SMALL.fullmatch(path) else LARGE_BODY


class BodyLimit:
    """ASGI middleware: a body over :func:`limit_for` its path is refused with 413, unread."""

    def __init__(self, app: ASGIApp, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.app = app
        self.headers = headers or []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then read at most the limit; pass the request on, or answer 413."""
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = limit_for(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await self._refuse(send, 400, "the Content-Length header is not a number")
                return
            if length > limit:
                await self._too_large(send, limit)
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._too_large(send, limit)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, replay_body(b"".join(chunks), False, receive), send)

    async def _too_large(self, send: Send, limit: int) -> None:
        await self._refuse(send, 413, f"the request body is too large: this request takes at most "
                                      f"{limit // 1024} KB")

    async def _refuse(self, send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close"), *self.headers]})
        await send({"type": "http.response.body", "body": body})
