"""Per-address rate limits (the ``limits`` library) and the caps on open tables and WebSockets.

Limits are counted per client address (``request.client.host``; behind a reverse proxy
run uvicorn with ``--forwarded-allow-ips`` so that this is the player's address, see
``docs/deploy.md``). A client over a limit gets 429 with ``Retry-After``.
"""

from __future__ import annotations

import collections
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from .clients import CLOSE_TOO_MANY
from .tables import TooManyRequests

WHAT = {"create": "new tables", "join": "joins", "act": "actions", "register": "new player codes",
        "claim": "player codes tried"}


@dataclass(frozen=True)
class LimitSettings:
    """The limits of one server, as ``limits`` strings ("30/minute"); None switches one off."""

    create: str | None = "30/minute"
    join: str | None = "60/minute"
    act: str | None = "20/second"
    open_tables: int | None = 50  # unfinished tables one address may have opened
    sockets: int | None = 200  # WebSocket connections one address may hold open at once
    register: str | None = "10/minute"  # new player codes (as many as codes may be tried at /me)
    claim: str | None = "10/minute"  # seats linked to a player code: each checks a code

    @classmethod
    def parse(cls, text: str) -> LimitSettings:
        """``"off"`` or ``"create=30/minute,join=60/minute,act=20/second,open=50,sockets=200,register=10/minute,
        claim=10/minute"`` (any subset)."""
        if text.strip().lower() == "off":
            return cls(None, None, None, None, None, None, None)
        values: dict[str, str | int | None] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key in ("open", "sockets"):
                if value == "off":
                    values["open_tables" if key == "open" else key] = None
                elif not value.isdigit():
                    raise ValueError(f"{key}= takes a number ({'tables' if key == 'open' else 'connections'}) "
                                     f"or off, not {value!r}")
                else:
                    values["open_tables" if key == "open" else key] = int(value)
            elif key in WHAT:
                values[key] = None if value == "off" else _checked(value)
            else:
                raise ValueError(f"unknown limit {key!r}: use create=, join=, act=, register=, claim=, open= or "
                                 "sockets=")
        return cls(**values)  # type: ignore[arg-type]


def _checked(value: str) -> str:
    try:
        parse(value)
    except ValueError:
        raise ValueError(f"bad rate {value!r}: write it like 30/minute or 5/second") from None
    return value


class RateLimits:
    """Moving-window counters per (kind, address), kept in this process's memory."""

    def __init__(self, settings: LimitSettings | None = None) -> None:
        self.settings = settings or LimitSettings()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[str, RateLimitItem] = {}
        for kind in WHAT:
            value = getattr(self.settings, kind)
            if value is not None:
                self._items[kind] = parse(value)

    def hit(self, kind: str, address: str) -> None:
        """Count one request of ``kind`` from ``address``; ``TooManyRequests`` when over its limit."""
        item = self._items.get(kind)
        if item is None:
            return
        if self._limiter.hit(item, kind, address):
            return
        stats = self._limiter.get_window_stats(item, kind, address)
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise TooManyRequests(f"too many {WHAT[kind]} from your address (at most {item}): try again in {retry} s",
                              retry)

    def check_open_tables(self, open_now: int) -> None:
        """Refuse a new table when its creator already has the most unfinished tables allowed."""
        cap = self.settings.open_tables
        if cap is not None and open_now >= cap:
            raise TooManyRequests(f"you already have {open_now} unfinished tables open (at most {cap}): finish one "
                                  "or wait until an idle one expires", 60)



class SocketCap:
    """ASGI middleware: at most ``cap`` WebSocket connections open at once per client address.

    Every WebSocket of the app (a table's, the friends room's) counts. One over the cap is
    accepted and closed at once with :data:`~boneyard.server.clients.CLOSE_TOO_MANY`, so
    that the client reads a code and a reason rather than a failed handshake.
    """

    def __init__(self, app: ASGIApp, cap: int | None) -> None:
        self.app = app
        self.cap = cap
        self.open: collections.Counter[str] = collections.Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the connection while it lasts; refuse it when its address is at the cap."""
        if scope["type"] != "websocket" or self.cap is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if self.open[address] >= self.cap:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TOO_MANY,
                        "reason": f"too many connections from your address (at most {self.cap})"})
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]
