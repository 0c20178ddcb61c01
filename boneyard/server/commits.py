"""Group commit: the writes of many tables in one transaction, each acknowledged on its own.

Every database write of the server (a new table, a join, an action, an expiry) is a
function of a SQLAlchemy session handed to :meth:`Committer.write`. One thread owns the
writing: it takes every write queued while the previous transaction was committing and
commits them together, so a thousand busy tables cost a few transactions a second rather
than a thousand fsyncs. Each caller's future resolves only after the transaction holding
its own write committed, so an action is still acknowledged and broadcast only once it is
stored.

The writer keeps one connection of its own (no pool checkout per transaction; a fresh one
after any failure), and the actions of a batch, the write of every move, go in one
multi-row insert without the ORM (:class:`~boneyard.server.db.ActionWrite`); other writes
are functions of an ORM session sharing the transaction.

When a batch fails, each of its writes is retried alone, so that one refused write (say,
an action another server process stored first) fails only its own caller, while a
database that is down fails every caller with the driver's error. The event loop never
waits on the database: it only awaits futures.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session

from .db import ActionWrite, Store, write_actions

log = logging.getLogger("boneyard.server")

Write = Callable[[Session], Any] | ActionWrite
Item = tuple[Write, asyncio.Future[Any], asyncio.AbstractEventLoop]

# How many writes one transaction takes at most (a bound on a batch's size, not a wait).
MAX_BATCH = 512


class ShuttingDown(RuntimeError):
    """A write after the committer was closed (the server is stopping)."""


class Committer:
    """One writer thread that commits queued writes in batches (group commit)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[Item | None] = queue.SimpleQueue()
        self._conn: Connection | None = None  # the writer thread's own connection
        self._thread = threading.Thread(target=self._run, name="boneyard-commit", daemon=True)
        self._thread.start()
        self.batches = 0
        self.writes = 0
        self.closed = False

    async def write(self, fn: Write) -> Any:
        """Run ``fn(session)`` (or store an :class:`ActionWrite`) in the next transaction; returns its
        result once committed (an action's ``result``).

        Raises what the database raised (``OperationalError`` when it is unreachable,
        ``IntegrityError`` for a duplicate key) and then nothing of ``fn`` is stored.
        """
        if self.closed:
            raise ShuttingDown("the server is shutting down: nothing more is written")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put((fn, future, loop))
        return await future

    def enqueue(self, fn: Write, future: asyncio.Future[Any], loop: asyncio.AbstractEventLoop) -> None:
        """From any thread: run ``fn`` in the next transaction and settle ``future`` on ``loop``.

        A table's pool thread hands its write over this way, so that the commit, not a
        trip back through the event loop, is what wakes the waiting request.
        """
        if self.closed:
            _settle((fn, future, loop), error=ShuttingDown("the server is shutting down: nothing more is written"))
            return
        self._queue.put((fn, future, loop))

    def close(self) -> None:
        """Stop the writer thread once the queued writes are done."""
        self.closed = True
        self._queue.put(None)
        self._thread.join(10)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                if self._conn is not None:
                    self._conn.close()
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # stop after this batch
                    break
                batch.append(item)
            self._commit(batch)

    def _connection(self) -> Connection:
        """The writer's connection, opened again after a failure (the pool checks it is alive)."""
        if self._conn is None:
            self._conn = self.store.engine.connect()
        return self._conn

    def _transaction(self, batch: list[Item]) -> list[Any]:
        """Run a batch's writes in one transaction and commit; their results, in order."""
        conn = self._connection()
        try:
            actions = [item[0] for item in batch if isinstance(item[0], ActionWrite)]
            if len(actions) == len(batch):
                with conn.begin():
                    write_actions(conn, actions)
                return [a.result for a in actions]
            results: list[Any] = []
            with Session(bind=conn) as s, s.begin():
                for fn, _future, _loop in batch:
                    if isinstance(fn, ActionWrite):
                        results.append(fn.result)
                    else:
                        results.append(fn(s))
                        s.flush()
                if actions:
                    write_actions(s.connection(), actions)
            return results
        except (OperationalError, InterfaceError):
            # the connection may be broken (the database went away): it is not used again
            self._conn = None
            try:
                conn.invalidate()
                conn.close()
            except Exception:
                log.debug("closing a failed connection failed", exc_info=True)
            raise

    def _commit(self, batch: list[Item]) -> None:
        try:
            results = self._transaction(batch)
        except Exception as err:
            if len(batch) == 1:
                _settle(batch[0], error=err)
                return
            # Find out whose write it was: each alone. A database that is down fails the
            # first one too, and then all the others fail with it without being tried.
            for i, item in enumerate(batch):
                failure = self._commit_alone(item)
                if isinstance(failure, OperationalError | InterfaceError) and not _conflict(failure):
                    for rest in batch[i + 1 :]:
                        _settle(rest, error=failure)
                    return
            return
        self.batches += 1
        self.writes += len(batch)
        _settle_all(batch, results)

    def _commit_alone(self, item: Item) -> Exception | None:
        """Commit one write in its own transaction; returns the error it failed with, if any."""
        try:
            (result,) = self._transaction([item])
        except Exception as err:
            _settle(item, error=err)
            return err
        self.batches += 1
        self.writes += 1
        _settle(item, result=result)
        return None


def _conflict(err: Exception) -> bool:
    """A deadlock or serialization failure between two writers: the database itself is up."""
    code = getattr(getattr(err, "orig", None), "sqlstate", None)
    return code in ("40P01", "40001")


def _settle(item: Item, result: Any = None, error: BaseException | None = None) -> None:
    _fn, future, loop = item

    def settle() -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    try:
        loop.call_soon_threadsafe(settle)
    except RuntimeError:  # the loop has closed (shutdown): nobody waits any more
        log.debug("a write finished after its event loop closed")


def _settle_all(batch: list[Item], results: list[Any]) -> None:
    """Resolve a committed batch's futures with one wake-up of each waiting loop (not one per write)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
    for (_fn, future, loop), result in zip(batch, results, strict=True):
        by_loop.setdefault(loop, []).append((future, result))

    def settle(pairs: list[tuple[asyncio.Future[Any], Any]]) -> None:
        for future, result in pairs:
            if not future.done():
                future.set_result(result)

    for loop, pairs in by_loop.items():
        try:
            loop.call_soon_threadsafe(settle, pairs)
        except RuntimeError:  # the loop has closed (shutdown): nobody waits any more
            log.debug("a batch finished after its event loop closed")
