"""Per-address rate limits (the ``limits`` library) and the caps on open tables and WebSockets.

Limits are counted per client address (``request.client.host``; behind a reverse proxy
run uvicorn with ``--forwarded-allow-ips`` so that this is the player's address, see
``docs/deploy.md``). A client over a limit gets 429 with ``Retry-After``.

By default each process counts alone, in memory. With a Redis URL (``boneyard serve
--redis``) every process counts together: the rate limits in ``limits``' Redis storage, the
caps on open tables and sockets in Redis sets (``sharedlimits.py``).
"""

from __future__ import annotations

import collections
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from limits.util import WindowStats
from starlette.types import ASGIApp, Receive, Scope, Send

from .clients import CLOSE_TOO_MANY
from .sharedlimits import SOCKET_LEASE, Breaker, SharedCaps
from .tables import TooManyRequests

T = TypeVar("T")
PENDING_LEASE = 60.0  # seconds a table's place is held while it is being created

WHAT = {"create": "new tables", "join": "joins", "act": "actions", "register": "new player codes",
        "claim": "player codes tried", "coach": "hints and reviews"}


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
    coach: str | None = "10/minute"  # hints and reviews started: each is seconds of the coach's search
    search: int | None = 8  # search-bot seats (ismcts) at the unfinished tables one address opened

    @classmethod
    def parse(cls, text: str) -> LimitSettings:
        """``"off"`` or ``"create=30/minute,join=60/minute,act=20/second,open=50,sockets=200,register=10/minute,
        claim=10/minute,coach=10/minute,search=8"`` (any subset)."""
        if text.strip().lower() == "off":
            return cls(None, None, None, None, None, None, None, None, None)
        values: dict[str, str | int | None] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key in ("open", "sockets", "search"):
                if value == "off":
                    values["open_tables" if key == "open" else key] = None
                elif not value.isdigit():
                    what = {"open": "tables", "sockets": "connections", "search": "bot seats"}[key]
                    raise ValueError(f"{key}= takes a number ({what}) or off, not {value!r}")
                else:
                    values["open_tables" if key == "open" else key] = int(value)
            elif key in WHAT:
                values[key] = None if value == "off" else _checked(value)
            else:
                raise ValueError(f"unknown limit {key!r}: use create=, join=, act=, register=, claim=, coach=, "
                                 "open=, sockets= or search=")
        return cls(**values)  # type: ignore[arg-type]


def _checked(value: str) -> str:
    try:
        parse(value)
    except ValueError:
        raise ValueError(f"bad rate {value!r}: write it like 30/minute or 5/second") from None
    return value


class Window:
    """A moving-window limiter shared through Redis when there is one, else this process's own.

    It answers ``hit`` and ``get_window_stats`` like ``limits``' limiter, so that other
    modules' limits (chat, player codes) are shared the same way. While Redis does not
    answer, this process counts alone.
    """

    def __init__(self, shared: MovingWindowRateLimiter | None = None, breaker: Breaker | None = None) -> None:
        self.shared = shared
        self.alone = MovingWindowRateLimiter(MemoryStorage())
        self.breaker = breaker or Breaker()

    def hit(self, item: RateLimitItem, *identifiers: str) -> bool:
        """Count one hit; False when it is over the limit."""
        shared = self.shared
        if shared is None:
            return self.alone.hit(item, *identifiers)
        return self.breaker.call(lambda: shared.hit(item, *identifiers), lambda: self.alone.hit(item, *identifiers))

    def get_window_stats(self, item: RateLimitItem, *identifiers: str) -> WindowStats:
        """When the window resets and what is left of it."""
        shared = self.shared
        if shared is None:
            return self.alone.get_window_stats(item, *identifiers)
        return self.breaker.call(lambda: shared.get_window_stats(item, *identifiers),
                                 lambda: self.alone.get_window_stats(item, *identifiers))


class RateLimits:
    """Moving-window counters per (kind, address): in this process's memory, or shared through Redis.

    ``redis_url`` makes every process that names the same Redis count together;
    ``table_lease`` is how long an open table keeps its place in the shared cap without a
    change (the server's idle timeout, after which the table expires anyway).
    """

    def __init__(self, settings: LimitSettings | None = None, redis_url: str | None = None,
                 table_lease: float = 6 * 3600) -> None:
        self.settings = settings or LimitSettings()
        shared: MovingWindowRateLimiter | None = None
        self.caps: SharedCaps | None = None
        self.table_lease = table_lease
        if redis_url:
            from limits.storage import storage_from_string

            from .sharedlimits import TIMEOUT

            shared = MovingWindowRateLimiter(storage_from_string(
                redis_url, key_prefix="boneyard-limits", socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT))
            self.caps = SharedCaps(redis_url)
        self.breaker = self.caps.breaker if self.caps is not None else Breaker()
        self.window = Window(shared, self.breaker)
        self._items: dict[str, RateLimitItem] = {}
        for kind in WHAT:
            value = getattr(self.settings, kind)
            if value is not None:
                self._items[kind] = parse(value)

    def limited(self, item: RateLimitItem, *identifiers: str) -> float | None:
        """Count one hit of ``item`` for ``identifiers``: None when allowed, else seconds until it would be."""
        if self.window.hit(item, *identifiers):
            return None
        return self.window.get_window_stats(item, *identifiers).reset_time - time.time()

    def hit(self, kind: str, address: str) -> None:
        """Count one request of ``kind`` from ``address``; ``TooManyRequests`` when over its limit."""
        item = self._items.get(kind)
        if item is None:
            return
        wait = self.limited(item, kind, address)
        if wait is None:
            return
        retry = max(1, math.ceil(wait))
        raise TooManyRequests(f"too many {WHAT[kind]} from your address (at most {item}): try again in {retry} s",
                              retry)

    def check_open_tables(self, open_now: int) -> None:
        """Refuse a new table when its creator already has the most unfinished tables allowed."""
        cap = self.settings.open_tables
        if cap is not None and open_now >= cap:
            raise self._too_many_tables(open_now, cap)

    @staticmethod
    def _too_many_tables(open_now: int, cap: int) -> TooManyRequests:
        return TooManyRequests(f"you already have {open_now} unfinished tables open (at most {cap}): finish one "
                               "or wait until an idle one expires", 60)

    async def opening_table(self, address: str, open_here: int, create: Callable[[], Awaitable[T]],
                            table_id: Callable[[T], str]) -> T:
        """Run ``create`` unless ``address`` has the most unfinished tables allowed (``TooManyRequests``).

        Alone, ``open_here`` (this process's count) decides. Shared, a place is taken in
        Redis before the table is made (so two processes cannot both take the last one) and
        handed to the new table's id after; a failed create gives it back.
        """
        cap = self.settings.open_tables
        caps = self.caps
        if cap is None or caps is None or not caps.breaker.closed():
            self.check_open_tables(open_here)
            return await create()
        key = caps.key("tables", address)
        pending = f"pending:{secrets.token_hex(8)}"
        try:
            held = await caps.acquire(key, pending, cap, PENDING_LEASE)
        except SharedCaps.errors() as err:
            caps.breaker.failed(err)
            self.check_open_tables(open_here)
            return await create()
        if held is not None:
            raise self._too_many_tables(held, cap)
        try:
            made = await create()
        except BaseException:
            await caps.release(key, pending)
            raise
        try:
            await caps.renew(key, table_id(made), self.table_lease)
        except SharedCaps.errors() as err:
            caps.breaker.failed(err)
        await caps.release(key, pending)
        return made

    # the table service's hooks (tables.py): only the shared cap listens

    def loaded(self, table: Any) -> None:
        """A stored table was rebuilt: nothing to count until it changes."""

    def changed(self, table: Any) -> None:
        """After a table's broadcast: keep its place in the shared cap, or give it back once it is over."""
        if self.caps is not None and self.settings.open_tables is not None:
            self.caps.table_changed(table.id, table.creator, bool(table.game.is_over), self.table_lease)

    async def close(self) -> None:
        """Close the Redis connections (the server's shutdown)."""
        if self.caps is not None:
            await self.caps.close()


class SocketCap:
    """ASGI middleware: at most ``cap`` WebSocket connections open at once per client address.

    Every WebSocket of the app (a table's, the friends room's) counts. One over the cap is
    accepted and closed at once with :data:`~boneyard.server.clients.CLOSE_TOO_MANY`, so
    that the client reads a code and a reason rather than a failed handshake. With
    ``shared`` (Redis), connections are counted across processes: each holds a place in a
    Redis set, renewed while it lasts, so that a process killed with its sockets open stops
    counting them within a minute.
    """

    def __init__(self, app: ASGIApp, cap: int | None, shared: SharedCaps | None = None) -> None:
        self.app = app
        self.cap = cap
        self.shared = shared
        self.open: collections.Counter[str] = collections.Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the connection while it lasts; refuse it when its address is at the cap."""
        if scope["type"] != "websocket" or self.cap is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else "unknown"
        member = await self._take(address) if self.shared is not None else None
        if member is False or (member is None and self.open[address] >= self.cap):
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
            if isinstance(member, str) and self.shared is not None:
                await self.shared.release(self.shared.key("sockets", address), member)

    async def _take(self, address: str) -> str | bool | None:
        """A place in the shared count (its member), False at the cap, None when Redis is away."""
        shared = self.shared
        assert shared is not None and self.cap is not None
        if not shared.breaker.closed():
            return None
        key, member = shared.key("sockets", address), shared.member()
        try:
            held = await shared.acquire(key, member, self.cap, SOCKET_LEASE)
        except SharedCaps.errors() as err:
            shared.breaker.failed(err)
            return None
        if held is not None:
            return False
        shared.hold(key, member, SOCKET_LEASE)
        return member
