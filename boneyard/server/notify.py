"""Fan-out between server processes: PostgreSQL LISTEN/NOTIFY.

Every write on PostgreSQL announces itself with ``pg_notify`` in its own transaction
(``db.announce``), so the notice is delivered exactly when the change is committed. Each
server process keeps one extra connection listening on the channel, in a thread of its
own; a notice about a table it holds makes it read the new actions or seats from the
database and push them to its WebSocket clients. After a lost connection (PostgreSQL
restarted) the listener reconnects with backoff and asks for a full catch-up, since
notices sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.engine import make_url

from .db import CHANNEL

log = logging.getLogger("boneyard.server")

Notice = Callable[[str, str, str, str], None]  # (what, table id, origin, detail: "SEAT:ACTION" of a new version)


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg's ``connect`` takes it (no ``+driver``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Listener:
    """A thread that LISTENs on the channel and hands each notice to the event loop."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, on_notice: Notice,
                 on_reconnect: Callable[[], None]) -> None:
        self.url = libpq_url(url)
        self.loop = loop
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="boneyard-listen", daemon=True)
        self.connected = threading.Event()

    def start(self) -> None:
        """Start listening."""
        self._thread.start()

    def stop(self) -> None:
        """Stop listening (within about a second)."""
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg

        backoff = 0.25
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    backoff = 0.25
                    if not first:
                        self.loop.call_soon_threadsafe(self.on_reconnect)
                    first = False
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            what, table_id, origin, *detail = notice.payload.split(":", 3)
                            self.loop.call_soon_threadsafe(self.on_notice, what, table_id, origin,
                                                           detail[0] if detail else "")
            except Exception as err:
                self.connected.clear()
                if self._stop.is_set():
                    return
                log.warning("listener lost PostgreSQL (%s); reconnecting in %.2f s", type(err).__name__, backoff)
                first = False
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
