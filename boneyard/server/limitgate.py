"""Rate limits counted at the door: every request to a limited route counts, valid or not.

The per-address limits (``ratelimit.py``) used to be counted inside each route, after
FastAPI had read and validated the body. A client sending malformed or oversized bodies
was refused (413, 422) without ever being counted, so it could keep the server parsing
for free. :class:`LimitGate` sits in front of everything else and counts a request by its
method and path alone, before its body is read: a client over its limit is answered 429
at once, and what it sent is never parsed.

The routes counted here (``ROUTES``) no longer count themselves, so each request counts
once whichever way it is answered (the hot path, a route, a refusal).
"""

from __future__ import annotations

import json
import re

from starlette.types import ASGIApp, Receive, Scope, Send

from .ratelimit import RateLimits
from .tables import TooManyRequests

#: (method, path pattern, limit kind): the requests counted against each kind of limit.
ROUTES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"/api/tables"), "create"),
    ("POST", re.compile(r"/api/events"), "create"),  # a club event (tourney.py) counts as a table made
    ("POST", re.compile(r"/api/tables/[^/]+/join"), "join"),
    ("POST", re.compile(r"/api/tables/[^/]+/(actions|next)"), "act"),
    ("POST", re.compile(r"/api/players"), "register"),
    ("POST", re.compile(r"/api/tables/[^/]+/claim"), "claim"),
)


def limit_kind(method: str, path: str) -> str | None:
    """Which limit a request to ``method path`` counts against (None: it counts against none here)."""
    for want, pattern, kind in ROUTES:
        if method == want and pattern.fullmatch(path):
            return kind
    return None


class LimitGate:
    """ASGI middleware: count a limited request before its body is read; 429 with ``Retry-After`` past the limit."""

    def __init__(self, app: ASGIApp, rate: RateLimits, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.app = app
        self.rate = rate
        self.headers = headers or []  # the security headers every answer carries

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the request against its route's limit, then pass it on, or refuse it unread."""
        if scope["type"] == "http":
            kind = limit_kind(scope["method"], scope["path"])
            if kind is not None:
                client = scope.get("client")
                try:
                    self.rate.hit(kind, client[0] if client else "unknown")
                except TooManyRequests as err:
                    await self._refuse(send, err)
                    return
        await self.app(scope, receive, send)

    async def _refuse(self, send: Send, err: TooManyRequests) -> None:
        body = json.dumps({"detail": str(err)}).encode()
        extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (err.headers or {}).items()]
        # the body is left unread: the connection closes rather than reading it to reuse it
        await send({"type": "http.response.start", "status": err.status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close"), *extra, *self.headers]})
        await send({"type": "http.response.body", "body": body})
