"""Per-address rate limits (the ``limits`` library) and the cap on open tables.

Limits are counted per client address (``request.client.host``; behind a reverse proxy
run uvicorn with ``--forwarded-allow-ips`` so that this is the player's address, see
``docs/deploy.md``). A client over a limit gets 429 with ``Retry-After``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .tables import TooManyRequests

WHAT = {"create": "new tables", "join": "joins", "act": "actions"}


@dataclass(frozen=True)
class LimitSettings:
    """The limits of one server, as ``limits`` strings ("30/minute"); None switches one off."""

    create: str | None = "30/minute"
    join: str | None = "60/minute"
    act: str | None = "20/second"
    open_tables: int | None = 50  # unfinished tables one address may have opened

    @classmethod
    def parse(cls, text: str) -> LimitSettings:
        """``"off"`` or ``"create=30/minute,join=60/minute,act=20/second,open=50"`` (any subset)."""
        if text.strip().lower() == "off":
            return cls(None, None, None, None)
        values: dict[str, str | int | None] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if key == "open":
                if not value.isdigit():
                    raise ValueError(f"open= takes a number of tables, not {value!r}")
                values["open_tables"] = int(value)
            elif key in WHAT:
                values[key] = None if value == "off" else _checked(value)
            else:
                raise ValueError(f"unknown limit {key!r}: use create=, join=, act= or open=")
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

