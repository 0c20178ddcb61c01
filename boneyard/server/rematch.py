"""A rematch's kept seats, stored: each seat of the last game is kept for its player until they
accept, decline, or :data:`REMATCH_HOLD` seconds pass (``docs/api.md``, "Rematch").

Social (``social.py``) proposes and accepts; the table service (``tables.py``) refuses a
kept seat to anyone else (``Table.reserved``). The rows let any process (and a restarted
one) keep the same seats.
"""

from __future__ import annotations

import time

from sqlalchemy import Float, ForeignKey, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from .db import Base

REMATCH_HOLD = 120.0  # seconds a rematch seat is kept for the last game's player


class KeptSeatRow(Base):
    """A rematch table's seat kept for the player of the same seat in the last game."""

    __tablename__ = "kept_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)  # the rematch table
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    until: Mapped[float] = mapped_column(Float)  # epoch seconds


def keep_seats(s: Session, table_id: str, kept: dict[int, tuple[str, float]]) -> None:
    """Store the seats a new rematch table keeps (seat -> player's name, until when)."""
    for seat, (name, until) in kept.items():
        s.add(KeptSeatRow(table_id=table_id, seat=seat, name=name, until=until))


def kept_seats(s: Session, table_id: str) -> dict[int, tuple[str, float]]:
    """A rematch table's seats still kept, as ``Table.reserved`` holds them."""
    now = time.time()
    rows = s.scalars(select(KeptSeatRow).where(KeptSeatRow.table_id == table_id, KeptSeatRow.until > now))
    return {row.seat: (row.name, row.until) for row in rows}


def release_seat(s: Session, table_id: str, seat: int) -> None:
    """The seat is no longer kept (its player declined, or took it)."""
    s.execute(delete(KeptSeatRow).where(KeptSeatRow.table_id == table_id, KeptSeatRow.seat == seat))
