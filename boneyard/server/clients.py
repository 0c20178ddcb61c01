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
CLOSE_TOO_MANY = 4429  # the client's address already holds the most connections allowed

QUEUE_SIZE = 32
SEND_TIMEOUT = 10.0


class Subscriber:
    """One live client of a table: what seat it sees as, and its outgoing queue."""

    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]], queue_size: int = QUEUE_SIZE,
                 send_timeout: float = SEND_TIMEOUT) -> None:
        self.seat = seat
        self.serial = -1  # the serial of the last snapshot queued for it
        self._send = send
        self._queue: asyncio.Queue[str] = asyncio.Queue(queue_size)
        self._send_timeout = send_timeout
        self.too_slow = asyncio.Event()  # set: the handler closes the socket with ``close_code``
        self.close_code = CLOSE_TOO_SLOW

    def offer(self, text: str, serial: int) -> None:
        """Queue a push (of snapshot ``serial``) without waiting; a full queue marks the client too slow.

        A snapshot older than the last one queued is dropped: a client never goes back in time.
        """
        if self.too_slow.is_set() or serial <= self.serial:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow.set()
            return
        self.serial = serial

    async def run(self) -> None:
        """Send queued pushes in order; returns when one push takes too long (the client is too slow).

        The connection's handler cancels this task when the queue overflows or the client leaves.
        """
        while True:
            text = await self._queue.get()
            try:
                # a timeout scope, not wait_for: no task is made for every push
                async with asyncio.timeout(self._send_timeout):
                    await self._send(text)
            except TimeoutError:
                self.too_slow.set()
                return
            except OSError:  # the connection is gone: the handler sees it and cleans up
                return
