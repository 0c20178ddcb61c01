"""The server's one source of time for the move clocks, and a clock the tests move by hand.

Why one source: a turn-based table's deadline is days away, so it is stored (epoch seconds
in the room's row, ``social.py``) and must be read against the same time that set it,
after a restart too. Why a clock the tests move: a test of a day's play must not sleep a
day. ``boneyard serve --test-clock`` (tests only, never in production) gives the server a
:class:`TestClock` and the route ``POST /api/test/clock`` that advances it
(``docs/api.md``, "The test clock").

Only the move clocks read this clock; presence, rate limits, the wait between hands and
table expiry keep the wall clock and the event loop's timers.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, model_validator


class Handle(Protocol):
    """A timer that can be cancelled (an ``asyncio.TimerHandle`` or a :class:`TestClock`'s)."""

    def cancel(self) -> None:
        """Stop the timer: its callback never runs."""


class Clock:
    """Real time: ``now()`` is the wall clock, and a timer is the event loop's."""

    testing = False

    def now(self) -> float:
        """The time now, in epoch seconds: what deadlines are stored in and compared with."""
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        """Run ``callback`` on the running event loop once ``now()`` reaches ``when`` (epoch s).

        Why epoch seconds rather than a delay: a deadline is stored and read back after a
        restart, and the timer set from it must fire at the same moment.
        """
        return asyncio.get_running_loop().call_later(max(0.0, when - self.now()), callback)


class _TestTimer:
    """One timer of a :class:`TestClock`."""

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        """Stop the timer: :meth:`TestClock.advance` skips it."""
        self.cancelled = True


class TestClock(Clock):
    """Time that stands still until a test advances it (``--test-clock``).

    Timers fire only in :meth:`advance`, in the order of their deadlines, so that a test
    can run a day of turn-based play in a moment and know exactly how much time each
    move took.
    """

    __test__ = False  # not a pytest test class, whatever its name says
    testing = True

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else float(start)
        self._timers: list[tuple[float, int, _TestTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The clock's time: where it started plus every advance."""
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Handle:
        """Keep ``callback`` until an advance reaches ``when`` (at once on the next advance if it has)."""
        timer = _TestTimer(when, callback)
        heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    def advance(self, seconds: float) -> float:
        """Move time on by ``seconds`` and run every timer that falls due; returns the new time.

        Why the timers run one by one at their own deadline: a callback may set another
        timer (the next decision's clock), which runs too if it falls due before the end.
        """
        if seconds < 0:
            raise ValueError("a clock does not go back: advance by 0 or more seconds")
        end = self._now + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _n, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            timer.callback()
        self._now = end
        return self._now


SLOW_MOVE_MIN = 7200.0  # a turn-based clock per move: above any real-time one (at most an hour)


class SlowClock(BaseModel):
    """``POST /api/tables``'s ``clock`` for a turn-based table: one of ``per_move`` or ``per_game``.

    ``per_move``: seconds each decision may take (2 hours to 30 days: "a move a day" is
    86400; an hour or less is a real-time clock, the plain number). ``per_game``: seconds
    each player has for all their decisions together, a bank as in correspondence chess (an
    hour to 90 days: "a week per game" is 604800).
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    per_move: float | None = Field(default=None, ge=SLOW_MOVE_MIN, le=30 * 86400,
                                   description="seconds per decision, 2 hours to 30 days")
    per_game: float | None = Field(default=None, ge=3600, le=90 * 86400,
                                   description="seconds per player for the whole game, an hour to 90 days")

    @model_validator(mode="after")
    def _one_of_them(self) -> SlowClock:
        if (self.per_move is None) == (self.per_game is None):
            raise ValueError('give one of "per_move" or "per_game" (seconds)')
        return self


class Advance(BaseModel):
    """``POST /api/test/clock``: how far to move the test clock on."""

    model_config = ConfigDict(extra="forbid", strict=True)

    advance: float = Field(ge=0, le=10 * 365 * 86400, description="seconds to move the clock on")


def testing_router(clock: TestClock, before: Callable[[], None], after: Callable[[], None]) -> APIRouter:
    """``GET``/``POST /api/test/clock``: read and advance the server's test clock.

    Mounted only when the server runs with ``--test-clock`` (``create_app(clock=TestClock())``),
    never in production: anyone could otherwise run out every player's clock. ``before``
    runs ahead of each advance (the rooms' sweep, so that a deadline loaded from the
    database has its timer before time passes it); ``after`` runs once time has moved (the
    rooms pushed again, so that a page counts down from the new time, as it would have
    counted the real hours itself).
    """
    r = APIRouter(tags=["test"])

    @r.get("/api/test/clock")
    async def read_clock() -> dict[str, float]:
        """The test clock's time (epoch seconds)."""
        return {"now": clock.now()}

    @r.post("/api/test/clock")
    async def advance_clock(body: Advance) -> dict[str, float]:
        """Move the test clock on by ``advance`` seconds; the clocks that run out act at once."""
        before()
        now = clock.advance(body.advance)
        after()
        await asyncio.sleep(0)  # let the timers' work begin before the answer
        return {"now": now}

    return r
