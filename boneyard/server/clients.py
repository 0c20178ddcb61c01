"""Live WebSocket clients: each has a bounded outgoing queue and its own sender task.

A broadcast only puts a ready-made JSON text into each subscriber's queue and never awaits
a socket, so a client that stops reading cannot hold up the table, the other clients or an
HTTP request. A client whose queue is full (it fell ``QUEUE_SIZE`` pushes behind) or
whose socket takes longer than ``SEND_TIMEOUT`` seconds to accept one push is closed with
close code :data:`CLOSE_TOO_SLOW`; it resyncs by reconnecting, since the first message on
every connection is the table's current state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

# Close codes of the table WebSocket (docs/api.md).
CLOSE_TOO_SLOW = 4008  # the client fell behind: reconnect to get the current state
CLOSE_FORBIDDEN = 4403  # a token of no seat at this table
CLOSE_NOT_FOUND = 4404  # no such table
CLOSE_GONE = 4410  # the table is quarantined or expired

QUEUE_SIZE = 32
SEND_TIMEOUT = 10.0


class Subscriber:
    """One live client of a table: what seat it sees as, and its outgoing queue."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]], queue_size: int = QUEUE_SIZE,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        self.seat = seat
        self.version = -1  # the version of the last state queued for it
        self._send = send
        self._queue: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self._send_timeout = send_timeout
        self.too_slow = asyncio.Event()  # set: the handler closes the socket with ``close_code``
        self.close_code = CLOSE_TOO_SLOW

    def offer(self, text: str, version: int) -> None:
        """Queue a push without waiting; a full queue marks the client too slow."""
        if self.too_slow.is_set() or version <= self.version:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow.set()
            return
        self.version = version

    async def run(self) -> None:
        """Send queued pushes in order; returns when one push takes too long (the client is too slow).

        The connection's handler cancels this task when the queue overflows or the client leaves.
        """
        while True:
            text = await self._queue.get()
            try:
                await asyncio.wait_for(self._send(text), self._send_timeout)
            except TimeoutError:
                self.too_slow.set()
                return
