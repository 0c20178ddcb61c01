"""Persistence: tables, seat tokens and every applied action, in SQLite or PostgreSQL.

A table is stored as what is needed to rebuild it with ``boneyard.replay``: game, players,
seed, rules, and the ordered action strings. An action row is committed before the action
is acknowledged, so a server killed at any moment restarts with every table exactly as
its players last saw it.

Writes are plain functions of a :class:`~sqlalchemy.orm.Session` (:func:`write_table`,
:func:`write_seat`, :func:`write_action`...) so that the server's group committer
(``commits.py``) can put the writes of many tables into one transaction. The primary key
``(table_id, number)`` of an action makes two writers of the same table version collide,
which is how several server processes sharing one PostgreSQL serialize a table's actions.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

DEFAULT_DB = "sqlite:///boneyard.db"


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class TableRow(Base):
    """One game table: what ``replay`` needs, plus its seats."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))  # seeds may exceed a 64-bit signed column
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[str]] = mapped_column(JSON)  # "human" or "bot:NAME" per seat
    deck: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)  # a fixed first deal, if given
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[float] = mapped_column(Float)
    is_over: Mapped[bool] = mapped_column(Boolean, default=False)
    practice: Mapped[bool] = mapped_column(Boolean, default=False)  # seed/deck could be chosen
    fixed_deal: Mapped[bool] = mapped_column(Boolean, default=False)  # and were: the deal is not secret
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)  # client address, for the cap
    expired: Mapped[bool] = mapped_column(Boolean, default=False)  # closed for lack of play
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)  # process running its bots
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    next_timeout: Mapped[float | None] = mapped_column(Float, nullable=True)  # between-hands hold (None: default)


# Columns added after the first release, with their SQL type and default, so that an older
# database file keeps working (``create_all`` creates missing tables, never missing columns).
_ADDED_COLUMNS = {
    "practice": "BOOLEAN NOT NULL DEFAULT FALSE",
    "fixed_deal": "BOOLEAN NOT NULL DEFAULT FALSE",
    "creator": "VARCHAR(64)",
    "expired": "BOOLEAN NOT NULL DEFAULT FALSE",
    "lease_owner": "VARCHAR(64)",
    "lease_until": "FLOAT",
    "next_timeout": "FLOAT",
}
# Every table's added columns (table -> column -> SQL type): other modules register their own
# tables' (social.py's rooms) at import, before a Store is made.
ADDED_COLUMNS: dict[str, dict[str, str]] = {"tables": _ADDED_COLUMNS}

# The PostgreSQL channel on which every committed change is announced to the other processes.
CHANNEL = "boneyard"
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


class SeatRow(Base):
    """A joined human seat: the player's name and the hash of the seat's secret token."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), index=True)


class ActionRow(Base):
    """The ``number``-th action applied at a table (0-based), in the action notation."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(Text)
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class StandinRow(Base):
    """A decision a bot made for a human seat (``kind`` "standin" or "clock"), stored with its
    action, or the point where a seat's player resigned ("resign", ``number``: the table's
    version then). Own decisions are the seat's other actions: the ratings count both
    (``rating.py``)."""

    __tablename__ = "standins"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and full fsync on commit."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    else:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://") :]
        engine = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    return engine


# This process's name in notices and bot leases (host, pid and a random part).
ORIGIN = f"{socket.gethostname()[:20]}-{os.getpid()}-{secrets.token_hex(3)}"


def announce(s: Session, table_id: str, what: str) -> None:
    """On PostgreSQL, ``NOTIFY`` the other server processes of a change, delivered at commit.

    The payload is ``"what:table_id:origin"``; ``what`` is ``new`` (a table), ``seat`` or
    the table's new version (:func:`write_actions` adds ``:seat:action``, the action that
    made it). SQLite serves one process, so there is nobody to tell.
    """
    if s.get_bind().dialect.name == "postgresql":
        payload = f"{what}:{table_id}:{ORIGIN}"
        s.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def write_table(s: Session, row: TableRow) -> None:
    """Add a new table row."""
    s.add(row)
    announce(s, row.id, "new")


def write_seat(s: Session, table_id: str, seat: int, name: str, token: str) -> None:
    """Record that a human took ``seat`` (an integrity error if it is already taken)."""
    s.add(SeatRow(table_id=table_id, seat=seat, name=name, token_hash=hash_token(token)))
    announce(s, table_id, "seat")


_INSERT_ACTION = insert(ActionRow)
_INSERT_STANDIN = insert(StandinRow)
_TABLE_OVER = update(TableRow).where(TableRow.id == bindparam("over_id")).values(is_over=True)


def write_action(s: Session, table_id: str, number: int, action: str, seat: int, is_over: bool) -> None:
    """Append the ``number``-th action (an integrity error if another writer stored it first)."""
    write_actions(s.connection(), [ActionWrite(table_id, number, action, seat, is_over)])


@dataclass(slots=True)
class ActionWrite:
    """One action to append, as the group committer takes it (``commits.py``).

    The write of every action, so it skips the ORM: the committer stores every action of
    a transaction with one multi-row insert (:func:`write_actions`). ``result`` is what
    the committer hands back to the caller once the action is committed.
    """

    table_id: str
    number: int
    action: str
    seat: int
    is_over: bool
    result: Any = None
    by: str | None = None  # a bot made this human seat's decision: "standin" or "clock" (None: its player)


def write_actions(conn: Connection, writes: list[ActionWrite]) -> None:
    """Append actions (Core statements, one ``executemany``); an integrity error if any was stored first.

    On PostgreSQL each new version is announced to the other processes (delivered at commit).
    """
    now = time.time()
    conn.execute(_INSERT_ACTION, [{"table_id": w.table_id, "number": w.number, "action": w.action, "seat": w.seat,
                                   "at": now} for w in writes])
    standins = [{"table_id": w.table_id, "number": w.number, "seat": w.seat, "kind": w.by} for w in writes if w.by]
    if standins:
        conn.execute(_INSERT_STANDIN, standins)
    over = [{"over_id": w.table_id} for w in writes if w.is_over]
    if over:
        conn.execute(_TABLE_OVER, over)
    if conn.dialect.name == "postgresql":
        # the action itself travels with its version, so the other processes need not read it back
        conn.execute(_NOTIFY, [{"channel": CHANNEL,
                                "payload": f"{w.number + 1}:{w.table_id}:{ORIGIN}:{w.seat}:{w.action}"}
                               for w in writes])


def write_expired(s: Session, table_id: str) -> None:
    """Close a table nobody plays at any more."""
    s.execute(update(TableRow).where(TableRow.id == table_id).values(expired=True))


def _unrate_live(conn: Connection) -> None:
    """Migration to stand-in records: the games in play when they begin are never rated.

    Before, nothing recorded which of a seat's decisions a bot made, so such a game
    cannot be judged by the rules of ``rating.py``; it is marked as already counted
    (``rated_tables``) and the ratings pass it by. Finished games were counted already.
    """
    if inspect(conn).has_table("rated_tables"):
        conn.execute(text("INSERT INTO rated_tables (table_id) SELECT id FROM tables WHERE is_over = :no "
                          "AND id NOT IN (SELECT table_id FROM rated_tables)"), {"no": False})


_SCHEMA_LOCK = 0x626F6E6579  # the advisory lock that serializes schema creation ("boney")


class Store:
    """The server's database: create tables, join seats, append actions, load tables."""

    def __init__(self, url: str = DEFAULT_DB) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self._create_schema()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def _create_schema(self) -> None:
        """Create missing tables and columns, once, even when several servers start together.

        Two processes starting at the same moment on one PostgreSQL database would both see
        no tables and both create them (the second fails on a duplicate type): the creation
        runs in one transaction holding an advisory lock, so the second waits and then finds
        everything there. SQLite serves one process.
        """
        with self.engine.begin() as conn:
            if self.is_postgres:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
            fresh = not inspect(conn).has_table("standins")
            Base.metadata.create_all(conn)
            if fresh:
                _unrate_live(conn)
            for table, columns in ADDED_COLUMNS.items():
                have = {c["name"] for c in inspect(conn).get_columns(table)}
                for name, ddl in columns.items():
                    if name not in have:
                        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {ddl}"))

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success, rolled back on error."""
        with self._sessions() as s, s.begin():
            yield s

    def add_table(
        self,
        table_id: str,
        game: str,
        players: int,
        seed: int,
        rules: dict[str, Any],
        seats: list[str],
        deck: list[str] | None = None,
        dealer: int | None = None,
    ) -> None:
        """Store a new table (outside the group committer: tools and tests)."""
        with self.session() as s:
            write_table(s, new_table_row(table_id, game, players, seed, rules, seats, deck, dealer))

    def add_seat(self, table_id: str, seat: int, name: str, token: str) -> None:
        """Record that a human took ``seat`` (an integrity error if it is already taken)."""
        with self.session() as s:
            write_seat(s, table_id, seat, name, token)

    def add_action(self, table_id: str, number: int, action: str, seat: int, is_over: bool) -> None:
        """Append an action; the commit happens before this returns."""
        with self.session() as s:
            write_action(s, table_id, number, action, seat, is_over)

    def table(self, table_id: str) -> TableRow | None:
        """A table's row, or None."""
        with self.session() as s:
            return s.get(TableRow, table_id)

    def tables(self) -> list[TableRow]:
        """Every table, newest first."""
        with self.session() as s:
            return list(s.scalars(select(TableRow).order_by(TableRow.created.desc())))

    def live_tables(self) -> list[str]:
        """The ids of the tables still in play (not over, not expired), newest first."""
        with self.session() as s:
            query = (select(TableRow.id).where(TableRow.is_over.is_(False), TableRow.expired.is_(False))
                     .order_by(TableRow.created.desc()))
            return list(s.scalars(query))

    def seats(self, table_id: str) -> list[SeatRow]:
        """The joined seats of a table."""
        with self.session() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)))

    def actions(self, table_id: str, start: int = 0) -> list[tuple[str, int]]:
        """The table's actions from number ``start`` on, in order, with the seat that played each."""
        with self.session() as s:
            rows = s.execute(select(ActionRow.action, ActionRow.seat)
                             .where(ActionRow.table_id == table_id, ActionRow.number >= start)
                             .order_by(ActionRow.number))
            return [(a, seat) for a, seat in rows]

    def last_action_time(self, table_id: str) -> float | None:
        """When the table's last action was stored (wall clock), or None before the first."""
        with self.session() as s:
            return s.scalar(select(ActionRow.at).where(ActionRow.table_id == table_id)
                            .order_by(ActionRow.number.desc()).limit(1))

    def take_lease(self, table_id: str, owner: str, seconds: float) -> bool:
        """Hold (or renew) the right to run a table's bots for ``seconds``; False while another holds it.

        Several processes on one database each load the live tables; only the lease holder
        plays the bots, and when it dies its lease runs out and another process takes over.
        """
        now = time.time()
        with self.session() as s:
            free = (TableRow.lease_owner.is_(None)) | (TableRow.lease_owner == owner) | (TableRow.lease_until < now)
            result = s.execute(update(TableRow).where(TableRow.id == table_id, free)
                               .values(lease_owner=owner, lease_until=now + seconds))
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def ping(self) -> None:
        """Run ``SELECT 1``: raises when the database cannot be reached."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()


def new_table_row(
    table_id: str,
    game: str,
    players: int,
    seed: int,
    rules: dict[str, Any],
    seats: list[str],
    deck: list[str] | None = None,
    dealer: int | None = None,
    *,
    practice: bool = False,
    fixed_deal: bool = False,
    creator: str | None = None,
    next_timeout: float | None = None,
) -> TableRow:
    """The row of a new table (JSON columns get plain JSON copies)."""
    return TableRow(id=table_id, game=game, players=players, seed=str(seed), rules=json.loads(json.dumps(rules)),
                    seats=list(seats), deck=deck, dealer=dealer, created=time.time(), is_over=False,
                    practice=practice, fixed_deal=fixed_deal, creator=creator, expired=False,
                    next_timeout=next_timeout)
