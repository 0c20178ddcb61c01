"""Playing with friends: host and Start, seats handed to bots, resigning, the move clock, presence,
chat, rematch, player identity and ratings (``docs/api.md``, "Friends").

The game engine and the table service (``tables.py``) know nothing of this: the service
calls :meth:`Social.loaded` when it rebuilds a stored table and :meth:`Social.changed`
after every broadcast, and honours ``Table.held`` (no action, no bot move while a table
waits for its players). Everything here is kept per table in :class:`Room` and stored in
its own database tables, written through the service's group committer.

Live news (presence, chat, seats, the clock, a rematch offer) goes out on a WebSocket of
its own, ``/ws/friends/{table_id}``, so the game's state pushes stay exactly as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import html
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, Header, Query, Request, WebSocket
from fastapi.responses import HTMLResponse
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

import boneyard

from . import rating
from .clients import Subscriber
from .clock import Clock, Handle
from .db import ADDED_COLUMNS, ActionRow, Base, StandinRow, TableRow, hash_token, write_expired
from .rematch import REMATCH_HOLD, keep_seats, kept_seats, release_seat
from .tables import (
    STORE_ERRORS,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    Table,
    TableService,
    TooManyRequests,
    Unauthorized,
    Unavailable,
    check_seat_bot,
    clean_name,
    quote,
    seat_bots,
)

log = logging.getLogger("boneyard.server")

MAX_CHAT = 300  # characters of one chat message
CHAT_RATE = "5/10 seconds"  # chat messages one seat may send
CHAT_KEEP = 100  # log entries a push carries (the newest)
# the most seconds a decision of the numeric ``clock`` (a real-time table); a clock per move
# above it is a turn-based one (``clock.SlowClock``: 2 hours a move at the least)
MAX_CLOCK = 3600
CLOCK_SWEEP = 1.0  # seconds between looks for a stored deadline that has no timer yet (after a restart)
CLOCK_BOT = "greedy"  # plays a decision whose clock ran out (and stands in by default)
RESIGN_BOT = "greedy"  # plays a resigned seat to the end of the game
PRESENCE_GRACE = 5.0  # seconds a seat's last socket may be gone before "left" is said (a reconnect says nothing)
AWAY_AFTER = 60.0  # seconds without a socket or a move of their own before a player counts as away
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed on a phone


# ----- stored facts --------------------------------------------------------------------


WINNERS_KEPT = 1000  # finished tables whose winners are kept in memory for the lobby's history


class RoomRow(Base):
    """A friends' table: its host's secret, whether it started, its clock, seats handed to bots."""

    __tablename__ = "rooms"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    started: Mapped[bool] = mapped_column(default=False)
    clock: Mapped[float | None] = mapped_column(Float, nullable=True)
    standins: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # seat -> bot name
    left: Mapped[list[int]] = mapped_column(JSON, default=list)  # seats whose player left
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the next table's id
    rematch_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the turn-based clock: a bank of seconds per player for the whole game (None: per move or none)
    per_game: Mapped[float | None] = mapped_column(Float, nullable=True)
    banks: Mapped[dict[str, float] | None] = mapped_column(JSON, nullable=True)  # seat -> seconds left
    # the decision the clock runs for, so that a restart keeps its deadline: [seat, version, started]
    turn: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)  # epoch seconds of the server's clock


# an older database's rooms table gets these columns at start (db.Store._create_schema)
ADDED_COLUMNS["rooms"] = {"per_game": "FLOAT", "banks": "JSON", "turn": "JSON", "deadline": "FLOAT"}


class LogRow(Base):
    """One line of a table's log: a chat message (``kind`` "chat") or news ("joined", "left"...)."""

    __tablename__ = "table_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class PlayerRow(Base):
    """A player without an account: a name and the hash of the secret their browser keeps."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # hash of the secret
    name: Mapped[str] = mapped_column(String(64))


class ClaimRow(Base):
    """Which player sits at a table's seat (for "my games", resuming and ratings)."""

    __tablename__ = "claims"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)


class KeyRow(Base):
    """A further token of a seat, issued when its player resumes on another device."""

    __tablename__ = "seat_keys"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)


class RatingRow(Base):
    """A player's (or a bot's) rating at one game and player count (openskill's mu and sigma)."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    who: Mapped[str] = mapped_column(String(80), primary_key=True)  # a player id or "bot:NAME"
    name: Mapped[str] = mapped_column(String(64))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatedRow(Base):
    """A table whose result was counted in the ratings (each table counts once)."""

    __tablename__ = "rated_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)


def check_public_url(url: str) -> str:
    """``--public-url``: an http(s) address with a host and nothing after the path, without a trailing slash."""
    url = url.strip()
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"--public-url must look like http://my-laptop:8000, not {url!r}")
    return url.rstrip("/")


def new_code() -> str:
    """A player's secret: 12 letters and digits (60 bits), shown as ``ABCD-EFGH-JKLM``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def player_id(code: str) -> str:
    """The stored form of a player's secret (dashes, spaces and case do not matter)."""
    canon = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(("player:" + canon).encode()).hexdigest()


# ----- live state ----------------------------------------------------------------------


@dataclass
class Room:
    """What a friends' table holds besides its game."""

    host_hash: str | None = None
    started: bool = True
    clock: float | None = None  # seconds per decision (a real-time clock, or a turn-based one's per move)
    per_game: float | None = None  # a turn-based bank: seconds per player for the whole game
    banks: dict[int, float] = field(default_factory=dict)  # seat -> seconds left of its bank (per_game)
    turn: tuple[int, int, float] | None = None  # the clocked decision: (seat, table version, started at)
    standins: dict[int, str] = field(default_factory=dict)
    left: set[int] = field(default_factory=set)
    resigned: list[int] = field(default_factory=list)  # seats that resigned, in order (kept in the log)
    rematch: str | None = None
    rematch_by: int | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    present: dict[int | None, int] = field(default_factory=dict)  # seat -> open friends sockets
    seen: set[int] = field(default_factory=set)  # seats that have been here
    listeners: dict[int, Subscriber] = field(default_factory=dict)
    deadline: float | None = None  # when the clock runs out (epoch seconds of the server's clock)
    timer: Handle | None = None
    version: int = 0  # this room's own push counter
    claims: dict[int, str] = field(default_factory=dict)  # seat -> player id
    ratings: dict[int, dict[str, float]] = field(default_factory=dict)
    rated: bool = False  # the finished game was looked at for the ratings
    timed_out: set[int] = field(default_factory=set)  # seats whose last decision the clock's bot made
    acted: dict[int, float] = field(default_factory=dict)  # seat -> when its player last decided (monotonic)
    acted_version: int = -1  # the table version ``acted`` was last brought up to
    sockets: set[int] = field(default_factory=set)  # seats that opened a friends socket here
    rematch_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one proposal at a time
    leaving: dict[int, asyncio.TimerHandle] = field(default_factory=dict)  # seat -> its "left", after the grace
    away: set[int] = field(default_factory=set)  # seats whose "left" was said (their return is news)
    # Held from a change's stored form being made until memory has it too (start, stand-ins,
    # resigning), so that two changes at once cannot store one room row over the other.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _as_stored(room: Room, **changes: Any) -> Room:
    """The stored fields of ``room`` with ``changes`` made: what a change commits before memory has it."""
    stored: dict[str, Any] = {"host_hash": room.host_hash, "started": room.started, "clock": room.clock,
                              "per_game": room.per_game, "standins": dict(room.standins), "left": set(room.left),
                              "rematch": room.rematch, "rematch_by": room.rematch_by}
    return Room(**{**stored, **changes})


def _room_write(s: Session, table_id: str, room: Room, new: bool = False) -> None:
    # the rematch columns are written only by Social._propose's conditional update: a process
    # whose copy of the room has not seen a rematch proposed at another process must not erase it
    values = {"host_hash": room.host_hash, "started": room.started, "clock": room.clock, "per_game": room.per_game,
              "standins": {str(k): v for k, v in room.standins.items()}, "left": sorted(room.left)}
    if new:
        s.add(RoomRow(table_id=table_id, **values))
    else:
        s.execute(update(RoomRow).where(RoomRow.table_id == table_id).values(**values))


def _clock_write(s: Session, table_id: str, deadline: float | None, turn: tuple[int, int, float] | None,
                 banks: dict[int, float]) -> None:
    # the clock's columns alone: a stand-in or Start stored at the same moment keeps its own
    s.execute(update(RoomRow).where(RoomRow.table_id == table_id).values(
        deadline=deadline, turn=list(turn) if turn is not None else None,
        banks={str(k): v for k, v in banks.items()} or None))


def clock_option(clock: Any) -> tuple[float | None, float | None]:
    """A table's ``clock`` option as (seconds per decision, seconds of a player's bank for the game).

    Why one reader: ``POST /api/tables`` takes a number (seconds per decision, a real-time
    table, as it always did) or ``{"per_move": S}`` / ``{"per_game": S}`` (a turn-based
    table); a rematch passes the room's own pair on. ``ValueError`` names what is wrong.
    """
    if clock is None:
        return None, None
    if isinstance(clock, bool):
        raise ValueError("clock must be seconds per decision or {\"per_move\": S} or {\"per_game\": S}")
    if isinstance(clock, int | float):
        return float(clock), None
    per_move, per_game = getattr(clock, "per_move", None), getattr(clock, "per_game", None)
    if per_move is not None and per_game is None:
        return float(per_move), None
    if per_game is not None and per_move is None:
        return None, float(per_game)
    raise ValueError("a turn-based clock is either {\"per_move\": seconds} or {\"per_game\": seconds}, one of them")


def _log_write(s: Session, table_id: str, entry: dict[str, Any]) -> None:
    s.add(LogRow(table_id=table_id, kind=entry["kind"], seat=entry["seat"], name=entry["name"],
                 text=entry["text"], at=entry["at"]))


def _seats_write(s: Session, table_id: str, seats: list[str]) -> None:
    s.execute(update(TableRow).where(TableRow.id == table_id).values(seats=list(seats)))


class Social:
    """The friends' layer of one server: rooms by table id, and the routes that change them."""

    def __init__(self, service: TableService, public_url: str = "", limiter: Any = None,
                 clock: Clock | None = None) -> None:
        self.service = service
        self.public_url = public_url
        self.clock = clock or Clock()  # the move clocks' time (a TestClock under --test-clock)
        self.rooms: dict[str, Room] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # chat and player-code limits: the server's shared window (ratelimit.Window) when given
        self._limiter = limiter if limiter is not None else MovingWindowRateLimiter(MemoryStorage())
        self._winners: dict[str, list[int]] = {}  # finished tables' winning seats (they never change)
        self._chat_rate = parse(CHAT_RATE)
        self._code_rate = parse("10/minute")
        # Listeners of the log (notices.py): ``said(table, entry)`` on the loop for each line told.
        self.said: list[Callable[[Table, dict[str, Any]], None]] = []
        service.hooks.append(self)

    # ----- hooks of the table service ------------------------------------------------

    def loaded(self, table: Table) -> None:
        """A stored table is rebuilt (worker thread): its room, log, claims and extra seat keys."""
        store = self.service.store
        with store.session() as s:
            row = s.get(RoomRow, table.id)
            if row is None:
                return  # a table from before friends' tables: it never waits
            room = Room(host_hash=row.host_hash, started=row.started, clock=row.clock, per_game=row.per_game,
                        standins={int(k): v for k, v in (row.standins or {}).items()}, left=set(row.left or []),
                        rematch=row.rematch, rematch_by=row.rematch_by,
                        banks={int(k): float(v) for k, v in (row.banks or {}).items()},
                        turn=(int(row.turn[0]), int(row.turn[1]), float(row.turn[2])) if row.turn else None,
                        deadline=row.deadline if row.turn else None)
            entries = s.scalars(select(LogRow).where(LogRow.table_id == table.id).order_by(LogRow.id.desc())
                                .limit(CHAT_KEEP))
            room.log = [_entry(e.kind, e.seat, e.name, e.text, e.at) for e in reversed(list(entries))]
            for claim in s.scalars(select(ClaimRow).where(ClaimRow.table_id == table.id)):
                room.claims[claim.seat] = claim.player_id
            for key in s.scalars(select(KeyRow).where(KeyRow.table_id == table.id)):
                table.tokens[key.token_hash] = key.seat
            resigns = s.scalars(select(LogRow.seat).where(LogRow.table_id == table.id, LogRow.kind == "resign")
                                .order_by(LogRow.id))
            room.resigned = [seat for seat in resigns if seat is not None]
            table.reserved = kept_seats(s, table.id)
        for seat in room.resigned:  # a resignation is for good, even if its stand-in was not stored
            room.standins[seat] = room.standins.get(seat, RESIGN_BOT)
            room.left.add(seat)
        room.seen = set(table.names)
        for seat, name in room.standins.items():
            if name in seat_bots():
                table.bots[seat] = self.service.seat_bot(name)
        table.held = not room.started and not self._all_seated(table)
        table.turn_based = self.turn_based(room)
        self.rooms[table.id] = room  # a stored deadline gets its timer from the clock's sweep

    def changed(self, table: Table) -> None:
        """After every broadcast: start a full table, run the clock, count a finished game, push news."""
        room = self.rooms.get(table.id)
        if room is None:
            return
        self._note_decision(table, room)
        if table.held and self._all_seated(table):
            table.held = False
            room.started = True
            self._save(table, room)
            self.service.kick(table)
        self._arm_clock(table, room)
        if (table.game.is_over or self.decided(table, room)) and not table.fixed_deal and not room.rated:
            room.rated = True
            self._spawn(self._rate(table, room))
        self.push(table, room)

    @staticmethod
    def _note_decision(table: Table, room: Room) -> None:
        """Remember when a seat's player last decided for themselves (their action, not a bot's):
        they are at the table, and their clock has not run out since. Taking the seat counts
        as arriving (so does a restart: nobody is taken for gone the moment a server starts)."""
        now = time.monotonic()
        for joined in table.names:
            room.acted.setdefault(joined, now)
        if table.version == room.acted_version:
            return
        room.acted_version = table.version
        seat = table.last_seat
        if seat is not None and table.last_sent is not None:
            room.acted[seat] = now
            room.timed_out.discard(seat)

    async def _may_hand_over(self, table: Table, room: Room, seat: int) -> bool:
        """Whether the host may hand ``seat`` to a bot: a bot plays it already, its player's clock
        ran out on their last decision, or its player has left.

        Left: every friends socket of the seat here has closed; or, for a player who never
        opened one here (a client of the HTTP API, or one whose page is open at another
        process), neither a move of their own nor their arrival in the last
        :data:`AWAY_AFTER` seconds. The seat's last decision is read from the database, so
        a clock that ran out or a move made at another process counts too.
        """
        if seat in room.standins or seat in room.timed_out:
            return True
        try:
            last = await self.service._run(self._last_decision, table.id, seat)
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached ({type(err).__name__})") from None
        if last is not None and last[1] == "clock":
            return True
        if room.present.get(seat):
            return False
        if seat in room.sockets:
            return True
        idle = time.monotonic() - room.acted.get(seat, -math.inf) > AWAY_AFTER
        own_at = last[0] if last is not None and last[1] is None else None
        return idle and (own_at is None or time.time() - own_at > AWAY_AFTER)

    def _last_decision(self, table_id: str, seat: int) -> tuple[float, str | None] | None:
        """When the seat's last decision was stored and which bot made it ("clock", "standin"; None:
        its player), or None before its first."""
        with self.service.store.session() as db:
            row = db.execute(select(ActionRow.number, ActionRow.at).where(ActionRow.table_id == table_id,
                                                                         ActionRow.seat == seat)
                             .order_by(ActionRow.number.desc()).limit(1)).first()
            if row is None:
                return None
            kind = db.scalar(select(StandinRow.kind).where(StandinRow.table_id == table_id,
                                                           StandinRow.number == row[0],
                                                           StandinRow.kind != "resign").limit(1))
            return float(row[1]), kind

    @staticmethod
    def _all_seated(table: Table) -> bool:
        return all(k != "human" or s in table.names for s, k in enumerate(table.seats))

    def _spawn(self, coro: Any) -> None:
        self.service._spawn(coro)

    def _save(self, table: Table, room: Room, new: bool = False) -> None:
        self._spawn(self._write(functools.partial(_room_write, table_id=table.id, room=room, new=new)))

    async def _write(self, fn: Any) -> None:
        try:
            await self.service.committer.write(fn)
        except STORE_ERRORS as err:
            log.warning("friends: a write was not stored (%s)", type(err).__name__)

    async def _store(self, fn: Callable[[Session], Any], not_done: str) -> None:
        """Commit ``fn`` before the request that asked for it is answered.

        Why: a player's change (a chat line, a stand-in, leaving, resigning, Start) is
        answered 200 only once it is stored, so that a crash right after the answer loses
        nothing that was acknowledged; while the database is away it is refused with 503
        saying what was not done (``not_done``), and nothing of it is kept in memory either.
        """
        try:
            await self.service.committer.write(fn)
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached, so {not_done} ({type(err).__name__}): try again in "
                              "a moment") from None

    # ----- creation ------------------------------------------------------------------

    async def created(self, table: Table, clock: float | None, per_game: float | None = None,
                      host_hash: str | None = None) -> str:
        """A table opened from the lobby: it waits for its players; returns the host's secret.

        ``clock`` is seconds per decision, ``per_game`` a turn-based bank of seconds for each
        player (see :func:`clock_option`). ``host_hash`` makes an existing secret the host's
        instead (a club event's host hosts every table of the event, ``tourney.py``): then
        nothing new is made and "" is returned.
        """
        host = "" if host_hash else secrets.token_urlsafe(18)
        room = Room(host_hash=host_hash or hash_token(host), started=False, clock=clock, per_game=per_game)
        if per_game is not None:
            room.banks = dict.fromkeys(range(table.players), per_game)
        table.turn_based = self.turn_based(room)
        table.held = not self._all_seated(table)
        room.started = not table.held
        self.rooms[table.id] = room
        try:
            await self.service.committer.write(functools.partial(_room_write, table_id=table.id, room=room, new=True))
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached ({type(err).__name__})") from None
        self.service.kick(table)
        return host

    async def room(self, table_id: str) -> tuple[Table, Room]:
        """A table and its room (a table from before friends' tables gets an empty started room)."""
        table = await self.service.get(table_id)
        room = self.rooms.get(table.id)
        if room is None:
            room = self.rooms[table.id] = Room(seen=set(table.names))
            self._save(table, room, new=True)
        return table, room

    def _host(self, room: Room, host: str | None) -> None:
        if not host:
            raise Unauthorized("only the host can do this: send the host token from the table's creation "
                               "(header X-Host-Token)")
        if room.host_hash is None or hash_token(host) != room.host_hash:
            raise Forbidden("this host token does not belong to this table")

    # ----- seats ---------------------------------------------------------------------

    async def start(self, table_id: str, host: str | None, bot_name: str) -> None:
        """The host's Start: every empty human seat gets ``bot_name`` for good, and play begins."""
        table, room = await self.room(table_id)
        self._host(room, host)
        check_seat_bot(bot_name, game=table.game_id, players=table.players)
        async with room.lock, table.lock:
            if not table.held:
                raise Conflict("the game has already started")
            empty = [seat for seat, kind in enumerate(table.seats) if kind == "human" and seat not in table.names]
            seats = ["bot:" + bot_name if seat in empty else kind for seat, kind in enumerate(table.seats)]
            self.service.check_search_seats(table.creator, [bot_name] * len(empty))
            players = {seat: self.service.seat_bot(bot_name) for seat in empty}
            after = _as_stored(room, started=True)

            def write(s: Session) -> None:
                _seats_write(s, table.id, seats)
                _room_write(s, table.id, after)

            # stored first, in one transaction: a Start that fails leaves the table as it was
            await self._store(write, "the game did not start")
            table.seats[:] = seats
            table.bots.update(players)
            room.started = True
            table.held = False
            table.snapshot = await self.service._run(self.service._snapshot, table)
        self._say(table, room, "news", None, "", f"{self._host_name(table, room)} started the game")
        self.service.broadcast(table)
        self.service.kick(table)

    def _host_name(self, table: Table, room: Room) -> str:
        return "the host"

    async def standin(self, table_id: str, seat: int, bot_name: str | None, host: str | None,
                      token: str | None) -> None:
        """Hand a joined player's seat to a bot (``bot_name``), or give it back (None).

        The host may do either for any seat; a player may give their own seat to a bot
        (they leave) and take it back.
        """
        table, room = await self.room(table_id)
        own = self.service.seat_of(table, token, required=False) if token else None
        if own != seat:
            self._host(room, host)
        async with room.lock:
            await self._standin(table, room, seat, bot_name, own)

    async def _standin(self, table: Table, room: Room, seat: int, bot_name: str | None, own: int | None) -> None:
        """:meth:`standin` once its caller may change the seat: stored (room and log line), then done."""
        if not isinstance(seat, int) or not 0 <= seat < table.players:
            raise BadRequest(f"seat must be a number from 0 to {table.players - 1}")
        if table.seats[seat] != "human" or seat not in table.names:
            raise Conflict(f"seat {seat} has no player to stand in for")
        name = table.names[seat]
        if bot_name is not None:
            check_seat_bot(bot_name, game=table.game_id, players=table.players)
            if own != seat and not await self._may_hand_over(table, room, seat):
                raise Conflict(f"{name} is at the table: the host can hand {name}'s seat to a bot only once "
                               f"{name}'s clock has run out or {name} has left")
            current = table.bots.get(seat)
            self.service.check_search_seats(table.creator, [bot_name],
                                            replacing=int(bool(getattr(current, "searches", False))))
            player = self.service.seat_bot(bot_name)
            text = f"{name} left: the {bot_name} bot plays for them" if own == seat else \
                f"the {bot_name} bot now plays for {name}"
            after = _as_stored(room, standins={**room.standins, seat: bot_name},
                               left=room.left | {seat} if own == seat else set(room.left))
            not_done = f"{name}'s seat was not handed to the {bot_name} bot"

            def change() -> None:
                table.bots[seat] = player
                room.standins[seat] = bot_name
                if own == seat:
                    room.left.add(seat)
        else:
            if seat in room.resigned:
                raise Conflict(f"{name} resigned: the {room.standins[seat]} bot plays their seat to the end")
            if seat not in room.standins:
                raise Conflict(f"{name} plays their own seat already")
            text = f"{name} plays again"
            after = _as_stored(room, standins={s: b for s, b in room.standins.items() if s != seat},
                               left=room.left - {seat})
            not_done = f"{name} did not get their seat back"

            def change() -> None:
                table.bots.pop(seat, None)
                room.standins.pop(seat, None)
                room.left.discard(seat)
        entry = _entry("news", seat, name, text, time.time())

        def write(s: Session) -> None:
            _room_write(s, table.id, after)
            _log_write(s, table.id, entry)

        await self._store(write, not_done)
        await self.service.reseat(table, change)
        self._tell(table, room, entry)

    # ----- resigning -----------------------------------------------------------------

    @staticmethod
    def sides(table: Table) -> list[list[int]]:
        """Who wins or loses together: the game's declared sides (Eighty's partnerships; else each seat alone)."""
        return [list(side) for side in type(table.game).sides(table.players, table.game.rules)]

    def decided(self, table: Table, room: Room) -> list[int] | None:
        """The seats that won by resignation: every other side has resigned (None: not decided so)."""
        if not room.resigned:
            return None
        standing = [side for side in self.sides(table) if not any(s in room.resigned for s in side)]
        return standing[0] if len(standing) == 1 else None

    async def resign(self, table_id: str, token: str | None) -> None:
        """The token's player resigns: for good, a bot plays their seat to the end and they rank last.

        In Eighty the resignation concedes for the partnership. Once one player (or side) is
        the only one left who has not resigned, the game is decided: it is rated at once
        (``docs/api.md``, "Resign"); the others may play on against the bot or leave.
        """
        table, room = await self.room(table_id)
        seat = self.service.seat_of(table, token, required=True)
        assert seat is not None
        await self._resign_seat(table, room, seat, None)

    async def _resign_seat(self, table: Table, room: Room, seat: int, cause: str | None) -> None:
        """Resign ``seat``: its player's own choice (``cause`` None), or ``cause`` said instead of
        "Ann resigned" (a turn-based bank that ran out: a loss on time, by the same rules)."""
        name = table.who(seat)
        if table.held:
            raise Conflict("the game has not started, so there is nothing to resign: leave the table instead")
        if table.game.is_over:
            raise Conflict("the game is over: there is nothing to resign")
        if seat in room.resigned:
            raise Conflict(f"{name} has already resigned")
        won = self.decided(table, room)
        if won is not None:
            raise Conflict(f"the game is already decided: {self._names(table, won)} won when the others resigned")
        side = next(side for side in self.sides(table) if seat in side)
        standing = [g for g in self.sides(table) if seat not in g and not any(s in room.resigned for s in g)]
        text = cause or f"{name} resigned"
        text += f" for {self._names(table, side)}" if len(side) > 1 and cause is None else ""
        text += f": the {RESIGN_BOT} bot plays their seat to the end"
        if len(standing) == 1:
            text += f"; {self._names(table, standing[0])} {'win' if len(standing[0]) > 1 else 'wins'}"
        entry = _entry("resign", seat, name, text, time.time())

        player = self.service.seat_bot(RESIGN_BOT)

        def change() -> None:
            table.bots[seat] = player
            room.standins[seat] = RESIGN_BOT
            room.left.add(seat)
            room.resigned.append(seat)
            room.log.append(entry)
            del room.log[:-CHAT_KEEP]

        async with room.lock:
            after = _as_stored(room, standins={**room.standins, seat: RESIGN_BOT}, left=room.left | {seat})

            def write(s: Session) -> None:
                _log_write(s, table.id, entry)
                s.add(StandinRow(table_id=table.id, number=table.version, seat=seat, kind="resign"))
                _room_write(s, table.id, after)

            await self._store(write, "you did not resign" if cause is None else "the resignation was not stored")
            await self.service.reseat(table, change)

    @staticmethod
    def _names(table: Table, seats: list[int]) -> str:
        names = [table.who(s) for s in seats]
        return " and ".join(names)

    # ----- the move clock ------------------------------------------------------------

    @staticmethod
    def turn_based(room: Room) -> bool:
        """Whether the room's clock is a turn-based one (hours or days): its table never expires
        for want of moves, and its deadlines matter across restarts."""
        return room.per_game is not None or (room.clock is not None and room.clock > MAX_CLOCK)

    def _clocked(self, table: Table, room: Room) -> tuple[int, int] | None:
        """The decision the clock runs for now, as (seat, table version); None where none runs
        (no clock, not started, between hands, over, or a bot plays the seat; a bank also
        stops once the game is decided by resignation: nobody can lose on time then)."""
        game = table.game
        if (not (room.clock or room.per_game) or table.held or table.hold is not None or game.is_over
                or game.current_player in table.bots):
            return None
        if room.per_game is not None and self.decided(table, room) is not None:
            return None
        seat = game.current_player
        return None if seat is None else (seat, table.version)

    def bank_left(self, room: Room, seat: int) -> float | None:
        """Seconds left of ``seat``'s turn-based bank now (its running decision counted); None without one."""
        if room.per_game is None:
            return None
        left = room.banks.get(seat, room.per_game)
        if room.turn is not None and room.turn[0] == seat:
            left -= self.clock.now() - room.turn[2]
        return max(0.0, left)

    def _arm_clock(self, table: Table, room: Room) -> None:
        """Start, keep or stop the clock after a change, and store what it runs for.

        The clock runs for one decision, (seat, version): a change that leaves that decision
        to be made (a chat, a join, a restart) keeps its deadline; once the decision is made
        (or the hand ends, or a bot takes the seat) a bank pays for the time it took and the
        next decision's clock starts. The deadline and the decision are stored so that a
        restart (``loaded``) keeps them.
        """
        due = self._clocked(table, room)
        now = self.clock.now()
        moved = False
        if room.turn is not None and (due is None or room.turn[:2] != due):
            seat, _version, started = room.turn
            if room.per_game is not None:
                room.banks[seat] = max(0.0, room.banks.get(seat, room.per_game) - (now - started))
            self._stop_timer(room)
            room.turn, room.deadline, moved = None, None, True
        if due is not None and room.turn is None:
            seat, version = due
            room.turn = (seat, version, now)
            allowed = room.clock if room.clock else room.banks.get(seat, room.per_game or 0.0)
            room.deadline = now + allowed
            moved = True
        if room.turn is not None and room.timer is None:
            self._start_timer(table, room)
        if moved:
            self._spawn(self._write(functools.partial(_clock_write, table_id=table.id, deadline=room.deadline,
                                                      turn=room.turn, banks=dict(room.banks))))

    @staticmethod
    def _stop_timer(room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None

    def _start_timer(self, table: Table, room: Room) -> None:
        """The timer of the room's clocked decision, at its (perhaps stored) deadline."""
        assert room.turn is not None and room.deadline is not None
        seat, version, _started = room.turn
        room.timer = self.clock.call_at(room.deadline,
                                        lambda: self._spawn(self._clock_ran_out(table, seat, version)))

    def sweep_clocks(self) -> None:
        """Give every stored deadline without a timer its timer (a table loaded after a restart).

        Why a sweep: a table is rebuilt on a worker thread, away from the event loop that
        runs timers; the sweep (every :data:`CLOCK_SWEEP` seconds, and before a test clock
        advances) sets them on the loop. A deadline already past fires at once.
        """
        for table_id, room in list(self.rooms.items()):
            table = self.service.tables.get(table_id)
            if table is None or room.turn is None or room.timer is not None:
                continue
            if self._clocked(table, room) == room.turn[:2]:
                self._start_timer(table, room)
            else:  # the table moved on while the room was stored: the clock follows it
                self._arm_clock(table, room)

    def push_clocks(self) -> None:
        """Push every room whose clock runs: its ``left`` changed without a move (a test clock's jump)."""
        for table_id, room in list(self.rooms.items()):
            table = self.service.tables.get(table_id)
            if table is not None and room.deadline is not None and room.listeners:
                self.push(table, room)

    def start_clock(self) -> None:
        """Start the clock's sweep on the running loop (the app's start)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop_clock(self) -> None:
        """Stop the sweep (the app's shutdown)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(CLOCK_SWEEP)
            try:
                self.sweep_clocks()
            except Exception:
                log.exception("the clock's sweep failed")

    async def _clock_ran_out(self, table: Table, seat: int, version: int) -> None:
        """The clock of ``seat``'s decision at ``version`` ran out (nothing happens if the table moved on).

        Per move: the greedy bot makes that one decision (the seat stays its player's). A
        turn-based bank (per game) that runs out is a loss on time: the seat resigns, and
        the resignation's rules follow (``docs/api.md``, "Move clock").
        """
        room = self.rooms.get(table.id)
        if room is not None and room.per_game is not None:
            if room.turn is None or room.turn[:2] != (seat, version):
                return
            if not await self.service._has_lease(table):
                room.timer = None  # several processes: the one that plays the table's bots resigns it, once
                return
            try:
                await self._resign_seat(table, room, seat, f"{table.who(seat)}'s time ran out")
            except Unavailable:
                room.timer = None  # the database is away: the sweep tries again in a moment
            except Conflict as err:  # over or decided meanwhile: nothing is lost on time any more
                log.info("table %s: %s's time ran out at a game that needs no resignation (%s)", table.id, seat, err)
            return
        played = await self.service.play_for(table, seat, self.service.seat_bot(CLOCK_BOT), version)
        if played and room is not None:
            room.timed_out.add(seat)
            self._say(table, room, "news", seat, table.who(seat),
                      f"{table.who(seat)}'s clock ran out: the {CLOCK_BOT} bot played for them")

    # ----- presence and chat ---------------------------------------------------------

    def _say(self, table: Table, room: Room, kind: str, seat: int | None, name: str, text: str) -> None:
        """News the server tells by itself (presence, the clock, a start): stored in the background."""
        entry = _entry(kind, seat, name, text, time.time())
        self._spawn(self._write(functools.partial(_log_write, table_id=table.id, entry=entry)))
        self._tell(table, room, entry)

    def _tell(self, table: Table, room: Room, entry: dict[str, Any]) -> None:
        """Add a log line (already stored, or on its way) to the room and push the room."""
        room.log.append(entry)
        del room.log[:-CHAT_KEEP]
        self.push(table, room)
        for listener in self.said:
            listener(table, entry)

    async def chat(self, table_id: str, token: str | None, text: Any) -> None:
        """A seated player's chat line: 1 to 300 printable characters, at most 5 every 10 s."""
        table, room = await self.room(table_id)
        seat = self.service.seat_of(table, token, required=True)
        assert seat is not None
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("text must be a non-empty message")
        text = " ".join(text.split())
        if len(text) > MAX_CHAT:
            raise BadRequest(f"a chat message is at most {MAX_CHAT} characters; this one has {len(text)}")
        if not text.isprintable():
            raise BadRequest("a chat message must be printable characters only")
        if not self._limiter.hit(self._chat_rate, "chat", table.id, str(seat)):
            stats = self._limiter.get_window_stats(self._chat_rate, "chat", table.id, str(seat))
            retry = max(1, math.ceil(stats.reset_time - time.time()))
            raise TooManyRequests(f"too many chat messages (at most {self._chat_rate}): try again in {retry} s",
                                  retry)
        entry = _entry("chat", seat, table.who(seat), text, time.time())
        await self._store(functools.partial(_log_write, table_id=table.id, entry=entry), "your message was not sent")
        self._tell(table, room, entry)

    def arrive(self, table: Table, room: Room, seat: int | None) -> None:
        """A friends socket opened: the seat is here ("joined" the first time, "is back" after a "left").

        A reconnect within :data:`PRESENCE_GRACE` seconds of the last socket closing (a
        reload, a phone waking, a flaky network) says nothing: the "left" it would have
        followed was never said.
        """
        count = room.present.get(seat, 0)
        room.present[seat] = count + 1
        if seat is not None:
            room.sockets.add(seat)
            pending = room.leaving.pop(seat, None)
            if pending is not None:
                pending.cancel()
        if seat is None or count or (seat in room.seen and seat not in room.away):
            self.push(table, room)
            return
        name = table.who(seat)
        text = f"{name} is back" if seat in room.seen else f"{name} joined"
        room.seen.add(seat)
        room.away.discard(seat)
        self._say(table, room, "news", seat, name, text)

    def depart(self, table: Table, room: Room, seat: int | None) -> None:
        """A friends socket closed: the seat is away once its last socket is gone, said after the grace."""
        count = room.present.get(seat, 0) - 1
        if count > 0:
            room.present[seat] = count
            return
        room.present.pop(seat, None)
        if seat is None:
            return
        self.push(table, room)
        old = room.leaving.pop(seat, None)
        if old is not None:
            old.cancel()
        room.leaving[seat] = asyncio.get_running_loop().call_later(
            PRESENCE_GRACE, self._gone, table, room, seat)

    def _gone(self, table: Table, room: Room, seat: int) -> None:
        """The grace after a seat's last socket closed is over: say it left, unless it came back."""
        room.leaving.pop(seat, None)
        if room.present.get(seat) or seat in room.away:
            return
        room.away.add(seat)
        self._say(table, room, "news", seat, table.who(seat), f"{table.who(seat)} left")

    # ----- pushes --------------------------------------------------------------------

    def view(self, table: Table, room: Room) -> dict[str, Any]:
        """The room as anyone at the table may see it (no secrets)."""
        seats = []
        for info in table.seat_info():
            s = info["seat"]
            # a bot account is here while its program has the game's stream open
            here = bool(room.present.get(s)) or (s in table.accounts and
                                                 any(sub.seat == s for sub in list(table.subscribers.values())))
            seats.append({**info, "present": info["kind"] == "bot" or here,
                          "standin": room.standins.get(s), "left": s in room.left,
                          "rating": room.ratings.get(s)})
        return {
            "type": "friends",
            "table": table.id,
            "started": not table.held,
            "clock": room.clock,
            "deadline": room.deadline,
            **self.clock_view(table, room),
            "current_player": None if table.game.is_over else table.game.current_player,
            "version": table.version,
            "is_over": table.game.is_over,
            "seats": seats,
            "log": room.log,
            "resigned": list(room.resigned),
            "decided": self.decided(table, room),
            "between_hands": table.hold is not None,
            "rematch": room.rematch,
            "rematch_by": table.who(room.rematch_by) if room.rematch_by is not None else None,
            "public_url": self.public_url,
        }

    def clock_view(self, table: Table, room: Room) -> dict[str, Any]:
        """The clock as a page shows it without reading its own time: the seconds ``left`` of
        the current decision, a turn-based bank per seat (``banks``).

        Why ``left``: the deadline is in the server's time (a test clock's, or a server whose
        clock differs from the phone's), so a page counts down from ``left``.
        """
        now = self.clock.now()
        return {
            "per_game": room.per_game,
            "turn_based": self.turn_based(room),
            "left": None if room.deadline is None else round(max(0.0, room.deadline - now), 3),
            "banks": None if room.per_game is None else
            [round(self.bank_left(room, s) or 0.0, 3) for s in range(table.players)],
        }

    def push(self, table: Table, room: Room) -> None:
        """Queue the room's view for every friends socket of the table."""
        room.version += 1
        if not room.listeners:
            return
        text = orjson.dumps(self.view(table, room)).decode()
        for sub in list(room.listeners.values()):
            sub.offer(text, room.version)

    # ----- rematch -------------------------------------------------------------------

    async def rematch(self, table_id: str, token: str | None) -> dict[str, Any]:
        """A finished (or decided) table's player proposes the same seats and rules again, the deal rotated.

        The proposer is seated at once and becomes the new table's host; every other seat
        of the last game is kept for its player (:mod:`.rematch`) until they accept, decline
        or :data:`~.rematch.REMATCH_HOLD` seconds pass; bot seats are bots again. A player
        who proposes when a rematch is already proposed (even a moment ago, at another
        process) accepts it instead: one table, never two.
        """
        table, room = await self.room(table_id)
        seat = await self.service.seat_for(table, token, required=True)
        assert seat is not None
        if not table.game.is_over and self.decided(table, room) is None:
            raise Conflict("a rematch is offered once the game is over (or decided when the others resigned)")
        if table.accounts:
            raise Conflict("a bot account plays at this table, and it answers challenges, not rematches: challenge it "
                           "again from the lobby's \"Play a bot\"")
        async with room.rematch_lock:
            if room.rematch is None:
                room.rematch, room.rematch_by = await self.service._run(self._stored_rematch, table.id)
            if room.rematch is None:
                return await self._propose(table, room, seat)
        if room.rematch_by == seat:
            raise Conflict(f"you already proposed this rematch: your seat is at table {room.rematch}")
        return await self.accept(table_id, token)

    async def _propose(self, table: Table, room: Room, seat: int) -> dict[str, Any]:
        seats = list(table.seats)
        dealer = None if table.dealer is None else (table.dealer + 1) % table.players
        new = await self.service.create(table.game_id, table.players, table.rules, seats, None, None, dealer,
                                        practice=False, creator=table.creator, next_timeout=table.next_timeout)
        until = time.time() + REMATCH_HOLD
        gone = room.left - set(room.resigned)  # players who left the table are not waited for
        new.reserved = {s: (name, until) for s, name in table.names.items()
                        if s != seat and s not in gone and new.seats[s] == "human"}
        host = await self.created(new, room.clock, room.per_game)

        def write(s: Session) -> str | None:
            done = s.execute(update(RoomRow).where(RoomRow.table_id == table.id, RoomRow.rematch.is_(None))
                             .values(rematch=new.id, rematch_by=seat))
            if done.rowcount == 0:  # type: ignore[attr-defined]
                return s.scalar(select(RoomRow.rematch).where(RoomRow.table_id == table.id)) or ""
            keep_seats(s, new.id, new.reserved)
            return None

        try:
            other = await self.service.committer.write(write)
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached, so no rematch was proposed ({type(err).__name__})") \
                from None
        if other is not None:  # another process recorded a rematch first: this table is not needed
            self.service.tables.pop(new.id, None)
            self._spawn(self._write(functools.partial(write_expired, table_id=new.id)))
            room.rematch, room.rematch_by = await self.service._run(self._stored_rematch, table.id)
            if room.rematch is None:
                raise Conflict("a rematch was proposed at the same moment; try again")
            taken = await self.accept(table.id, None, seat=seat)
            return taken
        room.rematch, room.rematch_by = new.id, seat
        new_seat, new_token = await self.service.join(new.id, seat, table.names[seat])
        await self._claim_copy(table, room, new, seat)
        self._say(table, room, "news", seat, table.who(seat), f"{table.who(seat)} proposes a rematch")
        return {"id": new.id, "seat": new_seat, "token": new_token, "host_token": host}

    def _stored_rematch(self, table_id: str) -> tuple[str | None, int | None]:
        """The rematch recorded for a table (perhaps by another process a moment ago) and its proposer."""
        with self.service.store.session() as s:
            row = s.execute(select(RoomRow.rematch, RoomRow.rematch_by).where(RoomRow.table_id == table_id)).first()
        return (row[0], row[1]) if row is not None else (None, None)

    async def _proposed(self, table: Table, room: Room) -> str:
        """The rematch proposed at ``table`` (read from the database when another process recorded it);
        ``Conflict`` when there is none."""
        if room.rematch is None:
            room.rematch, room.rematch_by = await self.service._run(self._stored_rematch, table.id)
        if room.rematch is None:
            raise Conflict("nobody proposed a rematch at this table")
        return room.rematch

    async def accept(self, table_id: str, token: str | None, seat: int | None = None) -> dict[str, Any]:
        """Take one's seat at the rematch proposed at this table (kept for one until one's time is up)."""
        table, room = await self.room(table_id)
        if seat is None:
            seat = await self.service.seat_for(table, token, required=True)
        assert seat is not None
        new = await self.service.get(await self._proposed(table, room))
        if seat in new.names:
            raise Conflict(f"{new.names[seat]} sits in your seat at the rematch already (it was kept for you "
                           f"{REMATCH_HOLD:.0f} s, unless you declined)")
        new_seat, new_token = await self.service.join(new.id, seat, table.names[seat], kept=True)
        self._spawn(self._write(functools.partial(release_seat, table_id=new.id, seat=seat)))
        await self._claim_copy(table, room, new, seat)
        return {"id": new.id, "seat": new_seat, "token": new_token}

    async def decline(self, table_id: str, token: str | None) -> None:
        """Say no to the proposed rematch: one's kept seat opens to anyone at once."""
        table, room = await self.room(table_id)
        seat = await self.service.seat_for(table, token, required=True)
        assert seat is not None
        rematch = await self._proposed(table, room)
        if room.rematch_by == seat:
            raise Conflict("you proposed this rematch: leave its table instead")
        new = await self.service.get(rematch)
        if seat in new.names:
            raise Conflict("you already took your seat at the rematch: leave its table instead")
        try:
            await self.service.committer.write(functools.partial(release_seat, table_id=new.id, seat=seat))
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached, so your answer was not stored "
                              f"({type(err).__name__})") from None
        new.reserved.pop(seat, None)
        self.service.broadcast(new)
        self._say(table, room, "news", seat, table.who(seat), f"{table.who(seat)} declines the rematch")

    async def _claim_copy(self, table: Table, room: Room, new: Table, seat: int) -> None:
        player = room.claims.get(seat)
        if player is not None:
            await self._claim(new, seat, player)

    # ----- identity ------------------------------------------------------------------

    async def _claim(self, table: Table, seat: int, player: str) -> None:
        """Link ``seat`` to ``player``: one player, one seat per table (409 for a second one).

        The check is made again inside the write's transaction, against the stored claims,
        so that two requests at once (or two processes) cannot give one code two seats.
        """
        _table, room = await self.room(table.id)
        if room.claims.get(seat) == player:
            return
        other = next((s for s, p in room.claims.items() if p == player and s != seat), None)
        if other is not None:
            raise self._second_seat(table, other)

        def write(s: Session) -> None:
            held = s.scalar(select(ClaimRow.seat).where(ClaimRow.table_id == table.id, ClaimRow.player_id == player,
                                                        ClaimRow.seat != seat).limit(1))
            if held is not None:
                raise self._second_seat(table, held)
            s.execute(delete(ClaimRow).where(ClaimRow.table_id == table.id, ClaimRow.seat == seat))
            s.add(ClaimRow(table_id=table.id, seat=seat, player_id=player))

        await self.service.committer.write(write)
        room.claims[seat] = player

    async def link(self, table: Table, seat: int, player: str) -> None:
        """Link a seat the server filled itself (a club event's table, ``tourney.py``) to its player's id:
        their ratings, "My games" and resuming on any device follow, as after a claim."""
        await self._claim(table, seat, player)

    @staticmethod
    def _second_seat(table: Table, held: int) -> Conflict:
        return Conflict(f"this player code already plays {table.who(held)}'s seat at this table: one code, "
                        "one seat (a game against yourself would count for nobody)")

    async def register(self, name: Any) -> dict[str, str]:
        """A new player: a name and a fresh secret code (the browser keeps it)."""
        name = clean_name(name)
        code = new_code()
        pid = player_id(code)
        await self.service.committer.write(lambda s: s.add(PlayerRow(id=pid, name=name)))
        return {"code": code, "name": name}

    def player(self, code: str | None) -> tuple[str, str]:
        """The player id and name of a player code (X-Player), for routes outside this module
        (notices.py); 401 without a code, 403 for a code nobody has."""
        return self._player(code)

    def _player(self, code: str | None) -> tuple[str, str]:
        if not code:
            raise Unauthorized("a player code is required (header X-Player): POST /api/players makes one")
        pid = player_id(code)
        with self.service.store.session() as s:
            row = s.get(PlayerRow, pid)
        if row is None:
            raise Forbidden("no player has this code")
        return pid, row.name

    async def claim(self, table_id: str, token: str | None, code: str | None) -> None:
        """Record that the player with ``code`` sits at the token's seat (a seat taken a moment ago
        at another process counts: its token is looked up in the database)."""
        table = await self.service.get(table_id)
        seat = await self.service.seat_for(table, token, required=True)
        assert seat is not None
        pid, _name = await self.service._run(self._player, code)
        await self._claim(table, seat, pid)

    async def games(self, code: str | None, address: str) -> dict[str, Any]:
        """The player's tables, newest first: open ones to continue, finished ones to replay."""
        if not self._limiter.hit(self._code_rate, "code", address):
            raise TooManyRequests("too many player codes tried from your address: wait a minute", 60)
        pid, name = await self.service._run(self._player, code)

        def read() -> list[tuple[TableRow, int]]:
            with self.service.store.session() as s:
                rows = s.execute(select(TableRow, ClaimRow.seat).join(ClaimRow, ClaimRow.table_id == TableRow.id)
                                 .where(ClaimRow.player_id == pid).order_by(TableRow.created.desc()).limit(200))
                return [(t, seat) for t, seat in rows]

        out = [{"id": row.id, "game": row.game, "players": row.players, "seat": seat, "created": row.created,
                "is_over": row.is_over, "expired": row.expired, **self._turn_facts(row.id, seat)}
               for row, seat in await self.service._run(read)]
        # where the player is to move first, the nearest deadline first; then the rest, newest first
        out.sort(key=lambda t: (not t["your_turn"], t["deadline"] if t["your_turn"] and t["deadline"] else math.inf))
        return {"name": name, "tables": out}

    def _turn_facts(self, table_id: str, seat: int) -> dict[str, Any]:
        """Whether it is ``seat``'s turn at a table and how long it has: "My games" lists those first.

        ``your_turn``: the game waits for this player's own decision (not over, started, not
        between hands, no bot playing the seat). ``deadline`` and ``left`` (seconds, the
        server's clock) are the clock of that decision, null without one.
        """
        table = self.service.tables.get(table_id)
        room = self.rooms.get(table_id)
        facts: dict[str, Any] = {"your_turn": False, "deadline": None, "left": None,
                                 "turn_based": room is not None and self.turn_based(room)}
        if table is None or table.game is None or table.game.is_over or table.held or table.hold is not None:
            return facts
        if table.game.current_player != seat or seat in table.bots:
            return facts
        facts["your_turn"] = True
        if room is not None and room.deadline is not None:
            facts["deadline"] = room.deadline
            facts["left"] = round(max(0.0, room.deadline - self.clock.now()), 3)
        return facts

    async def resume(self, table_id: str, code: str | None, address: str) -> dict[str, Any]:
        """A new token for the player's seat at a table (another device): the code is the key."""
        if not self._limiter.hit(self._code_rate, "code", address):
            raise TooManyRequests("too many player codes tried from your address: wait a minute", 60)
        table, room = await self.room(table_id)
        pid, _name = await self.service._run(self._player, code)
        seats = [s for s, p in room.claims.items() if p == pid]
        if not seats:
            raise Forbidden("this player has no seat at this table")
        return {"seat": seats[0], "token": await self.new_key(table, seats[0])}

    async def new_key(self, table: Table, seat: int) -> str:
        """A further token of ``seat``, stored (its hash) before it is handed out: a player continuing
        on another device, or a club event's entrant opening their table (``tourney.py``)."""
        token = secrets.token_urlsafe(24)
        await self.service.committer.write(lambda s: s.add(KeyRow(token_hash=hash_token(token), table_id=table.id,
                                                                  seat=seat)))
        table.tokens[hash_token(token)] = seat
        return token

    # ----- ratings -------------------------------------------------------------------

    async def _rate(self, table: Table, room: Room) -> None:
        try:
            said = await self.service._run(self._rate_sync, table, room)
        except IntegrityError:
            return  # another server process counted this table at the same moment
        except Exception:
            log.exception("table %s: ratings not updated", table.id)
            return
        for text in said:
            self._say(table, room, "news", None, "", text)
        if said or room.ratings:
            self.push(table, room)

    @staticmethod
    def _plays(db: Session, table: Table) -> tuple[list[rating.SeatPlay], list[int]]:
        """Who made each seat's decisions, from the stored actions and stand-in records, and the
        seats that resigned in the order they did (stored, so another process's count too)."""
        moves = dict(db.execute(select(ActionRow.seat, func.count()).where(ActionRow.table_id == table.id)
                                .group_by(ActionRow.seat)).all())
        marks = list(db.execute(select(StandinRow.seat, StandinRow.number, StandinRow.kind)
                                .where(StandinRow.table_id == table.id).order_by(StandinRow.id)))
        resigned_at: dict[int, int] = {}
        for seat, number, kind in marks:
            if kind == "resign" and seat not in resigned_at:
                resigned_at[seat] = number
        plays = []
        for s, kind in enumerate(table.seats):
            by_bot = [n for seat, n, k in marks if seat == s and k != "resign"]
            before = [n for n in by_bot if n < resigned_at.get(s, math.inf)]
            plays.append(rating.SeatPlay(human=kind == "human", own=moves.get(s, 0) - len(by_bot),
                                         standin=len(before), resigned=s in resigned_at))
        return plays, list(resigned_at)

    def _rate_sync(self, table: Table, room: Room) -> list[str]:
        """Count a finished (or decided) game once in the ratings, by the rules of ``rating.py``.

        Returns what the table's log should say about it: why it is not rated, or for whom
        it is not. A game with a human seat linked to no player is not rated (nobody to
        credit) and says nothing, as before.
        """
        from openskill.models import BradleyTerryFull

        names = {s: table.who(s) for s in range(table.players)}
        model = BradleyTerryFull()
        with self.service.store.session() as db:
            # the stored claims: a seat may have been claimed at another server process
            claims = dict(db.execute(select(ClaimRow.seat, ClaimRow.player_id)
                                     .where(ClaimRow.table_id == table.id)).all())
            who: list[tuple[str, str]] = []
            for s, kind in enumerate(table.seats):
                if kind.startswith("bot:"):
                    who.append((kind, kind[4:] + " bot"))
                elif s in claims:
                    who.append((claims[s], table.names.get(s, "?")))
                else:
                    return []
            # bot accounts among themselves count on the bots' board (rating.board_keys)
            who = list(zip(rating.board_keys([k for k, _ in who]), [n for _, n in who], strict=True))
            if db.get(RatedRow, table.id) is not None:
                return []
            db.add(RatedRow(table_id=table.id))
            humans = [claims[s] for s, kind in enumerate(table.seats) if kind == "human"]
            if len(set(humans)) < len(humans):
                return ["this game is not rated: one player held several seats"]
            plays, resigned = self._plays(db, table)
            verdict = rating.judge(plays, names)
            if verdict.aborted:
                return [verdict.reason]
            rows: dict[str, RatingRow] = {}
            for key, name in who:
                row = rows.get(key) or db.get(RatingRow, (table.game_id, table.players, key))
                if row is None:  # stored only if this game rates it
                    row = RatingRow(game=table.game_id, players=table.players, who=key, name=name,
                                    mu=model.mu, sigma=model.sigma, games=0)
                rows[key] = row
            groups = self.sides(table)
            teams = [[model.rating(mu=rows[who[s][0]].mu, sigma=rows[who[s][0]].sigma) for s in g] for g in groups]
            info = boneyard.game_info(table.game_id)
            order = rating.ranks(groups, list(table.game.scores), list(table.game.winners),
                                 bool(info.get("lower_is_better")), resigned)
            new = model.rate(teams, ranks=[float(r) for r in order])
            changes: dict[str, list[tuple[float, float]]] = {}
            for g, team in zip(groups, new, strict=True):
                for s_, r in zip(g, team, strict=True):
                    if s_ in verdict.rated:
                        changes.setdefault(who[s_][0], []).append((float(r.mu), float(r.sigma)))
            for key, seat_changes in changes.items():
                row = rows[key]
                row.mu, row.sigma = rating.combine(seat_changes)
                row.games += 1
                db.add(row)
                row.name = next(name for k, name in who if k == key)
            ratings = {s_: self._shown(rows[who[s_][0]]) for s_ in verdict.rated}
        room.ratings = ratings  # once committed
        return list(verdict.unrated.values())

    @staticmethod
    def _shown(row: RatingRow) -> dict[str, Any]:
        """A rating as the API shows it: openskill's numbers, and the rating players read."""
        return {"mu": round(row.mu, 2), "sigma": round(row.sigma, 2),
                "ordinal": round(rating.ordinal(row.mu, row.sigma), 2), "rating": rating.shown(row.mu, row.sigma),
                "provisional": rating.provisional(row.games)}

    def history(self, game: str | None, limit: int = 50) -> list[dict[str, Any]]:
        """Finished tables (not expired), newest first, with who sat where: the lobby's history."""
        from .db import SeatRow

        with self.service.store.session() as s:
            query = select(TableRow).where(TableRow.is_over.is_(True), TableRow.expired.is_(False))
            if game:
                query = query.where(TableRow.game == game)
            rows = list(s.scalars(query.order_by(TableRow.created.desc()).limit(limit)))
            names: dict[tuple[str, int], str] = {}
            finished: dict[str, float] = {}
            if rows:
                ids = [r.id for r in rows]
                for seat in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids))):
                    names[(seat.table_id, seat.seat)] = seat.name
                last = select(ActionRow.table_id, func.max(ActionRow.at)).where(ActionRow.table_id.in_(ids))
                finished = {t: float(at) for t, at in s.execute(last.group_by(ActionRow.table_id)) if at is not None}
        out = []
        for r in rows:
            seats = [names.get((r.id, i)) or (k[4:] + " bot" if k.startswith("bot:") else "nobody")
                     for i, k in enumerate(r.seats)]
            won = self._winners_of(r)
            out.append({"id": r.id, "game": r.game, "players": r.players, "seats": seats, "created": r.created,
                        "fixed_deal": r.fixed_deal, "finished": finished.get(r.id),
                        "winners": None if won is None else [seats[w] for w in won if 0 <= w < len(seats)]})
        return out

    def _winners_of(self, row: TableRow) -> list[int] | None:
        """A finished table's winning seats: the live game's, else its stored record replayed (kept once known).

        ``None`` when the record no longer replays (a quarantined table): the lobby then
        names no winner rather than a wrong one.
        """
        if row.id in self._winners:
            return self._winners[row.id]
        live = self.service.tables.get(row.id)
        won: list[int] | None
        if live is not None and live.game.is_over:
            won = [int(w) for w in live.game.winners]
        else:
            record: dict[str, Any] = {"game": row.game, "players": row.players, "seed": int(row.seed),
                                      "rules": dict(row.rules),
                                      "actions": [a for a, _ in self.service.store.actions(row.id)]}
            if row.deck is not None:
                record["deck"] = row.deck
            if row.dealer is not None:
                record["dealer"] = row.dealer
            try:
                game = boneyard.replay(record)
            except Exception:  # a record that no longer replays: no winner named
                return None
            if not game.is_over:
                return None
            won = [int(w) for w in game.winners]
        if len(self._winners) >= WINNERS_KEPT:
            self._winners.pop(next(iter(self._winners)))
        self._winners[row.id] = won
        return won

    def leaderboard(self, game: str, players: int | None, bots: bool = False) -> list[dict[str, Any]]:
        """Everyone rated at ``game``, best first by ``mu - 3 sigma``: one board per player count.

        ``players`` picks a board; without it every board's rows come together (each says
        its ``players`` and ``board``), as the endpoint always answered. ``bots`` gives the
        bots' board instead: bot accounts rated on their games among themselves.
        """
        if game not in boneyard.games():
            raise NotFound(f"unknown game {quote(game)}; known games: {', '.join(boneyard.games())}")
        with self.service.store.session() as s:
            query = select(RatingRow).where(RatingRow.game == game)
            if players is not None:
                query = query.where(RatingRow.players == players)
            rows = [r for r in s.scalars(query) if r.who.startswith(rating.BOTS_BOARD) == bots]
        out: list[dict[str, Any]] = [
            {"name": r.name, "bot": r.who.startswith(("bot:", rating.BOT_ACCOUNT, rating.BOTS_BOARD)),
             "account": "bot" if r.who.startswith((rating.BOT_ACCOUNT, rating.BOTS_BOARD)) else None,
             "players": r.players, "games": r.games,
             "board": rating.board_label(r.players), **self._shown(r)} for r in rows]
        out.sort(key=lambda r: r["ordinal"], reverse=True)
        return out


def busiest(rows: list[dict[str, Any]], default: int) -> int:
    """The board a leaderboard page opens on: the player count with the most rated names (the
    game's usual count when none has more), so that a link without ``?players`` shows players."""
    sizes: dict[int, int] = {}
    for r in rows:
        sizes[r["players"]] = sizes.get(r["players"], 0) + 1
    return max(sizes, key=lambda n: (sizes[n], n == default, -n)) if sizes else default


def leaderboard_html(game_id: str, board: int, rows: list[dict[str, Any]], bots: bool = False) -> str:
    """The leaderboard page of one game and player count: the board, the other boards, the rules.

    ``bots``: the bots' board (bot accounts' games among themselves) instead of the people's.
    """
    info = boneyard.game_info(game_id)
    name = html.escape(info["name"])
    label = rating.board_label(board) + (", bots" if bots else "")
    suffix = "&board=bots" if bots else ""
    body = "".join(
        f"<tr><td>{i}</td><td>{html.escape(r['name'])}{' <span class=badge>bot</span>' if r['bot'] else ''}</td>"
        f"<td>{r['games']}</td>"
        f"<td>{r['rating']}{' <small class=muted>provisional</small>' if r['provisional'] else ''}</td>"
        f"<td>{r['mu']:.1f} ± {r['sigma']:.1f}</td></tr>"
        for i, r in enumerate(rows, 1))
    empty = "" if rows else f"<p>No rated {label} games yet.</p>"
    boards = " · ".join(
        f"<strong aria-current=page>{rating.board_label(n)}</strong>" if n == board else
        f"<a href='/leaderboard/{game_id}?players={n}{suffix}'>{rating.board_label(n)}</a>"
        for n in range(info["players"]["min"], info["players"]["max"] + 1))
    kinds = (f"<a href='/leaderboard/{game_id}?players={board}'>People (and bots playing them)</a> · "
             "<strong aria-current=page>Bots' board</strong> (bot accounts among themselves)" if bots else
             "<strong aria-current=page>People (and bots playing them)</strong> · "
             f"<a href='/leaderboard/{game_id}?players={board}&board=bots'>Bots' board</a>")
    rules = "".join(f"<li>{html.escape(line)}</li>" for line in rating.rules_text())
    others = " · ".join(f"<a href='/leaderboard/{g}'>{html.escape(boneyard.game_info(g)['name'])}</a>"
                        for g in boneyard.games() if g != game_id)
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport content='width=device-width,"
        f"initial-scale=1'><title>{name} leaderboard, {label} — boneyard</title>"
        "<link rel=manifest href='/manifest.webmanifest'><link rel=stylesheet href='/static/app.css'>"
        "<link rel=stylesheet href='/static/friends/friends.css'></head><body class=me-page>"
        f"<header class=top><a href='/' class=home>boneyard</a><h1>{name}: leaderboard, {label}</h1></header>"
        f"<main><nav id=boards aria-label='Player count'><p class=fr-nav>Boards: {boards}</p>"
        f"<p class=fr-nav id=board-kind>{kinds}</p></nav>{empty}"
        "<div class=scroll-x><table class=list id=leaderboard><caption>" + label + "</caption>"
        "<thead><tr><th>#</th><th>Player</th><th>Games</th><th>Rating</th><th>Skill (μ ± σ)</th></tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
        f"<section id=rating-rules><h2>How games are rated</h2><ul>{rules}</ul></section>"
        f"<p class=fr-nav>Other games: {others}</p></main></body></html>")


def _entry(kind: str, seat: int | None, name: str, text: str, at: float) -> dict[str, Any]:
    return {"kind": kind, "seat": seat, "name": name, "text": text, "at": round(at, 3)}


# ----- routes --------------------------------------------------------------------------


class StartBody(BaseModel):
    """``POST .../start``: the bot that takes every empty seat."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat
    bot: str = Field(default="greedy", max_length=40)


class SeatBody(BaseModel):
    """``POST .../standin``: a seat, and the bot to play it (null: give it back to its player)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat
    seat: int = Field(ge=0, le=64)
    bot: str | None = Field(default=None, max_length=40)


class ChatBody(BaseModel):
    """``POST .../chat``: one message."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat
    text: str = Field(max_length=2000)


class PlayerBody(BaseModel):
    """``POST /api/players``: the new player's name."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat
    name: str = Field(max_length=400)


def _bearer(authorization: str | None) -> str | None:
    from .app import bearer

    return bearer(authorization)


def router(social: Social) -> APIRouter:
    """The friends' routes (``docs/api.md``, "Friends")."""
    r = APIRouter(tags=["friends"])

    @r.get("/api/config")
    async def config() -> dict[str, Any]:
        """The server's public address (``--public-url``; empty: the address the page was opened at)."""
        return {"public_url": social.public_url}

    @r.get("/api/tables/{table_id}/friends")
    async def room_view(table_id: str) -> dict[str, Any]:
        """Seats with presence, the log with chat, the clock and any rematch: what the friends socket pushes."""
        table, room = await social.room(table_id)
        return social.view(table, room)

    @r.get("/api/history")
    async def history(game: str | None = Query(default=None, max_length=40)) -> list[dict[str, Any]]:
        """Finished tables, newest first (at most 50): the lobby's history, with replay links."""
        if game is not None and game not in boneyard.games():
            raise BadRequest(f"unknown game {quote(game)}; known games: {', '.join(boneyard.games())}")
        return await social.service._run(social.history, game)

    @r.post("/api/tables/{table_id}/start")
    async def start(table_id: str, body: StartBody, x_host_token: str | None = Header(default=None)) -> dict[str, Any]:
        """The host starts a waiting table; empty seats get ``bot``."""
        await social.start(table_id, x_host_token, body.bot)
        return {"started": True}

    @r.post("/api/tables/{table_id}/standin")
    async def standin(table_id: str, body: SeatBody, x_host_token: str | None = Header(default=None),
                      authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Hand a seat to a bot or back to its player: the host for any seat, a player for their own."""
        await social.standin(table_id, body.seat, body.bot, x_host_token, _bearer(authorization))
        return {"seat": body.seat, "bot": body.bot}

    @r.post("/api/tables/{table_id}/chat")
    async def chat(table_id: str, body: ChatBody, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Say something at the table (seated players; everyone watching reads it)."""
        await social.chat(table_id, _bearer(authorization), body.text)
        return {"ok": True}

    @r.post("/api/tables/{table_id}/resign")
    async def resign(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Resign for good: a bot plays the seat to the end and the player ranks last (``docs/api.md``)."""
        await social.resign(table_id, _bearer(authorization))
        return {"resigned": True}

    @r.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Propose the same game again: answers the new table, the proposer's seat token and host token."""
        return await social.rematch(table_id, _bearer(authorization))

    @r.post("/api/tables/{table_id}/rematch/decline")
    async def decline(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Say no to the proposed rematch: the seat kept for you opens to anyone."""
        await social.decline(table_id, _bearer(authorization))
        return {"ok": True}

    @r.post("/api/tables/{table_id}/rematch/accept")
    async def accept(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Take one's seat at the proposed rematch: answers its id, the seat and its token."""
        return await social.accept(table_id, _bearer(authorization))

    @r.post("/api/players", status_code=201)
    async def register(body: PlayerBody) -> dict[str, str]:
        """A new player: answers the secret code the browser keeps (and shows, to continue elsewhere)."""
        return await social.register(body.name)

    @r.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, authorization: str | None = Header(default=None),
                    x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Link the token's seat to the player (X-Player: their code), for "my games" and ratings."""
        await social.claim(table_id, _bearer(authorization), x_player)
        return {"ok": True}

    @r.post("/api/tables/{table_id}/resume")
    async def resume(table_id: str, request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """A fresh seat token for the player's seat at this table (continuing on another device)."""
        return await social.resume(table_id, x_player, request.client.host if request.client else "unknown")

    @r.get("/api/players/me/tables")
    async def my_tables(request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """The player's open and finished tables, newest first."""
        return await social.games(x_player, request.client.host if request.client else "unknown")

    @r.get("/api/games/{game_id}/leaderboard")
    async def leaderboard(game_id: str, players: int | None = Query(default=None, ge=1, le=64),
                          board: str | None = Query(default=None, pattern="^(people|bots)$")) -> list[dict[str, Any]]:
        """Ratings at a game (best first by mu - 3 sigma, one board per ``players``); bots on the same scale.

        ``board=bots``: the bots' board, bot accounts rated on their games among themselves.
        """
        return await social.service._run(social.leaderboard, game_id, players, board == "bots")

    @r.get("/leaderboard/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def leaderboard_page(game_id: str, players: int | None = Query(default=None, ge=1, le=64),
                               board: str | None = Query(default=None, pattern="^(people|bots)$")) -> HTMLResponse:
        """One board of a game (``?players=N``, by default the game's usual count), a selector of
        the others and the rules of the ratings."""
        if game_id not in boneyard.games():
            raise NotFound(f"unknown game {quote(game_id)}; known games: {', '.join(boneyard.games())}")
        info = boneyard.game_info(game_id)
        counts = range(info["players"]["min"], info["players"]["max"] + 1)
        if players is not None and players not in counts:
            raise BadRequest(f"{info['name']} is played by {counts[0]} to {counts[-1]} players, not {players}")
        bots = board == "bots"
        rows = await social.service._run(social.leaderboard, game_id, None, bots)
        count = players if players is not None else busiest(rows, info["players"]["default"])
        return HTMLResponse(leaderboard_html(game_id, count, [r for r in rows if r["players"] == count], bots))

    @r.get("/me", response_class=HTMLResponse, include_in_schema=False)
    async def my_games_page() -> HTMLResponse:
        from .app import STATIC

        return HTMLResponse(STATIC.joinpath("friends", "me.html").read_text(encoding="utf-8"))

    @r.websocket("/ws/friends/{table_id}")
    async def friends_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes the room (presence, log, seats, clock, rematch) on connect and on every change."""
        from .app import _close_reason, _drain

        await websocket.accept()
        try:
            table, room = await social.room(table_id)
            seat = social.service.seat_of(table, token, required=False)
        except Exception as err:
            status = getattr(err, "status", 503 if isinstance(err, STORE_ERRORS) else 500)
            await websocket.close(code=4000 + status, reason=_close_reason(str(err)))
            return
        sub = Subscriber(seat, websocket.send_text)
        key = id(sub)
        room.listeners[key] = sub
        social.arrive(table, room, seat)
        tasks = [asyncio.ensure_future(sub.run()), asyncio.ensure_future(_drain(websocket)),
                 asyncio.ensure_future(sub.too_slow.wait())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            room.listeners.pop(key, None)
            social.depart(table, room, seat)
            for task in tasks:
                task.cancel()

    return r
