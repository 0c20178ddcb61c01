"""Limits counted by every server process together, through Redis (``boneyard serve --redis URL``).

One process counts its clients alone; behind a proxy with N processes (or machines) a client
would get N times every limit. With ``--redis`` the rate limits use ``limits``' Redis storage
(one moving window per address for all processes), and the caps on open tables and on open
WebSockets use one sorted set per address in Redis: a member per table or connection, scored
by the time it lapses. A process renews what it holds; a process that dies stops renewing,
so what it held lapses by itself (a socket within :data:`SOCKET_LEASE` seconds, a table
after the idle timeout) instead of being counted forever.

When Redis cannot be reached, each process falls back to counting alone (its own memory)
for :data:`RETRY_AFTER` seconds, then tries Redis again: a Redis outage loosens the limits
to one process's share, it never stops the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger("boneyard.server")

SOCKET_LEASE = 60.0  # seconds a socket's place in the shared count lasts unless its process renews it
RETRY_AFTER = 5.0  # seconds a process counts alone after Redis failed to answer
TIMEOUT = 0.5  # seconds one Redis call may take before the process counts alone
KEY_PREFIX = "boneyard"

T = TypeVar("T")

# Count the live members of a set and add one unless the cap is reached, in one step so that two
# processes cannot both take the last place. KEYS[1] the set; ARGV: now, lapses at, cap, member, key ttl.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then return n end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return -1
"""


def check_url(url: str) -> str:
    """``url`` when it names a Redis server (``redis://``, ``rediss://``, ``unix://``), else ``ValueError``.

    Checked when the server starts so that a typo is a clear message, not a failure at the
    first request.
    """
    url = url.strip()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--redis takes a URL such as redis://127.0.0.1:6379/0, not {url!r}")
    try:
        import redis  # noqa: F401
    except ImportError:
        raise ValueError("--redis needs the redis package: pip install 'boneyard[redis]'") from None
    return url


def redis_errors() -> tuple[type[BaseException], ...]:
    """What a failed Redis call raises (the ``redis`` package is imported only when ``--redis`` is given)."""
    from limits.errors import StorageError
    from redis.exceptions import RedisError

    return (RedisError, StorageError, OSError, asyncio.TimeoutError)


class Breaker:
    """Whether to ask Redis now: after a failure, not for :data:`RETRY_AFTER` seconds."""

    def __init__(self) -> None:
        self.down_until = 0.0

    def closed(self) -> bool:
        """True while Redis is trusted (no failure in the last :data:`RETRY_AFTER` seconds)."""
        return time.monotonic() >= self.down_until

    def failed(self, err: BaseException) -> None:
        """Count alone for a while; say so once per outage."""
        if self.closed():
            log.warning("redis did not answer (%s): limits are counted per process for %.0f s", err, RETRY_AFTER)
        self.down_until = time.monotonic() + RETRY_AFTER

    def call(self, shared: Callable[[], T], alone: Callable[[], T]) -> T:
        """``shared()`` while Redis answers, else ``alone()``."""
        if self.closed():
            try:
                return shared()
            except redis_errors() as err:
                self.failed(err)
        return alone()


class SharedCaps:
    """Caps counted across processes: members of a sorted set per (kind, address) in Redis."""

    def __init__(self, url: str) -> None:
        import redis.asyncio

        self.url = url
        self.redis = redis.asyncio.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        self._acquire = self.redis.register_script(_ACQUIRE)
        self.breaker = Breaker()
        self.process = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._held: dict[str, dict[str, float]] = {}  # key -> member -> lease (renewed while held)
        self._renewer: asyncio.Task[None] | None = None
        self._renewed: dict[str, float] = {}  # table id -> when its place was last renewed (-1: released)

    @staticmethod
    def errors() -> tuple[type[BaseException], ...]:
        """What a failed Redis call raises."""
        return redis_errors()

    @staticmethod
    def key(kind: str, address: str) -> str:
        """The Redis key of one address's members of one kind ("tables", "sockets")."""
        return f"{KEY_PREFIX}:{kind}:{address}"

    def member(self) -> str:
        """A name for one connection of this process, unique across processes."""
        return f"{self.process}:{secrets.token_hex(6)}"

    async def acquire(self, key: str, member: str, cap: int, lease: float) -> int | None:
        """Take a place for ``member`` under ``cap``: None when taken, else how many hold one.

        Raises a Redis error when Redis does not answer (the caller then counts alone).
        """
        now = time.time()
        n = await asyncio.wait_for(
            self._acquire(keys=[key], args=[now, now + lease, cap, member, max(1, int(lease) + 60)]), TIMEOUT * 2)
        return None if int(n) < 0 else int(n)

    async def renew(self, key: str, member: str, lease: float) -> None:
        """Keep ``member``'s place for another ``lease`` seconds."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {member: time.time() + lease})
            pipe.expire(key, max(1, int(lease) + 60))
            await asyncio.wait_for(pipe.execute(), TIMEOUT * 2)

    async def release(self, key: str, member: str) -> None:
        """Give ``member``'s place back (a connection closed, a table finished); errors only logged."""
        self._held.get(key, {}).pop(member, None)
        if not self._held.get(key, True):
            del self._held[key]
        try:
            await asyncio.wait_for(self.redis.zrem(key, member), TIMEOUT * 2)
        except redis_errors() as err:
            self.breaker.failed(err)  # the place lapses by itself

    def hold(self, key: str, member: str, lease: float) -> None:
        """Renew ``member``'s place every third of its lease until it is released."""
        self._held.setdefault(key, {})[member] = lease
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        """Every third of a lease, renew every place this process holds, in one round trip.

        ``xx``: only places still there are renewed, so a place released meanwhile (or purged
        after an outage) is not brought back.
        """
        while self._held:
            await asyncio.sleep(SOCKET_LEASE / 3)
            now = time.time()
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for key, members in list(self._held.items()):
                        pipe.zadd(key, {m: now + lease for m, lease in members.items()}, xx=True)
                        pipe.expire(key, int(max(members.values())) + 60)
                    await asyncio.wait_for(pipe.execute(), TIMEOUT * 4)
            except redis_errors() as err:
                self.breaker.failed(err)

    def table_changed(self, table_id: str, creator: str | None, over: bool, lease: float) -> None:
        """After a table's broadcast: give its place back once it is over, else renew it now and then.

        A table moves between processes (any process may serve it), so whichever process
        sees it change keeps its place; at most one renewal a minute per table.
        """
        if creator is None:
            return
        key = self.key("tables", creator)
        last = self._renewed.pop(table_id, None)
        if over:
            if last != -1.0:
                self._renewed[table_id] = -1.0  # released: say nothing more about it
                _spawn(self.release(key, table_id))
        elif last is None or time.monotonic() - last > 60.0:
            self._renewed[table_id] = time.monotonic()
            _spawn(self._renew_quietly(key, table_id, lease))
        else:
            self._renewed[table_id] = last
        while len(self._renewed) > 20000:  # the oldest entries first (dicts keep their order)
            del self._renewed[next(iter(self._renewed))]

    async def _renew_quietly(self, key: str, member: str, lease: float) -> None:
        try:
            await self.renew(key, member, lease)
        except redis_errors() as err:
            self.breaker.failed(err)

    async def close(self) -> None:
        """Stop renewing and close the connections (the server's shutdown)."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer
        with contextlib.suppress(Exception):
            await self.redis.aclose()


_TASKS: set[asyncio.Task[Any]] = set()


def _spawn(coro: Any) -> None:
    """Run ``coro`` in the background, keeping a reference until it ends."""
    try:
        task = asyncio.get_running_loop().create_task(coro)
    except RuntimeError:
        coro.close()
        return
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
