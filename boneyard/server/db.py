"""Persistence: tables, seat tokens and every applied action, in SQLite or PostgreSQL.

A table is stored as what is needed to rebuild it with ``boneyard.replay``: game, players,
seed, rules, and the ordered action strings. An action row is committed before the action
is acknowledged, so a server killed at any moment restarts with every table exactly as
its players last saw it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine
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
        engine = create_engine(url, pool_pre_ping=True)
    return engine


class Store:
    """The server's database: create tables, join seats, append actions, load everything."""

    def __init__(self, url: str = DEFAULT_DB) -> None:
        self.url = url
        self.engine = make_engine(url)
        Base.metadata.create_all(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

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
        """Store a new table."""
        with self.session() as s:
            s.add(
                TableRow(
                    id=table_id,
                    game=game,
                    players=players,
                    seed=str(seed),
                    rules=json.loads(json.dumps(rules)),
                    seats=list(seats),
                    deck=deck,
                    dealer=dealer,
                    created=time.time(),
                    is_over=False,
                )
            )

    def add_seat(self, table_id: str, seat: int, name: str, token: str) -> None:
        """Record that a human took ``seat`` (an integrity error if it is already taken)."""
        with self.session() as s:
            s.add(SeatRow(table_id=table_id, seat=seat, name=name, token_hash=hash_token(token)))

    def add_action(self, table_id: str, number: int, action: str, seat: int, is_over: bool) -> None:
        """Append an action; the commit happens before this returns."""
        with self.session() as s:
            s.add(ActionRow(table_id=table_id, number=number, action=action, seat=seat, at=time.time()))
            if is_over:
                row = s.get(TableRow, table_id)
                if row is not None:
                    row.is_over = True

    def table(self, table_id: str) -> TableRow | None:
        """A table's row, or None."""
        with self.session() as s:
            return s.get(TableRow, table_id)

    def tables(self) -> list[TableRow]:
        """Every table, newest first."""
        with self.session() as s:
            return list(s.scalars(select(TableRow).order_by(TableRow.created.desc())))

    def seats(self, table_id: str) -> list[SeatRow]:
        """The joined seats of a table."""
        with self.session() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.table_id == table_id)))

    def actions(self, table_id: str) -> list[str]:
        """The table's actions in order."""
        with self.session() as s:
            rows = s.scalars(select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.number))
            return [r.action for r in rows]

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()
